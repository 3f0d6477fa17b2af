// gfx950 scaled narrow-float conversions (all 49 v_cvt_scalef32_* forms) and the stochastic-rounding
// v_cvt_sr_f16_f32 / v_cvt_sr_bf16_f32, in clang-22-compiled HIP kernels using the builtins, run on
// the simulator and checked bit-exact against an independent CPU oracle:
//  - up-conversions (fp8/bf8/fp6/bf6/fp4 -> f32/f16/bf16) on every code of every format;
//  - down-conversions from f16 and bf16 on every 16-bit input code (0, subnormals, inf, NaN, max
//    and everything between), from f32 on every target code's value, the midpoints between
//    neighbouring codes (ties) and one f32 ulp either side, overflow thresholds, infinities, NaN,
//    zeros, f32 subnormals and seeded random floats;
//  - every down-conversion with round-to-nearest-even and stochastic rounding (fixed and seeded
//    random seeds), with and without MODE.FP16_OVFL (fp8/bf8 saturation);
//  - scales 2^0, 2^-3 given with sign and mantissa bits set (ignored), 2^5, 2^-8, 2^-127 (exponent
//    field 0), 2^127 and NaN (exponent field 255); the unselected fields of tied destinations keep
//    their old bits.
// The rules checked are the simulator's documented reading (runtime/sim/ops_fp8.cpp, README.md
// "known and assumed"); where that reading leaves a NaN's code open, any NaN is accepted.
#include <catch2/catch.hpp>

#include <mpfr.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "jit/isa/error.hpp"
#include "runtime/hip_source.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

// ---- Independent oracle (deliberately a different algorithm from runtime/sim/mx_format.hpp,
// fp8_encode.hpp and ops_fp8.cpp, sharing no code with them): narrow codes are decoded from the
// format definitions into a sorted table of values and a value is encoded by finding its two
// neighbours in that table; wide results (f32/f16/bf16) are rounded by MPFR in the destination's
// precision and exponent range.
enum class Nf { FP8, BF8, FP6, BF6, FP4 };
struct NfDef {
  int ebits, mbits, bias;
};
NfDef def_of(Nf f) {
  switch (f) {
    case Nf::FP8: return {4, 3, 7};
    case Nf::BF8: return {5, 2, 15};
    case Nf::FP6: return {2, 3, 1};
    case Nf::BF6: return {3, 2, 3};
    default: return {2, 1, 1};
  }
}
int width_of(Nf f) { return 1 + def_of(f).ebits + def_of(f).mbits; }
bool is_fp8(Nf f) { return f == Nf::FP8 || f == Nf::BF8; }

double code_value(unsigned code, Nf f) {  // NaN for NaN codes, ±inf for inf codes
  const NfDef d = def_of(f);
  const unsigned w = unsigned(width_of(f));
  const unsigned ex = (code >> d.mbits) & ((1u << d.ebits) - 1), man = code & ((1u << d.mbits) - 1);
  const double sg = ((code >> (w - 1)) & 1) ? -1.0 : 1.0;
  if (f == Nf::FP8 && ex == 15 && man == 7) return NAN;
  if (f == Nf::BF8 && ex == 31) return man ? NAN : sg * INFINITY;
  const double frac = double(man) / double(1u << d.mbits);
  return ex == 0 ? sg * frac * std::pow(2.0, 1 - d.bias) : sg * (1.0 + frac) * std::pow(2.0, int(ex) - d.bias);
}

struct Expect {
  bool any_nan = false;  // any NaN code is accepted
  unsigned code = 0;
};

// Non-negative finite codes of a format, ascending by value.
std::vector<std::pair<double, unsigned>> finite_codes(Nf f) {
  std::vector<std::pair<double, unsigned>> t;
  for (unsigned c = 0; c < (1u << (width_of(f) - 1)); ++c) {
    const double v = code_value(c, f);
    if (std::isfinite(v)) t.push_back({v, c});
  }
  return t;
}

// Encode the exact signed value x (may be inf/NaN). k > 0: stochastic rounding adding `random`
// (< 2^k) to the k fraction bits below the last place; k == 0: round to nearest even.
Expect encode_oracle(double x, Nf f, int k, uint32_t random, bool sat) {
  Expect r;
  const bool neg = std::signbit(x);
  const unsigned sign = neg ? 1u << (width_of(f) - 1) : 0u;
  static std::vector<std::pair<double, unsigned>> tabs[5];
  auto& tab = tabs[int(f)];
  if (tab.empty()) tab = finite_codes(f);
  const unsigned maxc = tab.back().second;
  auto overflow = [&]() {
    Expect o;
    if (!is_fp8(f) || sat) o.code = sign | maxc;  // fp6/fp4 always saturate
    else if (f == Nf::FP8) o.any_nan = true;
    else o.code = sign | 0x7c;                 // bf8: infinity
    return o;
  };
  if (std::isnan(x)) {
    if (is_fp8(f)) r.any_nan = true;
    else r.code = sign | maxc;
    return r;
  }
  if (std::isinf(x)) {
    if (f == Nf::BF8) r.code = sign | 0x7c;
    else if (f == Nf::FP8) r.any_nan = true;
    else r.code = sign | maxc;
    return r;
  }
  const double a = std::fabs(x);
  // The last table entry <= a.
  const size_t i = size_t(std::upper_bound(tab.begin(), tab.end(), a, [](double v, const auto& e) { return v < e.first; }) - tab.begin()) - 1;
  const double lo = tab[i].first;
  const bool top = i + 1 == tab.size();
  const double hi = top ? lo + (lo - tab[i - 1].first) : tab[i + 1].first;  // past the top: one more ulp
  bool up;
  if (a == lo) up = false;
  else if (a >= hi) return overflow();
  else if (k == 0) {
    const double twice = 2 * a, mid = lo + hi;  // exact
    const unsigned hic = top ? maxc + 1 : tab[i + 1].second;
    up = twice > mid || (twice == mid && (hic & 1) == 0);
  } else {
    const double fr = (a - lo) / (hi - lo);  // exact: a power-of-two spacing
    const uint64_t fb = uint64_t(std::floor(std::ldexp(fr, k)));
    up = fb + random >= (uint64_t(1) << k);
  }
  if (up && top) return overflow();
  r.code = sign | (up ? tab[i + 1].second : tab[i].second);
  return r;
}

// Wide formats through MPFR: precision p = mbits + 1, exponent range of the IEEE format.
enum class Wf { F32, F16, BF16 };
struct WfDef {
  int mbits, bias;
};
WfDef wdef(Wf w) { return w == Wf::F32 ? WfDef{23, 127} : w == Wf::F16 ? WfDef{10, 15} : WfDef{7, 127}; }

