#include "codegen/conv3d_igemm_config.hpp"

#include <fmt/format.h>

#include <bit>

#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"

namespace cdnajit::codegen {

std::string Conv3dShape::str() const {
  return fmt::format("N{} C{} D{} H{} W{} K{} k{}x{}x{} s{},{},{} p{},{},{} d{},{},{}{}", N, C, D, H, W, K, T, R, S,
                     stride[0], stride[1], stride[2], pad[0], pad[1], pad[2], dil[0], dil[1], dil[2],
                     bias ? " bias" : "");
}

Conv3dShape conv3d_seed_shape(int hw) {
  Conv3dShape s;
  s.N = 1; s.C = 128; s.D = 6; s.H = hw; s.W = hw; s.K = 128; s.T = 3; s.R = 3; s.S = 3;
  for (int i = 0; i < 3; ++i) s.pad[i] = 1;
  return s;
}

std::string_view dtype_name(Conv3dDType t) { return t == Conv3dDType::bf16 ? "bf16" : "fp8"; }

Conv3dDType parse_dtype(std::string_view name) {
  if (name == "bf16") return Conv3dDType::bf16;
  if (name == "fp8") return Conv3dDType::fp8;
  throw Error(fmt::format("conv3d: unknown dtype '{}'; valid: bf16, fp8", name));
}

std::string Conv3dConfig::str() const {
  return fmt::format("{}x{}x{} w{}x{} st{} sk{} {}{}{}{}", tile_m, tile_n, tile_k, waves_m, waves_n, stages, split_k,
                     mapping == Conv3dMapping::m_fastest ? "m" : "n", lds_dma == 1 ? " dma" : "",
                     mfma_m == 32 ? " mfma32" : "", prefetch == 2 ? " pf2" : "");
}

// gfx942: v_mfma_f32_16x16x16_bf16 (LLVM 22's name for the "_1k" encoding; it also accepts
// v_mfma_f32_16x16x16bf16_1k for the same opcode) and v_mfma_f32_16x16x32_fp8_fp8 (FNUZ).
// gfx950: v_mfma_f32_16x16x32_bf16 and v_mfma_f32_16x16x128_f8f6f4 with cbsz = blgp = 0 (OCP E4M3FN).
// The 32x32 forms: gfx942 v_mfma_f32_32x32x8_bf16 (the "_1k" encoding, v_mfma_f32_32x32x8bf16_1k)
// and v_mfma_f32_32x32x16_fp8_fp8; gfx950 v_mfma_f32_32x32x16_bf16 and v_mfma_f32_32x32x64_f8f6f4.
// Lane layout of an MxMxK MFMA, M = 16 or 32 (AMD CDNA3 ISA guide, "Dense matrix multiply"; the
// simulator's runtime/sim/ops_mfma.cpp implements the same table): with G = 64 / M lane groups,
// lane l holds A[l % M][(l / M) * K/G + j] and B[(l / M) * K/G + j][l % M], j < K/G;
// D register r of lane l is D[8 * (r / 4) + 4 * (l / M) + r % 4][l % M].
MfmaShape conv3d_mfma(Arch a, Conv3dDType t, int m) {
  if (m != 16 && m != 32)
    throw Error(fmt::format("conv3d implicit GEMM: mfma_m = {}; valid: 16 (16x16xK MFMA) or 32 (32x32xK)", m));
  const bool c4 = a == Arch::gfx950;
  if (m == 32) {
    if (t == Conv3dDType::bf16)
      return c4 ? MfmaShape{isa::info(isa::Opcode::v_mfma_f32_32x32x16_bf16).mnemonic, 16, 16, 32}
              : MfmaShape{isa::info(isa::Opcode::v_mfma_f32_32x32x8_bf16).mnemonic, 8, 8, 32};
    return c4 ? MfmaShape{isa::info(isa::Opcode::v_mfma_f32_32x32x64_f8f6f4).mnemonic, 64, 32, 32}
              : MfmaShape{isa::info(isa::Opcode::v_mfma_f32_32x32x16_fp8_fp8).mnemonic, 16, 8, 32};
  }
  if (t == Conv3dDType::bf16)
    return c4 ? MfmaShape{isa::info(isa::Opcode::v_mfma_f32_16x16x32_bf16).mnemonic, 32, 16}
              : MfmaShape{isa::info(isa::Opcode::v_mfma_f32_16x16x16_bf16).mnemonic, 16, 8};
  return c4 ? MfmaShape{isa::info(isa::Opcode::v_mfma_f32_16x16x128_f8f6f4).mnemonic, 128, 32}
            : MfmaShape{isa::info(isa::Opcode::v_mfma_f32_16x16x32_fp8_fp8).mnemonic, 32, 8};
}

int64_t Conv3dPlan::xt_bytes() const { return int64_t(shape.N) * shape.D * shape.H * shape.W * Cp * esize; }
int64_t Conv3dPlan::wt_bytes() const { return int64_t(shape.K) * kdim_padded * esize; }

namespace {

void need(bool ok, const std::string& what) {
  if (!ok) throw Error("conv3d implicit GEMM: " + what);
}

}  // namespace

void check_mfma_tiling(std::string_view who, int tile_m, int tile_n, int waves_m, int waves_n, const MfmaShape& mfma) {
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) throw Error(fmt::format("{}: {}", who, what));
  };
  need(tile_m >= 16 && tile_m <= 256 && tile_n >= 16 && tile_n <= 256,
       fmt::format("tile {}x{}: each side must be 16..256", tile_m, tile_n));
  need(waves_m >= 1 && waves_n >= 1 && waves_m * waves_n <= 16,
       fmt::format("waves {}x{}: at most 16 waves (1024 threads) per workgroup", waves_m, waves_n));
  const int mb = mfma.m;
  need(tile_m % (mb * waves_m) == 0 && tile_n % (mb * waves_n) == 0,
       fmt::format("tile {}x{} with waves {}x{}: each wave's sub-tile ({}x{}) must be a multiple of the {}x{} MFMA "
                   "block ({}); valid: tile_m a multiple of {}, tile_n of {}",
                   tile_m, tile_n, waves_m, waves_n, tile_m / waves_m, tile_n / waves_n, mb, mb, mfma.mnemonic,
                   mb * waves_m, mb * waves_n));
}

