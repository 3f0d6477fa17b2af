// The MX-scaled GEMM: plan and generator (kernel structure in gemm_mx.hpp).
#include "codegen/gemm_mx.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "codegen/gemm_config.hpp"  // plan_tile_grid
#include "codegen/gemm_mx_lds.hpp"
#include "codegen/mfma_gemm_emitter.hpp"
#include "codegen/read_ahead_schedule.hpp"
#include "codegen/workgroup_fit.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/target.hpp"

namespace cdnajit::codegen {

std::string_view mx_format_name(MxFormat f) {
  switch (f) {
    case MxFormat::bf8: return "bf8";
    case MxFormat::fp6: return "fp6";
    case MxFormat::bf6: return "bf6";
    case MxFormat::fp4: return "fp4";
    default: return "fp8";
  }
}

MxFormat parse_mx_format(std::string_view name) {
  if (name == "fp8") return MxFormat::fp8;
  if (name == "bf8") return MxFormat::bf8;
  if (name == "fp6") return MxFormat::fp6;
  if (name == "bf6") return MxFormat::bf6;
  if (name == "fp4") return MxFormat::fp4;
  throw Error(fmt::format("gemm-mx: MX format '{}' is not supported (valid: fp8 = MXFP8 E4M3, bf8 = MXFP8 E5M2, fp6 = MXFP6 E2M3, "
                          "bf6 = MXFP6 E3M2, fp4 = MXFP4 E2M1)",
                          name));
}

std::string_view gemm_mx_output_name(GemmMxOutput o) { return o == GemmMxOutput::bf16 ? "bf16" : "f32"; }

GemmMxOutput parse_gemm_mx_output(std::string_view name) {
  if (name == "f32") return GemmMxOutput::f32;
  if (name == "bf16") return GemmMxOutput::bf16;
  throw Error(fmt::format("gemm-mx: output type '{}' is not supported (valid: f32, bf16)", name));
}

std::string_view gemm_mx_scale_layout_name(GemmMxScaleLayout l) { return l == GemmMxScaleLayout::km ? "km" : "mk"; }

GemmMxScaleLayout parse_gemm_mx_scale_layout(std::string_view name) {
  if (name == "mk") return GemmMxScaleLayout::mk;
  if (name == "km") return GemmMxScaleLayout::km;
  throw Error(fmt::format("gemm-mx: scale layout '{}' is not supported (valid: mk = SA[m][k/32], km = SA[k/32][m])", name));
}

std::string GemmMxShape::str() const {
  return fmt::format("M{} N{} K{} mx{} {}{}", M, N, K, mx_format_name(format), gemm_mx_output_name(output),
                     scales == GemmMxScaleLayout::km ? " scales-km" : "");
}

std::string GemmMxConfig::str() const {
  std::string s = read_ahead ? fmt::format("{}x{}x{} w{}x{} mfma{}", tile_m, tile_n, tile_k, waves_m, waves_n, mfma_m)
                             : fmt::format("{}x{} w{}x{} mfma{}", tile_m, tile_n, waves_m, waves_n, mfma_m);
  if (group_m > 0) s += fmt::format(" g{}", group_m);
  if (read_ahead) s += lds_swizzle ? " ra" : " ra-noswizzle";
  if (persistent > 0) s += fmt::format(" p{}", persistent);
  return s;
}

namespace {

void need(bool ok, const GemmMxPlan& p, const std::string& what) {
  if (!ok) throw Error(fmt::format("gemm-mx read_ahead with {} for {}: {}", p.cfg.str(), p.shape.str(), what));
}

// Persistent workgroups (GemmMxConfig::persistent): every limit an Error.
void plan_persistent(GemmMxPlan& p) {
  const GemmMxConfig& c = p.cfg;
  need(c.persistent <= 64, p, fmt::format("persistent = {} output tiles per workgroup (valid: 1 .. 64)", c.persistent));
  need(p.transposed_acc, p,
       "persistent workgroups store each quadrant during the next one's MFMAs, which needs the transposed "
       "accumulators: N a multiple of 4 and one wave per SIMD (4 waves)");
  need(c.group_m > 0, p, "persistent workgroups walk the grouped tile order; valid: group_m >= 1");
  need(p.shape.M % c.tile_m == 0 && p.shape.N % c.tile_n == 0, p,
       fmt::format("persistent workgroups address every tile relative to its origin: M = {} and N = {} must be "
                   "multiples of the tile",
                   p.shape.M, p.shape.N));
  need(p.k_tiles >= 4 && p.k_tiles % 2 == 0, p,
       fmt::format("persistent workgroups need an even number of K tiles, at least 4 (K / tile_k = {}), so a K tile's "
                   "LDS stage is the same in every output tile",
                   p.k_tiles));
  p.tiles_total = p.tiles_m * p.tiles_n;
  p.grid[0] = uint32_t((p.tiles_total + c.persistent - 1) / c.persistent);
  p.grid[1] = p.grid[2] = 1;
}

// The LDS read-ahead pipeline's derived sizes (gemm_mx_lds.cpp "LDS layout"); every limit an Error.
void plan_lds_read_ahead(GemmMxPlan& p) {
  GemmMxConfig& c = p.cfg;
  const int bits = mx_format_bits(p.shape.format);
  need(c.mfma_m == 16, p, "the chunk swizzle is conflict free for 16x16 MFMA blocks only; valid: mfma 16");
  need(bits != 6, p,
       "fp6/bf6 fragments are 24 bytes, which the power-of-two rows of 16-byte chunks do not hold; valid: the "
       "direct pipeline (no read_ahead) or fp8, bf8, fp4");
  if (c.tile_k == 0) c.tile_k = p.mfma_k;  // one k-step: 128-byte fp8 rows, 64-byte fp4 rows
  need(c.tile_k % p.mfma_k == 0 && c.tile_k / p.mfma_k <= 2, p,
       fmt::format("tile_k = {} must be {} or {} (one or two MFMA k-steps: a block's scale bytes of one tile share "
                   "one VGPR)",
                   c.tile_k, p.mfma_k, 2 * p.mfma_k));
  need(p.shape.K % c.tile_k == 0, p,
       fmt::format("K = {} must be a multiple of tile_k = {} (no K-tail masking)", p.shape.K, c.tile_k));
  p.k_tiles = p.shape.K / c.tile_k;
  p.k_steps_per_tile = c.tile_k / p.mfma_k;
  p.lds_row_bytes = c.tile_k * bits / 8;
  p.k_chunks_per_row = p.lds_row_bytes / 16;
  const int cpr = p.k_chunks_per_row, step = p.threads / cpr;
  need(std::has_single_bit(unsigned(cpr)) && p.threads % cpr == 0, p,
       fmt::format("{} chunks of 16 bytes per row must be a power of two dividing the {} threads", cpr, p.threads));
  need(p.blocks_m % 2 == 0 && p.blocks_n % 2 == 0, p,
       fmt::format("each wave needs an even number of MFMA blocks along M ({}) and N ({}), the schedule works in "
                   "quadrants; valid: a larger tile or fewer waves",
                   p.blocks_m, p.blocks_n));
  need((c.tile_m / 2) % step == 0 && (c.tile_n / 2) % step == 0 && std::has_single_bit(unsigned(p.wave_m / 2)) &&
           std::has_single_bit(unsigned(p.wave_n / 2)),
       p,
       fmt::format("each half of the A and B tiles must be whole rows of DMA chunks ({} rows per instruction) and a "
                   "wave's half sub-tile a power of two; valid: tiles of 2 x {} rows or more",
                   step, step));
  p.a_chunks = c.tile_m * cpr / p.threads;
  p.b_chunks = c.tile_n * cpr / p.threads;
  const int sr = std::max(1, 128 / p.lds_row_bytes);
  need((step / sr) % cpr == 0 && (16 / sr) % cpr == 0, p,
       "the chunk swizzle must be the same for all of a thread's rows and repeat every 16 rows; valid: more "
       "threads or a smaller tile_k");
  p.swizzle_rows = c.lds_swizzle ? sr : 0;
  // Transposed accumulators where the wave is alone on its SIMD (the case they were made for: its
  // stores then overlap its last K tile's MFMAs). With two waves per SIMD the model drains them
  // slower than the per-element stores (MXFP4 4096^3 256x256x128 w2x4 bf16: 4022 against 4660
  // TFLOP/s modelled, the workgroup's waves idle draining 27% of the time against 4%), for a
  // reason not yet found, so those configurations keep the per-element stores.
  p.transposed_acc = p.shape.N % 4 == 0 && p.threads <= 64 * isa::target::kSimdsPerCu;
  // Scales: one dword (4 K blocks = one k-step) per row per k-step; a half tile's A rows then B
  // rows, each a whole number of wave loads (64 dwords), so a wave's load is A's or B's.
  p.scale_dwords_per_row = p.k_steps_per_tile;
  const int a_slots = c.tile_m / 2 * p.scale_dwords_per_row, b_slots = c.tile_n / 2 * p.scale_dwords_per_row;
  need(a_slots % 64 == 0 && b_slots % 64 == 0, p,
       fmt::format("a half tile's scale dwords ({} of A, {} of B) must be whole wave loads of 64; valid: tiles of "
                   "128 rows or more per operand, or tile_k = {}",
                   a_slots, b_slots, 2 * p.mfma_k));
  if (p.shape.scales == GemmMxScaleLayout::km)
    need(p.shape.M % 4 == 0 && p.shape.N % 4 == 0 && std::has_single_bit(unsigned(c.tile_m / 8)) &&
             std::has_single_bit(unsigned(c.tile_n / 8)),
         p,
         fmt::format("km scales are loaded 4 rows per dword: M = {} and N = {} must be multiples of 4 and the tiles "
                     "powers of two",
                     p.shape.M, p.shape.N));
  p.scale_loads_per_half = (a_slots + b_slots + p.threads - 1) / p.threads;
  p.lds_scale_half_bytes = uint32_t(p.scale_loads_per_half * p.threads * 4);
  const int loads_per_half = (p.a_chunks + p.b_chunks) / 2 + p.scale_loads_per_half;
  need(2 * loads_per_half <= 63, p, fmt::format("{} loads per half tile: two halves in flight exceed vmcnt's 63", loads_per_half));
  // LDS: the scales of 2 stages x 2 halves, then A's two stages, then B's: each operand's stage 1
  // is within the 16-bit DS offset of its stage 0 (one read base serves both).
  p.lds_a_offset = 4 * p.lds_scale_half_bytes;
  p.lds_b_offset = p.lds_a_offset + 2 * uint32_t(c.tile_m * p.lds_row_bytes);
  p.lds_bytes = p.lds_b_offset + 2 * uint32_t(c.tile_n * p.lds_row_bytes);
  need(p.lds_bytes <= lds_bytes_per_cu(p.arch), p,
       fmt::format("LDS {} bytes exceed gfx950's {}", p.lds_bytes, lds_bytes_per_cu(p.arch)));
  const int max_ds = std::max(c.tile_m, c.tile_n) * p.lds_row_bytes * 2 - 16 * p.lds_row_bytes;
  need(max_ds <= 65535, p, fmt::format("LDS read offsets up to {} bytes exceed the 16-bit DS offset", max_ds));
  if (c.persistent > 0) plan_persistent(p);
  const int acc = p.blocks_m * p.blocks_n * p.acc_regs();
  const int vgprs = (p.blocks_m + p.blocks_n) * (p.k_steps_per_tile * p.frag_dwords + 1) + p.a_chunks + p.b_chunks + 16;
  need(acc <= 256 && vgprs <= 256, p,
       fmt::format("about {} VGPRs and {} accumulator registers per wave exceed 256 each; use a smaller wave sub-tile",
                   vgprs, acc));
}

}  // namespace

GemmMxPlan make_gemm_mx_plan(const GemmMxShape& s, Arch a, const GemmMxConfig& cfg) {
  if (a != Arch::gfx950)
    throw Error(fmt::format("gemm-mx: {} has no block-scaled MFMA (v_mfma_scale_f32_*_f8f6f4 is gfx950 only); "
                            "valid arch: gfx950",
                            arch_name(a)));
  if (s.M < 1 || s.N < 1 || s.K < 1)
    throw Error(fmt::format("gemm-mx: M = {}, N = {}, K = {}: every dimension must be at least 1", s.M, s.N, s.K));
  GemmMxPlan p;
  p.shape = s;
  p.cfg = cfg;
  p.arch = a;
  if (cfg.mfma_m == 16) {
    p.mnemonic = isa::info(isa::Opcode::v_mfma_scale_f32_16x16x128_f8f6f4).mnemonic;
    p.mfma_k = 128;
  } else if (cfg.mfma_m == 32) {
    p.mnemonic = isa::info(isa::Opcode::v_mfma_scale_f32_32x32x64_f8f6f4).mnemonic;
    p.mfma_k = 64;
  } else {
    throw Error(fmt::format("gemm-mx: mfma_m = {} (valid: 16 = 16x16x128, 32 = 32x32x64)", cfg.mfma_m));
  }
  if (cfg.persistent != 0 && !cfg.read_ahead)
    throw Error(fmt::format("gemm-mx: persistent = {} applies to the LDS read-ahead pipeline only (valid: 0 without "
                            "read_ahead)",
                            cfg.persistent));
  if (cfg.persistent < 0)
    throw Error(fmt::format("gemm-mx: persistent = {} (valid: 0 = off, or 1 .. 64 output tiles per workgroup)", cfg.persistent));
  if (cfg.tile_k != 0 && !cfg.read_ahead)
    throw Error(fmt::format("gemm-mx: tile_k = {} applies to the LDS read-ahead pipeline only (valid: 0 without "
                            "read_ahead)",
                            cfg.tile_k));
  if (s.K % p.mfma_k != 0)
    throw Error(fmt::format("gemm-mx: K = {} must be a multiple of {} (the K of {})", s.K, p.mfma_k, p.mnemonic));
  if (cfg.waves_m < 1 || cfg.waves_n < 1 || cfg.waves_m * cfg.waves_n > 16)
    throw Error(fmt::format("gemm-mx: waves {}x{}: each at least 1, at most 16 waves in all", cfg.waves_m, cfg.waves_n));
  auto split = [&](int tile, int waves, const char* what) {
    if (tile < 1 || tile % (waves * cfg.mfma_m) != 0)
      throw Error(fmt::format("gemm-mx: tile_{} = {} must be a positive multiple of waves_{} * mfma_m = {}", what, tile,
                              what, waves * cfg.mfma_m));
    return tile / waves;
  };
  p.wave_m = split(cfg.tile_m, cfg.waves_m, "m");
  p.wave_n = split(cfg.tile_n, cfg.waves_n, "n");
  p.blocks_m = p.wave_m / cfg.mfma_m;
  p.blocks_n = p.wave_n / cfg.mfma_m;
  p.threads = 64 * cfg.waves_m * cfg.waves_n;
  p.frag_bytes = kMxBlock * mx_format_bits(s.format) / 8;
  p.frag_dwords = p.frag_bytes / 4;
  p.k_steps = s.K / p.mfma_k;
  p.loads_per_step = (p.blocks_m + p.blocks_n) * ((p.frag_bytes + 15) / 16 + 1);
  // Two register sets of fragments and one of accumulators must fit the 512 unified registers;
  // one set's loads must be countable by vmcnt (at most 63 outstanding).
  const int regs = 2 * (p.blocks_m + p.blocks_n) * (p.frag_dwords + 1) + p.blocks_m * p.blocks_n * p.acc_regs();
  if (!cfg.read_ahead && (regs > 448 || 2 * p.loads_per_step > 63))
    throw Error(fmt::format("gemm-mx: {} MFMA blocks per wave need {} registers and {} loads in flight "
                            "(limits: 448 registers, 63 loads); use a smaller tile or more waves",
                            p.blocks_m * p.blocks_n, regs, 2 * p.loads_per_step));
  if (p.a_bytes() >= (int64_t(1) << 30) || p.b_bytes() >= (int64_t(1) << 30) || p.c_bytes() >= (int64_t(1) << 30))
    throw Error(fmt::format("gemm-mx: {}: every tensor must be below 1 GiB (32-bit buffer offsets)", s.str()));
  if (cfg.group_m < 0 || cfg.group_m > 64)
    throw Error(fmt::format("gemm-mx: group_m = {} (valid: 0 = 2-D grid, or 1..64 tile rows per group)", cfg.group_m));
  p.tiles_m = (s.M + cfg.tile_m - 1) / cfg.tile_m;
  p.tiles_n = (s.N + cfg.tile_n - 1) / cfg.tile_n;
  plan_tile_grid(cfg.group_m, p.tiles_m, p.tiles_n, p.grid, p.xcd_remap);
  if (cfg.read_ahead) plan_lds_read_ahead(p);
  return p;
}

namespace {

class GemmMxGenerator : MfmaGemmEmitter {
 public:
  GemmMxGenerator(Kernel& k, const GemmMxPlan& p) : MfmaGemmEmitter(k), p_(p), s_(p.shape), c_(p.cfg) {}

