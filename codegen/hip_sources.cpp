#include "codegen/hip_sources.hpp"

#include <fmt/format.h>

#include "codegen/hip_sources_embedded.hpp"

namespace cdnajit::codegen {

std::string dwconv3d_hip_source(HipReference r) {
  std::string text(r == HipReference::v97 ? embedded::kDwconv3dV97 : embedded::kDwconv3dNaive);
  const std::string include_line = "#include \"codegen_hip_prelude.h\"";
  size_t at = text.find(include_line);
  if (at != std::string::npos) text.replace(at, include_line.size(), std::string(embedded::kPrelude));
  return text;
}

std::vector<std::string> dwconv3d_hip_flags(const DwConvShape& s, HipReference r) {
  std::vector<std::string> f = {
      fmt::format("-DDW_N={}", s.N),     fmt::format("-DDW_C={}", s.C),     fmt::format("-DDW_D={}", s.D),
      fmt::format("-DDW_H={}", s.H),     fmt::format("-DDW_W={}", s.W),     fmt::format("-DDW_KD={}", s.KD),
      fmt::format("-DDW_KH={}", s.KH),   fmt::format("-DDW_KW={}", s.KW),   fmt::format("-DDW_PD={}", s.padD),
      fmt::format("-DDW_PH={}", s.padH), fmt::format("-DDW_PW={}", s.padW),
  };
  if (r == HipReference::v97) f.push_back("-fno-slp-vectorize");
  return f;
}

const char* dwconv3d_hip_kernel_name(HipReference r) {
  return r == HipReference::v97 ? "dwconv3d_v97" : "dwconv3d_naive";
}

uint32_t dwconv3d_hip_grid(const DwConvShape& s, HipReference r) {
  if (r == HipReference::v97) return uint32_t(s.N * s.C * s.D_out());
  return uint32_t((s.output_elems() + 255) / 256);
}

}  // namespace cdnajit::codegen