Conv3dPlan make_conv3d_plan(const Conv3dShape& s, Conv3dDType t, Arch a, const Conv3dConfig& cfg_in, Conv3dOutput out) {
  Conv3dPlan p;
  p.shape = s;
  p.dtype = t;
  p.output = out;
  p.arch = a;
  p.cfg = cfg_in;
  Conv3dConfig& c = p.cfg;
  p.mfma = conv3d_mfma(a, t, c.mfma_m);
  p.esize = t == Conv3dDType::bf16 ? 2 : 1;
  p.chunk_elems = 16 / p.esize;
  if (c.tile_k == 0) c.tile_k = t == Conv3dDType::bf16 ? 32 : (a == Arch::gfx950 ? 128 : 64);

  // ---- shape ----
  for (auto [v, n] : {std::pair{s.N, "N"}, {s.C, "C"}, {s.D, "D"}, {s.H, "H"}, {s.W, "W"}, {s.K, "K"}, {s.T, "T"},
                      {s.R, "R"}, {s.S, "S"}})
    need(v >= 1 && v <= 65535, fmt::format("{} = {} is out of range; valid: 1..65535", n, v));
  for (int i = 0; i < 3; ++i) {
    need(s.stride[i] >= 1 && s.stride[i] <= 64, fmt::format("stride[{}] = {}; valid: 1..64", i, s.stride[i]));
    need(s.dil[i] >= 1 && s.dil[i] <= 64, fmt::format("dilation[{}] = {}; valid: 1..64", i, s.dil[i]));
    need(s.pad[i] >= 0 && s.pad[i] <= 64, fmt::format("pad[{}] = {}; valid: 0..64", i, s.pad[i]));
  }
  need(s.Do() >= 1 && s.Ho() >= 1 && s.Wo() >= 1,
       fmt::format("{}: the output would be empty (Do {}, Ho {}, Wo {}); the dilated kernel must fit the padded input",
                   s.str(), s.Do(), s.Ho(), s.Wo()));
  p.Cp = (s.C + p.chunk_elems - 1) / p.chunk_elems * p.chunk_elems;
  p.kdim = int64_t(s.taps()) * p.Cp;

  // ---- configuration ----
  check_mfma_tiling("conv3d implicit GEMM", c.tile_m, c.tile_n, c.waves_m, c.waves_n, p.mfma);
  need(c.tile_k >= p.mfma.k && c.tile_k % p.mfma.k == 0,
       fmt::format("tile_k {}: must be a multiple of the MFMA K {} ({})", c.tile_k, p.mfma.k, p.mfma.mnemonic));
  need(c.stages == 1 || c.stages == 2,
       fmt::format("stages = {}: the register-staged pipeline has 1 or 2 LDS stages", c.stages));
  need(c.split_k >= 1 && c.split_k <= 64, fmt::format("split_k = {}; valid: 1..64", c.split_k));
  derive_mfma_waves(p, c);
  int row_bytes = c.tile_k * p.esize;
  need(row_bytes % 16 == 0, fmt::format("tile_k {}: a tile row must be whole 16-byte chunks (alignment)", c.tile_k));
  p.chunks_per_row = row_bytes / 16;
  need(std::has_single_bit(unsigned(p.chunks_per_row)) && p.threads % p.chunks_per_row == 0,
       fmt::format("tile_k {}: chunks per row ({}) must be a power of two dividing the {} threads (alignment)", c.tile_k,
                   p.chunks_per_row, p.threads));
  need(c.tile_m * p.chunks_per_row % p.threads == 0 && c.tile_n * p.chunks_per_row % p.threads == 0,
       fmt::format("tile {}x{}x{}: the A and B tiles ({} and {} chunks of 16 bytes) must split evenly over {} threads "
                   "(alignment)",
                   c.tile_m, c.tile_n, c.tile_k, c.tile_m * p.chunks_per_row, c.tile_n * p.chunks_per_row, p.threads));
  p.a_chunks = c.tile_m * p.chunks_per_row / p.threads;
  p.b_chunks = c.tile_n * p.chunks_per_row / p.threads;

  // LDS rows padded so the fragment reads are bank-conflict free (conv3d_igemm.cpp,
  // "LDS layout"): 16 bytes of padding for 16/32-byte fragment reads (ds_read_b128),
  // 8 bytes for 8-byte reads (ds_read_b64).
  if (c.lds_dma < 0) c.lds_dma = (t == Conv3dDType::fp8 && a == Arch::gfx950) ? 1 : 0;
  need(c.lds_dma == 0 || c.lds_dma == 1, fmt::format("lds_dma = {}; valid: -1 (default), 0, 1", c.lds_dma));
  p.lds_dma = c.lds_dma == 1;
  if (p.lds_dma) {
    need(a == Arch::gfx950, "lds_dma: global_load_lds_dwordx4 (16 bytes per lane) exists only on gfx950");
    // Unpadded rows (each DMA writes 64 consecutive 16-byte chunks); reads stay conflict free by
    // storing logical chunk c of row r at slot c ^ ((r / swizzle_rows) % chunks_per_row).
    p.swizzle_rows = std::max(1, 128 / row_bytes);
    int step = p.threads / p.chunks_per_row;  // rows between a thread's chunks
    need((step / p.swizzle_rows) % p.chunks_per_row == 0 && (16 / p.swizzle_rows) % p.chunks_per_row == 0,
         fmt::format("lds_dma with tile_k {} and {} threads: the chunk swizzle must repeat every 16 rows and every "
                     "{} rows (alignment); use tile_k <= 256 (fp8) / 128 (bf16)",
                     c.tile_k, p.threads, step));
    p.lds_pad_bytes = 0;
  } else {
    p.lds_pad_bytes = p.mfma.a_bytes >= 16 ? 16 : 8;
  }
  const bool prefetch_auto = c.prefetch == 0;
  if (prefetch_auto) c.prefetch = (c.stages == 2 && !p.lds_dma) ? 2 : 1;
  need(c.prefetch == 1 || c.prefetch == 2,
       fmt::format("prefetch = {}; valid: 0 (default), 1 or 2 K tiles in flight", c.prefetch));
  need(c.prefetch == 1 || (c.stages == 2 && !p.lds_dma),
       fmt::format("prefetch 2 needs the register-staged pipeline with 2 LDS stages (stages {}, lds_dma {}): with "
                   "one stage nothing overlaps, and the DMA path has no staging registers (it would need a third LDS "
                   "stage)",
                   c.stages, p.lds_dma ? "on" : "off"));
  p.lds_row_bytes = row_bytes + p.lds_pad_bytes;
  p.lds_stage_bytes = uint32_t((c.tile_m + c.tile_n) * p.lds_row_bytes);
  p.lds_bytes = p.lds_stage_bytes * uint32_t(c.stages);
  need(p.lds_bytes <= lds_bytes_per_cu(a),
       fmt::format("config {}: LDS {} bytes ({} stages x {} bytes) exceeds {}'s {} bytes per CU (LDS limit)", c.str(),
                   p.lds_bytes, c.stages, p.lds_stage_bytes, arch_name(a), lds_bytes_per_cu(a)));
  // Register estimate (the allocator has the final word; exhaustion is an error there too).
  int acc = p.blocks_m * p.blocks_n * p.mfma.acc_regs();
  int frags = (p.blocks_m + p.blocks_n) * p.mfma_per_tile * p.mfma.a_bytes / 4;
  // A fragment of two 16-byte reads (32-byte fp8 fragments on gfx950) is assembled by partial
  // writes, which the register allocator keeps live around the K loop; prefetch 2 unrolls the loop
  // by two, so such fragments are counted twice.
  auto estimate = [&] {
    const int frag_regs = frags * (c.prefetch == 2 && p.mfma.a_bytes > 16 ? 2 : 1);
    return frag_regs + (p.a_chunks + p.b_chunks) * 4 * c.prefetch + 3 * p.a_chunks + p.b_chunks + 32;
  };
  if (prefetch_auto && c.prefetch == 2 && estimate() > 256) c.prefetch = 1;  // the default falls back to one set
  int staging = (p.a_chunks + p.b_chunks) * 4 * c.prefetch;
  int vgpr_estimate = estimate();
  need(acc <= 256, fmt::format("config {}: {} accumulator registers per wave exceed the 256 AGPRs (register limit)",
                               c.str(), acc));
  need(vgpr_estimate <= 256,
       fmt::format("config {}: about {} VGPRs per wave ({} fragment, {} staging) exceed 256 (register limit)", c.str(),
                   vgpr_estimate, frags, staging));

  const int max_ds = conv3d_max_ds_offset(p);
  need(max_ds <= 65535, fmt::format("config {}: LDS offsets up to {} bytes exceed the 16-bit DS offset field "
                                    "(alignment/addressing limit); use a smaller tile",
                                    c.str(), max_ds));

  // ---- GEMM geometry ----
  p.kdim_padded = (p.kdim + c.tile_k - 1) / c.tile_k * c.tile_k;
  p.k_tiles = int(p.kdim_padded / c.tile_k);
  p.tiles_per_split = (p.k_tiles + c.split_k - 1) / c.split_k;
  p.splits = (p.k_tiles + p.tiles_per_split - 1) / p.tiles_per_split;
  int64_t m = s.gemm_m();
  p.tiles_m = int((m + c.tile_m - 1) / c.tile_m);
  p.tiles_n = (s.K + c.tile_n - 1) / c.tile_n;
  if (c.mapping == Conv3dMapping::m_fastest) {
    p.grid[0] = uint32_t(p.tiles_m);
    p.grid[1] = uint32_t(p.tiles_n);
  } else {
    p.grid[0] = uint32_t(p.tiles_n);
    p.grid[1] = uint32_t(p.tiles_m);
  }
  p.grid[2] = uint32_t(p.splits);

  // ---- 32-bit offsets: out-of-range accesses are sent to 0x80000000 (past num_records) ----
  const int64_t lim = int64_t(1) << 30;
  need(p.xt_bytes() < lim && p.wt_bytes() < lim && s.output_elems() * 4 < lim && s.input_elems() * 2 < lim,
       fmt::format("{}: tensors must stay below 1 GiB (32-bit buffer offsets with an out-of-range marker at 2^31)",
                   s.str()));
  return p;
}

