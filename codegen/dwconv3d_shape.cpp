#include "codegen/dwconv3d_shape.hpp"

#include <fmt/format.h>

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

std::string_view variant_name(DwVariant v) {
  switch (v) {
    case DwVariant::lds_fmac: return "lds_fmac";
    case DwVariant::lds_dot2: return "lds_dot2";
    case DwVariant::row_interleaved: return "row_interleaved";
  }
  return "?";
}

DwVariant parse_variant(std::string_view name) {
  for (DwVariant v : {DwVariant::lds_fmac, DwVariant::lds_dot2, DwVariant::row_interleaved})
    if (variant_name(v) == name) return v;
  throw Error(fmt::format("unknown depthwise conv3d variant '{}': valid are lds_fmac, lds_dot2, row_interleaved",
                          name));
}

bool variant_available(DwVariant v, Arch a) { return v != DwVariant::lds_dot2 || a == Arch::gfx950; }

DwVariant default_variant(Arch a) { return a == Arch::gfx950 ? DwVariant::lds_dot2 : DwVariant::lds_fmac; }

bool uses_dot2(DwVariant v, Arch a) {
  return a == Arch::gfx950 && (v == DwVariant::lds_dot2 || v == DwVariant::row_interleaved);
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

DwConvGeometry dwconv_geometry(const DwConvShape& s, Arch a) {
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
  g.grid_x = s.N * s.C * s.D_out();
  g.tile_h = s.H + 2 * s.padH;
  g.tile_w = (s.W + 2 * s.padW + 1) / 2 * 2;
  uint64_t tile = uint64_t(s.KD) * g.tile_h * g.tile_w * 2;
  if (tile > lds_limit_bytes(a))
    throw Error(fmt::format("depthwise conv3d {} on {}: the LDS tile KD x (H+2*padH) x even(W+2*padW) = {}x{}x{} "
                            "bf16 = {} bytes exceeds the {} LDS limit of {} bytes ({} KiB); reduce H, W or KD",
                            s.str(), arch_name(a), s.KD, g.tile_h, g.tile_w, tile, arch_name(a),
                            lds_limit_bytes(a), lds_limit_bytes(a) / 1024));
  g.tile_bytes = uint32_t(tile);
  g.pairs_per_row = (s.W_out() + 1) / 2;
  g.items = s.H_out() * g.pairs_per_row;
  g.steps = (g.items + DwConvGeometry::kThreads - 1) / DwConvGeometry::kThreads;
  g.reads_per_row = (s.KW + 1) / 2;
  // A DMA dword must hold two adjacent input elements of one row and land on a
  // dword of the tile: rows of even length starting at an even tile column.
  g.lds_dma = (s.W % 2 == 0) && (s.padW % 2 == 0);
  return g;
}

}  // namespace cdnajit::codegen
