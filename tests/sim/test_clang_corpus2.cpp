// A second clang-22 kernel corpus: the ordinary integer, bit, float-helper, half / bf16 and
// cross-lane code a kernel engineer writes, on gfx942 and gfx950, over edge inputs (0, -1,
// INT_MIN / INT_MAX, powers of two, +-0, denormals, +-inf, NaN, ties) and a seeded random sweep
// (CDNAJIT_TEST_SEED, printed), each compared bit-for-bit with a CPU computation.
//
// Oracles (independent of the simulator):
//  - integer and integer <-> float code: the very same C++ function body, compiled a second time
//    by the host compiler (the SHARED macro below makes one text of it for both compilers). The
//    body avoids everything C++ leaves undefined (division by zero, INT_MIN / -1, oversize shifts,
//    out-of-range float -> int), so the host's result is the language's result, which clang's
//    AMDGPU lowering must reproduce exactly;
//  - float helpers: the host's IEEE 754 libm (fmaf, frexpf, ldexpf, rintf, ...), exact for these
//    functions; NaN results compared as "any NaN"; fminf / fmaxf of +0 and -0 accept either zero
//    (C and LLVM's minnum leave the sign open);
//  - half / bf16 arithmetic: the exact f32 (or double) result rounded once to the narrow format by
//    tests/sim/ieee_oracle.hpp (clang evaluates _Float16 a + b in f16 directly, and __bf16 in f32
//    rounded back to bf16);
//  - cross-lane builtins: a per-lane model of the documented operation written here.
#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "tests/sim/ieee_oracle.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using namespace ieee_oracle;
using cdnajit::Arch;

// One text, two compilers: the host compiles the body here, and kSharedSrc hands the same tokens
// to clang for the device (`name` is that text).
#define SHARED(name, ...) \
  __VA_ARGS__             \
  static const char* const name = #__VA_ARGS__;