  void emit() {
    k_.set_workgroup_size(uint32_t(p_.threads));
    Reg a = k_.load_arg(k_.arg_ptr("a", ElemType::u8, true));
    Reg b = k_.load_arg(k_.arg_ptr("b", ElemType::u8, true));
    Reg sa = k_.load_arg(k_.arg_ptr("sa", ElemType::u8, true));
    Reg sb = k_.load_arg(k_.arg_ptr("sb", ElemType::u8, true));
    Reg c = k_.load_arg(k_.arg_ptr("c", s_.output == GemmMxOutput::f32 ? ElemType::f32 : ElemType::bf16, false));
    tid_ = k_.workitem_id(0);
    k_.s_waitcnt(lgkmcnt(0));
    a_rsrc_ = rsrc(a, p_.a_bytes(), "a_rsrc");
    b_rsrc_ = rsrc(b, p_.b_bytes(), "b_rsrc");
    sa_rsrc_ = rsrc(sa, p_.sa_bytes(), "sa_rsrc");
    sb_rsrc_ = rsrc(sb, p_.sb_bytes(), "sb_rsrc");
    c_rsrc_ = rsrc(c, p_.c_bytes(), "c_rsrc");
    coordinates();
    load_setup();
    acc_ = zero_accumulators(p_.blocks_m, p_.blocks_n, p_.acc_regs());
    main_loop();
    epilogue();
  }