// Round the exact double y to the format with `rnd`; returns a double (exact).
double round_in(double y, Wf w, mpfr_rnd_t rnd) {
  const WfDef d = wdef(w);
  const mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
  mpfr_set_emin(2 - d.bias - d.mbits);
  mpfr_set_emax(d.bias + 1);
  mpfr_t t;
  mpfr_init2(t, d.mbits + 1);
  int in = mpfr_set_d(t, y, rnd);
  in = mpfr_check_range(t, in, rnd);
  mpfr_subnormalize(t, in, rnd);
  const double out = mpfr_get_d(t, MPFR_RNDN);
  mpfr_clear(t);
  mpfr_set_emin(old_min);
  mpfr_set_emax(old_max);
  return out;
}
uint32_t wide_bits(double v, Wf w) {  // v exactly representable in w (or ±inf)
  if (w == Wf::F32) return bits(float(v));
  if (w == Wf::BF16) return bits(float(v)) >> 16;
  _Float16 h = _Float16(v);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
bool wide_is_nan(uint32_t b, Wf w) {
  if (w == Wf::F32) return (b & 0x7fffffffu) > 0x7f800000u;
  if (w == Wf::BF16) return (b & 0x7fff) > 0x7f80;
  return (b & 0x7fff) > 0x7c00;
}
double wide_value(uint32_t b, Wf w) {
  if (w == Wf::F32) return double(flt(b));
  if (w == Wf::BF16) return double(flt(b << 16));
  _Float16 h;
  uint16_t u = uint16_t(b);
  std::memcpy(&h, &u, 2);
  return double(h);
}

// The scale operands tried: (f32 bits, exponent, NaN).
struct ScaleCase {
  uint32_t bits;
  int exp;
  bool nan;
};
const ScaleCase kScales[] = {
    {0x3f800000u, 0, false},    // 1.0
    {0xbe7fffffu, -3, false},   // sign and mantissa set: only the exponent field (124) counts
    {0x42000000u, 5, false},    // 32.0
    {0x3b800000u, -8, false},   // 2^-8
    {0x00000000u, -127, false}, // exponent field 0: 2^-127
    {0x7f000000u, 127, false},  // 2^127
    {0x7f800000u, 0, true},     // exponent field 255: NaN
};

// Expected up-conversion result; any_nan: any NaN of the destination.
Expect up_oracle(unsigned code, Nf f, Wf w, const ScaleCase& s) {
  Expect e;
  const double v = code_value(code, f);
  if (std::isnan(v) || s.nan) { e.any_nan = true; return e; }
  e.code = wide_bits(round_in(std::ldexp(v, s.exp), w, MPFR_RNDN), w);
  return e;
}

// Expected down-conversion of the wide input bits `in` (type w) to f.
Expect down_oracle(uint32_t in, Wf w, Nf f, const ScaleCase& s, bool stochastic, uint32_t seed, bool sat) {
  double x = wide_is_nan(in, w) ? NAN : wide_value(in, w);
  if (std::isnan(x)) x = std::copysign(NAN, (in >> (w == Wf::F32 ? 31 : 15)) & 1 ? -1.0 : 1.0);
  if (s.nan) x = std::copysign(NAN, x);
  else x = std::ldexp(x, -s.exp);  // exact in a double
  int k = 0;
  uint32_t random = 0;
  if (stochastic) {
    k = wdef(w).mbits - def_of(f).mbits;
    random = seed >> (32 - k);
  }
  return encode_oracle(x, f, k, random, sat);
}

// v_cvt_sr_f16_f32 / _bf16_f32: the result's neighbours below and above |x| (MPFR toward zero and
// the next value up), chosen with the low (23 - mbits) bits of the seed.
Expect sr16_oracle(uint32_t in, Wf w, uint32_t seed) {
  Expect e;
  if ((in & 0x7fffffffu) > 0x7f800000u) { e.any_nan = true; return e; }
  const double x = double(flt(in)), a = std::fabs(x);
  const uint32_t sign = std::signbit(x) ? 0x8000u : 0u;
  if (std::isinf(a)) { e.code = sign | (w == Wf::F16 ? 0x7c00u : 0x7f80u); return e; }
  const WfDef d = wdef(w);
  const int k = 23 - d.mbits;
  const double lo = round_in(a, w, MPFR_RNDZ);
  // The format's spacing at lo (constant below the smallest normal); one step above the largest
  // finite value is inf.
  const double step = std::ldexp(1.0, (lo == 0 ? 1 - d.bias : std::max(std::ilogb(lo), 1 - d.bias)) - d.mbits);
  const double maxv = std::ldexp(2.0 - std::ldexp(1.0, -d.mbits), d.bias);
  const double hi = lo + step > maxv ? INFINITY : lo + step;
  double r = lo;
  if (a >= lo + step) r = INFINITY;
  else if (a != lo) {
    const double fr = (a - lo) / step;
    const uint64_t fb = uint64_t(std::floor(std::ldexp(fr, k)));
    if (fb + (seed & ((1u << k) - 1)) >= (uint64_t(1) << k)) r = hi;  // hi is inf past the largest
  }
  e.code = sign | wide_bits(r, w);
  return e;
}

// ---- Inputs.
uint32_t seed_value(size_t i, std::mt19937& g) {
  switch (i % 5) {
    case 0: return 0;
    case 1: return ~0u;
    case 2: return 0x7fffffffu;
    default: return g();
  }
}

// f32 inputs for down-conversions at scale 2^s: every target code's value times 2^s, the midpoints
// and one f32 ulp either side, for every format; specials and random floats; both signs.
std::vector<float> f32_inputs(int s, std::mt19937& g) {
  std::vector<float> in;
  for (Nf f : {Nf::FP8, Nf::BF8, Nf::FP6, Nf::BF6, Nf::FP4}) {
    auto t = finite_codes(f);
    for (size_t i = 0; i < t.size(); ++i) {
      const double v = t[i].first;
      const double next = i + 1 < t.size() ? t[i + 1].first : v + (v - t[i - 1].first);
      const float c = float(std::ldexp(v, s)), mid = float(std::ldexp((v + next) / 2, s));
      in.push_back(c);
      in.push_back(mid);
      in.push_back(std::nextafter(mid, INFINITY));
      in.push_back(std::nextafter(mid, -INFINITY));
      in.push_back(float(std::ldexp(next, s)));
    }
  }
  for (float v : {INFINITY, NAN, 0.0f, 1e-40f, 1.4e-45f, std::numeric_limits<float>::max(), 1e30f, 1.0f})
    in.push_back(v);
  std::uniform_int_distribution<int> e(-40, 40);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  for (int k = 0; k < 300; ++k) in.push_back(std::ldexp(m(g), e(g) + s));
  const size_t n = in.size();
  for (size_t k = 0; k < n; ++k) in.push_back(-in[k]);
  return in;
}

const char* kSrc = R"(
typedef float v2f __attribute__((ext_vector_type(2)));
typedef short v2s __attribute__((ext_vector_type(2)));
typedef _Float16 v2h __attribute__((ext_vector_type(2)));
typedef __bf16 v2y __attribute__((ext_vector_type(2)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));
typedef _Float16 v32h __attribute__((ext_vector_type(32)));
typedef __bf16 v32y __attribute__((ext_vector_type(32)));
typedef unsigned v6u __attribute__((ext_vector_type(6)));
#define OLD 0x5a5a5a5au
#define U(x) __builtin_bit_cast(unsigned, x)
// Vector elements go through a scalar parameter first: clang-22 bit-casts an ext_vector element
// expression (p.y) as the whole vector's element 0.
static __device__ unsigned fbits(float f) { return __builtin_bit_cast(unsigned, f); }
static __device__ unsigned hbits(_Float16 h) { return __builtin_bit_cast(unsigned short, h); }
static __device__ unsigned ybits(__bf16 h) { return __builtin_bit_cast(unsigned short, h); }

static __device__ void set_sat(int sat) {
  if (sat) __builtin_amdgcn_s_setreg((1 | (23 << 6) | (0 << 11)), 1);  // MODE.FP16_OVFL = 1
}

extern "C" __global__ void down_f32(const float* x, const float* y, const unsigned* seed, unsigned* o, float scale, int sat) {
  unsigned i = bid() * bdim() + tid();
  set_sat(sat);
  float a = x[i], b = y[i];
  unsigned r = seed[i];
  const v2s olds = __builtin_bit_cast(v2s, OLD);
  unsigned* q = o + i * 10;
  q[0] = U(__builtin_amdgcn_cvt_scalef32_pk_fp8_f32(olds, a, b, scale, false));
  q[1] = U(__builtin_amdgcn_cvt_scalef32_pk_bf8_f32(olds, a, b, scale, true));
  q[2] = __builtin_amdgcn_cvt_scalef32_pk_fp4_f32(OLD, a, b, scale, 2);
  q[3] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(OLD, a, r, scale, 1);
  q[4] = __builtin_amdgcn_cvt_scalef32_sr_bf8_f32(OLD, b, r, scale, 3);
  v2f ab = {a, b};
  q[5] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f32(OLD, ab, r, scale, 0);
  q[6] = U(__builtin_amdgcn_cvt_sr_f16_f32(__builtin_bit_cast(v2h, OLD), a, r, true));
  q[7] = U(__builtin_amdgcn_cvt_sr_bf16_f32(__builtin_bit_cast(v2y, OLD), b, r, false));
  q[8] = U(__builtin_amdgcn_cvt_sr_f16_f32(__builtin_bit_cast(v2h, OLD), b, r, false));
  q[9] = U(__builtin_amdgcn_cvt_sr_bf16_f32(__builtin_bit_cast(v2y, OLD), a, r, true));
}

extern "C" __global__ void down_16(const unsigned* h2, const unsigned* b2, const unsigned* seed, unsigned* o, float scale, int sat) {
  unsigned i = bid() * bdim() + tid();
  set_sat(sat);
  v2h h = __builtin_bit_cast(v2h, h2[i]);
  v2y b = __builtin_bit_cast(v2y, b2[i]);
  unsigned r = seed[i];
  const v2s olds = __builtin_bit_cast(v2s, OLD);
  unsigned* q = o + i * 12;
  q[0] = U(__builtin_amdgcn_cvt_scalef32_pk_fp8_f16(olds, h, scale, false));
  q[1] = U(__builtin_amdgcn_cvt_scalef32_pk_bf8_f16(olds, h, scale, true));
  q[2] = U(__builtin_amdgcn_cvt_scalef32_pk_fp8_bf16(olds, b, scale, true));
  q[3] = U(__builtin_amdgcn_cvt_scalef32_pk_bf8_bf16(olds, b, scale, false));
  q[4] = __builtin_amdgcn_cvt_scalef32_pk_fp4_f16(OLD, h, scale, 3);
  q[5] = __builtin_amdgcn_cvt_scalef32_pk_fp4_bf16(OLD, b, scale, 0);
  q[6] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f16(OLD, h.x, r, scale, 2);
  q[7] = __builtin_amdgcn_cvt_scalef32_sr_bf8_f16(OLD, h.x, r, scale, 0);
  q[8] = __builtin_amdgcn_cvt_scalef32_sr_fp8_bf16(OLD, b.x, r, scale, 1);
  q[9] = __builtin_amdgcn_cvt_scalef32_sr_bf8_bf16(OLD, b.x, r, scale, 3);
  q[10] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f16(OLD, h, r, scale, 1);
  q[11] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_bf16(OLD, b, r, scale, 2);
}

// 32 elements per lane: f (32 f32), h (16 dwords of f16 pairs), b (16 dwords of bf16 pairs).
extern "C" __global__ void down_32(const float* f, const unsigned* h, const unsigned* b, const unsigned* seed, unsigned* o, float scale) {
  unsigned i = bid() * bdim() + tid();
  v32f xf;
  v32h xh;
  v32y xb;
  for (int j = 0; j < 32; ++j) xf[j] = f[i * 32 + j];
  for (int j = 0; j < 16; ++j) {
    v2h p = __builtin_bit_cast(v2h, h[i * 16 + j]);
    v2y q = __builtin_bit_cast(v2y, b[i * 16 + j]);
    xh[2 * j] = p.x; xh[2 * j + 1] = p.y;
    xb[2 * j] = q.x; xb[2 * j + 1] = q.y;
  }
  v16f lo = xf.lo, hi = xf.hi;
  unsigned r = seed[i];
  v6u res[12];
  res[0] = __builtin_amdgcn_cvt_scalef32_2xpk16_fp6_f32(lo, hi, scale);
  res[1] = __builtin_amdgcn_cvt_scalef32_2xpk16_bf6_f32(lo, hi, scale);
  res[2] = __builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_f32(xf, r, scale);
  res[3] = __builtin_amdgcn_cvt_scalef32_sr_pk32_bf6_f32(xf, r, scale);
  res[4] = __builtin_amdgcn_cvt_scalef32_pk32_fp6_f16(xh, scale);
  res[5] = __builtin_amdgcn_cvt_scalef32_pk32_bf6_f16(xh, scale);
  res[6] = __builtin_amdgcn_cvt_scalef32_pk32_fp6_bf16(xb, scale);
  res[7] = __builtin_amdgcn_cvt_scalef32_pk32_bf6_bf16(xb, scale);
  res[8] = __builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_f16(xh, r, scale);
  res[9] = __builtin_amdgcn_cvt_scalef32_sr_pk32_bf6_f16(xh, r, scale);
  res[10] = __builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_bf16(xb, r, scale);
  res[11] = __builtin_amdgcn_cvt_scalef32_sr_pk32_bf6_bf16(xb, r, scale);
  for (int k = 0; k < 12; ++k)
    for (int j = 0; j < 6; ++j) o[(i * 12 + k) * 6 + j] = res[k][j];
}

extern "C" __global__ void up_8(const unsigned* src, unsigned* o, float scale) {
  unsigned i = bid() * bdim() + tid();
  unsigned s = src[i];
  unsigned* q = o + i * 16;
  q[0] = U(__builtin_amdgcn_cvt_scalef32_f32_fp8(s, scale, 1));
  q[1] = U(__builtin_amdgcn_cvt_scalef32_f32_bf8(s, scale, 3));
  q[2] = U(__builtin_amdgcn_cvt_scalef32_f16_fp8(__builtin_bit_cast(v2h, OLD), s, scale, 0, true));
  q[3] = U(__builtin_amdgcn_cvt_scalef32_f16_bf8(__builtin_bit_cast(v2h, OLD), s, scale, 2, false));
  v2f p = __builtin_amdgcn_cvt_scalef32_pk_f32_fp8(s, scale, true);
  q[4] = fbits(p.x); q[5] = fbits(p.y);
  p = __builtin_amdgcn_cvt_scalef32_pk_f32_bf8(s, scale, false);
  q[6] = fbits(p.x); q[7] = fbits(p.y);
  p = __builtin_amdgcn_cvt_scalef32_pk_f32_fp4(s, scale, 2);
  q[8] = fbits(p.x); q[9] = fbits(p.y);
  q[10] = U(__builtin_amdgcn_cvt_scalef32_pk_f16_fp8(s, scale, false));
  q[11] = U(__builtin_amdgcn_cvt_scalef32_pk_bf16_fp8(s, scale, true));
  q[12] = U(__builtin_amdgcn_cvt_scalef32_pk_f16_bf8(s, scale, true));
  q[13] = U(__builtin_amdgcn_cvt_scalef32_pk_bf16_bf8(s, scale, false));
  q[14] = U(__builtin_amdgcn_cvt_scalef32_pk_f16_fp4(s, scale, 1));
  q[15] = U(__builtin_amdgcn_cvt_scalef32_pk_bf16_fp4(s, scale, 3));
}

extern "C" __global__ void up_6(const unsigned* src, unsigned* o, float scale) {
  unsigned i = bid() * bdim() + tid();
  v6u s;
  for (int j = 0; j < 6; ++j) s[j] = src[i * 6 + j];
  unsigned* q = o + i * 128;
  v32f a = __builtin_amdgcn_cvt_scalef32_pk32_f32_fp6(s, scale);
  v32f b = __builtin_amdgcn_cvt_scalef32_pk32_f32_bf6(s, scale);
  for (int j = 0; j < 32; ++j) { q[j] = fbits(a[j]); q[32 + j] = fbits(b[j]); }
  v32h c = __builtin_amdgcn_cvt_scalef32_pk32_f16_fp6(s, scale);
  v32y d = __builtin_amdgcn_cvt_scalef32_pk32_bf16_fp6(s, scale);
  v32h e = __builtin_amdgcn_cvt_scalef32_pk32_f16_bf6(s, scale);
  v32y f = __builtin_amdgcn_cvt_scalef32_pk32_bf16_bf6(s, scale);
  for (int j = 0; j < 16; ++j) {
    q[64 + j] = hbits(c[2 * j]) | hbits(c[2 * j + 1]) << 16;
    q[80 + j] = ybits(d[2 * j]) | ybits(d[2 * j + 1]) << 16;
    q[96 + j] = hbits(e[2 * j]) | hbits(e[2 * j + 1]) << 16;
    q[112 + j] = ybits(f[2 * j]) | ybits(f[2 * j + 1]) << 16;
  }
}
)";

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

