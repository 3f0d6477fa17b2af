// The banded-MFMA depthwise conv3d generator and its plan (see dwconv_mfma.hpp for the
// formulation; the comments here say why each piece is emitted the way it is).
#include "codegen/dwconv_mfma.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <tuple>

#include "codegen/dsl_emitter.hpp"
#include "codegen/dwconv_workgroup.hpp"
#include "codegen/hip_sources.hpp"
#include "codegen/hip_sources_embedded.hpp"
#include "jit/isa/error.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/isa/waitcnt.hpp"

namespace cdnajit::codegen {

namespace {
constexpr int kThreads = 256;
constexpr int kBlock = 16;  // MFMA block side: 16 output columns (M) x 16 output rows (N)
constexpr uint32_t kDsMaxOffset = 65535;
uint32_t round_up(uint32_t x, uint32_t m) { return (x + m - 1) / m * m; }
}  // namespace

DwMfmaPlan plan_dwconv_mfma(const DwConvShape& s, Arch a) {
  dwconv_geometry(s, a, DwVariant::lds_fmac);  // the family's field checks, with their messages
  auto fail = [&](const std::string& why) {
    throw Error(fmt::format("depthwise conv3d {} on {} (variant mfma_band): {}", s.str(), arch_name(a), why));
  };
  if (s.W % 2 || s.padW % 2)
    fail(fmt::format("W = {} and padW = {} must both be even (input rows go to LDS as dwords by DMA)", s.W, s.padW));
  if (s.W_out() % 4)
    fail(fmt::format("W_out = {} must be a multiple of 4 (each lane stores 4 adjacent outputs as 8 bytes)", s.W_out()));
  DwMfmaPlan p;
  p.s = s;
  p.arch = a;
  p.G = a == Arch::gfx950 ? 8 : 4;
  p.mnemonic = isa::info(a == Arch::gfx950 ? isa::Opcode::v_mfma_f32_16x16x32_bf16 : isa::Opcode::v_mfma_f32_16x16x16_bf16).mnemonic;
  p.ncg = (kBlock - 1 + s.KW + p.G - 1) / p.G;
  p.strips = (s.W_out() + kBlock - 1) / kBlock;
  p.hblocks = (s.H_out() + kBlock - 1) / kBlock;
  p.blocks = p.strips * p.hblocks;
  p.tile_h = p.hblocks * kBlock + s.KH - 1;
  // Steps: four filter rows per MFMA while four are left, then the rest column group by column group.
  const int full_rows = s.KH / 4 * 4;
  for (int kd = 0; kd < s.KD; ++kd)
    for (int kh = 0; kh < full_rows; kh += 4)
      for (int cg = 0; cg < p.ncg; ++cg) p.steps.push_back({true, kd, kh, cg});
  const int chunks = (p.ncg + 3) / 4;
  for (int kd = 0; kd < s.KD; ++kd)
    for (int kh = full_rows; kh < s.KH; ++kh)
      for (int ch = 0; ch < chunks; ++ch) p.steps.push_back({false, kd, kh, 4 * ch});
  const bool has_cols = full_rows < s.KH;
  const int groups_read = has_cols ? std::max(p.ncg, 4 * chunks) : p.ncg;  // per row, padding included
  const int last_w0 = (p.strips - 1) * kBlock;
  p.tile_w = int(round_up(uint32_t(std::max({s.W + 2 * s.padW, last_w0 + p.G * p.ncg})), uint32_t(p.G)));
  p.tile_bytes = uint32_t(s.KD) * p.tile_h * p.tile_w * 2;
  // Padding groups of the last block's last row run past the tile (into the next row inside it).
  int overrun = last_w0 + p.G * groups_read - p.tile_w;
  p.slack_bytes = round_up(uint32_t(std::max(overrun, 0)) * 2, 16);
  p.zlen = int(round_up(uint32_t(kBlock - 1 + p.G * groups_read), uint32_t(p.G)));
  p.z_row_bytes = uint32_t(p.zlen) * 2;
  p.z_copy_bytes = uint32_t(s.KD * s.KH) * p.z_row_bytes;
  p.z_off = round_up(p.tile_bytes + p.slack_bytes, 16);
  p.lds_bytes = round_up(p.z_off + uint32_t(p.G) * p.z_copy_bytes, 16);
  if (p.tile_bytes + p.slack_bytes > kDsMaxOffset)
    fail(fmt::format("the LDS tile {}x{}x{} bf16 ({} bytes) is past the 64 KiB a DS offset field addresses; "
                     "reduce H, W or KD",
                     s.KD, p.tile_h, p.tile_w, p.tile_bytes));
  if (p.lds_bytes - 1 > kDsMaxOffset)
    fail(fmt::format("LDS tile + weight band source = {} bytes is past the 64 KiB a DS offset field addresses; "
                     "reduce H, W or KD", p.lds_bytes));
  if (p.lds_bytes > lds_limit_bytes(a))
    fail(fmt::format("LDS tile + weight band source = {} bytes exceeds the {} limit of {} bytes", p.lds_bytes,
                     arch_name(a), lds_limit_bytes(a)));
  p.grid_x = s.N * s.C * s.D_out();
  return p;
}

std::string dwconv_mfma_hip_source() { return inline_codegen_headers(embedded::kDwconvMfmaBand); }

std::vector<std::string> dwconv_mfma_hip_flags(const DwConvShape& s, Arch a) {
  DwMfmaPlan p = plan_dwconv_mfma(s, a);
  return {fmt::format("-DDW_C={}", s.C),          fmt::format("-DDW_D={}", s.D),
          fmt::format("-DDW_H={}", s.H),          fmt::format("-DDW_W={}", s.W),
          fmt::format("-DDW_KD={}", s.KD),        fmt::format("-DDW_KH={}", s.KH),
          fmt::format("-DDW_KW={}", s.KW),        fmt::format("-DDW_PD={}", s.padD),
          fmt::format("-DDW_PH={}", s.padH),      fmt::format("-DDW_PW={}", s.padW),
          fmt::format("-DDM_TILE_H={}", p.tile_h), fmt::format("-DDM_TILE_W={}", p.tile_w),
          fmt::format("-DDM_SLACK={}", p.slack_bytes / 2), fmt::format("-DDM_ARCH950={}", a == Arch::gfx950 ? 1 : 0)};
}

namespace {

class MfmaGenerator {
 public:
  MfmaGenerator(Kernel& k, const DwMfmaPlan& p) : k_(k), p_(p), s_(p.s) {}

