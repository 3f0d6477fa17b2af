// f64 and f16 rounding helpers: ceil, floor, trunc, rndne (round to nearest even),
// fract, frexp mantissa/exponent, and the f16 sin/cos. Semantics from AMD's CDNA3
// ISA reference ("VOP1 instructions"): fract = x - floor(x) limited to the largest
// value below 1 and NaN for infinities; frexp_mant/exp of inf or NaN return the
// input / 0; sin/cos take the angle in revolutions (x * 2*pi radians) and are
// correctly rounded (correctly_rounded.hpp; the hardware's transcendental f16 ops are
// approximations: they may differ in the last bit).
#include <cmath>
#include <limits>

#include "runtime/sim/correctly_rounded.hpp"
#include "runtime/sim/fp.hpp"
#include "runtime/sim/lane_op.hpp"

namespace cdnajit::sim {
namespace {

constexpr uint64_t kSign64 = 1ull << 63, kSign16 = 0x8000;

// NaN in, NaN out: LLVM's AMDGPU fract matching (AMDGPUCodeGenPrepare, matchFractPat) turns
// minnum(x - floor(x), nextafter(1, 0)) into v_fract only when x cannot be NaN, because the
// instruction returns NaN where minnum returns the constant.
double fract(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
  return std::fmin(x - std::floor(x), std::nextafter(1.0, 0.0));
}
// f16 fract in f32 (x - floor(x) is exact there for an f16 x): limited to the largest f16 below 1
// (0x3bff = 1 - 2^-11) before the rounding to f16, which would otherwise turn e.g. fract(-2^-24) =
// 1 - 2^-24 into 1.0; a NaN input stays NaN (std::fmin would drop it).
float fract16_of(float x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::numeric_limits<float>::quiet_NaN();
  return std::fmin(x - std::floor(x), 1.0f - 0x1p-11f);
}

template <double (*F)(double)>
void f64_unary(Wave& w, const Op& op) {
  lane_op_mods(w, op, OutMods::F64, 2, 2, kSign64, [](int, uint64_t a, uint64_t, uint64_t) { return as_u64(F(as_d(a))); });
}
// f16 results computed in f32 (exact for these operations) and rounded once.
template <float (*F)(float)>
void f16_unary(Wave& w, const Op& op) {
  lane_op_mods(w, op, OutMods::F16, 1, 1, kSign16, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    return f32_to_f16(bits_of(F(f16_to_f32(uint16_t(a)))));
  });
}
// f16 transcendentals, correctly rounded from the f16 bits (correctly_rounded.hpp).
template <Transcendental T>
void f16_transcendental(Wave& w, const Op& op) {
  lane_op_mods(w, op, OutMods::F16, 1, 1, kSign16, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    return transcendental_f16(T, uint16_t(a));
  });
}

double ceil64(double x) { return std::ceil(x); }
double rndne64(double x) { return std::nearbyint(x); }  // default rounding mode: ties to even
double fract64(double x) { return fract(x); }
double frexp_mant64(double x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  int e;
  return std::frexp(x, &e);
}
float ceil16(float x) { return std::ceil(x); }
float floor16(float x) { return std::floor(x); }
float trunc16(float x) { return std::trunc(x); }
float rndne16(float x) { return std::nearbyint(x); }
float fract16(float x) { return fract16_of(x); }
float frexp_mant16(float x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  int e;
  return std::frexp(x, &e);
}

void frexp_exp_i32_f64(Wave& w, const Op& op) {  // the exponent is within [-1073, 1024]: clamp changes nothing
  lane_op_mods(w, op, OutMods::IntInRange, 2, 1, kSign64, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    double x = as_d(a);
    if (std::isnan(x) || std::isinf(x) || x == 0) return 0;
    int e;
    std::frexp(x, &e);
    return uint32_t(e);
  });
}
void frexp_exp_i16_f16(Wave& w, const Op& op) {  // the exponent is within [-23, 16]: clamp changes nothing
  lane_op_mods(w, op, OutMods::IntInRange, 1, 1, kSign16, [](int, uint64_t a, uint64_t, uint64_t) -> uint64_t {
    float x = f16_to_f32(uint16_t(a));
    if (std::isnan(x) || std::isinf(x) || x == 0) return 0;
    int e;
    std::frexp(x, &e);
    return uint16_t(int16_t(e));
  });
}

}  // namespace

void register_f64(Registry& r) {
  auto add = [&](O n, Handler h, FType ft) {
    if (!r.has(n)) r.add(n, h, ft);
  };
  add(O::v_ceil_f64, &f64_unary<ceil64>, FType::F64);
  add(O::v_rndne_f64, &f64_unary<rndne64>, FType::F64);
  add(O::v_fract_f64, &f64_unary<fract64>, FType::F64);
  add(O::v_frexp_mant_f64, &f64_unary<frexp_mant64>, FType::F64);
  add(O::v_frexp_exp_i32_f64, &frexp_exp_i32_f64, FType::F64);
  add(O::v_ceil_f16, &f16_unary<ceil16>, FType::F16);
  add(O::v_floor_f16, &f16_unary<floor16>, FType::F16);
  add(O::v_trunc_f16, &f16_unary<trunc16>, FType::F16);
  add(O::v_rndne_f16, &f16_unary<rndne16>, FType::F16);
  add(O::v_fract_f16, &f16_unary<fract16>, FType::F16);
  add(O::v_frexp_mant_f16, &f16_unary<frexp_mant16>, FType::F16);
  add(O::v_frexp_exp_i16_f16, &frexp_exp_i16_f16, FType::F16);
  add(O::v_sin_f16, &f16_transcendental<Transcendental::SinRev>, FType::F16);
  add(O::v_cos_f16, &f16_transcendental<Transcendental::CosRev>, FType::F16);
}

}  // namespace cdnajit::sim
