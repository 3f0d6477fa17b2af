// The MX-scaled GEMM family for gfx950: C = A·B with MXFP8 (fp8 E4M3 or bf8 E5M2, OCP), MXFP6 (fp6 E2M3 or
// bf6 E3M2) or MXFP4 (fp4 E2M1) operands and one E8M0 block scale per 32 consecutive K elements (OCP Microscaling Formats (MX)
// specification v1.0), through the scaled MFMAs v_mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4,
// fp32 accumulation, output fp32 or bf16.
//
// Memory layout (the OCP MX block layout along K):
//   A  M x K elements row-major, K-contiguous; fp6/fp4 rows are little-endian bit strings, element
//      k of a row in bits [w*k, w*k + w) (w = 6 or 4; the bit order the f8f6f4 MFMAs read).
//   B  N x K elements row-major (each output column's K values contiguous: layout "NT").
//   SA M x K/32 bytes row-major: SA[m][k/32] scales A[m][k .. k+31] by 2^(SA - 127); 0xFF is NaN.
//   SB N x K/32 bytes row-major: SB[n][k/32] scales B[n][k .. k+31].
//   With scale layout "km" (GemmMxScaleLayout::km) SA and SB are transposed: K/32 x M and K/32 x N
//   row-major, SA[k/32][m], SB[k/32][n]: one K tile's scales of consecutive rows are consecutive
//   bytes, so a tile's scale loads touch a few cache lines instead of one line per row.
//   C  M x N row-major, fp32 or bf16 (RNE).
//
// Kernel: one workgroup per tile_m x tile_n output tile, waves_m x waves_n waves, each wave
// blocks_m x blocks_n MFMA blocks of mfma_m x mfma_m with fp32 accumulators in AGPRs. Two pipelines:
//  - direct (the default): operands go straight from global memory to the MFMA registers (no LDS):
//    lane l of a block reads row l % m at K offset (l / m) * 32 of each MFMA k-step (32 elements =
//    32 / 24 / 16 bytes for fp8 / fp6 / fp4: 16- and 8-byte buffer loads) and that row's scale byte
//    for the same 32 elements (buffer_load_ubyte, scale byte 0 of the VGPR). Two register sets
//    alternate: k-step s + 1 loads while k-step s multiplies. Rows past M or N read at an offset
//    past num_records (zeros) and are not stored.
//  - LDS read-ahead (GemmMxConfig::read_ahead; gemm_mx_lds.cpp): K tiles (tile_k elements) go
//    global -> LDS by DMA into XOR-swizzled rows, two stages, with the tile's scale bytes beside
//    them, and the waves run the read-ahead schedule of the bf16/fp8 GEMM
//    (codegen/read_ahead_schedule.hpp) with the scaled MFMA, a K tile's loads spread between the
//    MFMAs after the barrier that frees their stage; with N % 4 == 0 and 4 waves the MFMAs take B first
//    (transposed accumulators: a lane holds 4 consecutive C columns, one store per block) and the
//    last K tile stores each quadrant's finished blocks while the next quadrant's MFMAs run.
//    GemmMxConfig::persistent: each workgroup computes several output tiles as one K pipeline
//    (ReadAheadSchedule::emit_dma_persistent).
// group_m > 0: a 1-D grid in the grouped, XCD-contiguous tile order of the bf16/fp8 GEMM
// (GemmConfig::group_m).
//
// Arguments: (const u8* A, const u8* B, const u8* SA, const u8* SB, out* C)
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "jit/isa/isa.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

// Element formats; the value is the f8f6f4 MFMAs' CBSZ/BLGP format code (CDNA4 ISA guide).
enum class MxFormat : uint8_t { fp8 = 0, bf8 = 1, fp6 = 2, bf6 = 3, fp4 = 4 };
std::string_view mx_format_name(MxFormat f);  // "fp8" | "bf8" | "fp6" | "bf6" | "fp4"
MxFormat parse_mx_format(std::string_view name);  // Error naming the valid ones otherwise
inline int mx_format_bits(MxFormat f) {
  return f == MxFormat::fp4 ? 4 : f == MxFormat::fp6 || f == MxFormat::bf6 ? 6 : 8;
}

// Where the E8M0 scales of a row's K blocks lie: mk = SA[m][k/32] (M x K/32 row-major, the default),
// km = SA[k/32][m] (K/32 x M row-major).
enum class GemmMxScaleLayout : uint8_t { mk, km };
std::string_view gemm_mx_scale_layout_name(GemmMxScaleLayout l);     // "mk" | "km"
GemmMxScaleLayout parse_gemm_mx_scale_layout(std::string_view name);  // Error naming the valid ones otherwise

enum class GemmMxOutput : uint8_t { f32, bf16 };
std::string_view gemm_mx_output_name(GemmMxOutput o);
GemmMxOutput parse_gemm_mx_output(std::string_view name);  // "f32" | "bf16"

inline constexpr int kMxBlock = 32;  // K elements sharing one E8M0 scale (OCP MX v1.0)