  void emit() {
    k_.set_workgroup_size(kThreads);
    k_.lds_alloc("dwconv_mfma", p_.lds_bytes, 16);
    Reg in = k_.load_arg(k_.arg_ptr("input", ElemType::bf16, true));
    Reg wt = k_.load_arg(k_.arg_ptr("weight", ElemType::bf16, true));
    Reg out = k_.load_arg(k_.arg_ptr("output", ElemType::bf16, false));
    in_ = in;
    wg_ = k_.workgroup_id(0);
    tid_ = k_.workitem_id(0);
    coordinates(wt, out);
    issue_weight_loads();
    zero_lds();
    write_band_source();
    load_tile();
    lane_bases();
    read_band();
    block_loop();
  }

 private:
  // workgroup = (n*C + c)*D_out + d_out, as V97.
  void coordinates(Reg wt, Reg out) {
    const DwWorkgroupPlane plane = dw_workgroup_plane(k_, e_, s_, wg_, out, wt);
    d_ = plane.d_out;
    in_nc_off_ = plane.in_nc_off;
    out_plane_ = plane.out_plane;
    wt_c_ = plane.weights;
    wave_ = e_.wave_index(tid_);
    lane_ = e_.lane_index(tid_);
  }

  // Thread t < taps loads tap t of the channel (t = (kd*KH + kh)*KW + kw), issued first so
  // its latency hides behind the LDS zeroing.
  int weight_chunks() const { return (s_.taps() + kThreads - 1) / kThreads; }
  void issue_weight_loads() {
    for (int ch = 0; ch < weight_chunks(); ++ch) {
      Reg t = tid_;
      if (ch) {
        t = k_.vgpr("tap_index");
        k_.v_add_u32(t, int64_t(ch * kThreads), tid_);
      }
      Reg off = k_.vgpr("tap_byte");
      k_.v_lshlrev_b32(off, 1, t);
      Reg wv = k_.vgpr(fmt::format("tap{}", ch));
      k_.v_mov_b32(wv, 0);
      const int rest = s_.taps() - ch * kThreads;
      auto load = [&] { k_.global_load_ushort(wv, off, wt_c_); };
      if (rest < kThreads) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(rest), tid_); }, load);
      else load();
      taps_.push_back({t, wv});
    }
  }

  // Zeroes LDS bytes [from, to) (dword aligned) with all 256 threads: b32 up to a 16-byte
  // boundary, b128 rounds, b32 for the rest. Addresses stay inside the DS offset field
  // (plan_dwconv_mfma checks the allocation is below 64 KiB).
  void zero_range(uint32_t from, uint32_t to) {
    auto lanes = [&](uint32_t at, uint32_t count, uint32_t unit) {
      if (count == 0) return;
      Reg lane_addr = k_.vgpr(unit == 16 ? "zero_addr16" : "zero_addr4");
      k_.v_lshlrev_b32(lane_addr, unit == 16 ? 4 : 2, tid_);
      for (uint32_t done = 0; done < count; done += kThreads) {
        const uint32_t n = std::min<uint32_t>(kThreads, count - done), byte = at + done * unit;
        auto write = [&] {
          if (unit == 16) k_.ds_write_b128(lane_addr, zero16_, Offset(int32_t(byte)));
          else k_.ds_write_b32(lane_addr, zero16_[0], Offset(int32_t(byte)));
        };
        if (n < uint32_t(kThreads)) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(n), tid_); }, write);
        else write();
      }
    };
    if (to <= from) return;
    const uint32_t head = std::min(to, round_up(from, 16));
    lanes(from, (head - from) / 4, 4);
    const uint32_t body = (to - head) / 16;
    lanes(head, body, 16);
    lanes(head + body * 16, (to - head - body * 16) / 4, 4);
  }

  // Everything that is read and not written by the input DMA reads as +0: the tile's padding
  // (each row's right padding and the next row's left padding are one contiguous chunk; the
  // padding rows of adjacent slices are one range), the slack and the band source. The
  // interior the DMA fills is not zeroed (LDS writes run at half the read rate).
  void zero_lds() {
    Reg z = k_.vgpr("zero16", 4, 4);
    for (int i = 0; i < 4; ++i) k_.v_mov_b32(z[i], 0);
    zero16_ = z;
    const uint32_t rb = uint32_t(p_.tile_w) * 2, sb = uint32_t(p_.tile_h) * rb;
    const uint32_t side = uint32_t(p_.tile_w - s_.W) * 2;  // right + next row's left padding
    if (side) {
      // Row R's chunk at R*rb + (padW + W)*2: lane R writes side/4 dwords.
      Reg row_addr = k_.vgpr("side_pad_addr");
      k_.v_mul_u32_u24(row_addr, int64_t(rb), tid_);
      const uint32_t rows = uint32_t(s_.KD * p_.tile_h);
      for (uint32_t done = 0; done < rows; done += kThreads) {
        const uint32_t n = std::min<uint32_t>(kThreads, rows - done);
        auto write = [&] {
          for (uint32_t dw = 0; dw < side / 4; ++dw)
            k_.ds_write_b32(row_addr, zero16_[0], Offset(int32_t(done * rb + uint32_t(s_.padW + s_.W) * 2 + 4 * dw)));
        };
        if (n < uint32_t(kThreads)) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(n), tid_); }, write);
        else write();
      }
    }
    // Padding rows: slice 0's top ones, then each slice's bottom ones with the next slice's top ones.
    zero_range(0, uint32_t(s_.padH) * rb);
    for (int kd = 0; kd + 1 < s_.KD; ++kd)
      zero_range(uint32_t(kd) * sb + uint32_t(s_.padH + s_.H) * rb, uint32_t(kd + 1) * sb + uint32_t(s_.padH) * rb);
    zero_range(uint32_t(s_.KD - 1) * sb + uint32_t(s_.padH + s_.H) * rb, p_.lds_bytes);
    k_.s_waitcnt(lgkmcnt(0));
    k_.s_barrier();
  }

  // Band source copy q (q = 0 .. G-1), row r = kd*KH + kh: element i is tap i + q - 15 of the
  // row (zero outside 0..KW-1). Thread t < taps writes its tap into all G copies.
  void write_band_source() {
    k_.s_waitcnt(vmcnt(0));
    for (int ch = 0; ch < weight_chunks(); ++ch) {
      auto [t, wv] = taps_[size_t(ch)];
      const int rest = s_.taps() - ch * kThreads;
      auto write = [&] {
        // r = t / KW, kw = t % KW (t < 2^16: the 16-bit reciprocal is exact).
        uint32_t m = ((1u << 16) + s_.KW - 1) / s_.KW;
        Reg prod = k_.vgpr("t_times_m");
        k_.v_mul_u32_u24(prod, int64_t(m), t);
        Reg r = k_.vgpr("band_row");
        k_.v_lshrrev_b32(r, 16, prod);
        Reg rk = k_.vgpr("row_times_kw");
        k_.v_mul_u32_u24(rk, int64_t(s_.KW), r);
        Reg kw = k_.vgpr("band_tap");
        k_.v_sub_u32(kw, t, rk);
        // addr = z_off + r*z_row_bytes + (15 + kw)*2
        Reg a1 = k_.vgpr("band_row_byte");
        k_.v_mul_u32_u24(a1, int64_t(p_.z_row_bytes), r);
        Reg addr = k_.vgpr("band_addr");
        k_.v_lshl_add_u32(addr, kw, 1, a1);
        Reg addr2 = k_.vgpr("band_addr");
        k_.v_add_u32(addr2, int64_t(p_.z_off + (kBlock - 1) * 2), addr);
        for (int q = 0; q < p_.G; ++q)
          k_.ds_write_b16(addr2, wv, Offset(int32_t(q * (p_.z_copy_bytes - 2))));
      };
      if (rest < kThreads) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(rest), tid_); }, write);
      else write();
    }
  }

  // Input rows hi = wave, wave + 4, ... of each depth slice go to their tile rows by DMA
  // (global_load_lds_dword: LDS address = M0 + lane*4). The slices and each wave's rows are
  // unrolled: a row costs its M0 (base + immediate), a 64-bit pointer step and the DMA, with no
  // loop counter or division (a row loop with the indices divided out made SALU the limiter).
  void load_tile() {
    const int per_row = s_.W / 2, chunks = (per_row + 63) / 64, rest = per_row % 64;
    const int rows_per_wave = (s_.H + 3) / 4;
    std::vector<Reg> lane_off;
    for (int ch = 0; ch < chunks; ++ch) {
      Reg o = k_.vgpr(fmt::format("lane_off{}", ch));
      if (ch == 0) k_.v_lshlrev_b32(o, 2, lane_);
      else k_.v_add_u32(o, int64_t(ch * 256), lane_off[0]);
      lane_off.push_back(o);
    }
    const uint32_t slice_bytes = uint32_t(s_.H) * s_.W * 2, row_bytes = uint32_t(s_.W) * 2;
    const uint32_t tile_row_bytes = uint32_t(p_.tile_w) * 2;
    // Global byte of (slice d_out - padD, row wave) of this (n, c); LDS byte of tile row wave.
    Reg g0 = k_.sgpr("slab_goff");
    k_.s_mul_i32(g0, d_, e_.sconst(slice_bytes, "slice_bytes"));
    k_.s_add_u32(g0, g0, in_nc_off_);
    Reg wrow = e_.smul_i32(wave_, row_bytes, "wave_row_goff");
    k_.s_add_u32(g0, g0, wrow);
    Reg l0 = e_.smul_i32(wave_, tile_row_bytes, "wave_row_loff");
    Reg gptr = k_.sgpr("row_ptr", 2, 2);
    auto all_slices = [&] {
    for (int kd = 0; kd < s_.KD; ++kd) {
      auto slice = [&] {
        Reg goff = k_.sgpr("slice_goff");
        int64_t delta = int64_t(kd - s_.padD) * slice_bytes;
        k_.s_add_u32(goff, g0, delta & 0xffffffff);
        e_.sptr_add_to(gptr, in_, goff);
        for (int j = 0; j < rows_per_wave; ++j) {
          auto row = [&] {
            if (j) {
              e_.sptr_add_to(gptr, gptr, int64_t(4 * row_bytes));
            }
            const uint32_t lrow = uint32_t(((kd * p_.tile_h + 4 * j + s_.padH) * p_.tile_w + s_.padW) * 2);
            for (int ch = 0; ch < chunks; ++ch) {
              auto dma = [&] {
                k_.s_add_u32(m0, l0, int64_t(lrow + uint32_t(ch * 256)));
                k_.global_load_lds_dword(lane_off[size_t(ch)], gptr);
              };
              // One partial chunk per row: its lane mask is set once around all rows (below).
              if (ch == chunks - 1 && rest && chunks > 1) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(rest), lane_); }, dma);
              else dma();
            }
          };
          // Row wave + 4j exists for every wave while 4j + 3 < H.
          if (4 * j + 3 < s_.H) row();
          else k_.if_scc([&] { k_.s_cmp_lt_u32(wave_, int64_t(s_.H - 4 * j)); }, row);
        }
      };
      if (kd >= s_.padD && kd < s_.KD - s_.padD) {
        slice();
      } else {
        // input depth d_out - padD + kd inside [0, D) <=> (unsigned)(d_out + kd - padD) < D
        Reg di = k_.sgpr("di");
        k_.if_scc(
            [&] {
              k_.s_add_u32(di, d_, int64_t(kd - s_.padD) & 0xffffffff);
              k_.s_cmp_lt_u32(di, int64_t(s_.D));
            },
            slice);
      }
    }
    };
    // A row of one partial chunk (W/2 < 64 dwords, the seed's 40): the lanes past it are
    // switched off once for all rows instead of per row (an if per row made SALU the limiter).
    if (chunks == 1 && rest) k_.if_vcc([&] { k_.v_cmp_gt_u32(vcc, int64_t(rest), lane_); }, all_slices);
    else all_slices();
    // A depth outside the input: its data rows, which zero_lds left alone, read as +0 (all
    // lanes, outside the DMA's lane mask).
    const uint32_t sb = uint32_t(p_.tile_h * p_.tile_w) * 2, rb = uint32_t(p_.tile_w) * 2;
    for (int kd = 0; kd < s_.KD; ++kd) {
      if (kd >= s_.padD && kd < s_.KD - s_.padD) continue;
      Reg di = k_.sgpr("di_outside");
      k_.if_scc(
          [&] {
            k_.s_add_u32(di, d_, int64_t(kd - s_.padD) & 0xffffffff);
            k_.s_cmp_ge_u32(di, int64_t(s_.D));
          },
          [&] { zero_range(uint32_t(kd) * sb + uint32_t(s_.padH) * rb, uint32_t(kd) * sb + uint32_t(s_.padH + s_.H) * rb); });
    }
    // DMA writes and the band source's ds_write_b16 both land before anyone reads.
    k_.s_waitcnt(vmcnt(0) + lgkmcnt(0));
    k_.s_barrier();
  }

  // Lane l: n = l % 16 (output row of B, output column of A), g = l / 16 (K group).
  void lane_bases() {
    Reg n = k_.vgpr("n");
    k_.v_and_b32(n, 15, lane_);
    Reg g = k_.vgpr("g");
    k_.v_lshrrev_b32(g, 4, lane_);
    n_ = n;
    g4_ = k_.vgpr("g4");
    k_.v_lshlrev_b32(g4_, 2, g);
    const uint32_t row_bytes = uint32_t(p_.tile_w) * 2;
    // B: rows steps read tile row (n + g), cols steps tile row n at column group g.
    Reg ng = k_.vgpr("n_plus_g");
    k_.v_add_u32(ng, n, g);
    b_rows_ = k_.vgpr("b_rows");
    k_.v_mul_u32_u24(b_rows_, int64_t(row_bytes), ng);
    Reg nb = k_.vgpr("n_row");
    k_.v_mul_u32_u24(nb, int64_t(row_bytes), n);
    b_cols_ = k_.vgpr("b_cols");
    k_.v_mad_u32_u24(b_cols_, g, int64_t(p_.G * 2), nb);
    // A: band source copy q = (15 - n) mod G at element (15 - n - q), aligned to G elements:
    // elements e of group cg are taps G*cg + e - n.
    Reg rev = k_.vgpr("rev");
    k_.v_sub_u32(rev, kBlock - 1, n);
    Reg q = k_.vgpr("copy");
    k_.v_and_b32(q, p_.G - 1, rev);
    Reg aligned = k_.vgpr("aligned");
    k_.v_sub_u32(aligned, rev, q);
    Reg zb = k_.vgpr("zb");
    k_.v_mul_u32_u24(zb, int64_t(p_.z_copy_bytes), q);
    k_.v_lshl_add_u32(zb, aligned, 1, zb);
    Reg zr = k_.vgpr("z_rows");
    k_.v_mad_u32_u24(zr, g, e_.sconst(p_.z_row_bytes, "band_row_bytes"), zb);
    a_rows_ = zr;
    Reg zc = k_.vgpr("z_cols");
    k_.v_mad_u32_u24(zc, g, int64_t(p_.G * 2), zb);
    a_cols_ = zc;
    // Output: row n, columns 4g .. 4g+3 of the block.
    Reg on = k_.vgpr("out_row");
    k_.v_mul_u32_u24(on, int64_t(s_.W_out() * 2), n);
    out_lane_ = k_.vgpr("out_lane");
    k_.v_lshl_add_u32(out_lane_, g4_, 1, on);
  }

  int frag_dwords() const { return p_.G / 2; }
  void read_frag(Reg dst, Reg base, uint32_t byte) {
    if (p_.G == 8) k_.ds_read_b128(dst, base, Offset(int32_t(byte)));
    else k_.ds_read_b64(dst, base, Offset(int32_t(byte)));
  }

  // The channel's band, once per workgroup: one fragment per step.
  void read_band() {
    for (size_t i = 0; i < p_.steps.size(); ++i) {
      const DwMfmaStep& st = p_.steps[i];
      Reg a = k_.vgpr(fmt::format("band{}", i), frag_dwords(), 2);
      uint32_t byte = p_.z_off + uint32_t(st.kd * s_.KH + st.kh) * p_.z_row_bytes + uint32_t(st.cg * p_.G * 2);
      read_frag(a, st.rows ? a_rows_ : a_cols_, byte);
      band_.push_back(a);
    }
  }

  // Blocks t = wave, wave + 4, ... of the hblocks x strips output blocks, software-pipelined:
  // right after MFMA i of block t has read its input fragment, the fragment's register is
  // refilled with step i of block t + 4, so each MFMA waits for a read issued a whole block
  // earlier (steps - 1 younger reads may still be in flight) and the fragments need no second
  // buffer. The wave's last block is peeled off and prefetches nothing.
  void block_loop() {
    const int steps = int(p_.steps.size());
    for (int i = 0; i < steps; ++i) frags_.push_back(k_.vgpr(fmt::format("in{}", i), frag_dwords(), 2));
    Reg t = k_.sgpr("block");
    k_.s_mov_b32(t, wave_);
    auto has_next = [&] {
      Reg next = k_.sgpr("next_block");
      k_.s_add_u32(next, t, 4);
      k_.s_cmp_lt_u32(next, int64_t(p_.blocks));
    };
    k_.if_scc([&] { k_.s_cmp_lt_u32(t, int64_t(p_.blocks)); },
              [&] {
                auto [brows, bcols] = block_bases(t);
                for (int i = 0; i < steps; ++i) read_input(i, brows, bcols);
                k_.if_scc(has_next, [&] {
                  k_.do_while_scc(
                      [&] {
                        block(t, true);
                        k_.s_add_u32(t, t, 4);
                      },
                      has_next);
                });
                block(t, false);
              });
  }

  struct Split {
    Reg hb, st;
  };
  Split split(Reg t) {
    Reg hb = e_.sdiv(t, uint32_t(p_.strips), "hblock");
    return {hb, e_.smod(t, hb, uint32_t(p_.strips), "strip")};
  }

  // Lane read bases of block t: tile byte of (row 16 hb, column 16 st) plus the lane bases.
  std::pair<Reg, Reg> block_bases(Reg t) {
    Split b = split(t);
    Reg trow = k_.sgpr("tile_block_row");
    k_.s_mul_i32(trow, b.hb, e_.sconst(uint32_t(kBlock * p_.tile_w * 2), "tile_block_rows"));
    Reg toff = k_.sgpr("tile_block");
    k_.s_lshl_b32(toff, b.st, 5);  // 16 columns x 2 bytes
    k_.s_add_u32(toff, toff, trow);
    Reg brows = k_.vgpr("b_rows_t");
    k_.v_add_u32(brows, toff, b_rows_);
    Reg bcols = k_.vgpr("b_cols_t");
    k_.v_add_u32(bcols, toff, b_cols_);
    return {brows, bcols};
  }

  void read_input(int i, Reg brows, Reg bcols) {
    const DwMfmaStep& s = p_.steps[size_t(i)];
    uint32_t byte = uint32_t((s.kd * p_.tile_h + s.kh) * p_.tile_w * 2 + s.cg * p_.G * 2);
    read_frag(frags_[size_t(i)], s.rows ? brows : bcols, byte);
  }

  void block(Reg t, bool prefetch) {
    const int steps = int(p_.steps.size());
    Reg brows, bcols;
    if (prefetch) {
      Reg next = k_.sgpr("next_block");
      k_.s_add_u32(next, t, 4);
      std::tie(brows, bcols) = block_bases(next);
    }
    Reg acc = k_.vgpr("acc", 4, 4);
    for (int r = 0; r < 4; ++r) k_.v_mov_b32(acc[r], 0);
    for (int i = 0; i < steps; ++i) {
      // Reads younger than this step's: steps - 1 with prefetching, else steps - 1 - i.
      // lgkmcnt is 4 bits (15 = no wait): past 14, wait for 14.
      const int younger = prefetch ? steps - 1 : steps - 1 - i;
      k_.s_waitcnt(lgkmcnt(std::min(isa::kMaxLgkmcnt - 1, younger)));
      k_.emit(p_.mnemonic, {acc, band_[size_t(i)], frags_[size_t(i)], acc});
      if (prefetch) read_input(i, brows, bcols);
    }
    Split here = split(t);
    store(acc, here.hb, here.st);
  }

  Reg pack(Reg lo, Reg hi) {
    Reg packed = k_.vgpr("packed");
    if (p_.arch == Arch::gfx950) {
      k_.v_cvt_pk_bf16_f32(packed, lo, hi);
    } else {
      Reg c7fff = e_.sconst(0x7fff, "c7fff");
      Reg r0 = round_bf16_high(k_, lo, c7fff);
      Reg r1 = round_bf16_high(k_, hi, c7fff);
      k_.v_perm_b32(packed, r1, r0, e_.sconst(0x07060302u, "perm_hi_halves"));
    }
    return packed;
  }

  // D[m][n] in lane 16*(m/4) + n, register m % 4: output (row h0 + n, columns w0 + 4g .. +3).
  void store(Reg acc, Reg hb, Reg st) {
    Reg v = k_.vgpr("out_pair", 2, 2);
    Reg p0 = pack(acc[0], acc[1]), p1 = pack(acc[2], acc[3]);
    k_.v_mov_b32(v[0], p0);
    k_.v_mov_b32(v[1], p1);
    Reg orow = k_.sgpr("out_block_row");
    k_.s_mul_i32(orow, hb, e_.sconst(uint32_t(kBlock * s_.W_out() * 2), "out_block_rows"));
    Reg ooff = k_.sgpr("out_block");
    k_.s_lshl_b32(ooff, st, 5);
    k_.s_add_u32(ooff, ooff, orow);
    Reg addr = k_.vgpr("out_addr");
    k_.v_add_u32(addr, ooff, out_lane_);
    // Rows left in this block: H_out - 16 hb; columns left: W_out - 16 st.
    Reg hleft = k_.sgpr("rows_left");
    k_.s_lshl_b32(hleft, hb, 4);
    k_.s_sub_u32(hleft, int64_t(s_.H_out()), hleft);
    Reg wleft = k_.sgpr("cols_left");
    k_.s_lshl_b32(wleft, st, 4);
    k_.s_sub_u32(wleft, int64_t(s_.W_out()), wleft);
    Reg colmask = k_.sgpr("col_mask", 2, 2);
    k_.if_vcc(
        [&] {
          k_.v_cmp_gt_u32(vcc, hleft, n_);
          k_.v_cmp_gt_u32(colmask, wleft, g4_);
          k_.s_and_b64(vcc, vcc, colmask);
        },
        [&] { k_.global_store_dwordx2(addr, v, out_plane_); });
  }

  Kernel& k_;
  const DwMfmaPlan& p_;
  const DwConvShape& s_;
  DslEmitter e_{k_};  // scalar constants, division, pointer arithmetic
  Reg in_, wg_, tid_, wave_, lane_, d_, in_nc_off_, out_plane_, wt_c_;
  Reg n_, g4_, b_rows_, b_cols_, a_rows_, a_cols_, out_lane_;
  std::vector<std::pair<Reg, Reg>> taps_;  // (tap index, loaded bf16) per chunk of 256 taps
  std::vector<Reg> band_;
  Reg zero16_;  // four zero VGPRs for the LDS zeroing
  std::vector<Reg> frags_;  // the input fragments, one per step, refilled in flight
};

}  // namespace

BuildResult build_dwconv_mfma(const DwConvShape& s, Arch a, const BuildOptions& opts) {
  DwMfmaPlan p = plan_dwconv_mfma(s, a);
  Kernel k("dwconv3d_mfma_band", a);
  MfmaGenerator(k, p).emit();
  return k.build(opts);
}

}  // namespace cdnajit::codegen