int conv3d_max_ds_offset(const Conv3dPlan& p) {
  const int RB = p.lds_row_bytes;
  const int mb = p.mfma.m;
  if (p.lds_dma) return std::max(p.blocks_m, p.blocks_n) * mb * RB;  // per-fragment bases, blocks apart
  int m = (p.blocks_m - 1) * mb * RB + p.cfg.tile_k * p.esize;
  m = std::max(m, (p.blocks_n - 1) * mb * RB + p.cfg.tile_k * p.esize);
  return std::max(m, (p.cfg.tile_m + p.cfg.tile_n) * RB);
}

std::vector<Conv3dConfig> enumerate_conv3d_configs(const Conv3dShape& s, Conv3dDType t, Arch a) {
  std::vector<Conv3dConfig> out;
  int mk = conv3d_mfma(a, t).k;
  for (int tm : {64, 128, 256})
    for (int tn : {64, 128, 256})
      for (int kk : {1, 2, 4})
        for (int wm : {1, 2, 4})
          for (int wn : {1, 2, 4})
            for (int st : {1, 2})
              for (int sk : {1, 2, 4})
                for (Conv3dMapping mp : {Conv3dMapping::m_fastest, Conv3dMapping::n_fastest})
                  for (int mb : {16, 32}) {
                    Conv3dConfig c;
                    c.tile_m = tm; c.tile_n = tn; c.tile_k = kk * mk; c.waves_m = wm; c.waves_n = wn;
                    c.stages = st; c.split_k = sk; c.mapping = mp; c.mfma_m = mb;
                    try {
                      make_conv3d_plan(s, t, a, c);
                      out.push_back(c);
                    } catch (const Error&) {
                    }
                  }
  return out;
}

}  // namespace cdnajit::codegen
