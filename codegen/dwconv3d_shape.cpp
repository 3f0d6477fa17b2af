#include "codegen/dwconv3d_shape.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/dwconv_mfma.hpp"
#include "jit/isa/error.hpp"

namespace cdnajit::codegen {

std::string DwConvShape::str() const {
  return fmt::format("N{} C{} D{} H{} W{} k{}x{}x{} pad{},{},{}", N, C, D, H, W, KD, KH, KW, padD, padH,
                     padW);
}

DwConvShape seed_shape() {
  DwConvShape s;
  s.N = 1; s.C = 512; s.D = 61; s.H = 45; s.W = 80;
  s.KD = 3; s.KH = 5; s.KW = 5;
  s.padD = 0; s.padH = 2; s.padW = 2;
  return s;
}

namespace {
using A = DwArithmetic;
using S = DwSchedule;
constexpr DwMapping kSeedJit = DwMapping::wave_rows;
// Seed kernel names follow the seed's depthwise conv3d optimisation trajectory
// (its Phases 2, 9, 10, 11 and 12c).
constexpr DwVariantInfo kVariants[] = {
    {DwVariant::lds_fmac, "lds_fmac", A::fmac, S::batched, 2, false, "V97-origin",
     "V97: fp32 weights, all ds_read_b32 then one wait, v_fmac_f32"},
    {DwVariant::lds_dot2, "lds_dot2", A::dot2, S::batched, 2, false, "JIT-dot2",
     "bf16 weight pairs, v_dot2_f32_bf16 + v_alignbit_b32, all reads then one wait", kSeedJit},
    {DwVariant::row_interleaved, "row_interleaved", A::dot2_where_able, S::row_wait, 2, false, "JIT-dot2-ilv",
     "per filter row: reads, wait lgkmcnt(0), multiply-adds", kSeedJit},
    {DwVariant::lds_dot2_b64, "lds_dot2_b64", A::dot2, S::batched, 2, true, "JIT-dot2-b64",
     "lds_dot2 with ds_read_b64 for dword pairs of a row (8-byte reads at 4-byte-aligned addresses)", kSeedJit},
    {DwVariant::lds_dot2_pipe, "lds_dot2_pipe", A::dot2, S::depth_pipeline, 2, false, "JIT-dot2-pipe",
     "lds_dot2 pipelined by depth slice: slice kd+1's reads in flight during slice kd", kSeedJit},
    {DwVariant::lds_dot2_kwp4, "lds_dot2_kwp4", A::dot2, S::batched, 4, false, "JIT-dot2-kwp4",
     "lds_dot2 with KW_PACK = 4: four adjacent outputs per thread and step", kSeedJit},
    {DwVariant::row_interleaved2, "row_interleaved2", A::dot2_where_able, S::row_lookahead, 2, false,
     "JIT-dot2-ilv2", "row lookahead: row r+1's reads in flight during row r (lgkmcnt(reads per row))", kSeedJit},
    {DwVariant::lds_dot2_sgb, "lds_dot2_sgb", A::dot2, S::sched_groups, 2, false, "JIT-sgb (dot2, V97-sgb schedule)",
     "lds_dot2 written as a read stream and a VALU stream, placed by jit::Interleave in row groups"},
    {DwVariant::lds_fmac_sgb, "lds_fmac_sgb", A::fmac, S::sched_groups, 2, false, "V97-sgb (JIT)",
     "lds_fmac written as a read stream and a VALU stream, placed by jit::Interleave in row groups"},
    {DwVariant::mfma_band, "mfma_band", A::mfma, S::batched, 4, false, "(new: not in the seed)",
     "per channel a banded GEMM on the matrix cores: 16 output columns x 16 rows per MFMA block, K = input "
     "columns of (kd, kh) filter rows, weight band built once per workgroup"},
};
}  // namespace

std::span<const DwVariantInfo> dw_variants() { return kVariants; }

const DwVariantInfo& variant_info(DwVariant v) {
  for (const DwVariantInfo& i : kVariants)
    if (i.id == v) return i;
  throw Error(fmt::format("depthwise conv3d: variant id {} is not in the variant list", int(v)));
}

std::string_view variant_name(DwVariant v) { return variant_info(v).name; }

std::string variant_names() {
  std::string s;
  for (const DwVariantInfo& i : kVariants) s += fmt::format("{}{}", s.empty() ? "" : ", ", i.name);
  return s;
}

DwVariant parse_variant(std::string_view name) {
  for (const DwVariantInfo& i : kVariants)
    if (i.name == name) return i.id;
  throw Error(fmt::format("unknown depthwise conv3d variant '{}': valid are {}", name, variant_names()));
}

std::string_view mapping_name(DwMapping m) { return m == DwMapping::dense ? "dense" : "wave_rows"; }

DwMapping parse_mapping(std::string_view name) {
  for (DwMapping m : {DwMapping::dense, DwMapping::wave_rows})
    if (mapping_name(m) == name) return m;
  throw Error(fmt::format("unknown depthwise conv3d work mapping '{}': valid are dense, wave_rows", name));
}

bool variant_available(DwVariant v, Arch a) {
  return variant_info(v).arithmetic != DwArithmetic::dot2 || a == Arch::gfx950;
}

DwVariant default_variant(Arch a) { return a == Arch::gfx950 ? DwVariant::lds_dot2 : DwVariant::lds_fmac; }

bool uses_dot2(DwVariant v, Arch a) {
  const DwArithmetic ar = variant_info(v).arithmetic;
  return a == Arch::gfx950 && (ar == DwArithmetic::dot2 || ar == DwArithmetic::dot2_where_able);
}

uint32_t lds_limit_bytes(Arch a) { return lds_bytes_per_cu(a); }

namespace {
void check_range(const char* what, int value, int lo, int hi, const char* why = "") {
  if (value < lo || value > hi)
    throw Error(fmt::format("depthwise conv3d: {} = {} is out of range; valid is {}..{}{}", what, value, lo, hi,
                            why));
}
void check_kernel(const char* what, int k) {
  check_range(what, k, 1, 7);
  if (k % 2 == 0)
    throw Error(fmt::format("depthwise conv3d: {} = {} is even; the generators support odd kernel sizes 1, 3, 5, 7",
                            what, k));
}
}  // namespace

DwConvGeometry dwconv_geometry(const DwConvShape& s, Arch a, DwVariant v, DwMapping m) {
  if (v == DwVariant::mfma_band) {
    plan_dwconv_mfma(s, a);  // its own tile, LDS and shape rules (throws the reason)
    return dwconv_geometry(s, a, DwVariant::lds_fmac, m);  // the same V97 grid
  }
  constexpr int kBig = 1 << 20;
  check_range("N", s.N, 1, kBig);
  check_range("C", s.C, 1, kBig);
  check_range("D", s.D, 1, kBig);
  check_range("H", s.H, 1, 1 << 14);
  check_range("W", s.W, 1, 1 << 14);
  check_kernel("KD", s.KD);
  check_kernel("KH", s.KH);
  check_kernel("KW", s.KW);
  check_range("padD", s.padD, 0, s.KD - 1, " (at most kernel size - 1)");
  check_range("padH", s.padH, 0, s.KH - 1, " (at most kernel size - 1)");
  check_range("padW", s.padW, 0, s.KW - 1, " (at most kernel size - 1)");
  if (s.D_out() < 1 || s.H_out() < 1 || s.W_out() < 1)
    throw Error(fmt::format("depthwise conv3d {}: output size {}x{}x{} is empty; each of D, H, W plus twice its "
                            "padding must be at least the kernel size",
                            s.str(), s.D_out(), s.H_out(), s.W_out()));
  // Byte offsets are 32-bit unsigned in the generated code.
  if (s.input_elems() * 2 >= (int64_t(1) << 32) || s.output_elems() * 2 >= (int64_t(1) << 32))
    throw Error(fmt::format("depthwise conv3d {}: input or output tensor is 4 GiB or larger; the kernels use "
                            "32-bit byte offsets (limit < 4 GiB per tensor)",
                            s.str()));
  if (int64_t(s.N) * s.C * s.D_out() >= (int64_t(1) << 31))
    throw Error(fmt::format("depthwise conv3d {}: N*C*D_out = {} workgroups exceeds the grid limit 2^31-1",
                            s.str(), int64_t(s.N) * s.C * s.D_out()));

  DwConvGeometry g;
  g.kw_pack = variant_info(v).kw_pack;
  g.grid_x = s.N * s.C * s.D_out();
  g.tile_h = s.H + 2 * s.padH;
  g.pairs_per_row = (s.W_out() + g.kw_pack - 1) / g.kw_pack;
  g.reads_per_row = (s.KW + g.kw_pack - 1) / 2;
  // The last item of a row reads columns up to kw_pack*(pairs-1) + 2*reads - 1;
  // columns past W + 2*padW only feed outputs past W_out (discarded), but they
  // must lie inside the tile. For KW_PACK = 2 this is W + 2*padW rounded up to even.
  int cols = std::max(s.W + 2 * s.padW, g.kw_pack * (g.pairs_per_row - 1) + 2 * g.reads_per_row);
  g.tile_w = (cols + 1) / 2 * 2;
  uint64_t tile = uint64_t(s.KD) * g.tile_h * g.tile_w * 2;
  if (tile > lds_limit_bytes(a))
    throw Error(fmt::format("depthwise conv3d {} on {} (variant {}): the LDS tile KD x (H+2*padH) x tile width = "
                            "{}x{}x{} bf16 = {} bytes exceeds the {} LDS limit of {} bytes ({} KiB); reduce H, W or "
                            "KD (tile width: W+2*padW rounded up to even{})",
                            s.str(), arch_name(a), variant_name(v), s.KD, g.tile_h, g.tile_w, tile, arch_name(a),
                            lds_limit_bytes(a), lds_limit_bytes(a) / 1024,
                            g.kw_pack == 2 ? "" : ", widened so the last KW_PACK group's reads stay inside"));
  g.tile_bytes = uint32_t(tile);
  g.items = s.H_out() * g.pairs_per_row;
  g.mapping = m;
  constexpr int kWaves = DwConvGeometry::kThreads / 64;
  g.steps = m == DwMapping::dense ? (g.items + DwConvGeometry::kThreads - 1) / DwConvGeometry::kThreads
                                  : (s.H_out() + kWaves - 1) / kWaves * ((g.pairs_per_row + 63) / 64);
  // A DMA dword must hold two adjacent input elements of one row and land on a
  // dword of the tile: rows of even length starting at an even tile column.
  g.lds_dma = (s.W % 2 == 0) && (s.padW % 2 == 0);
  return g;
}

}  // namespace cdnajit::codegen
