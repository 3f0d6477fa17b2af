// Atomics clang-22 compiles from HIP's __hip_atomic_* builtins (what atomicAdd / atomicSub / ...
// expand to) on gfx942 and gfx950, global and LDS, with only deterministic outcomes checked:
//  - int, unsigned, long long and unsigned long long add / sub / min / max / and / or / xor, every
//    thread of 4 workgroups on one address (the final value does not depend on the order);
//  - returned values where they are deterministic: the tickets of a returning add of 1 and the old
//    values of a compare-and-swap increment loop are each a permutation of init .. init + n - 1;
//    exchange and compare-and-swap on distinct addresses return the old value;
//  - float / double adds with one writer per address (the return is the old value, the sum one
//    IEEE round-to-nearest-even addition, normal operands only) and contended adds whose partial
//    sums are all exact (multiples of 1/4 below 2^11), in the default form (which clang may expand
//    to a compare-and-swap loop) and in the unsafe-fp-atomics form ([[clang::atomic(...)]]:
//    global_atomic_add_f32 / _f64, ds_add_*), and the packed f16 / bf16 adds
//    (global_atomic_pk_add_*, ds_pk_add_*) with exact sums. (The packed f16 addends are built
//    without a negated f16 operand: clang packs {x, -x} with v_pack_b32_f16 and a neg source
//    modifier, whose f16 handling in the simulator is being reworked separately.)
// Buffer atomics are not covered here. Oracle: integer arithmetic and the host's IEEE float /
// double addition, written here (values: seed CDNAJIT_TEST_SEED, printed).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "tests/sim/ieee_oracle.hpp"
#include "tests/sim/sim_harness.hpp"
#include "tests/test_support.hpp"

using namespace simtest;
using namespace ieee_oracle;
using cdnajit::Arch;

