#include "codegen/conv_bwd_weight.hpp"

#include <fmt/format.h>

#include <bit>
#include <utility>

#include "codegen/const_division.hpp"
#include "codegen/dsl_emitter.hpp"

namespace cdnajit::codegen {

namespace {

constexpr int TK = kBwdTileK;
constexpr int kRowBytes = TK * 2;  // one LDS row: 32 16-bit elements in gemm-K order
// Row pitch in LDS: 8 bytes of padding. The loaders write rows 2p (p = lane) with ds_write_b16;
// at a 64-byte pitch all 32 lanes hit one bank (rows 128 bytes apart), at 72 bytes they spread
// over 8 banks. 72 keeps every fragment read 8-byte aligned (ds_read_b64; gfx950 reads its
// 16-byte fragments as two ds_read_b64, since a misaligned ds_read_b128 is slow: see the
// timing model's hardware notes and the seed's ds_read_b64 measurement).
constexpr int kRowStride = kRowBytes + 8;
constexpr int kLoadThreads = 256;  // every form loads with 4 waves

// Emission helpers over one Kernel: SGPR constants, magic-number division, buffer resources.
class Emit {
 public:
  explicit Emit(Kernel& k) : k(k) {}
  Kernel& k;

  Reg sconst(uint32_t v) {
    Reg r = k.sgpr("const");
    k.s_mov_b32(r, int64_t(v));
    return r;
  }
  Reg vconst(int64_t v, const char* name) {
    Reg r = k.vgpr(name);
    k.v_mov_b32(r, v);
    return r;
  }
  Reg rsrc(Reg base, int64_t bytes, const char* name) { return DslEmitter(k).rsrc(base, bytes, name); }
  // n / d for n < 2^31, n - q*d and x*c (codegen/const_division.hpp); constants are
  // materialised where they are used.
  Reg vdiv(Reg n, uint32_t d, const char* name) { return emit_vdiv(k, n, d, name, fresh_const()); }
  Reg vrem(Reg n, Reg q, uint32_t d, const char* name) { return emit_vrem(k, n, q, d, name, fresh_const()); }
  Reg vmul(Reg x, uint32_t c, const char* name) { return emit_vmul(k, x, c, name, fresh_const()); }
  SConst fresh_const() {
    return [this](uint32_t v) { return sconst(v); };
  }
  // dst = x*c + add (any 32-bit values, wrapping)
  Reg vmad(Reg x, uint32_t c, Reg add, const char* name) {
    Reg p = vmul(x, c, "product");
    Reg r = k.vgpr(name);
    k.v_add_u32(r, p, add);
    return r;
  }
};

// The per-kernel plan both roles read.
struct Plan {
  BwdWeightShape s;
  Arch arch;
  BwdWeightConfig cfg;
  int tm = 64, tn = 64;
  int stage_bytes() const { return (tm + tn) * kRowStride; }  // A rows 0..tm-1, B rows tm..tm+tn-1
  int mk = 16;          // MFMA k per instruction
  int k_steps = 2;      // MFMA k-steps per K tile
  int frag_dwords = 2;  // A/B fragment per lane
  int k_tiles = 1;
  int splits = 1;
  uint32_t yxc = 0, howo = 0;  // yxc: Z*Y*X*C (the GEMM's N); howo: Ho*Wo
};

// Shared values (loaded before the roles, live across them).
struct Common {
  Reg x_rsrc, dy_rsrc, dw_rsrc;
  Reg n0, m0, g;  // tile origin (yxc, k) and group (SGPRs)
  Reg gk_first;   // first gemm-K column of this workgroup's split (SGPR)
  Reg dw_ptr;     // for the split-K atomics
};

// ---------------------------------------------------------------- load side
// Thread `lt` (0..255 of the loading waves) moves channel pair p = lt % 32 of gemm-K
// columns j = lt / 32 + 8 i (i = 0..3) for A (dy: k pair) and B (x: c pair).
class Loader {
 public:
  Loader(Emit& e, const Plan& p, const Common& c, Reg lt) : e_(e), k_(e.k), p_(p), c_(c) {
    const BwdWeightShape& s = p.s;
    // A (dy): thread -> k pair a_pair (of tm/2), gemm-K column a_col (+ a_cols_ i).
    // A: dy offset = (gk*G*K + g*K + m)*2, m = m0 + 2 a_pair; m >= K -> out of range.
    const PairSlot a = pair_slot(lt, p.tm, c_.m0, "a", "a_m");
    Reg a_pair = a.pair, a_col = a.col, m = a.first;
    a_cols_ = a.cols;
    Reg gk_part = k_.vgpr("a_gk_part");
    Reg sgk = k_.sgpr("g_times_k");
    k_.s_mul_i32(sgk, c_.g, int64_t(s.K));
    k_.v_add_u32(gk_part, sgk, m);
    a_base_ = k_.vgpr("a_base");
    k_.v_lshlrev_b32(a_base_, 1, gk_part);
    Reg ok = k_.sgpr("a_ok", 2, 2);
    k_.v_cmp_gt_u32(ok, e_.sconst(uint32_t(s.K)), m);
    k_.v_cndmask_b32(a_base_, e_.vconst(kOob, "oob"), a_base_, ok);
    a_lds_ = lds_address(a_pair, a_col, 0);
    a_col_ = a_col;
    // B (x): thread -> c pair b_pair (of tn/2): n = n0 + 2 b_pair -> (y, x, c).
    const PairSlot b = pair_slot(lt, p.tn, c_.n0, "b", "b_n");
    Reg b_pair = b.pair, b_col = b.col, n = b.first;
    b_cols_ = b.cols;
    Reg xc = e_.vdiv(n, uint32_t(s.C), "xc_index");  // (z*Y + y)*X + x
    Reg cc = e_.vrem(n, xc, uint32_t(s.C), "c");
    Reg zy = e_.vdiv(xc, uint32_t(s.X), "zy");
    Reg x = e_.vrem(xc, zy, uint32_t(s.X), "x");
    Reg y = zy;
    if (s.is_3d()) {
      Reg z = e_.vdiv(zy, uint32_t(s.Y), "z");
      y = e_.vrem(zy, z, uint32_t(s.Y), "y");
      b_zoff_ = e_.vmad(z, uint32_t(s.dil_d), e_.vconst(-s.pad_d, "neg_pad_d"), "z_off");
    }
    // hi = ho*sh + (y*dh - ph); wi = wo*sw + (x*dw - pw)
    b_yoff_ = e_.vmad(y, uint32_t(s.dil[0]), e_.vconst(-s.pad[0], "neg_pad_h"), "y_off");
    b_xoff_ = e_.vmad(x, uint32_t(s.dil[1]), e_.vconst(-s.pad[1], "neg_pad_w"), "x_off");
    Reg sgc = k_.sgpr("g_times_c");
    k_.s_mul_i32(sgc, c_.g, int64_t(s.C));
    b_cpart_ = k_.vgpr("b_cpart");
    k_.v_add_u32(b_cpart_, sgc, cc);
    k_.v_lshlrev_b32(b_cpart_, 1, b_cpart_);
    Reg nok = k_.sgpr("b_ok", 2, 2);
    k_.v_cmp_gt_u32(nok, e_.sconst(uint32_t(p.yxc)), n);
    k_.v_cndmask_b32(b_cpart_, e_.vconst(kOob, "oob"), b_cpart_, nok);
    b_lds_ = lds_address(b_pair, b_col, p.tm);
    b_col_ = b_col;
  }