 private:
  // One k-step's operands in registers: per block row/column a fragment and its scale byte.
  struct Set {
    std::vector<Reg> a, b, sa, sb;
  };

  void coordinates() {
    place_tile(c_.group_m, p_.tiles_m, p_.tiles_n, p_.xcd_remap, c_.tile_m, c_.tile_n, tid_, c_.waves_m);
    lrow_ = k_.vgpr("lane_row");
    k_.v_and_b32(lrow_, c_.mfma_m - 1, lane_);
    lq_ = k_.vgpr("lane_kblock");
    k_.v_lshrrev_b32(lq_, std::countr_zero(unsigned(c_.mfma_m)), lane_);
  }

  // Per block: the byte offsets (at k-step 0) of the lane's fragment and of its scale byte. Lane
  // l reads row (first row of the block) + l % m, the 32-element K block l / m of the k-step.
  void load_setup() {
    Reg frag_col = vmul(lq_, uint32_t(p_.frag_bytes), "frag_col");
    auto rows = [&](Reg first, int blocks, uint32_t limit, std::vector<Reg>& frag, std::vector<Reg>& scale) {
      for (int i = 0; i < blocks; ++i) {
        Reg r = vadd_sv(first, lrow_, uint32_t(i * c_.mfma_m), "row");
        k_.v_cmp_gt_u32(vcc, sconst(limit), r);
        Reg off = vmul(r, uint32_t(p_.row_bytes()), "frag_off");
        k_.v_add_u32(off, off, frag_col);
        k_.v_cndmask_b32(off, oob(), off, vcc);
        frag.push_back(off);
        // scale of K block lq: byte r * K/32 + lq (mk) or lq * rows + r (km)
        Reg so = s_.scales == GemmMxScaleLayout::km ? vmul(lq_, limit, "scale_off") : vmul(r, uint32_t(p_.scale_row_bytes()), "scale_off");
        k_.v_add_u32(so, so, s_.scales == GemmMxScaleLayout::km ? r : lq_);
        k_.v_cndmask_b32(so, oob(), so, vcc);
        scale.push_back(so);
      }
    };
    origin_ = wave_origin(m0_, n0_, wm_, wn_, p_.wave_m, p_.wave_n);
    rows(origin_.m, p_.blocks_m, uint32_t(s_.M), a_off_, sa_off_);
    rows(origin_.n, p_.blocks_n, uint32_t(s_.N), b_off_, sb_off_);
  }