// Counts checks and keeps the first mismatches; the lane's context (set per lane, cheaply) is only
// formatted when a check fails.
struct Tally {
  size_t checked = 0, bad = 0;
  std::string first;
  size_t lane = 0;
  uint32_t in0 = 0, in1 = 0, seed = 0, scale = 0;
  int sat = 0;
  void at(size_t l, uint32_t a, uint32_t b, uint32_t r, uint32_t s, int sa) { lane = l, in0 = a, in1 = b, seed = r, scale = s, sat = sa; }
  std::map<std::string, size_t> by_check;  // mismatches per check name
  void mismatch(const char* what, const std::string& detail) {
    ++by_check[what];
    if (++bad <= 12)
      first += "\n  lane " + std::to_string(lane) + " inputs " + hex(in0) + " " + hex(in1) + " seed " + hex(seed) + " scale " +
               hex(scale) + (sat ? " sat " : " ") + what + ": " + detail;
  }
};

// Check a narrow result field against the oracle (any_nan: any NaN code of the format).
void check_narrow(Tally& t, unsigned got, const Expect& e, Nf f, const char* what) {
  ++t.checked;
  const bool ok = e.any_nan ? std::isnan(code_value(got, f)) : got == e.code;
  if (!ok) t.mismatch(what, "got " + hex(got) + " want " + (e.any_nan ? std::string("NaN") : hex(e.code)));
}
void check_wide(Tally& t, uint32_t got, const Expect& e, Wf w, const char* what) {
  ++t.checked;
  const bool ok = e.any_nan ? wide_is_nan(got, w) : got == e.code;
  if (!ok) t.mismatch(what, "got " + hex(got) + " want " + (e.any_nan ? std::string("NaN") : hex(e.code)));
}
void check_kept(Tally& t, uint32_t got, uint32_t keep_mask, const char* what) {
  ++t.checked;
  if ((got & keep_mask) != (0x5a5a5a5au & keep_mask)) t.mismatch(what, "unselected bits changed, got " + hex(got));
}

}  // namespace