  // The dwords of one K tile in flight: A (dy) and B (x) per load slot.
  struct InFlight {
    std::vector<Reg> a, b;
  };

  // Loads K tile (gemm-K origin gk0, SGPR) and writes it to the stage at byte `stage` (SGPR).
  void fill(Reg gk0, Reg stage) { write(issue(gk0), stage); }

  // Issues the global loads of K tile gk0 (SGPR).
  InFlight issue(Reg gk0) {
    const BwdWeightShape& s = p_.s;
    InFlight t;
    std::vector<Reg>& a = t.a;
    std::vector<Reg>& b = t.b;
    a.resize(size_t(TK / a_cols_));
    b.resize(size_t(TK / b_cols_));
    for (size_t i = 0; i < a.size(); ++i) {
      Reg gk = slot_column(gk0, a_col_, a_cols_, i);
      // gk >= gemm-K gives an offset past the tensor (num_records) -> zeros.
      Reg aoff = e_.vmad(gk, uint32_t(s.G * s.K * 2), a_base_, "a_off");
      a[i] = k_.vgpr("a_data");
      k_.buffer_load_dword(a[i], aoff, c_.dy_rsrc, 0, offen);
    }
    for (size_t i = 0; i < b.size(); ++i) {
      Reg gk = slot_column(gk0, b_col_, b_cols_, i);
      // im2col decode gk -> (nb, ho, wo) -> (hi, wi); nb >= N lands past the tensor.
      // 3D: gk -> (nd = n*Do + do, rem); nd >= N*Do lands past the tensor.
      Reg nb = e_.vdiv(gk, p_.howo, "nb");
      Reg rem = e_.vrem(gk, nb, p_.howo, "pix");
      Reg di;
      if (s.is_3d()) {
        Reg n_only = e_.vdiv(nb, uint32_t(s.Do()), "n");
        Reg d_out = e_.vrem(nb, n_only, uint32_t(s.Do()), "do");
        di = e_.vmad(d_out, uint32_t(s.stride_d), b_zoff_, "di");
        nb = n_only;
      }
      Reg ho = e_.vdiv(rem, uint32_t(s.Wo()), "ho");
      Reg wo = e_.vrem(rem, ho, uint32_t(s.Wo()), "wo");
      Reg hi = e_.vmad(ho, uint32_t(s.stride[0]), b_yoff_, "hi");
      Reg wi = e_.vmad(wo, uint32_t(s.stride[1]), b_xoff_, "wi");
      Reg ok = k_.sgpr("in_ok", 2, 2), okw = k_.sgpr("in_ok_w", 2, 2);
      k_.v_cmp_gt_u32(ok, e_.sconst(uint32_t(s.Hi)), hi);
      k_.v_cmp_gt_u32(okw, e_.sconst(uint32_t(s.Wi)), wi);
      k_.s_and_b64(ok, ok, okw);
      if (s.is_3d()) {
        Reg okd = k_.sgpr("in_ok_d", 2, 2);
        k_.v_cmp_gt_u32(okd, e_.sconst(uint32_t(s.Di)), di);
        k_.s_and_b64(ok, ok, okd);
        nb = e_.vmad(nb, uint32_t(s.Di), di, "depth");
      }
      Reg pix = e_.vmad(nb, uint32_t(s.Hi), hi, "row");
      pix = e_.vmad(pix, uint32_t(s.Wi), wi, "pixel");
      Reg boff = e_.vmad(pix, uint32_t(s.G * s.C * 2), b_cpart_, "b_off");
      k_.v_cndmask_b32(boff, e_.vconst(kOob, "oob"), boff, ok);
      b[i] = k_.vgpr("b_data");
      k_.buffer_load_dword(b[i], boff, c_.x_rsrc, 0, offen);
    }
    return t;
  }

