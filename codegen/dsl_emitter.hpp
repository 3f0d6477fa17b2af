// Small arithmetic and addressing helpers shared by the generators (implicit-GEMM conv3d, gemm,
// gemm_mx, the depthwise generators): cached SGPR constants, buffer resources, constant
// division/multiplication, the wave position, the counted loop, and the fp32 -> bf16 rounding and
// output store. Header-only: each generator derives its own emitter class from DslEmitter (the
// MFMA GEMM-shaped ones from MfmaGemmEmitter, codegen/mfma_gemm_emitter.hpp).
#pragma once
#include <bit>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>

#include "codegen/const_division.hpp"
#include "jit/kernel.hpp"

namespace cdnajit::codegen {

inline constexpr int64_t kOob = int64_t(0x80000000u);  // past num_records of every tensor (< 1 GiB)
// gfx9 V# dword 3 for raw buffer access: DATA_FORMAT = 32 (the value CK uses for
// gfx90a/gfx94x, CK_BUFFER_RESOURCE_3RD_DWORD = 0x00020000).
inline constexpr int64_t kRsrcWord3 = 0x00020000;

class DslEmitter {
 public:
  explicit DslEmitter(Kernel& k) : k_(k) {}

  // VGPR holding the out-of-range offset (v_cndmask cannot pair a literal with a mask on gfx9:
  // both would read the constant bus).
  Reg oob() {
    if (!oob_.valid()) {
      oob_ = k_.vgpr("oob");
      k_.v_mov_b32(oob_, kOob);
    }
    return oob_;
  }
  Reg sconst(uint32_t v, const char* name = "const") {
    auto it = cached_.find(v);
    if (it != cached_.end()) return it->second;
    Reg r = k_.sgpr(name);
    k_.s_mov_b32(r, int64_t(v));
    return r;
  }
  // Creates SGPR constants that later sconst() calls reuse: called before a loop so the
  // loop body reads them instead of re-materialising them every iteration.
  void hoist_consts(std::initializer_list<uint32_t> values) {
    for (uint32_t v : values)
      if (!cached_.count(v)) cached_[v] = sconst(v, "loop_const");
  }
  // Buffer resource over [base, base + bytes).
  Reg rsrc(Reg base, int64_t bytes, const char* name) {
    Reg r = k_.sgpr(name, 4, 4);
    k_.s_mov_b32(r[0], base[0]);
    k_.s_and_b32(r[1], int64_t(0xffff), base[1]);
    k_.s_mov_b32(r[2], int64_t(uint32_t(bytes)));
    k_.s_mov_b32(r[3], kRsrcWord3);
    return r;
  }
  // Unsigned division of a VGPR value n < 2^31 by a constant d (codegen/const_division.hpp),
  // with the multiplier materialised once per divisor, before the loop that divides.
  struct Divisor {
    uint32_t d = 1;
    Reg magic;
  };
  Divisor divisor(uint32_t d) {
    Divisor v;
    v.d = d;
    if (division_needs_magic(d)) v.magic = sconst(division_magic(d).multiplier, "div_magic");
    return v;
  }
  Reg vdiv(Reg n, const Divisor& d, const char* name) {
    return emit_vdiv(k_, n, d.d, name, [&](uint32_t) { return d.magic; });
  }
  // n - q * d; `small`: q and d below 2^24 (one v_mul_u32_u24 with the constant inline).
  Reg vrem(Reg n, Reg q, uint32_t d, const char* name, bool small = false) {
    return emit_vrem(k_, n, q, d, name, factor(), small);
  }
  // x * c for any 32-bit x (wrapping).
  Reg vmul(Reg x, uint32_t c, const char* name) { return emit_vmul(k_, x, c, name, factor()); }
  SConst factor() {
    return [this](uint32_t c) { return sconst(c, "factor"); };
  }
  // acc + x * c, x < 2^24 and c < 2^24 (v_mad_u32_u24), else the full multiply.
  void vmad_small(Reg dst, Reg x, uint32_t c, Reg acc) {
    if (c == 0) {
      k_.v_mov_b32(dst, acc);
    } else if (c == 1) {
      k_.v_add_u32(dst, x, acc);
    } else if (std::has_single_bit(c)) {
      k_.v_lshl_add_u32(dst, x, int(std::countr_zero(c)), acc);
    } else if (c < (1u << 24)) {
      k_.v_mad_u32_u24(dst, x, sconst(c, "factor"), acc);
    } else {
      Reg t = vmul(x, c, "product");
      k_.v_add_u32(dst, t, acc);
    }
  }
  // s + v + c (VOP3 on gfx9 reads at most one SGPR, so two adds).
  Reg vadd_sv(Reg s, Reg v, uint32_t c, const char* name) {
    Reg r = k_.vgpr(name);
    k_.v_add_u32(r, s, v);
    if (c) k_.v_add_u32(r, int64_t(c), r);
    return r;
  }
  // floor(n / d) for a wave-uniform n < 2^31 held in an SGPR (exact: codegen/const_division.hpp).
  Reg sdiv(Reg n, uint32_t d, const char* name) {
    Reg q = k_.sgpr(name);
    if (d == 1) {
      k_.s_mov_b32(q, n);
    } else if (std::has_single_bit(d)) {
      k_.s_lshr_b32(q, n, int(std::countr_zero(d)));
    } else {
      const DivisionMagic m = division_magic(d);
      k_.s_mul_hi_u32(q, n, sconst(m.multiplier, "div_magic"));
      if (m.shift) k_.s_lshr_b32(q, q, m.shift);
    }
    return q;
  }
  // n - q * d: the remainder beside sdiv's quotient q.
  Reg smod(Reg n, Reg q, uint32_t d, const char* name) {
    Reg t = k_.sgpr("q_times_d");
    k_.s_mul_i32(t, q, sconst(d, "divisor"));
    Reg r = k_.sgpr(name);
    k_.s_sub_u32(r, n, t);
    return r;
  }
  // x * c as one s_mul_i32 whatever c is (smul below picks moves and shifts where it can).
  Reg smul_i32(Reg x, uint32_t c, const char* name) {
    Reg r = k_.sgpr(name);
    k_.s_mul_i32(r, x, sconst(c, "factor"));
    return r;
  }
  // 64-bit pointer + 32-bit byte offset, both SGPRs.
  Reg sptr_add(Reg base, Reg off, const char* name) {
    Reg p = k_.sgpr(name, 2, 2);
    sptr_add_to(p, base, off);
    return p;
  }
  // dst = 64-bit SGPR pointer + 32-bit unsigned byte offset (an SGPR or a constant); dst may be base.
  template <class Off>
  void sptr_add_to(Reg dst, Reg base, Off off) {
    k_.s_add_u32(dst[0], base[0], off);
    k_.s_addc_u32(dst[1], base[1], 0);
  }
  Reg smul(Reg x, uint32_t c, const char* name) {
    Reg r = k_.sgpr(name);
    if (c == 1) k_.s_mov_b32(r, x);
    else if (std::has_single_bit(c)) k_.s_lshl_b32(r, x, int(std::countr_zero(c)));
    else k_.s_mul_i32(r, x, sconst(c, "factor"));
    return r;
  }
  // Runs `body` `left` times (left >= 1 on entry, an SGPR the loop counts down to zero): the
  // loop closes with its counter test, the loop form of every K loop here.
  void counted_loop(Reg left, const std::function<void()>& body) {
    k_.do_while_scc(body, [&] {
      k_.s_sub_u32(left, left, 1);
      k_.s_cmp_lg_u32(left, 0);
    });
  }
  // The same for left >= 0: no trip when left is zero on entry.
  void counted_loop_or_none(Reg left, const std::function<void()>& body) {
    k_.if_scc([&] { k_.s_cmp_lg_u32(left, 0); }, [&] { counted_loop(left, body); });
  }
  // The thread's wave in the workgroup (tid / 64) as an SGPR: the same for every lane, so wave
  // arithmetic stays scalar.
  Reg wave_index(Reg tid) {
    Reg wave_v = k_.vgpr("wave_v");
    k_.v_lshrrev_b32(wave_v, 6, tid);
    Reg wave = k_.sgpr("wave");
    k_.v_readfirstlane_b32(wave, wave_v);
    return wave;
  }
  Reg lane_index(Reg tid) {
    Reg lane = k_.vgpr("lane");
    k_.v_and_b32(lane, 63, tid);
    return lane;
  }
  // The wave's place in a grid of waves_m x waves_n waves, wave = wm + waves_m * wn, and its lane.
  struct WaveGrid {
    Reg wave, wm, wn, lane;
  };
  WaveGrid wave_grid(Reg tid, int waves_m) {
    WaveGrid g;
    g.wave = wave_index(tid);
    // wn = wave / waves_m by a 16-bit reciprocal, exact because wave < 16
    g.wn = k_.sgpr("wn");
    Reg t = k_.sgpr("t");
    k_.s_mul_i32(t, g.wave, sconst((65536u + uint32_t(waves_m) - 1) / uint32_t(waves_m)));
    k_.s_lshr_b32(g.wn, t, 16);
    g.wm = k_.sgpr("wm");
    k_.s_sub_u32(g.wm, g.wave, smul(g.wn, uint32_t(waves_m), "wn_times_wm"));
    g.lane = lane_index(tid);
    return g;
  }

