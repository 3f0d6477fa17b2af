#include "codegen/gemm_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>

#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"

namespace cdnajit::codegen {

std::string_view gemm_layout_name(GemmLayout l) {
  switch (l) {
    case GemmLayout::NN: return "NN";
    case GemmLayout::NT: return "NT";
    case GemmLayout::TN: return "TN";
    case GemmLayout::TT: return "TT";
  }
  return "?";
}

GemmLayout parse_gemm_layout(std::string_view name) {
  for (GemmLayout l : {GemmLayout::NN, GemmLayout::NT, GemmLayout::TN, GemmLayout::TT}) {
    const std::string_view n = gemm_layout_name(l);
    if (name.size() == 2 && std::tolower(name[0]) == std::tolower(n[0]) && std::tolower(name[1]) == std::tolower(n[1]))
      return l;
  }
  throw Error(fmt::format("gemm: unknown layout '{}'; valid: NN, NT, TN, TT (first letter A, second B: N = A M x K / "
                          "B K x N row-major, T = stored transposed: A K x M / B N x K row-major)",
                          name));
}

std::string_view gemm_output_name(GemmOutput o) {
  return o == GemmOutput::bf16 ? "bf16" : o == GemmOutput::f16 ? "f16" : "f32";
}

GemmOutput parse_gemm_output(std::string_view name) {
  if (name == "bf16") return GemmOutput::bf16;
  if (name == "f32" || name == "fp32") return GemmOutput::f32;
  if (name == "f16" || name == "fp16") return GemmOutput::f16;
  throw Error(fmt::format("gemm: unknown output type '{}'; valid: bf16, f16, f32", name));
}

std::string_view gemm_dtype_name(GemmDType t) {
  return t == GemmDType::bf16 ? "bf16" : t == GemmDType::f16 ? "f16" : t == GemmDType::e4m3 ? "e4m3" : "e5m2";
}

GemmDType parse_gemm_dtype(std::string_view name) {
  if (name == "bf16") return GemmDType::bf16;
  if (name == "f16" || name == "fp16") return GemmDType::f16;
  if (name == "e4m3" || name == "fp8") return GemmDType::e4m3;
  if (name == "e5m2" || name == "bf8") return GemmDType::e5m2;
  throw Error(fmt::format("gemm: unknown input type '{}'; valid: bf16, f16, e4m3 (fp8), e5m2 (bf8)", name));
}

std::string_view gemm_bias_name(GemmBias b) { return b == GemmBias::col ? "col" : "none"; }

GemmBias parse_gemm_bias(std::string_view name) {
  if (name == "none") return GemmBias::none;
  if (name == "col") return GemmBias::col;
  throw Error(fmt::format("gemm: unknown bias '{}'; valid: none, col (one fp32 value per output column n, added "
                          "after alpha and beta); a per-row bias is not supported",
                          name));
}

std::string_view gemm_activation_name(GemmActivation a) {
  switch (a) {
    case GemmActivation::none: return "none";
    case GemmActivation::relu: return "relu";
    case GemmActivation::silu: return "silu";
    case GemmActivation::gelu_tanh: return "gelu_tanh";
  }
  return "?";
}

GemmActivation parse_gemm_activation(std::string_view name) {
  for (GemmActivation a : {GemmActivation::none, GemmActivation::relu, GemmActivation::silu, GemmActivation::gelu_tanh})
    if (name == gemm_activation_name(a)) return a;
  throw Error(fmt::format("gemm: unknown activation '{}'; valid: none, relu, silu, gelu_tanh", name));
}

std::string GemmShape::str() const {
  std::string s = fmt::format("M{} N{} K{} {} {}", M, N, K, gemm_layout_name(layout), gemm_output_name(output));
  if (dtype != GemmDType::bf16) s += fmt::format(" {} in", gemm_dtype_name(dtype));
  if (alpha != 1.0f || beta != 0.0f) s += fmt::format(" alpha={} beta={}", alpha, beta);
  if (bias != GemmBias::none) s += fmt::format(" bias={}", gemm_bias_name(bias));
  if (act != GemmActivation::none) s += fmt::format(" act={}", gemm_activation_name(act));
  return s;
}

std::string GemmConfig::str() const {
  std::string s = fmt::format("{}x{}x{} w{}x{} st{} mfma{}", tile_m, tile_n, tile_k, waves_m, waves_n, stages, mfma_m);
  if (group_m > 0) s += fmt::format(" g{}", group_m);
  if (lds_dma) s += lds_swizzle ? " dma" : " dma-noswizzle";
  if (lds_xor) s += lds_swizzle ? " xor" : " unpadded-noswizzle";
  if (pingpong) s += " pp";
  if (read_ahead) s += " ra";
  if (ra_split > 1) s += fmt::format("/{}", ra_split);
  if (split_k > 1) s += fmt::format(" sk{}", split_k);
  if (stream_k > 0) s += fmt::format(" streamk{}", stream_k);
  return s;
}

namespace {

void need(bool ok, const std::string& what) {
  if (!ok) throw Error("gemm: " + what);
}

}  // namespace

GemmPlan make_gemm_plan(const GemmShape& s, Arch a, const GemmConfig& cfg_in) {
  GemmPlan p;
  p.shape = s;
  p.arch = a;
  p.cfg = cfg_in;
  GemmConfig& c = p.cfg;
  // Default K tile: 128-byte rows on gfx950, 64-byte on gfx942 (where a 128x128 tile's two stages
  // of 128-byte rows exceed the 64 KiB LDS).
  const bool fp8 = gemm_dtype_is_fp8(s.dtype);
  p.esize = fp8 ? 1 : 2;
  if (c.tile_k == 0) c.tile_k = (a == Arch::gfx950 ? 128 : 64) / p.esize;
  p.mfma = conv3d_mfma(a, fp8 ? Conv3dDType::fp8 : Conv3dDType::bf16, c.mfma_m);
  if (s.dtype == GemmDType::f16) {  // the f16 MFMA of the bf16 one's shape: same K, operand bytes and lane layout
    const bool g950 = a == Arch::gfx950, m16 = c.mfma_m == 16;
    using isa::Opcode;
    p.mfma.mnemonic = isa::info(g950 ? (m16 ? Opcode::v_mfma_f32_16x16x32_f16 : Opcode::v_mfma_f32_32x32x16_f16)
                                     : (m16 ? Opcode::v_mfma_f32_16x16x16_f16 : Opcode::v_mfma_f32_32x32x8_f16))
                          .mnemonic;
  }
  if (s.dtype == GemmDType::e5m2) {
    if (a == Arch::gfx950) p.mfma_format = 1;  // f8f6f4 with cbsz = blgp = 1: both operands E5M2
    else p.mfma.mnemonic = isa::info(c.mfma_m == 16 ? isa::Opcode::v_mfma_f32_16x16x32_bf8_bf8 : isa::Opcode::v_mfma_f32_32x32x16_bf8_bf8).mnemonic;
  }

  // ---- shape ----
  for (auto [v, n] : {std::pair{s.M, "M"}, {s.N, "N"}, {s.K, "K"}})
    need(v >= 1 && v <= 65536, fmt::format("{} = {} is out of range; valid: 1..65536", n, v));
  need(std::isfinite(s.alpha) && std::isfinite(s.beta),
       fmt::format("alpha = {}, beta = {}: both must be finite", s.alpha, s.beta));

  // ---- configuration ----
  check_mfma_tiling("gemm", c.tile_m, c.tile_n, c.waves_m, c.waves_n, p.mfma);
  const int mb = p.mfma.m;
  const int chunk_elems = 16 / p.esize;
  need(c.tile_k >= p.mfma.k && c.tile_k % p.mfma.k == 0 && c.tile_k % chunk_elems == 0,
       fmt::format("tile_k {}: must be a multiple of the MFMA K {} ({}) and of {}", c.tile_k, p.mfma.k, p.mfma.mnemonic,
                   chunk_elems));
  need(c.stages >= 1 && c.stages <= (c.lds_dma ? 4 : 2),
       fmt::format("stages = {}; valid: 1 or 2 LDS stages (3 or 4 with lds_dma)", c.stages));
  need(c.group_m >= 0 && c.group_m <= 64,
       fmt::format("group_m = {}; valid: 0 (2-D grid, M fastest) or 1..64 tile rows per group", c.group_m));
  need(c.split_k >= 1 && c.split_k <= kMaxSplitK,
       fmt::format("split_k = {}; valid: 1 (no split) .. {} K slices (the reduction kernel keeps every slice's "
                   "loads in flight)",
                   c.split_k, kMaxSplitK));
  if (c.split_k > 1) {
    need(s.K % (c.tile_k * c.split_k) == 0,
         fmt::format("split_k = {}: K = {} must be a multiple of split_k x tile_k = {} x {} = {} (each slice is whole "
                     "K tiles); choose a split_k or tile_k dividing K",
                     c.split_k, s.K, c.split_k, c.tile_k, c.split_k * c.tile_k));
    need(s.N % 4 == 0, fmt::format("split_k = {}: N = {} must be a multiple of 4 (the reduction kernel sums 4 "
                                   "consecutive elements per thread)",
                                   c.split_k, s.N));
  }
  // Whole 16-byte chunks and whole K tiles: out-of-range K is not masked (the K offset travels in
  // soffset, which the buffer range check does not cover).
  need(s.K % c.tile_k == 0,
       fmt::format("K = {} must be a multiple of tile_k = {} (the kernel has no K-tail masking); pad K or choose a "
                   "tile_k dividing it (a multiple of {})",
                   s.K, c.tile_k, p.mfma.k));
  if (gemm_b_k_rows(s.layout))
    need(s.N % chunk_elems == 0, fmt::format("layout {}: N = {} must be a multiple of {} (16-byte chunks of B's K rows)",
                                             gemm_layout_name(s.layout), s.N, chunk_elems));
  if (gemm_a_k_rows(s.layout))
    need(s.M % chunk_elems == 0,
         fmt::format("layout {}: M = {} must be a multiple of {} (16-byte chunks of A's K rows, A stored K x M)",
                     gemm_layout_name(s.layout), s.M, chunk_elems));

  derive_mfma_waves(p, c);
  p.k_chunks_per_row = c.tile_k / chunk_elems;
  need(std::has_single_bit(unsigned(p.k_chunks_per_row)) && p.threads % p.k_chunks_per_row == 0,
       fmt::format("tile_k {}: chunks per row ({}) must be a power of two dividing the {} threads", c.tile_k,
                   p.k_chunks_per_row, p.threads));
  p.lds_a_rows = c.tile_m;
  p.lds_b_rows = c.tile_n;
  // Chunks per thread of a K-contiguous tile of `rows` rows; on the register-staged path a last
  // partial instruction (its chunks past the tile masked, gemm.cpp load_setup) sets `lds_rows`.
  auto k_contiguous_chunks = [&](const char* op, int rows, int& lds_rows) {
    const int chunks = rows * p.k_chunks_per_row, step = p.threads / p.k_chunks_per_row;
    if (chunks % p.threads == 0) return chunks / p.threads;
    need(!c.lds_dma && c.stream_k == 0,
         fmt::format("tile {}x{}: the {} tile's {} chunks of 16 bytes must split evenly over {} threads with {}; "
                     "valid: a tile side that is a multiple of {} rows, or the register-staged path (no dma, no "
                     "stream_k), which masks the last load's chunks past the tile",
                     rows, c.tile_k, op, chunks, p.threads, c.lds_dma ? "dma" : "stream_k", step));
    lds_rows = (chunks / p.threads + 1) * step;
    return chunks / p.threads + 1;
  };
  if (gemm_a_k_rows(s.layout)) {
    // TN, TT: thread t loads the chunk_elems M columns from chunk_elems * (t % cpr) of K rows t / cpr + i * (threads / cpr)
    p.ta_chunks_per_row = c.tile_m / chunk_elems;
    need(std::has_single_bit(unsigned(p.ta_chunks_per_row)) && p.threads % p.ta_chunks_per_row == 0 &&
             c.tile_k * p.ta_chunks_per_row % p.threads == 0,
         fmt::format("layout {}, tile {}x{}x{}: the A tile ({} K rows of {} chunks) must split evenly over {} threads "
                     "(tile_m a power of two)",
                     gemm_layout_name(s.layout), c.tile_m, c.tile_n, c.tile_k, c.tile_k, p.ta_chunks_per_row,
                     p.threads));
    p.a_chunks = c.tile_k * p.ta_chunks_per_row / p.threads;
  } else {
    p.a_chunks = k_contiguous_chunks("A", c.tile_m, p.lds_a_rows);
  }
  if (!gemm_b_k_rows(s.layout)) {
    p.b_chunks = k_contiguous_chunks("B", c.tile_n, p.lds_b_rows);
  } else {
    p.nn_chunks_per_row = c.tile_n / chunk_elems;
    need(std::has_single_bit(unsigned(p.nn_chunks_per_row)) && p.threads % p.nn_chunks_per_row == 0 &&
             c.tile_k * p.nn_chunks_per_row % p.threads == 0,
         fmt::format("layout {}, tile {}x{}x{}: the B tile ({} K rows of {} chunks) must split evenly over {} threads "
                     "(tile_n a power of two)",
                     gemm_layout_name(s.layout), c.tile_m, c.tile_n, c.tile_k, c.tile_k, p.nn_chunks_per_row, p.threads));
    p.b_chunks = c.tile_k * p.nn_chunks_per_row / p.threads;
  }

  // LDS rows padded so the fragment reads are bank-conflict free (gemm.cpp, "LDS layout"); the
  // DMA path writes whole unpadded rows and swizzles the chunks instead.
  p.lds_pad_bytes = c.lds_dma || c.lds_xor ? 0 : p.mfma.a_bytes >= 16 ? 16 : 8;
  if (c.lds_xor) {
    // gemm.cpp, "LDS layout": the 16 lanes of one 8-byte read pass (16 rows, one unit) land on 16
    // distinct units of a 128-byte bank row when unit u of row r sits at u ^ (r mod 16); each thread
    // writes its chunk's two units with two ds_write_b64 whose xor is the same on all its rows.
    const int rb = c.tile_k * p.esize, step = p.threads / p.k_chunks_per_row;
    need(!c.lds_dma && p.mfma.a_bytes == 8,
         fmt::format("lds_xor with {} on {}: the 8-byte unit swizzle is for the register-staged path's 8-byte "
                     "fragment reads (gfx942); valid: gfx942 without dma",
                     c.str(), arch_name(a)));
    need(s.layout == GemmLayout::NT,
         fmt::format("lds_xor with layout {}: NT only (NN's B tile is written with 2-byte transposing writes); valid: "
                     "--layout NT",
                     gemm_layout_name(s.layout)));
    need(rb % 128 == 0 && step % 16 == 0,
         fmt::format("lds_xor with tile_k {} and {} threads: rows must be a multiple of 128 bytes (16 units of 8 "
                     "bytes; here {}) and a thread's rows 16 apart or a multiple of it (here {}); valid: tile_k {} or "
                     "{}",
                     c.tile_k, p.threads, rb, step, 128 / p.esize, 256 / p.esize));
  }
  if (c.lds_dma) {
    need(a == Arch::gfx950, "lds_dma: global_load_lds_dwordx4 (16 bytes per lane) exists only on gfx950");
    need(s.layout == GemmLayout::NT,
         fmt::format("lds_dma with layout {}: the DMA path takes layout NT only (a K x M A or K x N B tile is "
                     "transposed on its way into LDS, which the DMA cannot do); valid: --layout NT, or no --dma",
                     gemm_layout_name(s.layout)));
    need(c.mfma_m == 16, fmt::format("lds_dma with mfma_m = {}: the chunk swizzle is conflict free for 16x16 MFMA "
                                     "blocks only; valid: mfma 16",
                                     c.mfma_m));
    const int rb = c.tile_k * p.esize, step = p.threads / p.k_chunks_per_row;
    const int sr = std::max(1, 128 / rb);
    need((step / sr) % p.k_chunks_per_row == 0 && (16 / sr) % p.k_chunks_per_row == 0,
         fmt::format("lds_dma with tile_k {} and {} threads: the chunk swizzle must be the same for all of a thread's "
                     "rows (rows {} apart) and repeat every 16 rows; valid: more threads or a smaller tile_k",
                     c.tile_k, p.threads, step));
    p.swizzle_rows = c.lds_swizzle ? sr : 0;
    need((p.a_chunks + p.b_chunks) * std::max(0, c.stages - 2) <= 63,
         fmt::format("lds_dma with {} stages: {} loads per K tile, {} in flight exceed vmcnt's 63", c.stages,
                     p.a_chunks + p.b_chunks, (p.a_chunks + p.b_chunks) * (c.stages - 2)));
  }
  need(!c.pingpong || (c.lds_dma && c.stages == 2 && c.waves_m * c.waves_n == 8),
       fmt::format("pingpong with {}: the ping-pong schedule needs lds_dma, 2 stages and 8 waves (two groups of 4, "
                   "one wave of each per SIMD)",
                   c.str()));
  need(!c.read_ahead || (c.lds_dma ? c.stages == 2 && !c.pingpong : c.stages == 1),
       fmt::format("read_ahead with {}: the read-ahead schedule needs lds_dma and 2 stages (without pingpong), or "
                   "the register-staged path with 1 stage",
                   c.str()));
  need(c.ra_split == 1 || (c.ra_split == 2 && c.read_ahead && !c.lds_dma && p.mfma_per_tile % 2 == 0),
       fmt::format("ra_split = {} with {}: valid: 1, or 2 with read_ahead on the register-staged path (no dma) and an "
                   "even number of MFMA k-steps per K tile (here {})",
                   c.ra_split, c.str(), p.mfma_per_tile));
  if (c.read_ahead || c.pingpong) {
    const char* sched = c.read_ahead ? "read_ahead" : "pingpong";
    // The register-staged read-ahead splits an odd block count unevenly (read_ahead_schedule.hpp);
    // the DMA schedules' half-major rows need equal halves.
    const bool odd_ok = c.read_ahead && !c.lds_dma;
    need(odd_ok ? p.blocks_m >= 2 && p.blocks_n >= 2 : p.blocks_m % 2 == 0 && p.blocks_n % 2 == 0,
         fmt::format("{} with {}: each wave needs {} MFMA blocks along M ({}) and N ({}), the schedule works in "
                     "quadrants; valid: a larger tile or fewer waves",
                     sched, c.str(), odd_ok ? "at least 2" : "an even number of", p.blocks_m, p.blocks_n));
    // Half-major LDS rows (gemm.cpp, "Read-ahead"): each half of a tile is whole DMA chunks
    // (rows `step` apart), and a wave's half of rows is a power of two (the row map uses shifts).
    const int step = p.threads / p.k_chunks_per_row;
    need(!c.lds_dma || ((c.tile_m / 2) % step == 0 && (c.tile_n / 2) % step == 0 &&
                         std::has_single_bit(unsigned(p.wave_m / 2)) && std::has_single_bit(unsigned(p.wave_n / 2))),
         fmt::format("{} with {}: each half of the A and B tiles must be whole rows of DMA chunks ({} rows "
                     "per chunk) and a wave's half sub-tile a power of two; valid: tiles of 2 x {} rows or more",
                     sched, c.str(), step, step));
  }
  p.lds_row_bytes = c.tile_k * p.esize + p.lds_pad_bytes;
  p.lds_stage_bytes = uint32_t((p.lds_a_rows + p.lds_b_rows) * p.lds_row_bytes);
  p.lds_bytes = p.lds_stage_bytes * uint32_t(c.stages);
  need(p.lds_bytes <= lds_bytes_per_cu(a),
       fmt::format("config {}: LDS {} bytes ({} stages x {}) exceeds {}'s {} bytes (LDS limit)", c.str(), p.lds_bytes,
                   c.stages, p.lds_stage_bytes, arch_name(a), lds_bytes_per_cu(a)));
  const int acc = p.blocks_m * p.blocks_n * p.mfma.acc_regs();
  const int frags = (p.blocks_m + p.blocks_n) * p.mfma_per_tile / c.ra_split * p.mfma.a_bytes / 4;
  const int vgprs = frags + (p.a_chunks + p.b_chunks) * (c.lds_dma ? 1 : 5) + 40;
  need(acc <= 256, fmt::format("config {}: {} accumulator registers per wave exceed the 256 AGPRs", c.str(), acc));
  need(vgprs <= 256, fmt::format("config {}: about {} VGPRs per wave ({} fragment) exceed 256 (register limit); use "
                                 "a smaller tile_k or wave sub-tile",
                                 c.str(), vgprs, frags));
  // DS immediate offsets (16 bits): fragment reads past their base, chunk writes within a tile
  // (A and B have their own write bases).
  const int max_ds = std::max({(p.blocks_m - 1) * mb * p.lds_row_bytes + c.tile_k * p.esize,
                               (p.blocks_n - 1) * mb * p.lds_row_bytes + c.tile_k * p.esize,
                               std::max(p.lds_a_rows, p.lds_b_rows) * p.lds_row_bytes});
  need(max_ds <= 65535, fmt::format("config {}: LDS offsets up to {} bytes exceed the 16-bit DS offset field",
                                    c.str(), max_ds));

  // ---- grid and 32-bit offsets (out-of-range accesses use offset 0x80000000, past num_records) ----
  p.k_tiles = s.K / c.tile_k / c.split_k;
  p.tiles_m = (s.M + c.tile_m - 1) / c.tile_m;
  p.tiles_n = (s.N + c.tile_n - 1) / c.tile_n;
  plan_tile_grid(c.group_m, p.tiles_m, p.tiles_n, p.grid, p.xcd_remap);
  p.grid[2] = uint32_t(c.split_k);
  if (c.stream_k != 0) {
    need(c.stream_k > 0 && c.split_k == 1 && !c.lds_dma && !c.read_ahead && !c.pingpong && !c.lds_xor &&
             c.group_m == 0,
         fmt::format("stream_k = {} with {}: stream-K runs on the padded register-staged path (1 or 2 stages) in "
                     "tile order M fastest; valid: stream_k >= 1 without split_k, dma, read_ahead, pingpong, lds_xor "
                     "or group_m",
                     c.stream_k, c.str()));
    need(s.N % 4 == 0 && c.tile_m * c.tile_n % 1024 == 0,
         fmt::format("stream_k with N = {} and a {}x{} tile: the fix-up kernel sums 4 consecutive elements per "
                     "thread, 256 threads per tile; valid: N a multiple of 4 and tile_m x tile_n a multiple of 1024",
                     s.N, c.tile_m, c.tile_n));
    p.sk_iterations = int64_t(p.tiles_m) * p.tiles_n * p.k_tiles;
    need(p.sk_iterations < (int64_t(1) << 31), fmt::format("stream_k: {} MAC iterations exceed 2^31", p.sk_iterations));
    p.sk_per = int((p.sk_iterations + c.stream_k - 1) / c.stream_k);
    p.sk_groups = int((p.sk_iterations + p.sk_per - 1) / p.sk_per);  // every workgroup has >= 1 iteration
    p.grid[0] = uint32_t(p.sk_groups);
    p.grid[1] = p.grid[2] = 1;
  }
  const int64_t lim = int64_t(1) << 30;
  need(p.a_bytes() < lim && p.b_bytes() < lim && p.c_bytes() < lim,
       fmt::format("{}: A, B and C must each stay below 1 GiB (32-bit buffer offsets)", s.str()));
  need(p.workspace_bytes() < lim,
       fmt::format("{} split_k = {}: the fp32 workspace ({} slices x M x N x 4 = {} bytes) must stay below 1 GiB "
                   "(32-bit buffer offsets); use a smaller split_k",
                   s.str(), c.split_k, c.split_k, p.workspace_bytes()));
  need(p.sk_workspace_bytes() < lim,
       fmt::format("{} stream_k = {}: the fp32 workspace (2 x {} workgroups x a {}x{} tile) must stay below 1 GiB",
                   s.str(), c.stream_k, p.sk_groups, c.tile_m, c.tile_n));
  return p;
}

std::vector<GemmConfig> enumerate_gemm_configs(const GemmShape& s, Arch a) {
  std::vector<GemmConfig> out;
  for (int tm : {64, 112, 128, 224, 256})  // 112, 224: 19 tiles along 2048 / 4096 (304-CU products)
    for (int tn : {64, 112, 128, 224, 256})
      for (int tk : {32, 64, 128})
        for (int wm : {1, 2, 4})
          for (int wn : {1, 2, 4})
            for (int st : {1, 2, 3, 4})
              for (int mb : {16, 32})
                for (bool dma : {false, true})
                  for (int g : {0, 8}) {
                    GemmConfig c;
                    c.tile_m = tm; c.tile_n = tn; c.tile_k = tk; c.waves_m = wm; c.waves_n = wn; c.stages = st;
                    c.mfma_m = mb; c.lds_dma = dma; c.group_m = g;
                    for (int sched : {0, 1, 2})  // lock-step, read-ahead, ping-pong
                      for (bool xr : {false, true})
                        for (int split : {1, 2}) {
                          c.read_ahead = sched == 1;
                          c.pingpong = sched == 2;
                          c.lds_xor = xr;
                          c.ra_split = split;
                          try {
                            make_gemm_plan(s, a, c);
                            out.push_back(c);
                          } catch (const Error&) {
                          }
                        }
                  }
  return out;
}

}  // namespace cdnajit::codegen