  // Waits for the loads and writes them to the stage at byte `stage` (SGPR).
  void write(const InFlight& t, Reg stage) {
    const std::vector<Reg>& a = t.a;
    const std::vector<Reg>& b = t.b;
    Reg a_addr = k_.vgpr("a_lds_addr"), b_addr = k_.vgpr("b_lds_addr");
    k_.v_add_u32(a_addr, stage, a_lds_);
    k_.v_add_u32(b_addr, stage, b_lds_);
    k_.s_waitcnt(vmcnt(0));
    // channel 2p -> row 2p, channel 2p+1 -> row 2p+1 (low / high half of the dword)
    auto put = [&](Reg addr, Reg v, int32_t col_bytes) {
      k_.ds_write_b16(addr, v, Offset(col_bytes));
      k_.ds_write_b16_d16_hi(addr, v, Offset(col_bytes + kRowStride));
    };
    for (size_t i = 0; i < a.size(); ++i) put(a_addr, a[i], int32_t(2 * a_cols_ * i));
    for (size_t i = 0; i < b.size(); ++i) put(b_addr, b[i], int32_t(2 * b_cols_ * i));
    k_.s_waitcnt(lgkmcnt(0));
  }

 private:
  Emit& e_;
  Kernel& k_;
  const Plan& p_;
  const Common& c_;
  // lt -> (pair = lt % pairs, col = lt / pairs); pairs is a power of two.
  void split(Reg lt, int pairs, Reg pair, Reg col) {
    k_.v_and_b32(pair, pairs - 1, lt);
    k_.v_lshrrev_b32(col, std::countr_zero(unsigned(pairs)), lt);
  }
  // Thread lt's place in one operand's loads: channel pair `pair` of the tile's tile/2 pairs,
  // whose first channel is origin + 2 pair (`first`), and gemm-K column `col`; one pass of the
  // loading threads covers `cols` columns. `side` prefixes the register names.
  struct PairSlot {
    Reg pair, col, first;
    int cols;
  };
  PairSlot pair_slot(Reg lt, int tile, Reg origin, const std::string& side, const std::string& first_name) {
    PairSlot r{k_.vgpr(side + "_pair"), k_.vgpr(side + "_col"), Reg{}, kLoadThreads / (tile / 2)};
    split(lt, tile / 2, r.pair, r.col);
    r.first = k_.vgpr(first_name);
    k_.v_lshlrev_b32(r.first, 1, r.pair);
    k_.v_add_u32(r.first, origin, r.first);
    return r;
  }
  // The gemm-K column of load slot i: gk0 + col + i * cols.
  Reg slot_column(Reg gk0, Reg col, int cols, size_t i) {
    Reg gk = k_.vgpr("gk");
    k_.v_add_u32(gk, gk0, col);
    if (i) k_.v_add_u32(gk, int(cols * i), gk);
    return gk;
  }
  // LDS byte address of row first_row + 2 pair, column col.
  Reg lds_address(Reg pair, Reg col, int first_row) {
    Reg r = k_.vgpr("lds_base");
    k_.v_mul_u32_u24(r, 2 * kRowStride, pair);
    k_.v_lshl_add_u32(r, col, 1, r);
    if (first_row) k_.v_add_u32(r, first_row * kRowStride, r);
    return r;
  }
  Reg a_base_, b_yoff_, b_xoff_, b_zoff_, b_cpart_, a_lds_, b_lds_, a_col_, b_col_;
  int a_cols_ = 0, b_cols_ = 0;  // gemm-K columns one pass of the 256 loading threads covers
};

// ---------------------------------------------------------------- math side
// A math wave owns a (bm*16) x (bn*16) sub-tile at rows row0, cols col0 (SGPRs, bytes of LDS rows).
class MathWave {
 public:
  MathWave(Emit& e, const Plan& p, const Common& c, Reg wave, int waves_m, int bm, int bn)
      : e_(e), k_(e.k), p_(p), c_(c), bm_(bm), bn_(bn) {
    Reg tid = k_.workitem_id(0);
    lane_ = k_.vgpr("lane");
    k_.v_and_b32(lane_, 63, tid);
    // wave -> (wm, wn)
    Reg wm = k_.sgpr("wm"), wn = k_.sgpr("wn");
    k_.s_and_b32(wm, waves_m - 1, wave);
    k_.s_lshr_b32(wn, wave, std::countr_zero(unsigned(waves_m)));
    k_.s_mul_i32(row0_, wm, bm * 16);
    k_.s_mul_i32(col0_, wn, bn * 16);
    // Fragment address: row (lane % 16), k offset (lane / 16) * frag bytes.
    Reg r16 = k_.vgpr("lane_row"), kq = k_.vgpr("lane_kq");
    k_.v_and_b32(r16, 15, lane_);
    k_.v_lshrrev_b32(kq, 4, lane_);
    Reg kb = e_.vmul(kq, uint32_t(p.frag_dwords * 4), "lane_kbytes");
    Reg arow = k_.vgpr("a_row"), brow = k_.vgpr("b_row");
    k_.v_add_u32(arow, row0_, r16);
    k_.v_add_u32(brow, col0_, r16);
    a_frag_ = k_.vgpr("a_frag_addr");
    Reg pitch = e_.sconst(kRowStride);  // VOP3 takes no literal on gfx9
    k_.v_mad_u32_u24(a_frag_, arow, pitch, kb);
    b_frag_ = k_.vgpr("b_frag_addr");
    k_.v_mad_u32_u24(b_frag_, brow, pitch, kb);
    k_.v_add_u32(b_frag_, p.tm * kRowStride, b_frag_);
    acc_ = k_.vgprs("acc", {bm, bn}, 4);
    for (int i = 0; i < bm; ++i)
      for (int j = 0; j < bn; ++j)
        for (int r = 0; r < 4; ++r) k_.v_mov_b32(Reg(acc_[i][j])[r], 0);
  }

