#include "codegen/hip_sources.hpp"

#include <fmt/format.h>

#include <bit>
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

std::string gemm_hip_source() { return inline_codegen_headers(embedded::kGemmMfma); }

std::vector<std::string> gemm_hip_flags(const GemmPlan& p) {
  const GemmShape& s = p.shape;
  std::vector<std::pair<const char*, int64_t>> d = {
      {"M", s.M}, {"N", s.N}, {"K", s.K}, {"TA", gemm_a_k_rows(s.layout)}, {"NN", gemm_b_k_rows(s.layout)}, {"TM", p.cfg.tile_m},
      {"TN", p.cfg.tile_n}, {"TK", p.cfg.tile_k}, {"WM", p.cfg.waves_m}, {"WN", p.cfg.waves_n}, {"MB", p.mfma.m},
      {"ARCH950", p.arch == Arch::gfx950}, {"OUTF32", s.output == GemmOutput::f32},
      {"OUTF16", s.output == GemmOutput::f16}, {"F16", s.dtype == GemmDType::f16},
      {"BIAS", s.bias == GemmBias::col}, {"ACT", int(s.act)},
      {"ACT_S_BITS", std::bit_cast<uint32_t>(kSiluScale)}, {"ACT_A_BITS", std::bit_cast<uint32_t>(kGeluTanhA)},
      {"ACT_B_BITS", std::bit_cast<uint32_t>(kGeluTanhB)},
      {"FP8", !gemm_dtype_is_fp8(s.dtype) ? 0 : s.dtype == GemmDType::e4m3 ? 1 : 2},
      {"ALPHA_BITS", std::bit_cast<uint32_t>(s.alpha)}, {"BETA_BITS", std::bit_cast<uint32_t>(s.beta)},
      {"SPLIT", p.cfg.split_k}, {"SKG", p.sk_groups}, {"SKPER", p.sk_per}};
  std::vector<std::string> f;
  for (auto [n, v] : d) f.push_back(fmt::format("-DGM_{}={}", n, v));
  return f;
}

std::string gemm_mx_hip_source() { return inline_codegen_headers(embedded::kGemmMx); }

std::vector<std::string> gemm_mx_hip_flags(const GemmMxPlan& p) {
  const GemmMxShape& s = p.shape;
  const std::vector<std::pair<const char*, int64_t>> d = {
      {"M", s.M}, {"N", s.N}, {"K", s.K}, {"TM", p.cfg.tile_m}, {"TN", p.cfg.tile_n}, {"WM", p.cfg.waves_m},
      {"WN", p.cfg.waves_n}, {"MB", p.cfg.mfma_m}, {"FMT", int(s.format)}, {"OUTF32", s.output == GemmMxOutput::f32},
      {"SKM", s.scales == GemmMxScaleLayout::km}};
  std::vector<std::string> f;
  for (auto [n, v] : d) f.push_back(fmt::format("-DMX_{}={}", n, v));
  return f;
}

std::string conv3d_igemm_hip_source() { return inline_codegen_headers(embedded::kConv3dIgemmMfma); }
std::string conv3d_direct_hip_source() { return inline_codegen_headers(embedded::kConv3dDirect); }

std::vector<std::string> conv3d_hip_flags(const Conv3dPlan& p) {
  const Conv3dShape& s = p.shape;
  int mfma = (p.dtype == Conv3dDType::fp8 ? 2 : 0) + (p.arch == Arch::gfx950 ? 1 : 0);
  std::vector<std::pair<const char*, int64_t>> d = {
      {"N", s.N}, {"C", s.C}, {"D", s.D}, {"H", s.H}, {"W", s.W}, {"K", s.K}, {"T", s.T}, {"R", s.R}, {"S", s.S},
      {"SD", s.stride[0]}, {"SH", s.stride[1]}, {"SW", s.stride[2]}, {"PD", s.pad[0]}, {"PH", s.pad[1]},
      {"PW", s.pad[2]}, {"DD", s.dil[0]}, {"DH", s.dil[1]}, {"DW", s.dil[2]}, {"CP", p.Cp}, {"KDIM", p.kdim},
      {"KDIMP", p.kdim_padded}, {"ES", p.esize}, {"TM", p.cfg.tile_m}, {"TN", p.cfg.tile_n}, {"TK", p.cfg.tile_k},
      {"WM", p.cfg.waves_m}, {"WN", p.cfg.waves_n}, {"TPS", p.tiles_per_split}, {"KTILES", p.k_tiles},
      {"MFASTEST", p.cfg.mapping == Conv3dMapping::m_fastest}, {"BIAS", s.bias}, {"SPLIT", p.uses_workspace()},
      {"OUTF32", p.output == Conv3dOutput::f32}, {"MFMA", mfma}, {"MB", p.mfma.m}};
  std::vector<std::string> f;
  for (auto [n, v] : d) f.push_back(fmt::format("-DCV_{}={}", n, v));
  return f;
}

std::string bwd_weight_hip_source() { return inline_codegen_headers(embedded::kConvBwdWeight); }
std::string bwd_weight_plain_hip_source() { return inline_codegen_headers(embedded::kConvBwdWeightPlain); }

Dim3 bwd_weight_plain_grid(const BwdWeightShape& s) { return Dim3{uint32_t((s.dw_elems() + 255) / 256), 1, 1}; }

std::vector<std::string> bwd_weight_hip_flags(const BwdWeightShape& s, Arch arch, const BwdWeightConfig& cfg) {
  s.validate();
  const int mk = arch == Arch::gfx950 ? 32 : 16;
  const int64_t all_tiles = (s.gemm_k() + kBwdTileK - 1) / kBwdTileK;
  const int64_t splits = cfg.effective_splits(s);
  const int64_t k_tiles = (all_tiles + splits - 1) / splits;  // per split, as the JIT kernel
  std::vector<std::pair<const char*, int64_t>> d = {
      {"N", s.N},          {"G", s.G},          {"C", s.C},        {"K", s.K},        {"HI", s.Hi},
      {"WI", s.Wi},        {"Y", s.Y},          {"X", s.X},        {"SH", s.stride[0]}, {"SW", s.stride[1]},
      {"PH", s.pad[0]},    {"PW", s.pad[1]},    {"DH", s.dil[0]},  {"DW", s.dil[1]},
      {"DI", s.Di},        {"Z", s.Z},          {"SD", s.stride_d}, {"PD", s.pad_d}, {"DD", s.dil_d},
      {"KSTEPS", k_tiles * (kBwdTileK / mk)}, {"MFMA", arch == Arch::gfx950 ? 1 : 0}, {"SPLITS", splits},
      {"F16", cfg.dtype == BwdWeightDType::f16}, {"OUTF32", cfg.out_f32},
  };
  std::vector<std::string> f;
  for (auto [name, v] : d) f.push_back(fmt::format("-DBW_{}={}", name, v));
  return f;
}

Dim3 bwd_weight_hip_grid(const BwdWeightShape& s) {
  return Dim3{uint32_t((s.gemm_n() + 15) / 16), uint32_t((s.K + 15) / 16), uint32_t(s.G)};
}

}  // namespace cdnajit::codegen