namespace host {
#define __device__
static unsigned brev32(unsigned x) {  // bit reversal, a loop here (the device uses the builtin)
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
static unsigned long long brev64(unsigned long long x) { return (unsigned long long)brev32(unsigned(x)) << 32 | brev32(unsigned(x >> 32)); }
static float f32(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
static unsigned u32(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
// fminf / fmaxf as clang lowers them in IEEE mode (the kernel default): each operand canonicalised
// first (v_max_f32 x, x quiets a signalling NaN), then v_min_f32 / v_max_f32, which return the
// other operand for a quiet NaN (CDNA3 ISA guide, V_MIN_F32 / V_MAX_F32). The device calls
// __builtin_fminf / __builtin_fmaxf; glibc's fminf would return NaN for a signalling NaN operand.
static float quiet(float v) { return std::isnan(v) ? std::fabs(v) * 0.0f + v : v; }
static float fmin_q(float a, float b) { return std::fmin(quiet(a), quiet(b)); }
static float fmax_q(float a, float b) { return std::fmax(quiet(a), quiet(b)); }
static double f64(unsigned long long u) { double d; std::memcpy(&d, &u, 8); return d; }
static unsigned long long u64(double d) { unsigned long long u; std::memcpy(&u, &d, 8); return u; }

SHARED(kIntSrc,
static __device__ int int_ops(unsigned long long x, unsigned long long y, unsigned s, unsigned long long* p) {
  const long long kLLMin = -9223372036854775807LL - 1;
  const int kIMin = -2147483647 - 1;
  unsigned a = (unsigned)x, b = (unsigned)y;
  int sa = (int)a, sb = (int)b;
  long long sx = (long long)x, sy = (long long)y;
  unsigned bnz = b ? b : 1u;
  int sbnz = (sb == 0 || (sa == kIMin && sb == -1)) ? 1 : sb;
  unsigned long long ynz = y ? y : 1ull;
  long long synz = (sy == 0 || (sx == kLLMin && sy == -1)) ? 1 : sy;
  unsigned short h = (unsigned short)b;
  int k = 0;
  // Division and remainder by variables and by constants, 32 and 64 bits, signed and unsigned.
  p[k++] = a / bnz; p[k++] = a % bnz; p[k++] = (unsigned)(sa / sbnz); p[k++] = (unsigned)(sa % sbnz);
  p[k++] = x / ynz; p[k++] = x % ynz; p[k++] = (unsigned long long)(sx / synz); p[k++] = (unsigned long long)(sx % synz);
  p[k++] = x / (b | 1u); p[k++] = x % (b | 1u); p[k++] = (unsigned long long)(sx / (long long)(sbnz == -1 ? 3 : sbnz));
  p[k++] = a / 7u; p[k++] = a % 7u; p[k++] = (unsigned)(sa / 7); p[k++] = (unsigned)(sa % 7);
  p[k++] = (unsigned)(sa / -9); p[k++] = (unsigned)(sa % -9); p[k++] = a / 1000000007u; p[k++] = a / 0x80000001u;
  p[k++] = (unsigned)(sa / 16); p[k++] = (unsigned)(sa % 16); p[k++] = a / 3u; p[k++] = (unsigned)(sa / 641);
  p[k++] = x / 10ull; p[k++] = x % 10ull; p[k++] = (unsigned long long)(sx / 10); p[k++] = (unsigned long long)(sx % 10);
  p[k++] = x / 0x100000001ull; p[k++] = (unsigned long long)(sx / -1000000007LL); p[k++] = x / 4096ull;
  p[k++] = (unsigned long long)(sx / 4096); p[k++] = (unsigned long long)(sx % 4096);
  p[k++] = (unsigned)h / ((unsigned short)a | 1u); p[k++] = (unsigned)((short)h / 3);
  // Shifts, rotates, multiplies (64-bit, high halves, 24-bit).
  p[k++] = x << (s & 63); p[k++] = x >> (s & 63); p[k++] = (unsigned long long)(sx >> (s & 63));
  p[k++] = a << (s & 31); p[k++] = a >> (s & 31); p[k++] = (unsigned)(sa >> (s & 31));
  p[k++] = (x << (s % 63 + 1)) | (x >> (63 - s % 63)); p[k++] = (a << (s % 31 + 1)) | (a >> (31 - s % 31));
  p[k++] = x * y; p[k++] = x * 3ull + x * 0x9e3779b97f4a7c15ull;
  p[k++] = (unsigned long long)(((unsigned __int128)x * y) >> 64);
  p[k++] = (unsigned long long)(((__int128)sx * sy) >> 64);
  p[k++] = (unsigned)(((unsigned long long)a * b) >> 32); p[k++] = (unsigned)(((long long)sa * sb) >> 32);
  p[k++] = (unsigned long long)a * b; p[k++] = (unsigned long long)((long long)sa * sb);
  p[k++] = (a & 0xffffffu) * (b & 0xffffu); p[k++] = (unsigned)(((int)(a << 8) >> 8) * ((int)(b << 8) >> 8));
  p[k++] = (unsigned long long)a * 0xfffffffbull; p[k++] = x * 6700417ull;
  // Bit counts and bit fields.
  p[k++] = (unsigned)__builtin_popcount(a); p[k++] = (unsigned)__builtin_popcountll(x);
  p[k++] = a ? (unsigned)__builtin_clz(a) : 32u; p[k++] = x ? (unsigned)__builtin_clzll(x) : 64u;
  p[k++] = a ? (unsigned)__builtin_ctz(a) : 32u; p[k++] = x ? (unsigned)__builtin_ctzll(x) : 64u;
  p[k++] = (unsigned)__builtin_ffs(sa); p[k++] = (unsigned)__builtin_ffsll(sx);
  p[k++] = brev32(a); p[k++] = brev64(x);
  p[k++] = (unsigned)__builtin_clrsb(sa); p[k++] = __builtin_parity(a);
  p[k++] = (a >> (s & 15)) & 0x3ffu; p[k++] = (unsigned)((int)(a << (s & 15)) >> 20);
  p[k++] = (a & 0xff00ff00u) | (b & 0x00ff00ffu); p[k++] = (a & ~b) ^ (b | (a >> 3));
  p[k++] = (x >> 17) & 0x1ffffffffull; p[k++] = (unsigned long long)((long long)(x << 5) >> 40);
  // min / max / abs / compares / narrowing, mixed widths.
  p[k++] = (unsigned)(sa < sb ? sa : sb); p[k++] = a > b ? a : b; p[k++] = (unsigned)(sa < 0 ? -(unsigned)sa : (unsigned)sa);
  p[k++] = (unsigned long long)(sx < sy ? sx : sy); p[k++] = x > y ? x : y;
  p[k++] = sx < 0 ? 0ull - x : x; p[k++] = (unsigned)(sa < 100 ? (sa > -100 ? sa : -100) : 100);
  p[k++] = (sx < (long long)sa) + 2 * (x < (unsigned long long)a) + 4 * (sx == sy) + 8 * (sa <= sb) + 16 * (a >= b);
  p[k++] = (unsigned long long)(long long)(signed char)a; p[k++] = (unsigned long long)(long long)(short)a;
  p[k++] = (unsigned char)(a + b); p[k++] = (unsigned short)(a * b);
  p[k++] = (unsigned)((signed char)a * (signed char)b); p[k++] = (unsigned)((short)a * (short)b + (short)(a >> 16));
  p[k++] = a + b < a; p[k++] = x + y < x; p[k++] = x - y;
  // Integer <-> float conversions (64-bit ones are software sequences on this GPU).
  p[k++] = u32((float)x); p[k++] = u32((float)sx); p[k++] = u64((double)x); p[k++] = u64((double)sx);
  p[k++] = u32((float)(x >> (s & 63))); p[k++] = u32((float)(sx >> (s & 63))); p[k++] = u64((double)(x >> (s & 63)));
  p[k++] = u32((float)(a >> (s & 31))); p[k++] = u32((float)(sa >> (s & 31)));
  p[k++] = (unsigned long long)(long long)((double)sx * 0.7); p[k++] = (unsigned long long)((double)x * 0.9);
  p[k++] = (unsigned long long)(long long)((float)sx * 0.5f); p[k++] = (unsigned long long)((float)x * 0.75f);
  p[k++] = (unsigned long long)(long long)f64(0x4330000000000000ull | (x & 0xfffffffffffffull));
  p[k++] = (unsigned long long)(long long)(double)(sx >> 11);
  p[k++] = (unsigned)(int)((float)(sa >> 1) * 0.999f); p[k++] = (unsigned)((float)a * 0.999f);
  p[k++] = (unsigned long long)(long long)(f32(0x3f000000u | (a & 0x7fffffu)) * 4.0e18f);
  return k;
}
)

SHARED(kFloatSrc,
static __device__ float fz(float v) { return v == 0.0f ? 0.0f : v; }
static __device__ double dz(double v) { return v == 0.0 ? 0.0 : v; }
static __device__ unsigned short hb(_Float16 h) { return __builtin_bit_cast(unsigned short, h); }
// (No modff / modf: clang-22 cannot select llvm.modf for AMDGPU, a compiler crash.)
static __device__ int float_ops(float x, float y, float z, int e, unsigned long long* p) {
  int k = 0;
  int fe = 0;
  float fm = __builtin_frexpf(x, &fe);
  p[k++] = u32(__builtin_fmaf(x, y, z)); p[k++] = u32(x + y); p[k++] = u32(x - y); p[k++] = u32(x * y);
  p[k++] = u32(fz(fmin_q(x, y))); p[k++] = u32(fz(fmax_q(x, y)));
  p[k++] = u32(fz(fmin_q(fmax_q(x, -1.5f), 2.0f)));
  p[k++] = u32(fz(fmax_q(fmin_q(x, y), z)));
  p[k++] = u32(__builtin_copysignf(x, y)); p[k++] = u32(__builtin_fabsf(x)); p[k++] = u32(-x);
  p[k++] = u32(fm); p[k++] = __builtin_isfinite(x) ? (unsigned)fe : 0u;
  p[k++] = u32(__builtin_ldexpf(x, e)); p[k++] = u32(__builtin_ldexpf(y, -e - 100));
  p[k++] = u32(__builtin_rintf(x)); p[k++] = u32(__builtin_nearbyintf(x)); p[k++] = u32(__builtin_roundf(x));
  p[k++] = u32(__builtin_truncf(x)); p[k++] = u32(__builtin_floorf(x)); p[k++] = u32(__builtin_ceilf(x));
  p[k++] = __builtin_fabsf(x) < 2.0e9f ? (unsigned)(int)__builtin_rintf(x) : 7u;
  p[k++] = __builtin_fabsf(x) < 4.0e18f ? (unsigned long long)__builtin_lroundf(x) : 7u;
  p[k++] = __builtin_fabsf(x) < 4.0e18f ? (unsigned long long)__builtin_llrintf(x) : 7u;
  p[k++] = (unsigned)__builtin_isnan(x) + 2u * (__builtin_isinf(x) != 0) + 4u * __builtin_isfinite(x) + 8u * __builtin_isnormal(x) +
           16u * (__builtin_signbit(x) != 0 && !__builtin_isnan(x)) + 32u * (x == y) + 64u * (x < y) + 128u * !(x >= y) + 256u * (x != y) +
           512u * __builtin_isunordered(x, y) + 1024u * __builtin_islessgreater(x, y);
  p[k++] = (unsigned)__builtin_fpclassify(0, 1, 2, 3, 4, x);
  p[k++] = u32((float)((double)x * (double)y));  // the product rounded once (exact in double)
  p[k++] = u32(x / 3.0f); p[k++] = u32(x * 0.5f + 0.25f * 0.5f); p[k++] = u32(x > 0.0f ? x : 0.01f * x);
  // f64: the same helpers .
  double dx = (double)x * 1.25e100 * (double)y, dy = (double)y - (double)z * 0x1p-60, dzv = (double)z;
  int de = 0;
  double dm = __builtin_frexp(dx, &de);
  p[k++] = u64(__builtin_fma(dx, dy, dzv)); p[k++] = u64(dx + dy); p[k++] = u64(dx * dy); p[k++] = u64(dy * dzv);
  p[k++] = u64(dz(__builtin_fmin(dx, dy))); p[k++] = u64(dz(__builtin_fmax(dx, dy)));
  p[k++] = u64(__builtin_copysign(dy, dx)); p[k++] = u64(__builtin_fabs(dy));
  p[k++] = u64(dm); p[k++] = __builtin_isfinite(dx) ? (unsigned)de : 0u;
  p[k++] = u64(__builtin_ldexp(dy, e * 4)); p[k++] = u64(__builtin_ldexp(dy, -e * 4 - 1000));
  p[k++] = u64(__builtin_rint(dy)); p[k++] = u64(__builtin_round(dy)); p[k++] = u64(__builtin_trunc(dy));
  p[k++] = u64(__builtin_floor(dy)); p[k++] = u64(__builtin_ceil(dy)); p[k++] = u64(__builtin_nearbyint(dy));
  p[k++] = __builtin_fabs(dy) < 2.0e9 ? (unsigned)(int)__builtin_rint(dy) : 7u;
  p[k++] = __builtin_fabs(dy) < 4.0e18 ? (unsigned long long)__builtin_llround(dy) : 7u;
  p[k++] = (unsigned)__builtin_isnan(dy) + 2u * (__builtin_isinf(dy) != 0) + 4u * __builtin_isfinite(dy) + 8u * __builtin_isnormal(dy) +
           16u * (__builtin_signbit(dy) != 0 && !__builtin_isnan(dy)) + 32u * (dx == dy) + 64u * (dx < dy) + 128u * !(dx >= dy);
  p[k++] = u32((float)dy); p[k++] = u32((float)(dy * dzv));
  // _Float16: one operation at a time, each rounded to f16.
  _Float16 hx = (_Float16)x, hy = (_Float16)y, hz = (_Float16)z;
  p[k++] = hb(hx); p[k++] = hb(hy);
  _Float16 r0 = hx + hy; p[k++] = hb(r0);
  _Float16 r1 = hx - hy; p[k++] = hb(r1);
  _Float16 r2 = hx * hy; p[k++] = hb(r2);
  _Float16 r3 = hx / hy; p[k++] = hb(r3);
  _Float16 r4 = hx < hy ? hx : hy; p[k++] = hb(r4);
  _Float16 r5 = (_Float16)((float)hx * (float)hz); p[k++] = hb(r5);
  p[k++] = (unsigned)(hx < hy) + 2u * (hx == hy) + 4u * (hx != hz) + 8u * !(hz >= hy);
  p[k++] = u32((float)hx * (float)hy);
  p[k++] = hb((_Float16)(double)dy);
  return k;
}
)
#undef __device__
}  // namespace host

namespace {

const char* kDevicePrelude = R"(
static __device__ inline unsigned brev32(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ inline unsigned long long brev64(unsigned long long x) { return __builtin_bitreverse64(x); }
static __device__ inline float f32(unsigned u) { return __builtin_bit_cast(float, u); }
static __device__ inline unsigned u32(float f) { return __builtin_bit_cast(unsigned, f); }
static __device__ inline float fmin_q(float a, float b) { return __builtin_fminf(a, b); }
static __device__ inline float fmax_q(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ inline double f64(unsigned long long u) { return __builtin_bit_cast(double, u); }
static __device__ inline unsigned long long u64(double d) { return __builtin_bit_cast(unsigned long long, d); }
)";

const char* kIntKernel = R"(
extern "C" __global__ void int_ops_k(const unsigned long long* xs, const unsigned long long* ys, const unsigned* ss,
                                     unsigned long long* o, unsigned n_out) {
  unsigned i = bid() * 64 + tid();
  int_ops(xs[i], ys[i], ss[i], o + i * n_out);
}
)";

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

// Edge values for 64-bit integer inputs (also read as their low 32 bits).
const uint64_t kIntEdges[] = {0,
                              1,
                              2,
                              3,
                              7,
                              10,
                              0xffffffffffffffffull,
                              0xfffffffffffffffeull,
                              0x8000000000000000ull,
                              0x7fffffffffffffffull,
                              0x80000000ull,
                              0x7fffffffull,
                              0xffffffff80000000ull,
                              0xffffffff7fffffffull,
                              0xffffffffull,
                              0x100000000ull,
                              0x100000001ull,
                              0x00000000fffffff9ull,
                              0xfffffffffffffff7ull,
                              0x0020000000000001ull,
                              0x0020000000000003ull,
                              0x001fffffffffffffull,
                              0x8000000000000401ull,
                              0x8000000000000400ull,
                              0x8000000000000c00ull,
                              0x7ffffffffffffdffull,
                              0x0000000001000001ull,
                              0x0000000001000003ull,
                              0xfffffffffeffffffull,
                              1000000007ull,
                              0x123456789abcdef0ull,
                              0x10000ull};

}  // namespace

TEST_CASE("clang-compiled integer code (division, shifts, multiplies, bit counts, 64-bit conversions) matches the host",
          "[sim][corpus2][int]") {
  const std::string src = std::string(kDevicePrelude) + host::kIntSrc + kIntKernel;
  std::string why;
  if (!load_hip_or_skip(src, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_corpus2 int", 20261127u);
  std::mt19937_64 g(seed);
  const int ne = int(std::size(kIntEdges)), n = 2048;
  std::vector<uint64_t> xs(n), ys(n);
  std::vector<uint32_t> ss(n);
  for (int i = 0; i < n; ++i) {
    if (i < ne * ne) {  // every edge against every edge
      xs[size_t(i)] = kIntEdges[i / ne];
      ys[size_t(i)] = kIntEdges[i % ne];
    } else {
      // Random patterns with random widths (small divisors, 32-bit values, full 64-bit values).
      auto r = [&]() -> uint64_t {
        uint64_t v = g();
        switch (g() % 4) {
          case 0: return v & ((1ull << (g() % 64)) - 1);
          case 1: return uint64_t(int64_t(int32_t(v)));
          case 2: return uint64_t(-int64_t(v & 0xffff));
          default: return v;
        }
      };
      xs[size_t(i)] = r();
      ys[size_t(i)] = r();
    }
    ss[size_t(i)] = uint32_t(g());
  }
  unsigned long long probe[256];
  const int n_out = host::int_ops(0, 0, 0, probe);
  REQUIRE(n_out <= 256);
  std::vector<uint64_t> want(size_t(n) * n_out);
  for (int i = 0; i < n; ++i)
    (void)host::int_ops(xs[size_t(i)], ys[size_t(i)], ss[size_t(i)], reinterpret_cast<unsigned long long*>(&want[size_t(i) * n_out]));
  for (Arch arch : kArchs) {
    INFO("arch " << cdnajit::arch_name(arch) << ", seed " << seed);
    auto co = load_hip(src, arch);
    Device dev(arch);
    REQUIRE(dev.sim.disassemble(co, "int_ops_k").find("<not implemented>") == std::string::npos);
    uint64_t dx = dev.upload(xs), dy = dev.upload(ys), ds = dev.upload(ss);
    uint64_t dout = dev.upload(std::vector<uint64_t>(size_t(n) * n_out, 0xdeadbeefdeadbeefull));
    dev.run(co, "int_ops_k", ArgPack().add(dx).add(dy).add(ds).add(dout).add(uint32_t(n_out)), dims1(n / 64, 64));
    auto got = dev.download<uint64_t>(dout, size_t(n) * n_out);
    Tally t;
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n_out; ++k) {
        const size_t at = size_t(i) * n_out + k;
        t.check(got[at], want[at], nullptr, "op " + std::to_string(k) + " x=" + hex(xs[size_t(i)]) + " y=" + hex(ys[size_t(i)]) + " s=" + std::to_string(ss[size_t(i)]));
      }
    INFO("checked " << t.checked << ", mismatches " << t.bad << t.first);
    CHECK(t.bad == 0);
  }
}

namespace {

const char* kFloatKernel = R"(
extern "C" __global__ void float_ops_k(const float* xs, const float* ys, const float* zs, const int* es,
                                       unsigned long long* o, unsigned n_out) {
  unsigned i = bid() * 64 + tid();
  float_ops(xs[i], ys[i], zs[i], es[i], o + i * n_out);
}
)";

// got / want match when equal, or when both are NaNs of the same width (the hardware's NaN payload
// is not documented).
bool same_or_both_nan(uint64_t got, uint64_t want) {
  if (got == want) return true;
  if (got >> 16 == 0 && want >> 16 == 0) return is_nan(got, kF16) && is_nan(want, kF16);
  if (got >> 32 == 0 && want >> 32 == 0) return std::isnan(simtest::flt(uint32_t(got))) && std::isnan(simtest::flt(uint32_t(want)));
  return std::isnan(dval(got)) && std::isnan(dval(want));
}

const uint32_t kFloatEdges[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
                                0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa00000, 0x7f7fffff, 0xff7fffff,
                                0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000,
                                0x4b000000, 0x4b000001, 0x4affffff, 0xcb000001, 0x3effffff, 0x4f000000, 0xcf000000, 0x5f000000,
                                0x477fe000, 0x477ff000, 0x33800000, 0x387fc000, 0x3f801000, 0x40490fdb};

}  // namespace

TEST_CASE("clang-compiled float helpers (fma, min/max, copysign, frexp, ldexp, rounding, classify; f64; f16) match the host",
          "[sim][corpus2][float]") {
  const std::string src = std::string(kDevicePrelude) + host::kFloatSrc + kFloatKernel;
  // The host does not contract a * b + c into an fma; neither may clang here (fmaf stays fused).
  const std::vector<std::string> flags = {"-ffp-contract=off"};
  std::string why;
  if (!load_hip_or_skip(src, Arch::gfx942, why, flags)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_corpus2 float", 20261127u);
  std::mt19937_64 g(seed);
  const int ne = int(std::size(kFloatEdges)), n = 2048;
  std::vector<uint32_t> xs(n), ys(n), zs(n);
  std::vector<int32_t> es(n);
  for (int i = 0; i < n; ++i) {
    auto r = [&]() -> uint32_t {
      switch (g() % 4) {
        case 0: return kFloatEdges[g() % ne];
        case 1: return uint32_t(g());
        case 2: return simtest::bits(std::ldexp(float(int64_t(g() % 20001) - 10000) / 8.0f, int(g() % 20) - 10));  // ties, integers
        default: return simtest::bits(float(int64_t(g() % 2001) - 1000) * 0.25f);
      }
    };
    if (i < ne * ne) {
      xs[size_t(i)] = kFloatEdges[i / ne];
      ys[size_t(i)] = kFloatEdges[i % ne];
    } else {
      xs[size_t(i)] = r();
      ys[size_t(i)] = r();
    }
    zs[size_t(i)] = r();
    es[size_t(i)] = int32_t(g() % 601) - 300;
  }
  unsigned long long probe[256];
  const int n_out = host::float_ops(1, 2, 3, 4, probe);
  REQUIRE(n_out <= 256);
  std::vector<uint64_t> want(size_t(n) * n_out);
  for (int i = 0; i < n; ++i)
    (void)host::float_ops(host::f32(xs[size_t(i)]), host::f32(ys[size_t(i)]), host::f32(zs[size_t(i)]), es[size_t(i)],
                          reinterpret_cast<unsigned long long*>(&want[size_t(i) * n_out]));
  for (Arch arch : kArchs) {
    INFO("arch " << cdnajit::arch_name(arch) << ", seed " << seed);
    auto co = load_hip(src, arch, flags);
    Device dev(arch);
    REQUIRE(dev.sim.disassemble(co, "float_ops_k").find("<not implemented>") == std::string::npos);
    uint64_t dx = dev.upload(xs), dy = dev.upload(ys), dz = dev.upload(zs), de = dev.upload(es);
    uint64_t dout = dev.upload(std::vector<uint64_t>(size_t(n) * n_out, 0xdeadbeefdeadbeefull));
    dev.run(co, "float_ops_k", ArgPack().add(dx).add(dy).add(dz).add(de).add(dout).add(uint32_t(n_out)), dims1(n / 64, 64));
    auto got = dev.download<uint64_t>(dout, size_t(n) * n_out);
    size_t checked = 0, bad = 0;
    std::string first;
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n_out; ++k) {
        const size_t at = size_t(i) * n_out + k;
        ++checked;
        if (same_or_both_nan(got[at], want[at])) continue;
        if (++bad <= 24)
          first += "\n  op " + std::to_string(k) + " x=" + hex(xs[size_t(i)]) + " y=" + hex(ys[size_t(i)]) + " z=" + hex(zs[size_t(i)]) +
                   " e=" + std::to_string(es[size_t(i)]) + ": got " + hex(got[at]) + " want " + hex(want[at]);
      }
    INFO("checked " << checked << ", mismatches " << bad << first);
    CHECK(bad == 0);
  }
}