  // acc += A * B over the stage at byte `stage` (SGPR): k-steps ascending.
  void multiply(Reg stage) {
    Reg a_addr = k_.vgpr("a_addr"), b_addr = k_.vgpr("b_addr");
    k_.v_add_u32(a_addr, stage, a_frag_);
    k_.v_add_u32(b_addr, stage, b_frag_);
    for (int ks = 0; ks < p_.k_steps; ++ks) {
      std::vector<Reg> a, b;
      int32_t kofs = ks * p_.mk * 2;
      for (int i = 0; i < bm_; ++i) {
        a.push_back(k_.vgpr("a", p_.frag_dwords, 2));
        read(a.back(), a_addr, i * 16 * kRowStride + kofs);
      }
      for (int j = 0; j < bn_; ++j) {
        b.push_back(k_.vgpr("b", p_.frag_dwords, 2));
        read(b.back(), b_addr, j * 16 * kRowStride + kofs);
      }
      k_.s_waitcnt(lgkmcnt(0));
      for (int i = 0; i < bm_; ++i)
        for (int j = 0; j < bn_; ++j) {
          Reg acc = acc_[i][j];
          const bool f16 = p_.cfg.dtype == BwdWeightDType::f16;
          if (p_.arch == Arch::gfx950) {
            if (f16) k_.v_mfma_f32_16x16x32_f16(acc, a[size_t(i)], b[size_t(j)], acc);
            else k_.v_mfma_f32_16x16x32_bf16(acc, a[size_t(i)], b[size_t(j)], acc);
          } else {
            if (f16) k_.v_mfma_f32_16x16x16_f16(acc, a[size_t(i)], b[size_t(j)], acc);
            else k_.v_mfma_f32_16x16x16_bf16(acc, a[size_t(i)], b[size_t(j)], acc);
          }
        }
    }
  }