  Set make_set(int idx) {
    Set s;
    auto regs = [&](const char* name, int n, int dwords, std::vector<Reg>& out) {
      for (int i = 0; i < n; ++i) out.push_back(k_.vgpr(fmt::format("{}{}_{}", name, idx, i), dwords, dwords > 1 ? 2 : 1));
    };
    regs("frag_a", p_.blocks_m, p_.frag_dwords, s.a);
    regs("frag_b", p_.blocks_n, p_.frag_dwords, s.b);
    regs("scale_a", p_.blocks_m, 1, s.sa);
    regs("scale_b", p_.blocks_n, 1, s.sb);
    return s;
  }

  // Loads of the k-step starting at element `k_load_` into `s`, then advances k_load_. The
  // step's byte offsets along a row travel in soffset.
  void issue(const Set& s) {
    k_.comment("global loads of one k-step");
    Reg kb = k_.sgpr("k_bytes");  // k_load * bits / 8 (k_load is a multiple of 64)
    const int bits = mx_format_bits(s_.format);
    if (bits == 8) k_.s_mov_b32(kb, k_load_);
    else if (bits == 4) k_.s_lshr_b32(kb, k_load_, 1);
    else {
      k_.s_mul_i32(kb, k_load_, sconst(uint32_t(bits), "bits"));
      k_.s_lshr_b32(kb, kb, 3);
    }
    Reg ks = k_.sgpr("k_scale_bytes");  // k_load / 32, times the rows with km scales
    k_.s_lshr_b32(ks, k_load_, std::countr_zero(unsigned(kMxBlock)));
    Reg ksa = ks, ksb = ks;
    if (s_.scales == GemmMxScaleLayout::km) {
      ksa = smul_i32(ks, uint32_t(s_.M), "k_scale_a");
      ksb = smul_i32(ks, uint32_t(s_.N), "k_scale_b");
    }
    auto frag = [&](Reg dst, Reg off, Reg rsrc) {
      for (int part = 0; part < p_.frag_dwords; part += 4) {
        if (p_.frag_dwords - part >= 4) k_.buffer_load_dwordx4(dst.slice(part, 4), off, rsrc, kb, offen, Offset(part * 4));
        else k_.buffer_load_dwordx2(dst.slice(part, 2), off, rsrc, kb, offen, Offset(part * 4));
      }
    };
    for (int i = 0; i < p_.blocks_m; ++i) frag(s.a[size_t(i)], a_off_[size_t(i)], a_rsrc_);
    for (int j = 0; j < p_.blocks_n; ++j) frag(s.b[size_t(j)], b_off_[size_t(j)], b_rsrc_);
    for (int i = 0; i < p_.blocks_m; ++i) k_.buffer_load_ubyte(s.sa[size_t(i)], sa_off_[size_t(i)], sa_rsrc_, ksa, offen);
    for (int j = 0; j < p_.blocks_n; ++j) k_.buffer_load_ubyte(s.sb[size_t(j)], sb_off_[size_t(j)], sb_rsrc_, ksb, offen);
    k_.s_add_u32(k_load_, k_load_, int64_t(p_.mfma_k));
  }

