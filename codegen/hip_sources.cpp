#include "codegen/hip_sources.hpp"

#include <fmt/format.h>

#include <utility>

#include "codegen/hip_sources_embedded.hpp"

namespace cdnajit::codegen {

std::string inline_codegen_headers(std::string_view source) {
  // The headers of codegen/hip/ the sources include, with their embedded text.
  static constexpr std::pair<std::string_view, std::string_view> kHeaders[] = {
      {"codegen_hip_prelude.h", embedded::kPrelude},
      {"dwconv3d_v97_common.h", embedded::kDwconv3dV97Common},  // V97 and V97-sgb's shared part
  };
  std::string text(source);
  for (const auto& [header, header_text] : kHeaders) {
    const std::string include_line = fmt::format("#include \"{}\"", header);
    size_t at = text.find(include_line);
    if (at != std::string::npos) text.replace(at, include_line.size(), std::string(header_text));
  }
  return text;
}

std::string dwconv3d_hip_source(HipReference r) {
  return inline_codegen_headers(r == HipReference::v97       ? embedded::kDwconv3dV97
                                : r == HipReference::v97_sgb ? embedded::kDwconv3dV97Sgb
                                                             : embedded::kDwconv3dNaive);
}

std::vector<std::string> dwconv3d_hip_flags(const DwConvShape& s, HipReference r) {
  std::vector<std::string> f = {
      fmt::format("-DDW_N={}", s.N),     fmt::format("-DDW_C={}", s.C),     fmt::format("-DDW_D={}", s.D),
      fmt::format("-DDW_H={}", s.H),     fmt::format("-DDW_W={}", s.W),     fmt::format("-DDW_KD={}", s.KD),
      fmt::format("-DDW_KH={}", s.KH),   fmt::format("-DDW_KW={}", s.KW),   fmt::format("-DDW_PD={}", s.padD),
      fmt::format("-DDW_PH={}", s.padH), fmt::format("-DDW_PW={}", s.padW),
  };
  if (dwconv3d_hip_is_v97_family(r)) f.push_back("-fno-slp-vectorize");
  return f;
}

const char* dwconv3d_hip_kernel_name(HipReference r) {
  switch (r) {
    case HipReference::v97: return "dwconv3d_v97";
    case HipReference::naive: return "dwconv3d_naive";
    case HipReference::v97_sgb: return "dwconv3d_v97_sgb";
  }
  return "?";
}

const char* dwconv3d_hip_seed_kernel(HipReference r) {
  switch (r) {
    case HipReference::v97: return "V97-origin";
    case HipReference::naive: return "naive (one thread per output)";
    case HipReference::v97_sgb: return "V97-sgb";
  }
  return "?";
}

bool dwconv3d_hip_is_v97_family(HipReference r) { return r == HipReference::v97 || r == HipReference::v97_sgb; }

uint32_t dwconv3d_hip_grid(const DwConvShape& s, HipReference r) {
  if (dwconv3d_hip_is_v97_family(r)) return uint32_t(s.N * s.C * s.D_out());
  return uint32_t((s.output_elems() + 255) / 256);
}

}  // namespace cdnajit::codegen