  // dw[g][m][n] = acc, m = m0 + row0 + 16 i + 4 (lane/16) + r, n = n0 + col0 + 16 j + lane%16.
  void store() {
    const BwdWeightShape& s = p_.s;
    Reg mrow = k_.vgpr("m_lane"), ncol = k_.vgpr("n_lane");
    Reg q = k_.vgpr("lane_q");
    k_.v_lshrrev_b32(q, 4, lane_);
    k_.v_lshlrev_b32(q, 2, q);
    Reg sm = k_.sgpr("m_origin"), sn = k_.sgpr("n_origin");
    k_.s_add_u32(sm, c_.m0, row0_);
    k_.s_add_u32(sn, c_.n0, col0_);
    k_.v_add_u32(mrow, sm, q);
    Reg r16 = k_.vgpr("lane_col");
    k_.v_and_b32(r16, 15, lane_);
    k_.v_add_u32(ncol, sn, r16);
    // base = ((g*K + m)*YXC + n)*4
    Reg sgk = k_.sgpr("g_times_k");
    k_.s_mul_i32(sgk, c_.g, int64_t(s.K));
    Reg gm = k_.vgpr("gm");
    k_.v_add_u32(gm, sgk, mrow);
    Reg base = e_.vmad(gm, p_.yxc, ncol, "dw_index");
    const int ob = p_.cfg.out_bytes();
    k_.v_lshlrev_b32(base, ob == 4 ? 2 : 1, base);
    Reg c7fff = e_.vconst(0x7fff, "bf16_round");
    Reg oob = e_.vconst(kOob, "oob");
    for (int i = 0; i < bm_; ++i)
      for (int j = 0; j < bn_; ++j)
        for (int r = 0; r < 4; ++r) {
          int mo = i * 16 + r, no = j * 16;
          Reg mk = k_.sgpr("m_ok", 2, 2), nk = k_.sgpr("n_ok", 2, 2);
          k_.v_cmp_gt_u32(mk, e_.sconst(uint32_t(std::max(0, s.K - mo))), mrow);
          k_.v_cmp_gt_u32(nk, e_.sconst(uint32_t(std::max<int64_t>(0, int64_t(p_.yxc) - no))), ncol);
          k_.s_and_b64(mk, mk, nk);
          Reg off = k_.vgpr("dw_off");
          k_.v_add_u32(off, e_.sconst(uint32_t((uint64_t(mo) * p_.yxc + uint64_t(no)) * uint64_t(ob))), base);
          if (p_.splits > 1) {
            // Split-K: fp32 atomic add into the zeroed dW, lanes out of range masked off
            // (global atomics have no range check).
            Reg acc = Reg(acc_[i][j])[r];
            k_.if_vcc([&] { k_.s_mov_b64(vcc, mk); }, [&] { k_.global_atomic_add_f32(off, acc, c_.dw_ptr); });
            continue;
          }
          k_.v_cndmask_b32(off, oob, off, mk);
          store(Reg(acc_[i][j])[r], off, c7fff);
        }
  }