TEST_CASE("gfx950 v_cvt_scalef32_* up-conversions on every code, bit-exact against an independent oracle", "[sim][numerics][scalef32]") {
  std::string why;
  auto loaded = load_hip_or_skip(kSrc, Arch::gfx950, why);
  if (!loaded) CDNAJIT_SKIP(why);
  const cdnajit::CodeObject& co = *loaded;
  Device dev(Arch::gfx950);
  const std::string dis = dev.sim.disassemble(co, "up_8") + dev.sim.disassemble(co, "up_6");
  for (const char* m : {"v_cvt_scalef32_f32_fp8", "v_cvt_scalef32_f32_bf8", "v_cvt_scalef32_f16_fp8", "v_cvt_scalef32_f16_bf8",
                        "v_cvt_scalef32_pk_f32_fp8", "v_cvt_scalef32_pk_f32_bf8", "v_cvt_scalef32_pk_f32_fp4",
                        "v_cvt_scalef32_pk_f16_fp8", "v_cvt_scalef32_pk_bf16_fp8", "v_cvt_scalef32_pk_f16_bf8",
                        "v_cvt_scalef32_pk_bf16_bf8", "v_cvt_scalef32_pk_f16_fp4", "v_cvt_scalef32_pk_bf16_fp4",
                        "v_cvt_scalef32_pk32_f32_fp6", "v_cvt_scalef32_pk32_f32_bf6", "v_cvt_scalef32_pk32_f16_fp6",
                        "v_cvt_scalef32_pk32_bf16_fp6", "v_cvt_scalef32_pk32_f16_bf6", "v_cvt_scalef32_pk32_bf16_bf6"}) {
    INFO(m);
    REQUIRE(dis.find(m) != std::string::npos);
  }
  REQUIRE(dis.find("<private parser>") == std::string::npos);
  // 256 lanes: byte b of lane i is (i + 85 b) mod 256, so every selected byte / nibble takes every code.
  const size_t n8 = 256;
  std::vector<uint32_t> src8(n8);
  for (size_t i = 0; i < n8; ++i)
    for (int b = 0; b < 4; ++b) src8[i] |= uint32_t((i + 85 * b) & 255) << (8 * b);
  // 64 lanes of 32 six-bit elements: element j of lane i is (i + j) mod 64.
  const size_t n6 = 64;
  std::vector<uint32_t> src6(n6 * 6);
  for (size_t i = 0; i < n6; ++i)
    for (int j = 0; j < 32; ++j) {
      const uint64_t c = (i + j) & 63;
      const int bit = 6 * j;
      src6[i * 6 + bit / 32] |= uint32_t(c << (bit % 32));
      if (bit % 32 > 26) src6[i * 6 + bit / 32 + 1] |= uint32_t(c >> (32 - bit % 32));
    }
  Tally t;
  for (const ScaleCase& s : kScales) {
    uint64_t d8 = dev.upload(src8), o8 = dev.upload(std::vector<uint32_t>(n8 * 16));
    dev.run(co, "up_8", ArgPack().add(d8).add(o8).add(flt(s.bits)), dims1(uint32_t(n8 / 64), 64));
    auto q = dev.download<uint32_t>(o8, n8 * 16);
    for (size_t i = 0; i < n8; ++i) {
      const uint32_t x = src8[i];
      const uint32_t* r = &q[i * 16];
      auto byte = [&](int b) { return (x >> (8 * b)) & 255; };
      auto nib = [&](int b, int h) { return (x >> (8 * b + 4 * h)) & 15; };
      t.at(i, x, 0, 0, s.bits, 0);
      check_wide(t, r[0], up_oracle(byte(1), Nf::FP8, Wf::F32, s), Wf::F32, "f32_fp8");
      check_wide(t, r[1], up_oracle(byte(3), Nf::BF8, Wf::F32, s), Wf::F32, "f32_bf8");
      check_wide(t, r[2] >> 16, up_oracle(byte(0), Nf::FP8, Wf::F16, s), Wf::F16, "f16_fp8 (hi)");
      check_kept(t, r[2], 0x0000ffffu, "f16_fp8");
      check_wide(t, r[3] & 0xffff, up_oracle(byte(2), Nf::BF8, Wf::F16, s), Wf::F16, "f16_bf8 (lo)");
      check_kept(t, r[3], 0xffff0000u, "f16_bf8");
      for (int e = 0; e < 2; ++e) {
        t.in1 = uint32_t(e);  // the element index
        check_wide(t, r[4 + e], up_oracle(byte(2 + e), Nf::FP8, Wf::F32, s), Wf::F32, "pk_f32_fp8");
        check_wide(t, r[6 + e], up_oracle(byte(e), Nf::BF8, Wf::F32, s), Wf::F32, "pk_f32_bf8");
        check_wide(t, r[8 + e], up_oracle(nib(2, e), Nf::FP4, Wf::F32, s), Wf::F32, "pk_f32_fp4");
        check_wide(t, (r[10] >> (16 * e)) & 0xffff, up_oracle(byte(e), Nf::FP8, Wf::F16, s), Wf::F16, "pk_f16_fp8");
        check_wide(t, (r[11] >> (16 * e)) & 0xffff, up_oracle(byte(2 + e), Nf::FP8, Wf::BF16, s), Wf::BF16, "pk_bf16_fp8");
        check_wide(t, (r[12] >> (16 * e)) & 0xffff, up_oracle(byte(2 + e), Nf::BF8, Wf::F16, s), Wf::F16, "pk_f16_bf8");
        check_wide(t, (r[13] >> (16 * e)) & 0xffff, up_oracle(byte(e), Nf::BF8, Wf::BF16, s), Wf::BF16, "pk_bf16_bf8");
        check_wide(t, (r[14] >> (16 * e)) & 0xffff, up_oracle(nib(1, e), Nf::FP4, Wf::F16, s), Wf::F16, "pk_f16_fp4");
        check_wide(t, (r[15] >> (16 * e)) & 0xffff, up_oracle(nib(3, e), Nf::FP4, Wf::BF16, s), Wf::BF16, "pk_bf16_fp4");
      }
    }
    uint64_t d6 = dev.upload(src6), o6 = dev.upload(std::vector<uint32_t>(n6 * 128));
    dev.run(co, "up_6", ArgPack().add(d6).add(o6).add(flt(s.bits)), dims1(1, 64));
    auto q6 = dev.download<uint32_t>(o6, n6 * 128);
    for (size_t i = 0; i < n6; ++i)
      for (int j = 0; j < 32; ++j) {
        const unsigned c = unsigned((i + j) & 63);
        const uint32_t* r = &q6[i * 128];
        t.at(i, c, uint32_t(j), 0, s.bits, 0);
        auto half = [&](int base) { return (r[base + j / 2] >> (16 * (j % 2))) & 0xffff; };
        check_wide(t, r[j], up_oracle(c, Nf::FP6, Wf::F32, s), Wf::F32, "pk32_f32_fp6");
        check_wide(t, r[32 + j], up_oracle(c, Nf::BF6, Wf::F32, s), Wf::F32, "pk32_f32_bf6");
        check_wide(t, half(64), up_oracle(c, Nf::FP6, Wf::F16, s), Wf::F16, "pk32_f16_fp6");
        check_wide(t, half(80), up_oracle(c, Nf::FP6, Wf::BF16, s), Wf::BF16, "pk32_bf16_fp6");
        check_wide(t, half(96), up_oracle(c, Nf::BF6, Wf::F16, s), Wf::F16, "pk32_f16_bf6");
        check_wide(t, half(112), up_oracle(c, Nf::BF6, Wf::BF16, s), Wf::BF16, "pk32_bf16_bf6");
      }
  }
  std::string per;
  for (const auto& [name, count] : t.by_check) per += "\n  " + name + ": " + std::to_string(count);
  INFO("checked " << t.checked << " results, mismatches " << t.bad << per << t.first);
  REQUIRE(t.bad == 0);
  REQUIRE(t.checked > 100000);
}

