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
//   C  M x N row-major, fp32 or bf16 (RNE).
//
// Kernel: one workgroup per tile_m x tile_n output tile, waves_m x waves_n waves, each wave
// blocks_m x blocks_n MFMA blocks of mfma_m x mfma_m with fp32 accumulators in AGPRs. Operands go
// straight from global memory to the MFMA registers (no LDS): lane l of a block reads row l % m at
// K offset (l / m) * 32 of each MFMA k-step (32 elements = 32 / 24 / 16 bytes for fp8 / fp6 / fp4:
// 16- and 8-byte buffer loads) and that row's scale byte for the same 32 elements (buffer_load_ubyte,
// scale byte 0 of the VGPR). Two register sets alternate: k-step s + 1 loads while k-step s
// multiplies. Rows past M or N read at an offset past num_records (zeros) and are not stored.
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

enum class GemmMxOutput : uint8_t { f32, bf16 };
std::string_view gemm_mx_output_name(GemmMxOutput o);
GemmMxOutput parse_gemm_mx_output(std::string_view name);  // "f32" | "bf16"

inline constexpr int kMxBlock = 32;  // K elements sharing one E8M0 scale (OCP MX v1.0)

struct GemmMxShape {
  int M = 1, N = 1, K = 128;
  MxFormat format = MxFormat::fp8;
  GemmMxOutput output = GemmMxOutput::f32;
  double gflop() const { return 2.0 * double(M) * double(N) * double(K) * 1e-9; }
  std::string str() const;  // "M1024 N1024 K1024 mxfp8 f32"
};

struct GemmMxConfig {
  int tile_m = 128, tile_n = 128;
  int waves_m = 2, waves_n = 2;
  int mfma_m = 16;  // 16: v_mfma_scale_f32_16x16x128_f8f6f4, 32: _32x32x64_
  std::string str() const;  // "128x128 w2x2 mfma16"
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
  int loads_per_step = 0;          // buffer loads per wave per k-step (fragments and scales)
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
