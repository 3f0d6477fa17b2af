// VOP3 / SDWA output modifiers of a float result: OMOD (x2, x4, x0.5), then CLAMP to [0, 1] (the ISA
// guides' OMOD/CLAMP fields). A NaN clamps to 0 while MODE.DX10_CLAMP is set (the descriptor default)
// and passes through otherwise (LLVM AMDGPUUsage, compute_pgm_rsrc1 ENABLE_DX10_CLAMP: "when set, clamp
// NaN to zero, otherwise pass NaN through"). One place for every handler that applies them: the
// generic store and the f64 / packed paths (ops_valu.cpp), the MODE handlers (ops_rounding.cpp), the
// fp8 conversions and the per-lane handlers (lane_op.hpp).
//
// When OMOD acts (Options::Omod::Published, the default): AMD's description of the hardware, given
// by AMD's assembler maintainer in the LLVM review of omod folding (reviews.llvm.org/D30209,
// Feb 2017): "if output denorms are allowed (in the HW MODE register), then any output modifier is
// ignored"; "if output denorms are not allowed, then denorms will be flushed to +/-0 first. Then,
// if output modifier is non-zero, -0 will be forced to +0 prior applying the modifier"; "output
// modifiers are ignored by hardware if ieee bit is set in the HW MODE register"; "the above applies
// to all supported floating types, including f16, f32, f64". LLVM 22's SIFoldOperands folds a
// multiply into omod only under exactly those conditions (the type's output denormals flushed, IEEE
// off). Assumed: a result the multiply makes denormal is flushed again (outputs flush in that mode).
// Options::Omod::Always applies OMOD whatever MODE says (the simulator's earlier behaviour).
#pragma once
#include <cmath>
#include <cstdint>

#include "runtime/sim/fp.hpp"
#include "runtime/sim/sim_internal.hpp"

namespace cdnajit::sim {

constexpr uint32_t kModeIeee = 1u << 9;  // MODE.IEEE (the descriptor's IEEE_MODE bit)

// Whether op's OMOD changes a result of the given width (f16/f64 share a MODE denormal field).
inline bool omod_acts(const Wave& w, const Op& op, bool f16_or_f64) {
  if (!op.omod) return false;
  if (w.L->opt.omod == Options::Omod::Always) return true;
  const bool outputs_flush = f16_or_f64 ? w.flush_out_f16_64 : w.flush_out_f32;
  return outputs_flush && !(w.mode & kModeIeee);
}

inline float omod_factor(uint8_t omod) { return omod == 1 ? 2.0f : omod == 2 ? 4.0f : 0.5f; }

inline float clamp01(float x, bool dx10) { return std::isnan(x) ? (dx10 ? 0.0f : x) : std::fmin(std::fmax(x, 0.0f), 1.0f); }

// f32 result bits -> bits after OMOD (when it acts) and CLAMP.
inline uint32_t out_mods_f32(const Wave& w, const Op& op, uint32_t u) {
  if (omod_acts(w, op, false)) {
    if (w.L->opt.omod == Options::Omod::Published) {
      u = flush_denorm32(u);
      if (u == 0x80000000u) u = 0;  // -0 becomes +0 before the multiply
    }
    u = as_u(as_f(u) * omod_factor(op.omod));
    if (w.flush_out_f32) u = flush_denorm32(u);
  }
  if (op.clamp) u = as_u(clamp01(as_f(u), w.dx10_clamp));
  return u;
}

// f16 result bits (low half of r; the high half is returned unchanged) -> after OMOD and CLAMP.
// x2 / x4 are exact in f32 and round once (overflow to inf) back to f16; x0.5 of a normal f16 is
// exact or denormal, and a denormal result only arises with outputs flushed.
inline uint32_t out_mods_f16(const Wave& w, const Op& op, uint32_t r) {
  uint16_t h = uint16_t(r);
  auto flush16 = [](uint16_t x) { return (x & 0x7c00) == 0 ? uint16_t(x & 0x8000) : x; };
  if (omod_acts(w, op, true)) {
    if (w.L->opt.omod == Options::Omod::Published) {
      h = flush16(h);
      if (h == 0x8000) h = 0;
    }
    h = f32_to_f16(as_u(f16_to_f32(h) * omod_factor(op.omod)));
    if (w.flush_out_f16_64) h = flush16(h);
  }
  if (op.clamp && !((h & 0x7c00) == 0x7c00 && (h & 0x3ff) && !w.dx10_clamp))  // a NaN passes through unchanged
    h = f32_to_f16(as_u(clamp01(f16_to_f32(h), w.dx10_clamp)));
  return (r & 0xffff0000u) | h;
}

// f64 result bits -> after OMOD and CLAMP (the f16/f64 MODE denormal field governs f64 outputs).
inline uint64_t out_mods_f64(const Wave& w, const Op& op, uint64_t u) {
  auto flush64 = [](uint64_t x) { return (x & 0x7ff0000000000000ull) == 0 ? (x & (1ull << 63)) : x; };
  if (omod_acts(w, op, true)) {
    if (w.L->opt.omod == Options::Omod::Published) {
      u = flush64(u);
      if (u == 1ull << 63) u = 0;
    }
    u = as_u64(as_d(u) * double(omod_factor(op.omod)));
    if (w.flush_out_f16_64) u = flush64(u);
  }
  if (op.clamp) {
    const double x = as_d(u);
    if (!std::isnan(x) || w.dx10_clamp) u = as_u64(std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0));
  }
  return u;
}

}  // namespace cdnajit::sim