 protected:
  Kernel& k_;
  Reg oob_;
  std::map<uint32_t, Reg> cached_;
};

// fp32 -> bf16 RNE in the high half of the result (NaN quieted), for gfx942, which
// lacks v_cvt_pk_bf16_f32: x + 0x7fff + bit16(x).
inline Reg round_bf16_high(Kernel& k, Reg x, Reg c7fff) {
  Reg lsb = k.vgpr("bf16_lsb");
  k.v_bfe_u32(lsb, x, 16, 1);
  Reg r = k.vgpr("bf16_rounded");
  k.v_add3_u32(r, x, lsb, c7fff);
  Reg qnan = k.vgpr("bf16_qnan");
  k.v_or_b32(qnan, int64_t(0x400000), x);
  k.v_cmp_u_f32(vcc, x, x);
  k.v_cndmask_b32(r, r, qnan, vcc);
  return r;
}

// Stores an fp32 value in the output type at byte offset `off` of `rsrc` (an offset past
// num_records drops the store): fp32 as it is, or bf16 rounded to nearest even, by
// v_cvt_pk_bf16_f32 on gfx950 and by round_bf16_high on gfx942 (c7fff: an SGPR holding 0x7fff).
inline void store_fp32_as(Kernel& k, bool bf16, Reg v, Reg off, Reg rsrc, Reg c7fff) {
  if (!bf16) {
    k.buffer_store_dword(v, off, rsrc, 0, offen);
  } else if (k.arch() == Arch::gfx950) {
    Reg h = k.vgpr("bf16_pair");
    k.v_cvt_pk_bf16_f32(h, v, v);
    k.buffer_store_short(h, off, rsrc, 0, offen);
  } else {
    k.buffer_store_short_d16_hi(round_bf16_high(k, v, c7fff), off, rsrc, 0, offen);
  }
}

}  // namespace cdnajit::codegen
