// Shape, tuning configuration and derived launch plan of the MFMA GEMM family:
//   C[M][N] = alpha * op(A)·op(B) (+ beta * C), A and B bf16, f16 or fp8, fp32 accumulation,
//   C bf16, f16 or fp32.
// The layout names op(A) then op(B), BLAS style. A is M x K row-major ("N", each output row's K
// values contiguous) or K x M row-major ("T": A stored transposed, M contiguous). B is K x N
// row-major ("N") or N x K row-major ("T", each output column's K values contiguous). C is M x N
// row-major; with beta != 0 it is read (in the output type) before being overwritten.
//
// Plain arithmetic shared by the generator (gemm.cpp), the HIP reference's flags, the host
// driver and the tests.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/conv3d_igemm_config.hpp"  // MfmaShape and the bf16 MFMA table (conv3d_mfma)
#include "jit/isa/isa.hpp"

namespace cdnajit::codegen {

enum class GemmLayout : uint8_t { NN, NT, TN, TT };
std::string_view gemm_layout_name(GemmLayout l);
GemmLayout parse_gemm_layout(std::string_view name);  // "NN" | "NT" | "TN" | "TT"; Error otherwise
// A stored K x M (layouts TN, TT) / B stored K x N (NN, TN): the operand's rows are K, so a
// 16-byte load holds 8 consecutive M (N) values of one K row, transposed on its way into LDS.
inline bool gemm_a_k_rows(GemmLayout l) { return l == GemmLayout::TN || l == GemmLayout::TT; }
inline bool gemm_b_k_rows(GemmLayout l) { return l == GemmLayout::NN || l == GemmLayout::TN; }

// Input element type of A and B. bf16 and f16 (IEEE half) take the arch's bf16 / f16 MFMAs of the
// same shape (v_mfma_f32_*_bf16 / _f16). fp8 (E4M3) and bf8 (E5M2) are the arch's 8-bit floats: FNUZ on
// gfx942 (v_mfma_f32_*_fp8_fp8 / _bf8_bf8), OCP on gfx950 (v_mfma_f32_*_f8f6f4 with both format
// fields 0 = E4M3FN or 1 = E5M2); both ISA guides, as runtime/sim/fp8_encode.hpp.
enum class GemmDType : uint8_t { bf16, e4m3, e5m2, f16 };
std::string_view gemm_dtype_name(GemmDType t);
// "bf16" | "f16" (or "fp16") | "e4m3" (or "fp8") | "e5m2" (or "bf8"); Error otherwise
GemmDType parse_gemm_dtype(std::string_view name);
inline bool gemm_dtype_is_fp8(GemmDType t) { return t == GemmDType::e4m3 || t == GemmDType::e5m2; }

// Output element type: fp32, or the fp32 result rounded to nearest even to bf16 or f16 (IEEE half;
// v_cvt_f16_f32, f16 denormals kept).
enum class GemmOutput : uint8_t { bf16, f32, f16 };
std::string_view gemm_output_name(GemmOutput o);
GemmOutput parse_gemm_output(std::string_view name);  // "bf16" | "f16" (or "fp16") | "f32"; Error otherwise

// Epilogue, in fp32 after alpha and beta and before the output rounding:
//   v = alpha * acc (+ beta * C) (+ bias[n]); v = act(v).
// The bias is one fp32 value per output column n (a vector of N floats, the kernel's fourth
// argument; the usual bias of a linear layer C = X W^T + b with N output features).
enum class GemmBias : uint8_t { none, col };
std::string_view gemm_bias_name(GemmBias b);
GemmBias parse_gemm_bias(std::string_view name);  // "none" | "col"; Error otherwise (naming what is valid)
// Activations: relu = max(v, 0) (v_max_f32). The smooth ones are x * sigmoid(w(x)) computed as
//   z = x * s(x);  act = x * rcp(1 + exp2(z))                (v_exp_f32, v_add_f32, v_rcp_f32, v_mul_f32)
// silu:      s = kSiluScale = -log2(e)                              (x * sigmoid(x))
// gelu_tanh: s = fma(x * x, kGeluTanhB, kGeluTanhA), A = -2 sqrt(2/pi) log2(e), B = 0.044715 A
//            (0.5 x (1 + tanh(u)) = x * sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3))
// every constant rounded to fp32; the HIP reference receives the same fp32 bit patterns.
enum class GemmActivation : uint8_t { none, relu, silu, gelu_tanh };
std::string_view gemm_activation_name(GemmActivation a);
GemmActivation parse_gemm_activation(std::string_view name);  // "none" | "relu" | "silu" | "gelu_tanh"
inline constexpr float kSiluScale = float(-1.4426950408889634);
inline constexpr float kGeluTanhA = float(-2.302208198144325), kGeluTanhB = float(-0.1029432395800235);

struct GemmShape {
  int M = 1, N = 1, K = 8;
  GemmLayout layout = GemmLayout::NT;
  GemmDType dtype = GemmDType::bf16;
  GemmOutput output = GemmOutput::bf16;
  float alpha = 1.0f, beta = 0.0f;
  GemmBias bias = GemmBias::none;
  GemmActivation act = GemmActivation::none;
  double gflop() const { return 2.0 * double(M) * double(N) * double(K) * 1e-9; }
  std::string str() const;  // "M1024 N1024 K1024 NT bf16" (output type; " e4m3 in" etc. for fp8 inputs;
                            // " alpha=.. beta=.." when not 1, 0; " bias=col", " act=relu" when set)
};

struct GemmConfig {
  int tile_m = 128, tile_n = 128;
  int tile_k = 0;          // elements; 0 = default (bf16: 64 on gfx950, 32 on gfx942; fp8: 128 / 64)
  int waves_m = 2, waves_n = 2;
  int stages = 2;          // LDS stages: 1 = one stage, the next tile's loads fly into registers during the
                           // MFMAs; 2 = they fly during the MFMAs into the other stage;
                           // 3, 4 (lds_dma only): stages - 1 tiles of loads in flight during the MFMAs
  int mfma_m = 16;         // MFMA block: 16 (16x16xK) or 32 (32x32xK)
  // Workgroup order (L2 reuse). 0: a 2-D grid, workgroup (x, y) computes tile (m = x, n = y), so
  // consecutive workgroups walk down M. G >= 1: a 1-D grid whose ids are first made contiguous per
  // XCD (the hardware deals workgroup ids round-robin over kDispatchXcds XCDs: id i runs on XCD
  // i mod 8, so id i becomes (i mod 8) * (tiles / 8) + i / 8 when the tile count divides by 8), then
  // walked in groups of G tile rows: inside a group M is fastest, and the group's G A panels are
  // reused by every N tile before the next group starts (Triton's "grouped ordering").
  int group_m = 0;
  // gfx950, layout NT, 16x16 MFMA blocks: A and B go global -> LDS directly
  // (global_load_lds_dwordx4, no staging registers, no LDS write instructions) into unpadded rows
  // whose 16-byte chunks are XOR-swizzled (gemm.cpp, "LDS layout"). `lds_swizzle` = false keeps the
  // unpadded rows without the swizzle: bank conflicts on purpose, for the test that shows the
  // swizzle is what makes the fragment reads conflict free.
  bool lds_dma = false;
  bool lds_swizzle = true;
  // Register-staged path with 8-byte fragment reads (gfx942's 16x16x16 / 32x32x8 bf16, 16x16x32 /
  // 32x32x16 fp8), layout NT: unpadded LDS rows of a multiple of 128 bytes whose 8-byte units are
  // XOR-swizzled (unit u of row r at u ^ (r mod 16); gemm.cpp, "LDS layout"), so a 256x256 tile's
  // 128-byte K rows (bf16 tile_k 64) fit one 64 KiB stage where padded rows do not. `lds_swizzle`
  // = false keeps the unpadded rows without the xor (conflicts on purpose, for the bank test).
  bool lds_xor = false;
  // 8-wave ping-pong (lds_dma, 2 stages, 8 waves, an even number of MFMA blocks per wave along M
  // and N): waves 0-3 and 4-7 (one of each per SIMD) run the same sequence one barrier apart, so
  // while one group reads LDS and issues loads the other runs half a K tile's MFMAs at raised
  // priority (s_setprio); LDS in half-major rows, loaded by quarter (codegen/pingpong_schedule.hpp).
  bool pingpong = false;
  // Read-ahead (an even number of MFMA blocks per wave along M and N; lds_dma with 2 stages and
  // no pingpong, or the register-staged path with 1 stage): each wave runs its MFMAs by quadrant
  // of its sub-tile and reads the fragments of the next quadrants (of this tile, then of the next)
  // into the registers the finished quadrants freed, spread between the MFMAs. DMA: one barrier in
  // the middle of a tile and one at its end, after each of which the half of a stage just read
  // takes its next DMA (1.5 tiles ahead). One stage: the barrier in the middle frees the stage for
  // the next tile from the staging registers, a second one publishes it (gemm.cpp, "Read-ahead").
  bool read_ahead = false;
  // Read-ahead on the register-staged path: each K tile's fragments are read and multiplied in this
  // many K sub-tiles (1 or 2), so the fragment registers hold one sub-tile's k-steps (half with 2:
  // what lets 256x256x64 with 8 waves keep two waves per SIMD); the LDS refill and its barriers stay
  // once per K tile (read_ahead_schedule.hpp).
  int ra_split = 1;
  // Split-K (codegen/gemm_split_k.hpp): K is cut into split_k equal slices of whole K tiles, one
  // workgroup per (output tile, slice) (grid z = slice). Each writes its fp32 partial tile to a
  // workspace; a second kernel sums the slices in slice order 0..S-1 and applies alpha, beta and
  // the output rounding, so the result is deterministic. 1 = no split.
  int split_k = 1;
  // Stream-K (codegen/gemm_split_k.hpp): 0 = off; G > 0 = about G persistent workgroups, each walking
  // a contiguous range of the tiles x K-tiles MAC iterations across tiles; tiles split between
  // workgroups are summed in K order by a fix-up kernel. Register-staged path (1 or 2 stages) only.
  int stream_k = 0;
  std::string str() const; // "128x128x64 w2x2 st2 mfma16" (+ " g8" when group_m > 0, " dma" with lds_dma,
                           // " xor" with lds_xor, " pp", " ra" with read_ahead, "/2" with ra_split 2,
                           // " sk4" with split_k 4, " streamk304" with stream_k 304)
};

// XCDs that the command processor deals workgroups over, round-robin (MI300X and MI355X: 8 XCDs,
// AMD CDNA3 / CDNA4 white papers; runtime/model/hardware.cpp models the same dispatch).
inline constexpr int kDispatchXcds = 8;

// Largest GemmConfig::split_k: the reduction kernel issues one 16-byte load per slice before its
// first add (codegen/gemm_split_k.cpp), 4 VGPRs each.
inline constexpr int kMaxSplitK = 16;

// The launch grid of a tiled GEMM (gemm and gemm_mx): tiles_m x tiles_n workgroups as a 2-D grid, or
// with group_m > 0 a 1-D grid in grouped order, remapped per XCD when kDispatchXcds divides the tile
// count (MfmaGemmEmitter::tile_coordinates reads it back).
inline void plan_tile_grid(int group_m, int tiles_m, int tiles_n, uint32_t (&grid)[3], bool& xcd_remap) {
  if (group_m > 0) {
    grid[0] = uint32_t(tiles_m * tiles_n);
    xcd_remap = tiles_m * tiles_n % kDispatchXcds == 0;
  } else {
    grid[0] = uint32_t(tiles_m);
    grid[1] = uint32_t(tiles_n);
  }
}

struct GemmPlan {
  GemmShape shape;
  GemmConfig cfg;
  Arch arch = Arch::gfx950;
  MfmaShape mfma;
  int esize = 2;                   // bytes per input element (bf16, f16 2, fp8 1)
  uint8_t mfma_format = 0;         // gfx950 f8f6f4: cbsz = blgp = this (0 E4M3, 1 E5M2)