 private:
  // fp32 -> dW element at byte offset `off` (past num_records: dropped).
  void store(Reg v, Reg off, Reg c7fff) {
    if (p_.cfg.out_f32) {
      k_.buffer_store_dword(v, off, c_.dw_rsrc, 0, offen);
    } else if (p_.cfg.dtype == BwdWeightDType::f16) {
      Reg h = k_.vgpr("f16_out");
      k_.v_cvt_f16_f32(h, v);  // RNE (the default round mode)
      k_.buffer_store_short(h, off, c_.dw_rsrc, 0, offen);
    } else if (p_.arch == Arch::gfx950) {
      Reg h = k_.vgpr("bf16_out");
      k_.v_cvt_pk_bf16_f32(h, v, v);
      k_.buffer_store_short(h, off, c_.dw_rsrc, 0, offen);
    } else {
      // gfx942 has no bf16 convert: RNE as x + 0x7fff + bit16(x) in the high half, NaN quieted.
      Reg lsb = k_.vgpr("bf16_lsb");
      k_.v_bfe_u32(lsb, v, 16, 1);
      Reg r = k_.vgpr("bf16_rounded");
      k_.v_add3_u32(r, v, lsb, c7fff);
      Reg qnan = k_.vgpr("bf16_qnan");
      k_.v_or_b32(qnan, int64_t(0x400000), v);
      k_.v_cmp_u_f32(vcc, v, v);
      k_.v_cndmask_b32(r, r, qnan, vcc);
      k_.buffer_store_short_d16_hi(r, off, c_.dw_rsrc, 0, offen);
    }
  }
  void read(Reg dst, Reg addr, int32_t offset) {
    for (int d = 0; d < p_.frag_dwords; d += 2) k_.ds_read_b64(dst.slice(d, 2), addr, Offset(offset + 4 * d));
  }
  Emit& e_;
  Kernel& k_;
  const Plan& p_;
  const Common& c_;
  int bm_, bn_;
  Reg lane_, a_frag_, b_frag_;
  Reg row0_ = k_.sgpr("row0"), col0_ = k_.sgpr("col0");
  RegArray acc_;
};

// A uniform loop running `body` `count` >= 1 times (count is a build-time constant).
void repeat(Kernel& k, int count, const std::function<void()>& body) {
  if (count <= 0) return;
  if (count == 1) {
    body();
    return;
  }
  Reg i = k.sgpr("iter");
  k.s_mov_b32(i, 0);
  k.do_while_scc([&] { body(); k.s_add_u32(i, i, 1); }, [&] { k.s_cmp_lt_u32(i, count); });
}

}  // namespace

std::string BwdWeightShape::str() const {
  if (is_3d())
    return fmt::format("N{} G{} C{} K{} {}x{}x{} f{}x{}x{} s{}x{}x{} p{}x{}x{} d{}x{}x{}", N, G, C, K, Di, Hi, Wi, Z, Y, X,
                       stride_d, stride[0], stride[1], pad_d, pad[0], pad[1], dil_d, dil[0], dil[1]);
  return fmt::format("N{} G{} C{} K{} {}x{} f{}x{} s{}x{} p{}x{} d{}x{}", N, G, C, K, Hi, Wi, Y, X, stride[0], stride[1],
                     pad[0], pad[1], dil[0], dil[1]);
}

void BwdWeightShape::validate() const {
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) throw Error(fmt::format("conv bwd-weight shape {}: {}", str(), what));
  };
  need(N >= 1 && G >= 1 && Hi >= 1 && Wi >= 1 && Y >= 1 && X >= 1, "N, G, Hi, Wi, Y, X must be >= 1");
  need(C >= 2 && C % 2 == 0, fmt::format("C = {} must be even and >= 2 (loads move channel pairs)", C));
  need(K >= 2 && K % 2 == 0, fmt::format("K = {} must be even and >= 2 (loads move channel pairs)", K));
  for (int d = 0; d < 2; ++d) {
    need(stride[d] >= 1 && dil[d] >= 1, "stride and dilation must be >= 1");
    need(pad[d] >= 0 && pad[d] < (d ? X : Y) * dil[d], "padding must be in 0 .. (filter-1)*dilation");
  }
  need(Di >= 1 && Z >= 1 && stride_d >= 1 && dil_d >= 1, "Di, Z, stride_d and dil_d must be >= 1");
  need(pad_d >= 0 && pad_d < Z * dil_d, "pad_d must be in 0 .. (Z-1)*dil_d");
  need(Do() >= 1 && Ho() >= 1 && Wo() >= 1, "the filter (with dilation) is larger than the padded input");
  const int64_t gib = int64_t(1) << 30;
  need(x_elems() * 2 < gib && dy_elems() * 2 < gib && dw_elems() * 4 < gib,
       "every tensor must be below 1 GiB (32-bit buffer offsets with an out-of-range marker)");
}

