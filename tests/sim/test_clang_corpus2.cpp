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
// to clang for the device.
#define SHARED(...)  \
  __VA_ARGS__        \
  static const char* const kSharedSrc = #__VA_ARGS__;

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
static double f64(unsigned long long u) { double d; std::memcpy(&d, &u, 8); return d; }
static unsigned long long u64(double d) { unsigned long long u; std::memcpy(&u, &d, 8); return u; }

SHARED(
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
#undef __device__
}  // namespace host

namespace {

const char* kDevicePrelude = R"(
static __device__ inline unsigned brev32(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ inline unsigned long long brev64(unsigned long long x) { return __builtin_bitreverse64(x); }
static __device__ inline float f32(unsigned u) { return __builtin_bit_cast(float, u); }
static __device__ inline unsigned u32(float f) { return __builtin_bit_cast(unsigned, f); }
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
  const std::string src = std::string(kDevicePrelude) + host::kSharedSrc + kIntKernel;
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