  int threads = 0;
  int wave_m = 0, wave_n = 0;      // wave sub-tile
  int blocks_m = 0, blocks_n = 0;  // MFMA blocks per wave
  int mfma_per_tile = 0;           // MFMA k-steps per K tile
  int k_tiles = 0;                 // K tiles per workgroup (of its split-K slice)
  int tiles_m = 0, tiles_n = 0;
  bool xcd_remap = false;          // group_m > 0 and tiles_m * tiles_n divisible by kDispatchXcds
  // Global loads, 16 bytes (8 bf16, 16 fp8) per chunk. K-contiguous tiles (A for NN/NT, B for NT/TT):
  // rows of tile_k elements, k_chunks_per_row chunks each. B for NN/TN: tile_k rows of tile_n
  // elements; A for TN/TT: tile_k rows of tile_m elements.
  int k_chunks_per_row = 0;
  int a_chunks = 0, b_chunks = 0;  // chunks per thread per K tile
  int nn_chunks_per_row = 0;       // NN, TN: 16-byte chunks per B row of the tile (tile_n * esize / 16)
  int ta_chunks_per_row = 0;       // TN, TT: 16-byte chunks per A row of the tile (tile_m * esize / 16)
  // LDS: A rows then B rows (both K-contiguous), tile_k * 2 bytes + padding each (gemm.cpp).
  int lds_row_bytes = 0, lds_pad_bytes = 0;
  // LDS rows per stage of the A and B tiles: tile_m and tile_n, or on the register-staged path with
  // K-contiguous rows, when a tile's chunks do not split evenly over the threads (e.g. 224 rows of
  // 8 chunks on 512 threads), the rows of whole chunk instructions (a_chunks * threads / cpr): the
  // last instruction's chunks past the tile read nothing (offset past num_records) and land in
  // these spare rows, which no fragment read touches.
  int lds_a_rows = 0, lds_b_rows = 0;
  // DMA layout: logical chunk c of LDS row r sits at slot c ^ ((r / swizzle_rows) % k_chunks_per_row)
  // (swizzle_rows = max(1, 128 / row bytes); 0 = no swizzle, GemmConfig::lds_swizzle off).
  int swizzle_rows = 0;
  uint32_t lds_stage_bytes = 0, lds_bytes = 0;
  uint32_t grid[3] = {1, 1, 1};