const char* variant_name(BwdWeightVariant v) {
  switch (v) {
    case BwdWeightVariant::baseline: return "baseline";
    case BwdWeightVariant::wavelet_4_4: return "wavelet_4_4";
    case BwdWeightVariant::wavelet_4_2: return "wavelet_4_2";
  }
  return "?";
}

int BwdWeightConfig::effective_splits(const BwdWeightShape& s) const {
  const int64_t tiles = (s.gemm_k() + kBwdTileK - 1) / kBwdTileK;
  return int(std::min<int64_t>(splits, int64_t(std::bit_floor(uint64_t(tiles)))));
}

std::string BwdWeightConfig::str() const {
  const char* in = dtype == BwdWeightDType::f16 ? "f16" : "bf16";
  std::string t = fmt::format("{}x{} {}->{}", tile_m, tile_n, in, out_f32 ? "f32" : in);
  return splits > 1 ? t + fmt::format(" split-K {}", splits) : t;
}

void validate_bwd_weight(const BwdWeightShape& s, BwdWeightVariant v, const BwdWeightConfig& cfg) {
  s.validate();
  for (int t : {cfg.tile_m, cfg.tile_n})
    if (t != 64 && t != 128)
      throw Error(fmt::format("conv bwd-weight: tile {}: tile_m and tile_n must be 64 or 128", cfg.str()));
  if (cfg.splits < 1 || cfg.splits > 64 || !std::has_single_bit(unsigned(cfg.splits)))
    throw Error(fmt::format("conv bwd-weight: splits = {}: split-K must be a power of two in 1..64", cfg.splits));
  if (cfg.splits > 1 && !cfg.out_f32)
    throw Error(fmt::format("conv bwd-weight: splits = {} needs fp32 dW (the splits add with fp32 atomics)", cfg.splits));
  if (v == BwdWeightVariant::wavelet_4_2 && cfg.tile_m == 128 && cfg.tile_n == 128)
    throw Error(fmt::format("conv bwd-weight: tile {} with wavelet_4_2 needs 128 accumulator VGPRs per math wave; "
                            "(4,2) is offered for 64x64, 128x64 and 64x128 (as in CK)", cfg.str()));
}