namespace {

const int kBlocks = 4, kN = 64 * kBlocks;

const char* kSrc = R"(
#define AG(op, p, v) __hip_atomic_##op(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)
#define AW(op, p, v) __hip_atomic_##op(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP)
#define CONTENDED(A, si, su, x) \
  A(fetch_add, &si[0], x); A(fetch_sub, &si[1], x); A(fetch_min, &si[2], x); A(fetch_max, &si[3], x); \
  A(fetch_and, &si[4], x); A(fetch_or, &si[5], x); A(fetch_xor, &si[6], x); \
  A(fetch_add, &su[0], (__typeof__(su[0]))x); A(fetch_sub, &su[1], (__typeof__(su[0]))x); A(fetch_min, &su[2], (__typeof__(su[0]))x); \
  A(fetch_max, &su[3], (__typeof__(su[0]))x); A(fetch_and, &su[4], (__typeof__(su[0]))x); A(fetch_or, &su[5], (__typeof__(su[0]))x); \
  A(fetch_xor, &su[6], (__typeof__(su[0]))x);

// Global: contended int / unsigned ops, tickets, a CAS increment loop, exchange and CAS on the
// thread's own slot. ret: 4 per thread.
extern "C" __global__ void gints(const int* v, int* gi, unsigned* gu, int* slot, int* slot2, int* ret) {
  unsigned t = bid() * 64 + tid();
  int x = v[t];
  CONTENDED(AG, gi, gu, x)
  ret[4 * t + 0] = (int)AG(fetch_add, &gu[7], 1u);
  int old = __hip_atomic_load(&gi[7], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  while (!__hip_atomic_compare_exchange_weak(&gi[7], &old, (int)((unsigned)old + 1u), __ATOMIC_RELAXED, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)) {}
  ret[4 * t + 1] = old;
  ret[4 * t + 2] = __hip_atomic_exchange(&slot[t], x, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  int expected = (t % 3 == 0) ? ~slot2[t] : slot2[t];  // every third thread expects a value that is not there
  __hip_atomic_compare_exchange_strong(&slot2[t], &expected, x, __ATOMIC_RELAXED, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  ret[4 * t + 3] = expected;  // the value found
}

// LDS: the same per workgroup on __shared__ words, initialised from `init`, copied out at the end.
extern "C" __global__ void lints(const int* v, const int* init, int* out, int* ret) {
  __shared__ int si[8];
  __shared__ unsigned su[8];
  __shared__ int own[64];
  unsigned l = tid(), t = bid() * 64 + l;
  if (l < 8) { si[l] = init[l]; su[l] = (unsigned)init[8 + l]; }
  own[l] = init[16 + l];
  sync();
  int x = v[t];
  CONTENDED(AW, si, su, x)
  ret[4 * t + 0] = (int)AW(fetch_add, &su[7], 1u);
  int old = __hip_atomic_load(&si[7], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  while (!__hip_atomic_compare_exchange_weak(&si[7], &old, (int)((unsigned)old + 1u), __ATOMIC_RELAXED, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP)) {}
  ret[4 * t + 1] = old;
  ret[4 * t + 2] = __hip_atomic_exchange(&own[l ^ 1], x, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  sync();
  int expected = (l % 3 == 0) ? ~x : own[l];
  __hip_atomic_compare_exchange_strong(&own[l], &expected, x + 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  ret[4 * t + 3] = expected;
  sync();
  int* o = out + bid() * 80;
  if (l < 8) { o[l] = si[l]; o[8 + l] = (int)su[l]; }
  o[16 + l] = own[l];
}

// 64-bit: contended long long / unsigned long long ops on global words g[0..13] and, per
// workgroup, on LDS words copied out to lo[16 * block ..].
extern "C" __global__ void ints64(const long long* v, long long* gs, unsigned long long* gu, long long* lo) {
  __shared__ long long ss[8];
  __shared__ unsigned long long su[8];
  unsigned l = tid(), t = bid() * 64 + l;
  if (l < 8) { ss[l] = gs[8 + l]; su[l] = gu[8 + l]; }
  sync();
  long long x = v[t];
  CONTENDED(AG, gs, gu, x)
  CONTENDED(AW, ss, su, x)
  sync();
  if (l < 8) { lo[16 * bid() + l] = ss[l]; lo[16 * bid() + 8 + l] = (long long)su[l]; }
}

typedef _Float16 h2 __attribute__((ext_vector_type(2)));
typedef __bf16 y2 __attribute__((ext_vector_type(2)));
// Floats. One writer per address: gf[t] (default form), gf[kN + t] (unsafe form), likewise gd;
// contended exact sums: gfc[0] / gdc[0] default, gfc[1] / gdc[1] unsafe. Packed: gh[t] / gy[t]
// one writer, gh[kN] / gy[kN] contended. rf / rd / rh: returned old values.
extern "C" __global__ void floats(const float* fv, const double* dv, const h2* hv, const y2* yv, float* gf, double* gd,
                                  float* gfc, double* gdc, h2* gh, y2* gy, float* rf, double* rd, unsigned* rh) {
  unsigned t = bid() * 64 + tid();
  const unsigned n = 64 * 4;
  float q = (float)(t % 7) * 0.25f;
  rf[t] = AG(fetch_add, &gf[t], fv[t]);
  rd[t] = AG(fetch_add, &gd[t], dv[t]);
  AG(fetch_add, &gfc[0], q);
  AG(fetch_add, &gdc[0], (double)q);
  [[clang::atomic(no_remote_memory, no_fine_grained_memory, ignore_denormal_mode)]] {
    rf[n + t] = AG(fetch_add, &gf[n + t], fv[t]);
    rd[n + t] = AG(fetch_add, &gd[n + t], dv[t]);
    AG(fetch_add, &gfc[1], q);
    AG(fetch_add, &gdc[1], (double)q);
  }
  h2 oh = __builtin_amdgcn_global_atomic_fadd_v2f16(gh + t, hv[t]);
  y2 oy = __builtin_amdgcn_global_atomic_fadd_v2bf16(gy + t, yv[t]);
  rh[2 * t] = __builtin_bit_cast(unsigned, oh);
  rh[2 * t + 1] = __builtin_bit_cast(unsigned, oy);
  float qb = (float)(t % 2) * 0.5f;  // bf16 (8 significant bits): all partial sums stay exact
  h2 qh = {(_Float16)q, (_Float16)((float)(t % 5) * -0.5f)};
  y2 qy = {(__bf16)qb, (__bf16)(2.0f * qb)};
  __builtin_amdgcn_global_atomic_fadd_v2f16(gh + n, qh);
  __builtin_amdgcn_global_atomic_fadd_v2bf16(gy + n, qy);
}

// LDS floats, per workgroup: one writer per word (returned old values) and one contended word of
// each type (initialised to 1), the contended results at out[kN + block].
extern "C" __global__ void lfloats(const float* fv, const double* dv, const h2* hv, const y2* yv, const float* finit,
                                   const double* dinit, const h2* hinit, const y2* yinit, float* of, double* od,
                                   h2* oh, y2* oy, float* rf, double* rd, unsigned* rh) {
  __shared__ float sf[65];
  __shared__ double sd[65];
  __shared__ h2 sh[65];
  __shared__ y2 sy[65];
  unsigned l = tid(), t = bid() * 64 + l;
  const unsigned n = 64 * 4;
  sf[l] = finit[t]; sd[l] = dinit[t]; sh[l] = hinit[t]; sy[l] = yinit[t];
  if (l == 0) { sf[64] = 1.0f; sd[64] = 1.0; sh[64] = (h2){1, 1}; sy[64] = (y2){1, 1}; }
  sync();
  float q = (float)(t % 7) * 0.25f, qb = (float)(t % 2) * 0.5f;
  h2 qh = {(_Float16)q, (_Float16)((float)(t % 5) * -0.5f)};
  y2 qy = {(__bf16)qb, (__bf16)(2.0f * qb)};
  [[clang::atomic(no_remote_memory, no_fine_grained_memory, ignore_denormal_mode)]] {
    rf[t] = AW(fetch_add, &sf[l], fv[t]);
    rd[t] = AW(fetch_add, &sd[l], dv[t]);
    AW(fetch_add, &sf[64], q);
    AW(fetch_add, &sd[64], (double)q);
  }
  rh[2 * t] = __builtin_bit_cast(unsigned, __builtin_amdgcn_ds_atomic_fadd_v2f16(&sh[l], hv[t]));
  rh[2 * t + 1] = __builtin_bit_cast(unsigned, __builtin_amdgcn_ds_atomic_fadd_v2bf16(&sy[l], yv[t]));
  __builtin_amdgcn_ds_atomic_fadd_v2f16(&sh[64], qh);
  __builtin_amdgcn_ds_atomic_fadd_v2bf16(&sy[64], qy);
  sync();
  of[t] = sf[l]; od[t] = sd[l]; oh[t] = sh[l]; oy[t] = sy[l];
  if (l == 0) { of[n + bid()] = sf[64]; od[n + bid()] = sd[64]; oh[n + bid()] = sh[64]; oy[n + bid()] = sy[64]; }
}
)";

}  // namespace

namespace {

// The contended signed / unsigned operations of one address each, folded in thread order (the
// results do not depend on the order): slots 0..6 of `si` and `su` (S / U: int32_t / uint32_t or
// int64_t / uint64_t).
template <class S, class U>
void fold_contended(const std::vector<S>& v, int first, int count, U* si, U* su) {
  for (int t = first; t < first + count; ++t) {
    const S x = v[size_t(t)];
    const U u = U(x);
    si[0] += u; si[1] -= u;
    si[2] = U(std::min(S(si[2]), x)); si[3] = U(std::max(S(si[3]), x));
    si[4] &= u; si[5] |= u; si[6] ^= u;
    su[0] += u; su[1] -= u; su[2] = std::min(su[2], u); su[3] = std::max(su[3], u);
    su[4] &= u; su[5] |= u; su[6] ^= u;
  }
}

// `got` holds a permutation of first .. first + count - 1 (returned tickets / CAS old values).
bool is_permutation_from(std::vector<int32_t> got, int32_t first) {
  std::sort(got.begin(), got.end());
  for (size_t k = 0; k < got.size(); ++k)
    if (got[k] != int32_t(uint32_t(first) + uint32_t(k))) return false;
  return true;
}

float random_normal_float(std::mt19937_64& g) {  // exponent in [-20, 20]: sums never reach denormals
  float v = std::ldexp(float((1u << 23) | uint32_t(g() & 0x7fffff)), int(g() % 41) - 20 - 23);
  return (g() & 1) ? -v : v;
}
double random_normal_double(std::mt19937_64& g) {
  double v = std::ldexp(double((uint64_t(1) << 52) | (g() >> 12)), int(g() % 41) - 20 - 52);
  return (g() & 1) ? -v : v;
}
// A pair of 16-bit floats, each k / 4 with |k| < limit4 (exact sums of two stay representable).
uint32_t random_pair(std::mt19937_64& g, const Fmt& f, int limit4) {
  auto one = [&] { return encode(double(int(g() % uint64_t(2 * limit4 - 1)) - (limit4 - 1)) / 4, f); };
  return one() | one() << 16;
}
uint32_t add_pair(uint32_t a, uint32_t b, const Fmt& f) {  // exact by construction
  return encode(decode(a & 0xffff, f) + decode(b & 0xffff, f), f) | encode(decode(a >> 16, f) + decode(b >> 16, f), f) << 16;
}

}  // namespace

TEST_CASE("clang-compiled global and LDS integer atomics: contended results, tickets, CAS loops, exchange", "[sim][atomics]") {
  std::string why;
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_atomics ints", 20261126u);
  std::mt19937_64 g(seed);
  std::vector<int32_t> v(kN), slot(kN), slot2(kN), init(80);
  for (auto& x : v) { x = int32_t(uint32_t(g())); if (x == INT32_MAX) x = 0; }
  for (int t = 0; t < kN; t += 5) v[size_t(t)] = int32_t(g() % 64) - 32;  // small ones too, for min / max
  for (auto& x : slot) x = int32_t(uint32_t(g()));
  for (auto& x : slot2) x = int32_t(uint32_t(g()));
  for (auto& x : init) x = int32_t(uint32_t(g()));
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << cdnajit::arch_name(arch));
    auto co = load_hip(kSrc, arch);
    Device dev(arch);
    const std::string dg = dev.sim.disassemble(co, "gints"), dl = dev.sim.disassemble(co, "lints");
    for (const char* m : {"global_atomic_add", "global_atomic_sub", "global_atomic_smin", "global_atomic_smax", "global_atomic_umin",
                          "global_atomic_umax", "global_atomic_and", "global_atomic_or", "global_atomic_xor", "global_atomic_swap",
                          "global_atomic_cmpswap"}) {
      INFO(m);
      CHECK(dg.find(m) != std::string::npos);
    }
    for (const char* m : {"ds_add_u32", "ds_sub_u32", "ds_min_i32", "ds_max_i32", "ds_min_u32", "ds_max_u32", "ds_and_b32",
                          "ds_or_b32", "ds_xor_b32", "ds_add_rtn_u32", "ds_wrxchg_rtn_b32", "ds_cmpst_rtn_b32"}) {
      INFO(m);
      CHECK(dl.find(m) != std::string::npos);
    }
    REQUIRE((dg + dl).find("<not implemented>") == std::string::npos);
    // Global.
    std::vector<int32_t> gi(init.begin(), init.begin() + 8), gu(init.begin() + 8, init.begin() + 16);
    uint64_t dv = dev.upload(v), dgi = dev.upload(gi), dgu = dev.upload(gu), ds = dev.upload(slot), ds2 = dev.upload(slot2),
             dret = dev.upload(std::vector<int32_t>(4 * kN));
    dev.run(co, "gints", ArgPack().add(dv).add(dgi).add(dgu).add(ds).add(ds2).add(dret), dims1(kBlocks, 64));
    std::vector<uint32_t> wi(gi.begin(), gi.end()), wu(gu.begin(), gu.end());
    fold_contended(v, 0, kN, wi.data(), wu.data());
    wi[7] += kN;
    wu[7] += kN;
    auto gi_got = dev.download<uint32_t>(dgi, 8), gu_got = dev.download<uint32_t>(dgu, 8);
    for (int k = 0; k < 8; ++k) {
      INFO("global contended word " << k);
      CHECK(gi_got[size_t(k)] == wi[size_t(k)]);
      CHECK(gu_got[size_t(k)] == wu[size_t(k)]);
    }
    auto ret = dev.download<int32_t>(dret, 4 * kN);
    auto slot_got = dev.download<int32_t>(ds, kN), slot2_got = dev.download<int32_t>(ds2, kN);
    std::vector<int32_t> tickets, olds;
    size_t bad = 0;
    for (int t = 0; t < kN; ++t) {
      tickets.push_back(ret[size_t(4 * t)]);
      olds.push_back(ret[size_t(4 * t + 1)]);
      bad += ret[size_t(4 * t + 2)] != slot[size_t(t)] || slot_got[size_t(t)] != v[size_t(t)];  // exchange
      bad += ret[size_t(4 * t + 3)] != slot2[size_t(t)] || slot2_got[size_t(t)] != (t % 3 == 0 ? slot2[size_t(t)] : v[size_t(t)]);  // CAS
    }
    CHECK(bad == 0);
    CHECK(is_permutation_from(tickets, gu[7]));
    CHECK(is_permutation_from(olds, gi[7]));
    // LDS, per workgroup.
    uint64_t dinit = dev.upload(init), dout = dev.upload(std::vector<int32_t>(80 * kBlocks)), dret2 = dev.upload(std::vector<int32_t>(4 * kN));
    dev.run(co, "lints", ArgPack().add(dv).add(dinit).add(dout).add(dret2), dims1(kBlocks, 64));
    auto out = dev.download<int32_t>(dout, 80 * kBlocks);
    auto ret2 = dev.download<int32_t>(dret2, 4 * kN);
    for (int b = 0; b < kBlocks; ++b) {
      INFO("workgroup " << b);
      std::vector<uint32_t> si(init.begin(), init.begin() + 8), su(init.begin() + 8, init.begin() + 16);
      fold_contended(v, 64 * b, 64, si.data(), su.data());
      si[7] += 64;
      su[7] += 64;
      for (int k = 0; k < 8; ++k) {
        INFO("LDS contended word " << k);
        CHECK(uint32_t(out[size_t(80 * b + k)]) == si[size_t(k)]);
        CHECK(uint32_t(out[size_t(80 * b + 8 + k)]) == su[size_t(k)]);
      }
      std::vector<int32_t> lt, lo;
      size_t lbad = 0;
      for (int l = 0; l < 64; ++l) {
        const int t = 64 * b + l;
        lt.push_back(ret2[size_t(4 * t)]);
        lo.push_back(ret2[size_t(4 * t + 1)]);
        const int32_t self = v[size_t(t)], partner = v[size_t(64 * b + (l ^ 1))];
        lbad += ret2[size_t(4 * t + 2)] != init[size_t(16 + (l ^ 1))];  // exchange of the partner's word
        const int32_t expected = l % 3 == 0 ? ~self : partner;
        lbad += ret2[size_t(4 * t + 3)] != partner;                                                 // CAS found the partner's value
        lbad += out[size_t(80 * b + 16 + l)] != (expected == partner ? int32_t(uint32_t(self) + 1u) : partner);
      }
      CHECK(lbad == 0);
      CHECK(is_permutation_from(lt, init[15]));
      CHECK(is_permutation_from(lo, init[7]));
    }
  }
}

TEST_CASE("clang-compiled float, double and packed f16 / bf16 atomic adds (default and unsafe-fp-atomics forms)", "[sim][atomics]") {
  std::string why;
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_atomics floats", 20261126u);
  std::mt19937_64 g(seed);
  std::vector<float> fv(kN), finit(2 * kN);
  std::vector<double> dv(kN), dinit(2 * kN);
  std::vector<uint32_t> hv(kN), yv(kN), hinit(kN + 1), yinit(kN + 1);
  for (auto& x : fv) x = random_normal_float(g);
  for (auto& x : finit) x = random_normal_float(g);
  for (auto& x : dv) x = random_normal_double(g);
  for (auto& x : dinit) x = random_normal_double(g);
  for (auto& x : hv) x = random_pair(g, kF16, 1024);  // |k / 4| < 256: f16 sums of two exact
  for (auto& x : hinit) x = random_pair(g, kF16, 1024);
  for (auto& x : yv) x = random_pair(g, kBF16, 128);  // |k / 4| < 32: bf16 sums of two exact
  for (auto& x : yinit) x = random_pair(g, kBF16, 128);
  hinit[kN] = encode(1, kF16) * 0x10001u;
  yinit[kN] = encode(1, kBF16) * 0x10001u;
  auto q_of = [](int t) { return double(t % 7) * 0.25; };
  auto qb_of = [](int t) { return double(t % 2) * 0.5; };
  auto qn_of = [](int t) { return double(t % 5) * -0.5; };
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << cdnajit::arch_name(arch));
    auto co = load_hip(kSrc, arch);
    Device dev(arch);
    const std::string df = dev.sim.disassemble(co, "floats"), dl = dev.sim.disassemble(co, "lfloats");
    for (const char* m : {"global_atomic_add_f32", "global_atomic_add_f64", "global_atomic_pk_add_f16", "global_atomic_pk_add_bf16"}) {
      INFO(m);
      CHECK(df.find(m) != std::string::npos);
    }
    for (const char* m : {"ds_add_rtn_f32", "ds_add_f32", "ds_add_rtn_f64", "ds_add_f64", "ds_pk_add_rtn_f16", "ds_pk_add_f16",
                          "ds_pk_add_rtn_bf16", "ds_pk_add_bf16"}) {
      INFO(m);
      CHECK(dl.find(m) != std::string::npos);
    }
    REQUIRE((df + dl).find("<not implemented>") == std::string::npos);
    // Global.
    std::vector<float> gfc = {1.0f, 1.0f};
    std::vector<double> gdc = {1.0, 1.0};
    uint64_t dfv = dev.upload(fv), ddv = dev.upload(dv), dhv = dev.upload(hv), dyv = dev.upload(yv), dgf = dev.upload(finit),
             dgd = dev.upload(dinit), dgfc = dev.upload(gfc), dgdc = dev.upload(gdc), dgh = dev.upload(hinit), dgy = dev.upload(yinit),
             drf = dev.upload(std::vector<float>(2 * kN)), drd = dev.upload(std::vector<double>(2 * kN)),
             drh = dev.upload(std::vector<uint32_t>(2 * kN));
    dev.run(co, "floats",
            ArgPack().add(dfv).add(ddv).add(dhv).add(dyv).add(dgf).add(dgd).add(dgfc).add(dgdc).add(dgh).add(dgy).add(drf).add(drd).add(drh),
            dims1(kBlocks, 64));
    Tally t;
    auto gf = dev.download<uint32_t>(dgf, 2 * kN), rf = dev.download<uint32_t>(drf, 2 * kN), rh = dev.download<uint32_t>(drh, 2 * kN);
    auto gd = dev.download<uint64_t>(dgd, 2 * kN), rd = dev.download<uint64_t>(drd, 2 * kN);
    auto gh = dev.download<uint32_t>(dgh, kN + 1), gy = dev.download<uint32_t>(dgy, kN + 1);
    for (int i = 0; i < 2 * kN; ++i) {
      const int th = i % kN;
      const std::string form = i < kN ? " (default form)" : " (unsafe form)";
      t.check(gf[size_t(i)], simtest::bits(finit[size_t(i)] + fv[size_t(th)]), nullptr, "global f32 add" + form + " thread " + std::to_string(th));
      t.check(rf[size_t(i)], simtest::bits(finit[size_t(i)]), nullptr, "global f32 add return" + form);
      t.check(gd[size_t(i)], dbits(dinit[size_t(i)] + dv[size_t(th)]), nullptr, "global f64 add" + form + " thread " + std::to_string(th));
      t.check(rd[size_t(i)], dbits(dinit[size_t(i)]), nullptr, "global f64 add return" + form);
    }
    double sq = 0, sqb = 0, sqn = 0;
    for (int th = 0; th < kN; ++th) {
      sq += q_of(th);
      sqb += qb_of(th);
      sqn += qn_of(th);
      t.check(gh[size_t(th)], add_pair(hinit[size_t(th)], hv[size_t(th)], kF16), nullptr, "global pk_add_f16 thread " + std::to_string(th));
      t.check(gy[size_t(th)], add_pair(yinit[size_t(th)], yv[size_t(th)], kBF16), nullptr, "global pk_add_bf16 thread " + std::to_string(th));
      t.check(rh[size_t(2 * th)], hinit[size_t(th)], nullptr, "global pk_add_f16 return");
      t.check(rh[size_t(2 * th + 1)], yinit[size_t(th)], nullptr, "global pk_add_bf16 return");
    }
    auto gfc_got = dev.download<float>(dgfc, 2);
    auto gdc_got = dev.download<double>(dgdc, 2);
    for (int k = 0; k < 2; ++k) {
      t.check(simtest::bits(gfc_got[size_t(k)]), simtest::bits(float(1 + sq)), nullptr, k ? "contended f32 (unsafe)" : "contended f32 (default)");
      t.check(dbits(gdc_got[size_t(k)]), dbits(1 + sq), nullptr, k ? "contended f64 (unsafe)" : "contended f64 (default)");
    }
    t.check(gh[kN], encode(1 + sq, kF16) | encode(1 + sqn, kF16) << 16, nullptr, "contended pk_add_f16");
    t.check(gy[kN], encode(1 + sqb, kBF16) | encode(1 + 2 * sqb, kBF16) << 16, nullptr, "contended pk_add_bf16");
    // LDS.
    uint64_t dof = dev.upload(std::vector<float>(kN + kBlocks)), dod = dev.upload(std::vector<double>(kN + kBlocks)),
             doh = dev.upload(std::vector<uint32_t>(kN + kBlocks)), doy = dev.upload(std::vector<uint32_t>(kN + kBlocks)),
             lrf = dev.upload(std::vector<float>(kN)), lrd = dev.upload(std::vector<double>(kN)), lrh = dev.upload(std::vector<uint32_t>(2 * kN));
    dev.run(co, "lfloats",
            ArgPack().add(dfv).add(ddv).add(dhv).add(dyv).add(dev.upload(finit)).add(dev.upload(dinit)).add(dev.upload(hinit))
                .add(dev.upload(yinit)).add(dof).add(dod).add(doh).add(doy).add(lrf).add(lrd).add(lrh),
            dims1(kBlocks, 64));
    auto of = dev.download<uint32_t>(dof, kN + kBlocks), oh = dev.download<uint32_t>(doh, kN + kBlocks),
         oy = dev.download<uint32_t>(doy, kN + kBlocks), lf = dev.download<uint32_t>(lrf, kN), lh = dev.download<uint32_t>(lrh, 2 * kN);
    auto od = dev.download<uint64_t>(dod, kN + kBlocks), ld = dev.download<uint64_t>(lrd, kN);
    for (int th = 0; th < kN; ++th) {
      const std::string at = " thread " + std::to_string(th);
      t.check(of[size_t(th)], simtest::bits(finit[size_t(th)] + fv[size_t(th)]), nullptr, "LDS f32 add" + at);
      t.check(lf[size_t(th)], simtest::bits(finit[size_t(th)]), nullptr, "LDS f32 add return" + at);
      t.check(od[size_t(th)], dbits(dinit[size_t(th)] + dv[size_t(th)]), nullptr, "LDS f64 add" + at);
      t.check(ld[size_t(th)], dbits(dinit[size_t(th)]), nullptr, "LDS f64 add return" + at);
      t.check(oh[size_t(th)], add_pair(hinit[size_t(th)], hv[size_t(th)], kF16), nullptr, "LDS pk_add_f16" + at);
      t.check(oy[size_t(th)], add_pair(yinit[size_t(th)], yv[size_t(th)], kBF16), nullptr, "LDS pk_add_bf16" + at);
      t.check(lh[size_t(2 * th)], hinit[size_t(th)], nullptr, "LDS pk_add_f16 return" + at);
      t.check(lh[size_t(2 * th + 1)], yinit[size_t(th)], nullptr, "LDS pk_add_bf16 return" + at);
    }
    for (int b = 0; b < kBlocks; ++b) {
      double s = 0, sb = 0, sn = 0;
      for (int th = 64 * b; th < 64 * b + 64; ++th) { s += q_of(th); sb += qb_of(th); sn += qn_of(th); }
      const std::string at = " workgroup " + std::to_string(b);
      t.check(of[size_t(kN + b)], simtest::bits(float(1 + s)), nullptr, "LDS contended f32" + at);
      t.check(od[size_t(kN + b)], dbits(1 + s), nullptr, "LDS contended f64" + at);
      t.check(oh[size_t(kN + b)], encode(1 + s, kF16) | encode(1 + sn, kF16) << 16, nullptr, "LDS contended pk_add_f16" + at);
      t.check(oy[size_t(kN + b)], encode(1 + sb, kBF16) | encode(1 + 2 * sb, kBF16) << 16, nullptr, "LDS contended pk_add_bf16" + at);
    }
    INFO("checked " << t.checked << ", mismatches " << t.bad << t.first);
    CHECK(t.bad == 0);
  }
}

TEST_CASE("clang-compiled 64-bit global and LDS integer atomics: contended results", "[sim][atomics]") {
  std::string why;
  if (!load_hip_or_skip(kSrc, Arch::gfx942, why)) CDNAJIT_SKIP(why);
  const uint64_t seed = cdnajit::test::test_seed("test_clang_atomics 64-bit", 20261126u);
  std::mt19937_64 g(seed);
  std::vector<int64_t> v(kN), gs(16);
  std::vector<uint64_t> gu(16);
  for (auto& x : v) x = int64_t(g());
  for (int t = 0; t < kN; t += 5) v[size_t(t)] = int64_t(g() % 64) - 32;  // small ones too, for min / max
  for (auto& x : gs) x = int64_t(g());
  for (auto& x : gu) x = g();
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO("arch " << cdnajit::arch_name(arch));
    auto co = load_hip(kSrc, arch);
    Device dev(arch);
    const std::string dis = dev.sim.disassemble(co, "ints64");
    for (const char* m : {"global_atomic_add_x2", "global_atomic_sub_x2", "global_atomic_smin_x2", "global_atomic_smax_x2",
                          "global_atomic_umin_x2", "global_atomic_umax_x2", "global_atomic_and_x2", "global_atomic_or_x2",
                          "global_atomic_xor_x2", "ds_add_u64", "ds_sub_u64", "ds_min_i64", "ds_max_i64", "ds_min_u64", "ds_max_u64",
                          "ds_and_b64", "ds_or_b64", "ds_xor_b64"}) {
      INFO(m);
      CHECK(dis.find(m) != std::string::npos);
    }
    REQUIRE(dis.find("<not implemented>") == std::string::npos);
    uint64_t dv = dev.upload(v), dgs = dev.upload(gs), dgu = dev.upload(gu), dlo = dev.upload(std::vector<int64_t>(16 * kBlocks));
    dev.run(co, "ints64", ArgPack().add(dv).add(dgs).add(dgu).add(dlo), dims1(kBlocks, 64));
    std::vector<uint64_t> ws(gs.begin(), gs.end()), wu(gu);
    fold_contended(v, 0, kN, ws.data(), wu.data());
    auto gs_got = dev.download<uint64_t>(dgs, 16), gu_got = dev.download<uint64_t>(dgu, 16);
    auto lo = dev.download<uint64_t>(dlo, 16 * kBlocks);
    size_t bad = 0;
    for (int k = 0; k < 16; ++k) bad += gs_got[size_t(k)] != ws[size_t(k)] || gu_got[size_t(k)] != wu[size_t(k)];
    for (int b = 0; b < kBlocks; ++b) {
      std::vector<uint64_t> ls(gs.begin() + 8, gs.end()), lu(gu.begin() + 8, gu.end());
      fold_contended(v, 64 * b, 64, ls.data(), lu.data());
      for (int k = 0; k < 8; ++k) bad += lo[size_t(16 * b + k)] != ls[size_t(k)] || lo[size_t(16 * b + 8 + k)] != lu[size_t(k)];
    }
    CHECK(bad == 0);
  }
}