  int out_esize() const { return shape.output == GemmOutput::f32 ? 4 : 2; }
  int64_t a_bytes() const { return int64_t(shape.M) * shape.K * esize; }
  int64_t b_bytes() const { return int64_t(shape.K) * shape.N * esize; }
  int64_t c_bytes() const { return int64_t(shape.M) * shape.N * out_esize(); }
  int64_t bias_bytes() const { return shape.bias == GemmBias::col ? int64_t(shape.N) * 4 : 0; }
  // Stream-K: MAC iterations (K tiles of all output tiles), iterations per workgroup, workgroups.
  int64_t sk_iterations = 0;
  int sk_per = 0, sk_groups = 0;
  bool stream() const { return cfg.stream_k > 0; }
  int64_t sk_slot_bytes() const { return int64_t(cfg.tile_m) * cfg.tile_n * 4; }  // one fp32 partial tile
  int64_t sk_workspace_bytes() const { return stream() ? 2 * sk_slot_bytes() * sk_groups : 0; }
  bool split() const { return cfg.split_k > 1; }
  int64_t slice_bytes() const { return int64_t(shape.M) * shape.N * 4; }  // one fp32 partial C (split-K)
  int64_t workspace_bytes() const { return split() ? slice_bytes() * cfg.split_k : 0; }
};

// Validates and derives; throws cdnajit::Error naming the field or limit and what would be valid.
GemmPlan make_gemm_plan(const GemmShape& s, Arch a, const GemmConfig& cfg = {});

// Every valid configuration of a small search space (tiles {64,112,128,224,256}^2, tile_k {32,64,128},
// waves {1,2,4}^2, stages {1,2} (1..4 with lds_dma), mfma_m {16,32}, lds_dma {off,on}, lds_xor
// {off,on}, group_m {0,8}, schedule lock-step / read_ahead / pingpong, ra_split {1,2}) for
// the shape: invalid combinations skipped.
std::vector<GemmConfig> enumerate_gemm_configs(const GemmShape& s, Arch a);

}  // namespace cdnajit::codegen
