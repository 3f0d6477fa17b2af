// Grouped convolution backward-weight (dW) kernels, 2D NHWGC, bf16 or f16 in, fp32
// accumulate, dW in fp32 or the input type, written with the builder's wave roles
// (jit/wave_roles.hpp).
//
// Tensors (CK's layouts for grouped bwd-weight; 3D adds a depth after N in x/dy and Z before Y in dw):
//   x   [N][Hi][Wi][G][C]  bf16   input of the forward pass
//   dy  [N][Ho][Wo][G][K]  bf16   gradient of the forward output
//   dw  [G][K][Y][X][C]    fp32 (or bf16/f16, RNE from the fp32 sum)   result
// Per group g, an implicit GEMM with M = K, N = Y*X*C and the reduction over
// gemm-K = N*Ho*Wo pixels (n, ho, wo):
//   dw[g][k][y][x][c] = sum dy[n][ho][wo][g][k] * x[n][ho*sh - ph + y*dh][wo*sw - pw + x*dw][g][c]
// (taps outside the input contribute 0).
//
// One workgroup per tile_m x tile_n tile of (k, yxc) and group: grid (ceil(YXC/tile_n),
// ceil(K/tile_m), G). A K tile is 32 gemm-K columns. The LDS holds the A tile (tile_m k-rows)
// and the B tile (tile_n yxc-rows), each row 32 elements in gemm-K order, so an MFMA
// fragment is one DS read.
// Loaders move pairs of channels (one dword: K and C must be even) and scatter the two
// bf16 to two LDS rows; the im2col decode (pixel -> n, ho, wo -> hi, wi, bounds) is the
// integer VALU work the wave-specialised forms take off the math waves.
//
// Variants (same tile, same MFMA order per 16x16 output block, hence the same bits):
//   baseline     one role of 4 waves, CK's conventional pipeline: tile t+1's global loads in
//                flight while tile t is multiplied, then written to the other LDS stage, one barrier
//   wavelet_4_4  math role 4 waves (2x2, a quarter tile each) + load role 4 waves, two LDS stages
//   wavelet_4_2  math role 2 waves (2x1, half a tile each) + load role 4 waves, two LDS stages
// In the wavelet forms the load role fills stage t%2 with K tile t while the math role
// multiplies tile t-1; one s_barrier per tile hands a stage over (both roles execute
// [barrier, loop{barrier}], checked by WaveRoles).
//
// MFMA per arch: gfx942 v_mfma_f32_16x16x16_{bf16,f16} (two k-steps per K tile), gfx950
// v_mfma_f32_16x16x32_{bf16,f16} (one). Every 16x16 block's accumulator starts at +0 and takes
// the k-steps in ascending gemm-K order over ceil(N*Ho*Wo/32)*32 columns (zeros past the end).
//
// Arguments: (const bf16* x, const bf16* dy, float* dw).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "jit/kernel.hpp"
#include "jit/dim3.hpp"
#include "jit/wave_roles.hpp"

namespace cdnajit::codegen {

// 2D by default; Di > 1 or Z > 1 (with stride_d, pad_d, dil_d) makes it 3D NDHWGC.
struct BwdWeightShape {
  int N = 1, G = 1, C = 8, K = 8, Hi = 8, Wi = 8, Y = 3, X = 3;
  int stride[2] = {1, 1}, pad[2] = {0, 0}, dil[2] = {1, 1};  // (h, w)
  int Di = 1, Z = 1, stride_d = 1, pad_d = 0, dil_d = 1;      // depth (3D)
  bool is_3d() const { return Di > 1 || Z > 1; }
  int Do() const { return (Di + 2 * pad_d - dil_d * (Z - 1) - 1) / stride_d + 1; }
  int Ho() const { return (Hi + 2 * pad[0] - dil[0] * (Y - 1) - 1) / stride[0] + 1; }
  int Wo() const { return (Wi + 2 * pad[1] - dil[1] * (X - 1) - 1) / stride[1] + 1; }
  int64_t gemm_k() const { return int64_t(N) * Do() * Ho() * Wo(); }
  int64_t gemm_n() const { return int64_t(Z) * Y * X * C; }
  int64_t x_elems() const { return int64_t(N) * Di * Hi * Wi * G * C; }
  int64_t dy_elems() const { return int64_t(N) * Do() * Ho() * Wo() * G * K; }
  int64_t dw_elems() const { return int64_t(G) * K * gemm_n(); }
  double flops() const { return 2.0 * double(G) * K * double(gemm_n()) * double(gemm_k()); }
  std::string str() const;  // "N2 G1 C256 K36 7x7 f3x3 s1x1 p1x1 d1x1"
  // Throws cdnajit::Error naming the field and the valid range.
  void validate() const;
};

enum class BwdWeightVariant : uint8_t { baseline, wavelet_4_4, wavelet_4_2 };
enum class BwdWeightDType : uint8_t { bf16, f16 };  // x and dy element type
inline constexpr BwdWeightVariant kBwdWeightVariants[] = {BwdWeightVariant::baseline, BwdWeightVariant::wavelet_4_4,
                                                         BwdWeightVariant::wavelet_4_2};
const char* variant_name(BwdWeightVariant v);  // "baseline", "wavelet_4_4", "wavelet_4_2"

inline constexpr int kBwdTileK = 32;

// Tile (M = K rows, N = Y*X*C columns: 64 or 128 each), input type, and dW as fp32 or
// rounded (RNE) to the input type.
struct BwdWeightConfig {
  int tile_m = 64, tile_n = 64;
  BwdWeightDType dtype = BwdWeightDType::bf16;
  bool out_f32 = true;
  // Split-K (power of two, fp32 dW only): grid z = G * splits, each split reduces
  // ceil(tiles / splits) K tiles (the last one padded with zero tiles) and adds its partial
  // dW with fp32 global atomics into a zeroed dW. With 2 splits the sum is order-independent
  // (x + y == y + x, and 0 + x is exact), so still bit-exact; with more, the order varies.
  int splits = 1;
  std::string str() const;  // "64x64 bf16->f32", "64x64 f16->f32 split-K 4"
  // The splits a kernel uses for `s`: `splits`, capped at the largest power of two <= the K tiles.
  int effective_splits(const BwdWeightShape& s) const;  // "64x64 bf16->f32"
  int out_bytes() const { return out_f32 ? 4 : 2; }
};

struct BwdWeightKernel {
  BuildResult build;
  RoleRegisterReport roles;  // per-role registers and instruction mix
  Dim3 grid, block;
  int splits = 1;  // effective (at most the number of K tiles): dW must be zeroed when > 1
};
// Throws cdnajit::Error for an invalid shape or configuration ((4,2) with 128x128: 128
// accumulators per lane and lane; CK offers (4,2) only up to 128x64 / 64x128).
void validate_bwd_weight(const BwdWeightShape& s, BwdWeightVariant v, const BwdWeightConfig& cfg);
// Validates (validate_bwd_weight) and builds.
BwdWeightKernel build_conv_bwd_weight(const BwdWeightShape& s, BwdWeightVariant v, Arch arch,
                                      const BwdWeightConfig& cfg = {}, const BuildOptions& opts = {});
inline constexpr const char* kBwdWeightKernelName = "conv_bwd_weight";

}  // namespace cdnajit::codegen
