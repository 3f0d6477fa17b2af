// Shape, tuning configuration and derived launch plan of the MFMA GEMM family:
//   C[M][N] = alpha * A·B (+ beta * C), A and B bf16, fp32 accumulation, C bf16 or fp32.
// A is M x K row-major. B is, by layout, K x N row-major ("NN") or N x K row-major ("NT", B
// transposed: each output column's K values contiguous). C is M x N row-major; with beta != 0
// it is read (in the output type) before being overwritten.
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

enum class GemmLayout : uint8_t { NN, NT };
std::string_view gemm_layout_name(GemmLayout l);
GemmLayout parse_gemm_layout(std::string_view name);  // "NN" | "NT"; Error otherwise

// Input element type of A and B. fp8 (E4M3) and bf8 (E5M2) are the arch's 8-bit floats: FNUZ on
// gfx942 (v_mfma_f32_*_fp8_fp8 / _bf8_bf8), OCP on gfx950 (v_mfma_f32_*_f8f6f4 with both format
// fields 0 = E4M3FN or 1 = E5M2); both ISA guides, as runtime/sim/fp8_encode.hpp.
enum class GemmDType : uint8_t { bf16, e4m3, e5m2 };
std::string_view gemm_dtype_name(GemmDType t);
GemmDType parse_gemm_dtype(std::string_view name);  // "bf16" | "e4m3" (or "fp8") | "e5m2" (or "bf8"); Error otherwise

enum class GemmOutput : uint8_t { bf16, f32 };
std::string_view gemm_output_name(GemmOutput o);
GemmOutput parse_gemm_output(std::string_view name);  // "bf16" | "f32"; Error otherwise

struct GemmShape {
  int M = 1, N = 1, K = 8;
  GemmLayout layout = GemmLayout::NT;
  GemmDType dtype = GemmDType::bf16;
  GemmOutput output = GemmOutput::bf16;
  float alpha = 1.0f, beta = 0.0f;
  double gflop() const { return 2.0 * double(M) * double(N) * double(K) * 1e-9; }
  std::string str() const;  // "M1024 N1024 K1024 NT bf16" (output type; " e4m3 in" etc. for fp8 inputs;
                            // " alpha=.. beta=.." when not 1, 0)
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
  // 8-wave ping-pong (lds_dma, 2 stages, 8 waves): waves 0-3 and 4-7 (one of each per SIMD) run
  // the same K-tile sequence one barrier apart, so while one group reads LDS and issues the next
  // tile's loads the other runs its MFMAs at raised priority (s_setprio); gemm.cpp, "Ping-pong".
  bool pingpong = false;
  // Read-ahead (an even number of MFMA blocks per wave along M and N; lds_dma with 2 stages and
  // no pingpong, or the register-staged path with 1 stage): each wave runs its MFMAs by quadrant
  // of its sub-tile and reads the fragments of the next quadrants (of this tile, then of the next)
  // into the registers the finished quadrants freed, spread between the MFMAs. DMA: one barrier in
  // the middle of a tile and one at its end, after each of which the half of a stage just read
  // takes its next DMA (1.5 tiles ahead). One stage: the barrier in the middle frees the stage for
  // the next tile from the staging registers, a second one publishes it (gemm.cpp, "Read-ahead").
  bool read_ahead = false;
  // Split-K (codegen/gemm_split_k.hpp): K is cut into split_k equal slices of whole K tiles, one
  // workgroup per (output tile, slice) (grid z = slice). Each writes its fp32 partial tile to a
  // workspace; a second kernel sums the slices in slice order 0..S-1 and applies alpha, beta and
  // the output rounding, so the result is deterministic. 1 = no split.
  int split_k = 1;
  // Stream-K (codegen/gemm_split_k.hpp): 0 = off; G > 0 = about G persistent workgroups, each walking
  // a contiguous range of the tiles x K-tiles MAC iterations across tiles; tiles split between
  // workgroups are summed in K order by a fix-up kernel. Register-staged path (1 or 2 stages) only.
  int stream_k = 0;
  std::string str() const; // "128x128x64 w2x2 st2 mfma16" (+ " g8" when group_m > 0, " dma" with lds_dma, " pp",
                           // " ra" with read_ahead, " sk4" with split_k 4, " streamk304" with stream_k 304)
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
  int esize = 2;                   // bytes per input element (bf16 2, fp8 1)
  uint8_t mfma_format = 0;         // gfx950 f8f6f4: cbsz = blgp = this (0 E4M3, 1 E5M2)

  int threads = 0;
  int wave_m = 0, wave_n = 0;      // wave sub-tile
  int blocks_m = 0, blocks_n = 0;  // MFMA blocks per wave
  int mfma_per_tile = 0;           // MFMA k-steps per K tile
  int k_tiles = 0;                 // K tiles per workgroup (of its split-K slice)
  int tiles_m = 0, tiles_n = 0;
  bool xcd_remap = false;          // group_m > 0 and tiles_m * tiles_n divisible by kDispatchXcds
  // Global loads, 16 bytes (8 bf16, 16 fp8) per chunk. K-contiguous tiles (A, and B for NT): rows of
  // tile_k elements, k_chunks_per_row chunks each. B for NN: tile_k rows of tile_n elements.
  int k_chunks_per_row = 0;
  int a_chunks = 0, b_chunks = 0;  // chunks per thread per K tile
  int nn_chunks_per_row = 0;       // NN: 16-byte chunks per B row (tile_n / 8)
  // LDS: A rows then B rows (both K-contiguous), tile_k * 2 bytes + padding each (gemm.cpp).
  int lds_row_bytes = 0, lds_pad_bytes = 0;
  // DMA layout: logical chunk c of LDS row r sits at slot c ^ ((r / swizzle_rows) % k_chunks_per_row)
  // (swizzle_rows = max(1, 128 / row bytes); 0 = no swizzle, GemmConfig::lds_swizzle off).
  int swizzle_rows = 0;
  uint32_t lds_stage_bytes = 0, lds_bytes = 0;
  uint32_t grid[3] = {1, 1, 1};

  int out_esize() const { return shape.output == GemmOutput::f32 ? 4 : 2; }
  int64_t a_bytes() const { return int64_t(shape.M) * shape.K * esize; }
  int64_t b_bytes() const { return int64_t(shape.K) * shape.N * esize; }
  int64_t c_bytes() const { return int64_t(shape.M) * shape.N * out_esize(); }
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

// Every valid configuration of a small search space (tiles {64,128,256}^2, tile_k {32,64,128},
// waves {1,2,4}^2, stages {1,2} (1..4 with lds_dma), mfma_m {16,32}, lds_dma {off,on}, group_m {0,8},
// read_ahead {off,on}) for
// the shape: invalid combinations skipped.
std::vector<GemmConfig> enumerate_gemm_configs(const GemmShape& s, Arch a);

}  // namespace cdnajit::codegen