TEST_CASE("gfx950 v_cvt_scalef32_* down-conversions and v_cvt_sr_f16/bf16_f32, bit-exact against an independent oracle", "[sim][numerics][scalef32]") {
  std::string why;
  auto loaded = load_hip_or_skip(kSrc, Arch::gfx950, why);
  if (!loaded) CDNAJIT_SKIP(why);
  const cdnajit::CodeObject& co = *loaded;
  const uint64_t seed = cdnajit::test::test_seed("test_scalef32_convert", 20261126u);
  Device dev(Arch::gfx950);
  const std::string dis = dev.sim.disassemble(co, "down_f32") + dev.sim.disassemble(co, "down_16") + dev.sim.disassemble(co, "down_32");
  for (const char* m :
       {"v_cvt_scalef32_pk_fp8_f32", "v_cvt_scalef32_pk_bf8_f32", "v_cvt_scalef32_pk_fp4_f32", "v_cvt_scalef32_sr_fp8_f32",
        "v_cvt_scalef32_sr_bf8_f32", "v_cvt_scalef32_sr_pk_fp4_f32", "v_cvt_sr_f16_f32", "v_cvt_sr_bf16_f32",
        "v_cvt_scalef32_pk_fp8_f16", "v_cvt_scalef32_pk_bf8_f16", "v_cvt_scalef32_pk_fp8_bf16", "v_cvt_scalef32_pk_bf8_bf16",
        "v_cvt_scalef32_pk_fp4_f16", "v_cvt_scalef32_pk_fp4_bf16", "v_cvt_scalef32_sr_fp8_f16", "v_cvt_scalef32_sr_bf8_f16",
        "v_cvt_scalef32_sr_fp8_bf16", "v_cvt_scalef32_sr_bf8_bf16", "v_cvt_scalef32_sr_pk_fp4_f16", "v_cvt_scalef32_sr_pk_fp4_bf16",
        "v_cvt_scalef32_2xpk16_fp6_f32", "v_cvt_scalef32_2xpk16_bf6_f32", "v_cvt_scalef32_sr_pk32_fp6_f32",
        "v_cvt_scalef32_sr_pk32_bf6_f32", "v_cvt_scalef32_pk32_fp6_f16", "v_cvt_scalef32_pk32_bf6_f16",
        "v_cvt_scalef32_pk32_fp6_bf16", "v_cvt_scalef32_pk32_bf6_bf16", "v_cvt_scalef32_sr_pk32_fp6_f16",
        "v_cvt_scalef32_sr_pk32_bf6_f16", "v_cvt_scalef32_sr_pk32_fp6_bf16", "v_cvt_scalef32_sr_pk32_bf6_bf16"}) {
    INFO(m);
    REQUIRE(dis.find(m) != std::string::npos);
  }
  REQUIRE(dis.find("<private parser>") == std::string::npos);
  Tally t;
  std::mt19937 g{static_cast<uint32_t>(seed)};
  // Every 16-bit code as the low half (and, permuted, the high half) of a packed source.
  const size_t n16 = 65536;
  std::vector<uint32_t> h2(n16), b2(n16), rng16(n16);
  for (size_t i = 0; i < n16; ++i) {
    h2[i] = uint32_t(i) | uint32_t((i * 40503u + 17) & 0xffff) << 16;
    b2[i] = uint32_t((i * 9973u + 5) & 0xffff) | uint32_t(i) << 16;
    rng16[i] = seed_value(i, g);
  }
  for (const ScaleCase& s : kScales) {
    for (int sat = 0; sat < 2; ++sat) {
      // f32 sources.
      std::vector<float> xs = f32_inputs(s.nan ? 0 : s.exp, g);
      std::vector<float> ys(xs.rbegin(), xs.rend());
      while (xs.size() % 64) xs.push_back(1.0f), ys.push_back(-0.0f);
      const size_t n = xs.size();
      std::vector<uint32_t> rng(n);
      for (size_t i = 0; i < n; ++i) rng[i] = seed_value(i, g);
      uint64_t dx = dev.upload(xs), dy = dev.upload(ys), dr = dev.upload(rng), dout = dev.upload(std::vector<uint32_t>(n * 10));
      dev.run(co, "down_f32", ArgPack().add(dx).add(dy).add(dr).add(dout).add(flt(s.bits)).add(sat), dims1(uint32_t(n / 64), 64));
      auto o = dev.download<uint32_t>(dout, n * 10);
      for (size_t i = 0; i < n; ++i) {
        const uint32_t a = bits(xs[i]), b = bits(ys[i]), r = rng[i];
        const uint32_t* q = &o[i * 10];
        t.at(i, a, b, r, s.bits, sat);
        check_narrow(t, q[0] & 0xff, down_oracle(a, Wf::F32, Nf::FP8, s, false, 0, sat), Nf::FP8, "pk_fp8_f32 lo");
        check_narrow(t, (q[0] >> 8) & 0xff, down_oracle(b, Wf::F32, Nf::FP8, s, false, 0, sat), Nf::FP8, "pk_fp8_f32 hi");
        check_kept(t, q[0], 0xffff0000u, "pk_fp8_f32");
        check_narrow(t, (q[1] >> 16) & 0xff, down_oracle(a, Wf::F32, Nf::BF8, s, false, 0, sat), Nf::BF8, "pk_bf8_f32 lo");
        check_narrow(t, q[1] >> 24, down_oracle(b, Wf::F32, Nf::BF8, s, false, 0, sat), Nf::BF8, "pk_bf8_f32 hi");
        check_kept(t, q[1], 0x0000ffffu, "pk_bf8_f32");
        check_narrow(t, (q[2] >> 16) & 15, down_oracle(a, Wf::F32, Nf::FP4, s, false, 0, sat), Nf::FP4, "pk_fp4_f32 lo");
        check_narrow(t, (q[2] >> 20) & 15, down_oracle(b, Wf::F32, Nf::FP4, s, false, 0, sat), Nf::FP4, "pk_fp4_f32 hi");
        check_kept(t, q[2], 0xff00ffffu, "pk_fp4_f32");
        check_narrow(t, (q[3] >> 8) & 0xff, down_oracle(a, Wf::F32, Nf::FP8, s, true, r, sat), Nf::FP8, "sr_fp8_f32");
        check_kept(t, q[3], 0xffff00ffu, "sr_fp8_f32");
        check_narrow(t, q[4] >> 24, down_oracle(b, Wf::F32, Nf::BF8, s, true, r, sat), Nf::BF8, "sr_bf8_f32");
        check_kept(t, q[4], 0x00ffffffu, "sr_bf8_f32");
        check_narrow(t, q[5] & 15, down_oracle(a, Wf::F32, Nf::FP4, s, true, r, sat), Nf::FP4, "sr_pk_fp4_f32 lo");
        check_narrow(t, (q[5] >> 4) & 15, down_oracle(b, Wf::F32, Nf::FP4, s, true, r, sat), Nf::FP4, "sr_pk_fp4_f32 hi");
        check_wide(t, q[6] >> 16, sr16_oracle(a, Wf::F16, r), Wf::F16, "sr_f16_f32 (hi)");
        check_kept(t, q[6], 0x0000ffffu, "sr_f16_f32");
        check_wide(t, q[7] & 0xffff, sr16_oracle(b, Wf::BF16, r), Wf::BF16, "sr_bf16_f32 (lo)");
        check_kept(t, q[7], 0xffff0000u, "sr_bf16_f32");
        check_wide(t, q[8] & 0xffff, sr16_oracle(b, Wf::F16, r), Wf::F16, "sr_f16_f32 (lo)");
        check_wide(t, q[9] >> 16, sr16_oracle(a, Wf::BF16, r), Wf::BF16, "sr_bf16_f32 (hi)");
      }
      // f16 / bf16 sources: every code.
      uint64_t dh = dev.upload(h2), db = dev.upload(b2), dr16 = dev.upload(rng16), do16 = dev.upload(std::vector<uint32_t>(n16 * 12));
      dev.run(co, "down_16", ArgPack().add(dh).add(db).add(dr16).add(do16).add(flt(s.bits)).add(sat), dims1(uint32_t(n16 / 64), 64));
      auto p = dev.download<uint32_t>(do16, n16 * 12);
      for (size_t i = 0; i < n16; ++i) {
        const uint32_t hl = h2[i] & 0xffff, hh = h2[i] >> 16, bl = b2[i] & 0xffff, bh = b2[i] >> 16, r = rng16[i];
        const uint32_t* q = &p[i * 12];
        t.at(i, h2[i], b2[i], r, s.bits, sat);
        auto dn = [&](uint32_t in, Wf w, Nf f, bool sr) { return down_oracle(in, w, f, s, sr, r, sat); };
        check_narrow(t, q[0] & 0xff, dn(hl, Wf::F16, Nf::FP8, false), Nf::FP8, "pk_fp8_f16 lo");
        check_narrow(t, (q[0] >> 8) & 0xff, dn(hh, Wf::F16, Nf::FP8, false), Nf::FP8, "pk_fp8_f16 hi");
        check_kept(t, q[0], 0xffff0000u, "pk_fp8_f16");
        check_narrow(t, (q[1] >> 16) & 0xff, dn(hl, Wf::F16, Nf::BF8, false), Nf::BF8, "pk_bf8_f16 lo");
        check_narrow(t, q[1] >> 24, dn(hh, Wf::F16, Nf::BF8, false), Nf::BF8, "pk_bf8_f16 hi");
        check_kept(t, q[1], 0x0000ffffu, "pk_bf8_f16");
        check_narrow(t, (q[2] >> 16) & 0xff, dn(bl, Wf::BF16, Nf::FP8, false), Nf::FP8, "pk_fp8_bf16 lo");
        check_narrow(t, q[2] >> 24, dn(bh, Wf::BF16, Nf::FP8, false), Nf::FP8, "pk_fp8_bf16 hi");
        check_kept(t, q[2], 0x0000ffffu, "pk_fp8_bf16");
        check_narrow(t, q[3] & 0xff, dn(bl, Wf::BF16, Nf::BF8, false), Nf::BF8, "pk_bf8_bf16 lo");
        check_narrow(t, (q[3] >> 8) & 0xff, dn(bh, Wf::BF16, Nf::BF8, false), Nf::BF8, "pk_bf8_bf16 hi");
        check_kept(t, q[3], 0xffff0000u, "pk_bf8_bf16");
        check_narrow(t, (q[4] >> 24) & 15, dn(hl, Wf::F16, Nf::FP4, false), Nf::FP4, "pk_fp4_f16 lo");
        check_narrow(t, q[4] >> 28, dn(hh, Wf::F16, Nf::FP4, false), Nf::FP4, "pk_fp4_f16 hi");
        check_kept(t, q[4], 0x00ffffffu, "pk_fp4_f16");
        check_narrow(t, q[5] & 15, dn(bl, Wf::BF16, Nf::FP4, false), Nf::FP4, "pk_fp4_bf16 lo");
        check_narrow(t, (q[5] >> 4) & 15, dn(bh, Wf::BF16, Nf::FP4, false), Nf::FP4, "pk_fp4_bf16 hi");
        check_kept(t, q[5], 0xffffff00u, "pk_fp4_bf16");
        check_narrow(t, (q[6] >> 16) & 0xff, dn(hl, Wf::F16, Nf::FP8, true), Nf::FP8, "sr_fp8_f16");
        check_kept(t, q[6], 0xff00ffffu, "sr_fp8_f16");
        check_narrow(t, q[7] & 0xff, dn(hl, Wf::F16, Nf::BF8, true), Nf::BF8, "sr_bf8_f16");
        check_kept(t, q[7], 0xffffff00u, "sr_bf8_f16");
        check_narrow(t, (q[8] >> 8) & 0xff, dn(bl, Wf::BF16, Nf::FP8, true), Nf::FP8, "sr_fp8_bf16");
        check_kept(t, q[8], 0xffff00ffu, "sr_fp8_bf16");
        check_narrow(t, q[9] >> 24, dn(bl, Wf::BF16, Nf::BF8, true), Nf::BF8, "sr_bf8_bf16");
        check_kept(t, q[9], 0x00ffffffu, "sr_bf8_bf16");
        check_narrow(t, (q[10] >> 8) & 15, dn(hl, Wf::F16, Nf::FP4, true), Nf::FP4, "sr_pk_fp4_f16 lo");
        check_narrow(t, (q[10] >> 12) & 15, dn(hh, Wf::F16, Nf::FP4, true), Nf::FP4, "sr_pk_fp4_f16 hi");
        check_narrow(t, (q[11] >> 16) & 15, dn(bl, Wf::BF16, Nf::FP4, true), Nf::FP4, "sr_pk_fp4_bf16 lo");
        check_narrow(t, (q[11] >> 20) & 15, dn(bh, Wf::BF16, Nf::FP4, true), Nf::FP4, "sr_pk_fp4_bf16 hi");
      }
    }
    // 32-element fp6/bf6 packs (no MODE dependence): f32 elements cycle the f32 inputs, f16/bf16
    // elements walk every 16-bit code (2048 lanes x 32).
    std::vector<float> fin = f32_inputs(s.nan ? 0 : s.exp, g);
    const size_t n32 = 2048;
    std::vector<float> f(n32 * 32);
    std::vector<uint32_t> hp(n32 * 16), bp(n32 * 16), rng(n32);
    for (size_t k = 0; k < n32 * 32; ++k) f[k] = fin[(k * 7) % fin.size()];
    for (size_t k = 0; k < n32 * 16; ++k) {
      hp[k] = uint32_t(2 * k) | uint32_t(2 * k + 1) << 16;
      bp[k] = uint32_t((2 * k * 40503u) & 0xffff) | uint32_t(((2 * k + 1) * 40503u) & 0xffff) << 16;
    }
    for (size_t i = 0; i < n32; ++i) rng[i] = seed_value(i, g);
    uint64_t df = dev.upload(f), dh = dev.upload(hp), db = dev.upload(bp), dr = dev.upload(rng), dout = dev.upload(std::vector<uint32_t>(n32 * 72));
    dev.run(co, "down_32", ArgPack().add(df).add(dh).add(db).add(dr).add(dout).add(flt(s.bits)), dims1(uint32_t(n32 / 64), 64));
    auto o = dev.download<uint32_t>(dout, n32 * 72);
    for (size_t i = 0; i < n32; ++i) {
      const uint32_t r = rng[i];
      for (int k = 0; k < 12; ++k) {
        const uint32_t* q = &o[(i * 12 + k) * 6];
        const Nf nf = k % 2 ? Nf::BF6 : Nf::FP6;
        const bool sr = k == 2 || k == 3 || k >= 8;
        const Wf w = k < 4 ? Wf::F32 : (k == 4 || k == 5 || k == 8 || k == 9) ? Wf::F16 : Wf::BF16;
        for (int j = 0; j < 32; ++j) {
          const int bit = 6 * j;
          const uint64_t two = uint64_t(q[bit / 32]) | (bit / 32 + 1 < 6 ? uint64_t(q[bit / 32 + 1]) << 32 : 0);
          const unsigned got = unsigned(two >> (bit % 32)) & 63;
          uint32_t in;
          if (w == Wf::F32) in = bits(f[i * 32 + j]);
          else in = ((w == Wf::F16 ? hp : bp)[i * 16 + j / 2] >> (16 * (j % 2))) & 0xffff;
          t.at(i, in, uint32_t(k * 100 + j), r, s.bits, 0);  // in1: result * 100 + element
          check_narrow(t, got, down_oracle(in, w, nf, s, sr, r, false), nf, "pk32 (in1 = result * 100 + element)");
        }
      }
    }
  }
  std::string per;
  for (const auto& [name, count] : t.by_check) per += "\n  " + name + ": " + std::to_string(count);
  INFO("checked " << t.checked << " results, mismatches " << t.bad << per << t.first);
  REQUIRE(t.bad == 0);
  REQUIRE(t.checked > 1000000);
}