struct GemmMxShape {
  int M = 1, N = 1, K = 128;
  MxFormat format = MxFormat::fp8;
  GemmMxOutput output = GemmMxOutput::f32;
  GemmMxScaleLayout scales = GemmMxScaleLayout::mk;
  double gflop() const { return 2.0 * double(M) * double(N) * double(K) * 1e-9; }
  std::string str() const;  // "M1024 N1024 K1024 mxfp8 f32" (+ " scales-km")
  // Byte index of the scale of row r's K block kb in SA (rows = M) or SB (rows = N).
  int64_t scale_index(int64_t r, int64_t kb, int64_t rows) const {
    return scales == GemmMxScaleLayout::km ? kb * rows + r : r * (K / 32) + kb;
  }
};

struct GemmMxConfig {
  int tile_m = 128, tile_n = 128;
  int tile_k = 0;   // read_ahead: K elements per LDS tile, 128 or 256; 0 = 128 (one MFMA k-step)
  int waves_m = 2, waves_n = 2;
  int mfma_m = 16;  // 16: v_mfma_scale_f32_16x16x128_f8f6f4, 32: _32x32x64_
  int group_m = 0;  // 0: 2-D grid; G: grouped XCD-contiguous order, G tile rows per group
  bool read_ahead = false;  // the LDS DMA read-ahead pipeline (gemm_mx_lds.cpp)
  // read_ahead: false keeps the unpadded rows without the chunk swizzle: bank conflicts on
  // purpose, for the test that shows the swizzle is what makes the fragment reads conflict free.
  bool lds_swizzle = true;
  // read_ahead, 0 = off: persistent workgroups of this many output tiles each (the grid shrinks by
  // that factor). A workgroup's output tiles are one K pipeline: the next tile's first K tiles load
  // during this one's last, and this one's stores drain while the next one's MFMAs run, instead of
  // a workgroup's stores draining and the next workgroup's first loads landing while its SIMDs idle.
  int persistent = 0;
  std::string str() const;  // "128x128 w2x2 mfma16"; read_ahead: "256x256x256 w2x4 mfma16 g8 ra" (+ " p4")
};

struct GemmMxPlan {
  GemmMxShape shape;
  GemmMxConfig cfg;
  Arch arch = Arch::gfx950;
  std::string_view mnemonic;
  int mfma_k = 0;          // K of one MFMA (128 or 64)
  int frag_bytes = 0;      // bytes of one lane's 32 elements (32 fp8, 24 fp6/bf6, 16 fp4)
  int frag_dwords = 0;     // MFMA A/B operand width in dwords (8, 6, 4)
  int threads = 0;
  int wave_m = 0, wave_n = 0;      // wave sub-tile
  int blocks_m = 0, blocks_n = 0;  // MFMA blocks per wave
  int k_steps = 0;                 // K / mfma_k
  int loads_per_step = 0;          // direct: buffer loads per wave per k-step (fragments and scales)
  int tiles_m = 0, tiles_n = 0;
  bool xcd_remap = false;          // group_m > 0 and kDispatchXcds divides the tile count
  // read_ahead (gemm_mx_lds.cpp "LDS layout"): K tiles of tile_k elements, rows of lds_row_bytes
  // (k_chunks_per_row 16-byte chunks, XOR-swizzled every swizzle_rows rows), a_chunks / b_chunks
  // DMA instructions per wave per tile; scale_dwords_per_row (tile_k / 128) E8M0 dwords per row
  // per tile, scale_loads_per_half DMA instructions per wave per half tile.
  int k_tiles = 0, k_steps_per_tile = 0;
  int lds_row_bytes = 0, k_chunks_per_row = 0, swizzle_rows = 0, a_chunks = 0, b_chunks = 0;
  int scale_dwords_per_row = 0, scale_loads_per_half = 0;
  uint32_t lds_scale_half_bytes = 0;  // one half tile's scale slots (scale_loads_per_half * threads dwords)
  uint32_t lds_a_offset = 0, lds_b_offset = 0, lds_bytes = 0;  // A stages, B stages; the scales first
  // read_ahead with N % 4 == 0 and one wave per SIMD: the MFMAs take B as their first operand, so
  // each accumulator lane holds 4 consecutive columns of one C row (one 8- or 16-byte store instead
  // of four, issued during the last K tile; the same products summed in the same order per element,
  // so the bits do not change).
  bool transposed_acc = false;
  int tiles_total = 0;  // persistent: output tiles of the grid in all (tiles_m * tiles_n)
  uint32_t grid[3] = {1, 1, 1};

  int64_t row_bytes() const { return int64_t(shape.K) * mx_format_bits(shape.format) / 8; }
  int64_t scale_row_bytes() const { return shape.K / kMxBlock; }
  int64_t a_bytes() const { return shape.M * row_bytes(); }
  int64_t b_bytes() const { return shape.N * row_bytes(); }
  int64_t sa_bytes() const { return shape.M * scale_row_bytes(); }
  int64_t sb_bytes() const { return shape.N * scale_row_bytes(); }
  int out_esize() const { return shape.output == GemmMxOutput::f32 ? 4 : 2; }
  int64_t c_bytes() const { return int64_t(shape.M) * shape.N * out_esize(); }
  int acc_regs() const { return cfg.mfma_m * cfg.mfma_m / 64; }
};

// Validates and derives; throws cdnajit::Error naming the field or limit and what would be valid
// (gfx942 has no scaled MFMA: an Error naming the arch).
GemmMxPlan make_gemm_mx_plan(const GemmMxShape& s, Arch a, const GemmMxConfig& cfg = {});

BuildResult build_gemm_mx(const GemmMxPlan& p, const BuildOptions& opts = {});

}  // namespace cdnajit::codegen