  // One k-step: every block's scaled MFMA, scale byte 0 of each scale VGPR (op_sel = op_sel_hi = 0).
  void compute(const Set& s) {
    const uint8_t fmt = uint8_t(s_.format);
    for (int i = 0; i < p_.blocks_m; ++i)
      for (int j = 0; j < p_.blocks_n; ++j) {
        Reg acc = acc_.at({i, j});
        k_.emit(p_.mnemonic, {acc, s.a[size_t(i)], s.b[size_t(j)], acc, s.sa[size_t(i)], s.sb[size_t(j)], Cbsz{fmt},
                              Blgp{fmt}, OpSelHi(0)});
      }
  }

  // k-steps 0 .. n-1 alternate between two register sets: while one step multiplies, the next
  // one's loads are in flight (vmcnt counts one set's loads; loads return in order).
  void main_loop() {
    const int n = p_.k_steps, per = p_.loads_per_step;
    Set s0 = make_set(0), s1 = make_set(1);
    k_load_ = k_.sgpr("k_load");
    k_.s_mov_b32(k_load_, 0);
    issue(s0);
    const int pairs = (n - 1) / 2;  // loop iterations of two steps; 1 or 2 steps remain after them
    if (pairs > 0) {
      Reg left = k_.sgpr("pairs_left");
      k_.s_mov_b32(left, int64_t(pairs));
      counted_loop(left, [&] {
        issue(s1);
        k_.s_waitcnt(vmcnt(per));
        compute(s0);
        issue(s0);
        k_.s_waitcnt(vmcnt(per));
        compute(s1);
      });
    }
    if (n - 2 * pairs == 2) {
      issue(s1);
      k_.s_waitcnt(vmcnt(per));
      compute(s0);
      k_.s_waitcnt(vmcnt(0));
      compute(s1);
    } else {
      k_.s_waitcnt(vmcnt(0));
      compute(s0);
    }
  }