TEST_CASE("scalef32 oracle sanity: every finite narrow code converts back to itself", "[sim][numerics][scalef32]") {
  // Guards the oracle: decoding then encoding each code (scale 2^0, RNE) is the identity except for NaN codes.
  for (Nf f : {Nf::FP8, Nf::BF8, Nf::FP6, Nf::BF6, Nf::FP4})
    for (unsigned c = 0; c < (1u << width_of(f)); ++c) {
      const double v = code_value(c, f);
      if (std::isnan(v)) continue;
      Expect e = encode_oracle(v, f, 0, 0, false);
      INFO("format " << int(f) << " code " << c);
      REQUIRE(!e.any_nan);
      REQUIRE(e.code == c);
    }
  // Hand-computed spot values: 1.0 -> fp4 0x2, fp6 E2M3 0x08, bf6 E3M2 0x0c; 7.0 -> fp4 max 6.0 (0x7);
  // 0.25 -> fp4 0 under RNE (tie to even zero); 0.75 -> fp4 1.0 (tie to even 0x2).
  CHECK(encode_oracle(1.0, Nf::FP4, 0, 0, false).code == 0x2);
  CHECK(encode_oracle(1.0, Nf::FP6, 0, 0, false).code == 0x08);
  CHECK(encode_oracle(1.0, Nf::BF6, 0, 0, false).code == 0x0c);
  CHECK(encode_oracle(7.0, Nf::FP4, 0, 0, false).code == 0x7);
  CHECK(encode_oracle(0.25, Nf::FP4, 0, 0, false).code == 0x0);
  CHECK(encode_oracle(0.75, Nf::FP4, 0, 0, false).code == 0x2);
  CHECK(encode_oracle(-0.25, Nf::FP4, 0, 0, false).code == 0x8);
}