BwdWeightKernel build_conv_bwd_weight(const BwdWeightShape& s, BwdWeightVariant v, Arch arch, const BwdWeightConfig& cfg,
                                      const BuildOptions& opts) {
  validate_bwd_weight(s, v, cfg);
  Plan p{s, arch, cfg, cfg.tile_m, cfg.tile_n};
  if (arch == Arch::gfx950) {
    p.mk = 32;
    p.k_steps = 1;
    p.frag_dwords = 4;
  }
  const int all_tiles = int((s.gemm_k() + TK - 1) / TK);
  p.splits = cfg.effective_splits(s);
  p.k_tiles = (all_tiles + p.splits - 1) / p.splits;  // per split; the last split's extra tiles read zeros
  p.yxc = uint32_t(s.gemm_n());
  p.howo = uint32_t(s.Ho() * s.Wo());  // gk / howo = n*Do + do

  Kernel k(kBwdWeightKernelName, arch);
  Emit e(k);
  Common c;
  const ElemType in_t = cfg.dtype == BwdWeightDType::f16 ? ElemType::f16 : ElemType::bf16;
  Arg ax = k.arg_ptr("x", in_t, true), ady = k.arg_ptr("dy", in_t, true);
  Arg adw = k.arg_ptr("dw", cfg.out_f32 ? ElemType::f32 : in_t, false);
  Reg x = k.load_arg(ax), dy = k.load_arg(ady), dw = k.load_arg(adw);
  uint32_t lds = k.lds_alloc("stages", uint32_t(2 * p.stage_bytes()));
  (void)lds;  // the only allocation: offset 0
  c.n0 = k.sgpr("n0");
  c.m0 = k.sgpr("m0");
  k.s_waitcnt(lgkmcnt(0));
  k.s_lshl_b32(c.n0, k.workgroup_id(0), std::countr_zero(unsigned(p.tn)));
  k.s_lshl_b32(c.m0, k.workgroup_id(1), std::countr_zero(unsigned(p.tm)));
  // grid z = G * splits: z = g * splits + split (splits a power of two)
  c.g = k.sgpr("group");
  c.gk_first = k.sgpr("gk_first");
  k.s_lshr_b32(c.g, k.workgroup_id(2), std::countr_zero(unsigned(p.splits)));
  k.s_and_b32(c.gk_first, p.splits - 1, k.workgroup_id(2));
  k.s_mul_i32(c.gk_first, c.gk_first, p.k_tiles * TK);
  c.dw_ptr = dw;
  c.x_rsrc = e.rsrc(x, s.x_elems() * 2, "x_rsrc");
  c.dy_rsrc = e.rsrc(dy, s.dy_elems() * 2, "dy_rsrc");
  c.dw_rsrc = e.rsrc(dw, s.dw_elems() * cfg.out_bytes(), "dw_rsrc");

  WaveRoles roles(k);
  auto local_thread = [&](const RoleEnv& r) {
    Reg tid = k.workitem_id(0);
    if (r.first_wave == 0) return tid;
    Reg lt = k.vgpr("local_thread");
    k.v_subrev_u32(lt, r.first_thread(), tid);
    return lt;
  };
  // The loaders' prologue in both pipelines: K tile gk_first into LDS stage 0, handed over by a
  // barrier. Returns (gk0, stage), the registers the loop then advances.
  auto load_first_tile = [&](Loader& load) {
    Reg gk0 = k.sgpr("gk0"), stage = k.sgpr("stage");
    k.s_mov_b32(gk0, c.gk_first);
    k.s_mov_b32(stage, 0);
    load.fill(gk0, stage);
    roles.barrier("stage_ready");
    return std::pair{gk0, stage};
  };
  if (v == BwdWeightVariant::baseline) {
    roles.role("all", 4, [&](const RoleEnv& r) {
      Loader load(e, p, c, local_thread(r));
      MathWave math(e, p, c, r.wave, 2, p.tm / 32, p.tn / 32);
      // CK's conventional pipeline: tile t+1's global loads are in flight while tile t is
      // multiplied; then they go to the other LDS stage and one barrier hands it over.
      const auto [gk0, stage] = load_first_tile(load);
      repeat(k, p.k_tiles - 1, [&] {
        k.s_add_u32(gk0, gk0, TK);
        Loader::InFlight next = load.issue(gk0);
        math.multiply(stage);
        k.s_xor_b32(stage, stage, p.stage_bytes());
        load.write(next, stage);
        roles.barrier("stage_ready");
      });
      math.multiply(stage);
      math.store();
    });
  } else {
    const int math_waves = v == BwdWeightVariant::wavelet_4_4 ? 4 : 2;
    // Math first: CK's wavelet kernels map MFMA tiles from thread 0.
    // math_waves by value: the role bodies run later, in roles.emit(), after this block has ended.
    roles.role("math", math_waves, [&, math_waves](const RoleEnv& r) {
      MathWave math(e, p, c, r.wave, 2, p.tm / 32, math_waves == 4 ? p.tn / 32 : p.tn / 16);
      Reg stage = k.sgpr("stage");
      k.s_mov_b32(stage, 0);
      roles.barrier("stage_ready");
      repeat(k, p.k_tiles - 1, [&] {
        math.multiply(stage);
        k.s_xor_b32(stage, stage, p.stage_bytes());
        roles.barrier("stage_ready");
      });
      math.multiply(stage);
      math.store();
    });
    roles.role("load", 4, [&](const RoleEnv& r) {
      Loader load(e, p, c, local_thread(r));
      const auto [gk0, stage] = load_first_tile(load);
      repeat(k, p.k_tiles - 1, [&] {
        k.s_add_u32(gk0, gk0, TK);
        k.s_xor_b32(stage, stage, p.stage_bytes());
        load.fill(gk0, stage);
        roles.barrier("stage_ready");
      });
    });
  }
  roles.emit();
  k.s_endpgm();

  BwdWeightKernel out;
  out.roles = roles.register_report();
  out.build = k.build(opts);
  out.grid = Dim3{uint32_t((s.gemm_n() + p.tn - 1) / p.tn), uint32_t((s.K + p.tm - 1) / p.tm), uint32_t(s.G * p.splits)};
  out.splits = p.splits;
  out.block = Dim3{uint32_t(64 * roles.total_waves()), 1, 1};
  return out;
}

}  // namespace cdnajit::codegen