  // Lane l of block (bi, bj), register r holds D[8*(r/4) + 4*(l/m) + r%4][l%m]
  // (MfmaGemmEmitter::accumulator_lane; lrow_ is l % m, lq_ is l / m).
  void epilogue() {
    k_.comment("epilogue");
    AccumulatorLane lane;
    lane.col = lrow_;
    lane.row4 = k_.vgpr("lq4");
    k_.v_lshlrev_b32(lane.row4, 2, lq_);
    store_accumulators(acc_, origin_, lane, p_.blocks_m, p_.blocks_n, c_.mfma_m, p_.acc_regs(),
                       s_.output == GemmMxOutput::bf16, uint32_t(s_.M), uint32_t(s_.N), c_rsrc_);
  }

  const GemmMxPlan& p_;
  const GemmMxShape& s_;
  const GemmMxConfig& c_;
  Reg tid_, lrow_, lq_, a_rsrc_, b_rsrc_, sa_rsrc_, sb_rsrc_, c_rsrc_;
  Reg k_load_;
  WaveOrigin origin_;
  std::vector<Reg> a_off_, b_off_, sa_off_, sb_off_;
  RegArray acc_;
};

}  // namespace

BuildResult build_gemm_mx(const GemmMxPlan& p, const BuildOptions& opts) {
  Kernel k(fmt::format("gemm_mx{}_{}", mx_format_name(p.shape.format), gemm_mx_output_name(p.shape.output)), p.arch);
  BuildResult r;
  if (p.cfg.read_ahead) {
    emit_gemm_mx_lds(k, p);
    r = build_with_scheduled_waits(k, opts, fmt::format("gemm-mx {} {}", p.shape.str(), p.cfg.str()));
  } else {
    GemmMxGenerator(k, p).emit();
    r = k.build(opts);
  }
  require_workgroup_fits(r, fmt::format("gemm-mx {} {}", p.shape.str(), p.cfg.str()),
                         "use fewer MFMA blocks per wave (a smaller tile or more waves) or, with read_ahead, tile_k 128");
  return r;
}

}  // namespace cdnajit::codegen