TEST_CASE("Options::sr_seed_bits picks the low or the top seed bits of every stochastic conversion", "[sim][numerics][scalef32]") {
  // x sits exactly halfway between two codes of each result format (1 + 2^-4 for fp8 E4M3,
  // 1 + 2^-11 for f16), so the dropped fraction is one half: a carry happens iff the random
  // addend is at least one half too. The seed 0xfff00000 has zero low bits and a top half of
  // ones: the low bits round down, the top bits round up (fp8 0x38 -> 0x39, f16 0x3c00 -> 0x3c01).
  const char* src = R"(
typedef _Float16 v2h __attribute__((ext_vector_type(2)));
extern "C" __global__ void sr_bits(const float* x, const unsigned* seeds, unsigned* o) {
  float x8 = x[0], x16 = x[1];
  unsigned seed = seeds[0];
  if (tid() != 0) return;
  o[0] = __builtin_amdgcn_cvt_sr_fp8_f32(x8, seed, 0, 0) & 0xff;
  o[1] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(0, x8, seed, 1.0f, 0) & 0xff;
  v2h h = __builtin_amdgcn_cvt_sr_f16_f32((v2h){0, 0}, x16, seed, false);
  o[2] = __builtin_bit_cast(unsigned short, (_Float16)h.x);
})";
  std::string why;
  auto loaded = load_hip_or_skip(src, Arch::gfx950, why);
  if (!loaded) CDNAJIT_SKIP(why);
  const cdnajit::CodeObject& co = *loaded;
  using O = cdnajit::sim::Options;
  struct Want {
    O::SrSeedBits choice;
    uint32_t sr_fp8, scalef32_sr_fp8, sr_f16;
  };
  for (const Want& c : {Want{O::SrSeedBits::PerForm, 0x38, 0x39, 0x3c00}, Want{O::SrSeedBits::Low, 0x38, 0x38, 0x3c00},
                        Want{O::SrSeedBits::High, 0x39, 0x39, 0x3c01}}) {
    INFO("sr_seed_bits " << int(c.choice));
    Device dev(Arch::gfx950);
    uint64_t out = dev.upload(std::vector<uint32_t>(3)), dx = dev.upload(std::vector<float>{1.0625f, 1.0f + 0x1p-11f}),
             ds = dev.upload(std::vector<uint32_t>{0xfff00000u});
    O opt;
    opt.sr_seed_bits = c.choice;
    dev.run(co, "sr_bits", ArgPack().add(dx).add(ds).add(out), dims1(1, 64), opt);
    auto o = dev.download<uint32_t>(out, 3);
    CHECK(o[0] == c.sr_fp8);
    CHECK(o[1] == c.scalef32_sr_fp8);
    CHECK(o[2] == c.sr_f16);
  }
}
