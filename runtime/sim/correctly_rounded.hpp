// Correctly rounded transcendentals of the simulator (v_exp/log/rcp/rsq/sqrt/sin/cos and their f16,
// f64 and legacy forms): round-to-nearest-even of the exact mathematical result, computed by the
// project's own code, so the bits are the same on every host whatever its C library.
//
// Each function takes and returns raw bits. Special inputs follow the AMD ISA guides' functional
// examples (runtime/sim/README.md, "Transcendentals"): NaN in gives the input NaN quieted; a NaN the
// operation creates (log2 or rsq of a negative, sin/cos of an infinity) is the negative quiet NaN
// (f32 0xffc00000, f16 0xfe00, f64 0xfff8000000000000); an exact zero from sin/cos of a non-zero
// input is +0. Inputs are taken as they are: the caller applies MODE's denormal flush before and after.
// The host must be in its default round-to-nearest mode (the simulator's own state everywhere
// except inside MODE handlers, which never call these).
#pragma once
#include <cstdint>

namespace cdnajit::sim {

enum class Transcendental : uint8_t {
  Exp2,    // 2^x (v_exp_*)
  Log2,    // log2(x) (v_log_*)
  Rcp,     // 1/x (v_rcp_*, v_rcp_iflag_f32)
  Rsq,     // 1/sqrt(x) (v_rsq_*)
  Sqrt,    // sqrt(x) (v_sqrt_*)
  SinRev,  // sin(2*pi*x): the argument in revolutions (v_sin_*)
  CosRev,  // cos(2*pi*x) (v_cos_*)
};
const char* name_of(Transcendental f);

uint32_t transcendental_f32(Transcendental f, uint32_t x);
uint16_t transcendental_f16(Transcendental f, uint16_t x);
// Only Rcp, Rsq and Sqrt (the f64 transcendentals of gfx942/gfx950); others return the generated NaN.
uint64_t transcendental_f64(Transcendental f, uint64_t x);

// How often the arbitrary-precision fallback (MPFR) decided a rounding that the fast double
// evaluation could not, in this process (all threads). For the accuracy campaign's report.
uint64_t transcendental_fallbacks();

// The fast path's value for finite x where it is used (Exp2 with |x| < 1000, Log2 with x > 0,
// Rsq with x > 0, SinRev/CosRev), and its claimed relative error bound: |exact - y| <= rel * |y|
// (rel 0: y is exact). Exposed so that tests can check the bound against MPFR.
struct FastValue {
  double y;
  double rel;
};
FastValue transcendental_fast_value(Transcendental f, double x);

}  // namespace cdnajit::sim
