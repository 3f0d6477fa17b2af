// Shape, variants and launch geometry of the bf16 NCDHW depthwise conv3d
// family (groups = C, stride 1). Everything here is plain arithmetic shared by
// the generator, the CPU models, the HIP references and the tests.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "jit/isa/isa.hpp"

namespace cdnajit::codegen {

// input [N, C, D, H, W], weight [C, 1, KD, KH, KW], zero padding per dimension.
struct DwConvShape {
  int N = 1, C = 1, D = 1, H = 1, W = 1;
  int KD = 1, KH = 1, KW = 1;
  int padD = 0, padH = 0, padW = 0;

  int D_out() const { return D + 2 * padD - KD + 1; }
  int H_out() const { return H + 2 * padH - KH + 1; }
  int W_out() const { return W + 2 * padW - KW + 1; }
  int taps() const { return KD * KH * KW; }
  int64_t input_elems() const { return int64_t(N) * C * D * H * W; }
  int64_t weight_elems() const { return int64_t(C) * taps(); }
  int64_t output_elems() const { return int64_t(N) * C * D_out() * H_out() * W_out(); }
  // Multiply-adds per output element times two (the usual conv FLOP count).
  double gflop() const { return 2.0 * double(output_elems()) * taps() * 1e-9; }
  std::string str() const;  // "N1 C512 D61 H45 W80 k3x5x5 pad0,2,2"
};

// The seed shape: input [1,512,61,45,80], weight [512,1,3,5,5], pad (0,2,2).
DwConvShape seed_shape();

enum class DwVariant : uint8_t {
  lds_fmac,         // V97: zero-padded LDS tile, fp32 weights in VGPRs, batched ds_read_b32, v_fmac_f32
  lds_dot2,         // gfx950: packed bf16 weight pairs, v_dot2_f32_bf16 + v_alignbit_b32, v_fmac for the odd tap
  row_interleaved,  // per filter row: its reads, then its multiply-adds (dot2 arithmetic on gfx950, fmac on gfx942)
};
std::string_view variant_name(DwVariant v);
// Parses "lds_fmac" / "lds_dot2" / "row_interleaved"; throws cdnajit::Error listing the valid names.
DwVariant parse_variant(std::string_view name);
bool variant_available(DwVariant v, Arch a);   // lds_dot2 needs gfx950
DwVariant default_variant(Arch a);             // gfx950: lds_dot2, gfx942: lds_fmac
// True when the variant accumulates pairs with v_dot2_f32_bf16 on this arch.
bool uses_dot2(DwVariant v, Arch a);

// Per-arch limits the generator enforces.
uint32_t lds_limit_bytes(Arch a);              // 64 KiB gfx942, 160 KiB gfx950

// Launch geometry and the LDS tile every variant shares.
struct DwConvGeometry {
  static constexpr int kThreads = 256;   // 4 waves per workgroup
  static constexpr int kKwPack = 2;      // outputs per thread along W per step
  int grid_x = 0;          // N * C * D_out workgroups, index = (n*C + c)*D_out + d_out
  int tile_h = 0;          // H + 2*padH rows per depth slice
  int tile_w = 0;          // W + 2*padW rounded up to even (bf16 pairs are read as dwords)
  uint32_t tile_bytes = 0; // KD * tile_h * tile_w * 2
  int pairs_per_row = 0;   // ceil(W_out / 2): work items per output row
  int items = 0;           // H_out * pairs_per_row work items per workgroup
  int steps = 0;           // ceil(items / 256): loop trips per thread
  int reads_per_row = 0;   // (KW + 1) / 2 dword reads per filter row
  bool lds_dma = false;    // input rows go global -> LDS by DMA (W and padW even), else global_load + ds_write
};
// Validates the shape (throws cdnajit::Error naming the bad field and the valid range,
// or the LDS limit) and returns the geometry.
DwConvGeometry dwconv_geometry(const DwConvShape& s, Arch a);

// Kernel arguments, in order, for both the JIT kernels and the HIP references:
//   0: const bf16* input   (8 bytes)
//   1: const bf16* weight  (8 bytes)
//   2: bf16* output        (8 bytes)
// Buffers must be at least 4-byte aligned (the DMA path moves dwords).
inline constexpr const char* kArgOrder[] = {"input", "weight", "output"};

}  // namespace cdnajit::codegen
