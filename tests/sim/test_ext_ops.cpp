// Semantics added with the table's new rows (ops_vcmp_ext.cpp, ops_atomic.cpp,
// ops_f64.cpp, ops_dot_int.cpp), each run on the simulator in a hand-written
// kernel over 64 lanes and compared with a CPU computation written here
// independently (the "oracle" lambdas below are a deliberate re-implementation
// from the ISA reference's descriptions, not calls into the simulator).
// Inputs are random with special values mixed in; seed from CDNAJIT_TEST_SEED.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/sim/code_object.hpp"
#include "runtime/sim/simulator.hpp"
#include "tests/sim/hip_compile.hpp"

using cdnajit::Arch;

namespace {

uint32_t seed() {
  static const uint32_t s = [] {
    const char* e = std::getenv("CDNAJIT_TEST_SEED");
    uint32_t v = e && *e ? uint32_t(std::strtoul(e, nullptr, 10)) : 20251126u;
    std::printf("test_sim_ext: CDNAJIT_TEST_SEED=%u\n", v);
    return v;
  }();
  return s;
}

// s[0:1] kernarg: {in, out, mem} pointers. v0 = lane. Inputs: A at in + 8*lane, B at +512,
// C at +1024 (one 64-bit slot per lane). The body leaves its result in v[8:9].
std::string kernel_text(const std::string& name, const std::string& body, Arch arch) {
  std::string cpu(cdnajit::arch_name(arch));
  return ".amdgcn_target \"amdgcn-amd-amdhsa--" + cpu + "\"\n.text\n.globl " + name + "\n.p2align 8\n.type " + name +
         ",@function\n" + name + ":\n"
         "  s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
         "  s_load_dwordx2 s[8:9], s[0:1], 0x10\n"
         "  v_lshlrev_b32 v1, 3, v0\n"
         "  v_mov_b32 v8, 0\n  v_mov_b32 v9, 0\n"
         "  s_waitcnt lgkmcnt(0)\n"
         "  global_load_dwordx2 v[2:3], v1, s[4:5]\n"
         "  global_load_dwordx2 v[4:5], v1, s[4:5] offset:512\n"
         "  global_load_dwordx2 v[6:7], v1, s[4:5] offset:1024\n"
         "  s_waitcnt vmcnt(0)\n" +
         body +
         "\n  s_mov_b64 exec, -1\n"
         "  global_store_dwordx2 v1, v[8:9], s[6:7]\n"
         "  s_endpgm\n.size " + name + ", .-" + name +
         "\n.rodata\n.p2align 6\n.amdhsa_kernel " + name +
         "\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_kernarg_size 24\n"
         "  .amdhsa_group_segment_fixed_size 1024\n  .amdhsa_next_free_vgpr 16\n  .amdhsa_next_free_sgpr 16\n"
         "  .amdhsa_accum_offset 16\n.end_amdhsa_kernel\n";
}

struct Run {
  std::vector<uint64_t> out, mem;
};

// Runs `body` over one wave with inputs a, b, c (64 each) and `mem` (64 slots, for atomics).
Run run(Arch arch, const std::string& body, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
        const std::vector<uint64_t>& c, std::vector<uint64_t> mem = std::vector<uint64_t>(64)) {
  auto co = cdnajit::read_code_object(simtest::assemble(kernel_text("k", body, arch), arch));
  cdnajit::sim::Simulator sim(arch);
  std::vector<uint64_t> in(a);
  in.insert(in.end(), b.begin(), b.end());
  in.insert(in.end(), c.begin(), c.end());
  uint64_t pin = sim.memory().alloc(in.size() * 8, "in"), pout = sim.memory().alloc(64 * 8, "out"),
           pmem = sim.memory().alloc(64 * 8, "mem");
  sim.memory().write(pin, in.data(), in.size() * 8);
  sim.memory().write(pmem, mem.data(), 64 * 8);
  uint64_t args[3] = {pin, pout, pmem};
  std::vector<uint8_t> ka(24);
  std::memcpy(ka.data(), args, 24);
  cdnajit::sim::LaunchDims d;
  sim.launch(co, "k", ka, d);
  Run r{std::vector<uint64_t>(64), std::vector<uint64_t>(64)};
  sim.memory().read(pout, r.out.data(), 64 * 8);
  sim.memory().read(pmem, r.mem.data(), 64 * 8);
  return r;
}

uint64_t dbits(double d) { return std::bit_cast<uint64_t>(d); }
uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
double as_double(uint64_t u) { return std::bit_cast<double>(u); }
float as_float(uint32_t u) { return std::bit_cast<float>(u); }
// Oracle f16 <-> f32 (IEEE binary16, round to nearest even), written for this test.
float h2f(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? std::ldexp(float(m), -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(float(m | 1024), e - 25);
  return s ? -v : v;
}

// Random values of a type's bit width, with specials (NaN, +-inf, +-0, denormals, equal pairs) mixed in.
std::vector<uint64_t> values(std::mt19937_64& g, int kind /*0 f16, 1 f32, 2 f64, 3 int*/, int salt) {
  std::vector<uint64_t> v(64);
  const uint64_t sp16[] = {0x7e00, 0xfc00, 0x7c00, 0x0000, 0x8000, 0x0001, 0x3c00, 0xbc00};
  const uint64_t sp32[] = {0x7fc00000, 0xff800000, 0x7f800000, 0, 0x80000000, 1, 0x3f800000, 0xbf800000};
  const uint64_t sp64[] = {0x7ff8000000000000, 0xfff0000000000000, 0x7ff0000000000000, 0, 1ull << 63, 1, dbits(1.0), dbits(-1.0)};
  for (int l = 0; l < 64; ++l) {
    uint64_t r = g();
    if (kind == 0) v[l] = l % 8 == salt % 8 ? sp16[(l / 8) % 8] : (l % 5 == 0 ? 0x3c00 + (l & 7) : r & 0xffff);
    else if (kind == 1) v[l] = l % 8 == salt % 8 ? sp32[(l / 8) % 8] : (l % 5 == 0 ? fbits(float(l % 7) - 3) : uint32_t(r));
    else if (kind == 2) v[l] = l % 8 == salt % 8 ? sp64[(l / 8) % 8] : (l % 5 == 0 ? dbits(double(l % 7) - 3) : r);
    else v[l] = l % 5 == 0 ? uint64_t(l % 7) - 3 : (l % 3 == 0 ? r % 8 : r);
  }
  return v;
}

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

}  // namespace

TEST_CASE("VOPC compares of every condition and type, v_cmp and v_cmpx", "[sim][ext]") {
  std::mt19937_64 g(seed());
  struct Ty { const char* t; int kind; int bits; bool sgn; };
  const Ty types[] = {{"f16", 0, 16, true}, {"f32", 1, 32, true}, {"f64", 2, 64, true}, {"i16", 3, 16, true},
                      {"u16", 3, 16, false}, {"i32", 3, 32, true}, {"u32", 3, 32, false}, {"i64", 3, 64, true},
                      {"u64", 3, 64, false}};
  const char* fconds[] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru", "class"};
  const char* iconds[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
  for (Arch arch : kArchs) {
    for (const Ty& ty : types) {
      const bool fl = ty.kind < 3;
      auto a = values(g, ty.kind, 1), b = values(g, ty.kind, 2);
      for (int l = 0; l < 64; l += 4) b[l] = a[l];  // equal pairs
      for (const char* c : fl ? std::vector<const char*>(std::begin(fconds), std::end(fconds))
                              : std::vector<const char*>(std::begin(iconds), std::end(iconds))) {
        std::string cond = c;
        bool cls = cond == "class";
        if (cls) for (auto& x : b) x &= 0x3ff;
        // Oracle.
        auto expect = [&](int l) -> bool {
          uint64_t x = a[l], y = b[l];
          if (cond == "f") return false;
          if (cond == "tru" || cond == "t") return true;
          if (fl) {
            auto val = [&](uint64_t u) { return ty.kind == 0 ? double(h2f(uint16_t(u))) : ty.kind == 1 ? double(as_float(uint32_t(u))) : as_double(u); };
            double p = val(x), q = val(y);
            if (cls) {
              int k;
              if (std::isnan(p)) {
                uint64_t quiet = ty.kind == 0 ? (x >> 9) & 1 : ty.kind == 1 ? (x >> 22) & 1 : (x >> 51) & 1;
                k = quiet ? 1 : 0;
              } else if (std::isinf(p)) k = p < 0 ? 2 : 9;
              else if (p == 0) k = std::signbit(p) ? 5 : 6;
              else {
                double tiny = ty.kind == 0 ? std::ldexp(1.0, -14) : ty.kind == 1 ? std::ldexp(1.0, -126) : std::ldexp(1.0, -1022);
                bool den = std::fabs(p) < tiny;
                k = p < 0 ? (den ? 4 : 3) : (den ? 7 : 8);
              }
              return (y >> k) & 1;
            }
            bool un = std::isnan(p) || std::isnan(q);
            if (cond == "lt") return p < q;
            if (cond == "eq") return p == q;
            if (cond == "le") return p <= q;
            if (cond == "gt") return p > q;
            if (cond == "lg") return !un && p != q;
            if (cond == "ge") return p >= q;
            if (cond == "o") return !un;
            if (cond == "u") return un;
            if (cond == "nge") return !(p >= q);
            if (cond == "nlg") return un || p == q;
            if (cond == "ngt") return !(p > q);
            if (cond == "nle") return !(p <= q);
            if (cond == "neq") return !(p == q);
            if (cond == "nlt") return !(p < q);
          }
          const uint64_t mask = ty.bits == 64 ? ~0ull : (1ull << ty.bits) - 1;
          x &= mask;
          y &= mask;
          auto sx = [&](uint64_t u) { return ty.bits == 64 ? int64_t(u) : int64_t(u << (64 - ty.bits)) >> (64 - ty.bits); };
          bool lt = ty.sgn ? sx(x) < sx(y) : x < y;
          if (cond == "lt") return lt;
          if (cond == "eq") return x == y;
          if (cond == "le") return lt || x == y;
          if (cond == "gt") return !lt && x != y;
          if (cond == "ne") return x != y;
          if (cond == "ge") return !lt;
          return false;
        };
        const bool wide = ty.bits == 64;
        std::string sa = wide ? "v[2:3]" : "v2", sb = (wide && !cls) ? "v[4:5]" : "v4";
        for (bool x : {false, true}) {
          std::string m = std::string(x ? "v_cmpx_" : "v_cmp_") + cond + "_" + ty.t;
          // v_cmp: the lane mask in VCC becomes 0/1 per lane; v_cmpx: only lanes left in EXEC write 1.
          std::string body = x ? "  " + m + "_e64 s[10:11], " + sa + ", " + sb + "\n  v_mov_b32 v8, 1\n"
                               : "  " + m + "_e32 vcc, " + sa + ", " + sb + "\n  v_cndmask_b32 v8, 0, 1, vcc\n";
          INFO(cdnajit::arch_name(arch) << " " << m);
          Run r = run(arch, body, a, b, std::vector<uint64_t>(64));
          int bad = 0;
          for (int l = 0; l < 64; ++l)
            if (r.out[l] != uint64_t(expect(l))) {
              if (bad++ < 3) FAIL_CHECK("lane " << l << ": a=0x" << std::hex << a[l] << " b=0x" << b[l] << " got " << r.out[l]);
            }
          CHECK(bad == 0);
        }
      }
    }
  }
}

TEST_CASE("LDS and global atomics: every lane its own slot, old value returned", "[sim][ext]") {
  std::mt19937_64 g(seed() + 1);
  struct At { const char* ds; const char* glob; int bytes; std::function<uint64_t(uint64_t, uint64_t, uint64_t)> f; };
  auto sx32 = [](uint64_t v) { return int64_t(int32_t(uint32_t(v))); };
  const At ats[] = {
      {"ds_add_rtn_u64", "global_atomic_add_x2", 8, [](uint64_t o, uint64_t a, uint64_t) { return o + a; }},
      {"ds_sub_rtn_u64", "global_atomic_sub_x2", 8, [](uint64_t o, uint64_t a, uint64_t) { return o - a; }},
      {"ds_rsub_rtn_u32", nullptr, 4, [](uint64_t o, uint64_t a, uint64_t) { return uint32_t(a - o); }},
      {"ds_inc_rtn_u32", "global_atomic_inc", 4, [](uint64_t o, uint64_t a, uint64_t) { return uint32_t(o) >= uint32_t(a) ? 0 : uint32_t(o + 1); }},
      {"ds_dec_rtn_u64", "global_atomic_dec_x2", 8, [](uint64_t o, uint64_t a, uint64_t) { return (o == 0 || o > a) ? a : o - 1; }},
      {"ds_min_rtn_i64", "global_atomic_smin_x2", 8, [](uint64_t o, uint64_t a, uint64_t) { return int64_t(o) < int64_t(a) ? o : a; }},
      {"ds_max_rtn_u64", "global_atomic_umax_x2", 8, [](uint64_t o, uint64_t a, uint64_t) { return o > a ? o : a; }},
      {"ds_max_rtn_i32", nullptr, 4, [&](uint64_t o, uint64_t a, uint64_t) { return uint32_t(sx32(o) > sx32(a) ? o : a); }},
      {"ds_xor_rtn_b64", "global_atomic_xor_x2", 8, [](uint64_t o, uint64_t a, uint64_t) { return o ^ a; }},
      {"ds_wrxchg_rtn_b64", "global_atomic_swap_x2", 8, [](uint64_t, uint64_t a, uint64_t) { return a; }},
      {"ds_mskor_rtn_b32", nullptr, 4, [](uint64_t o, uint64_t a, uint64_t b) { return uint32_t((o & ~a) | b); }},
      {"ds_cmpst_rtn_b64", nullptr, 8, [](uint64_t o, uint64_t a, uint64_t b) { return o == a ? b : o; }},
      {"ds_add_rtn_f64", "global_atomic_add_f64", 8, [](uint64_t o, uint64_t a, uint64_t) { return dbits(as_double(o) + as_double(a)); }},
      {"ds_min_rtn_f64", "global_atomic_min_f64", 8, [](uint64_t o, uint64_t a, uint64_t) { return as_double(a) < as_double(o) ? a : o; }},
  };
  for (Arch arch : kArchs) {
    for (const At& at : ats) {
      const bool w = at.bytes == 8;
      std::vector<uint64_t> init(64), a(64), b(64);
      for (int l = 0; l < 64; ++l) {
        bool fl = std::string(at.ds).find("f64") != std::string::npos;
        init[l] = fl ? dbits(double(int(g() % 2000) - 1000) / 8) : (l % 4 == 0 ? 0 : g() % (l % 2 ? 1000 : ~0ull));
        a[l] = fl ? dbits(double(int(g() % 2000) - 1000) / 8) : (l % 3 == 0 ? init[l] : g() % (l % 2 ? 1000 : ~0ull));
        b[l] = g();
        if (!w) { init[l] &= 0xffffffff; a[l] &= 0xffffffff; b[l] &= 0xffffffff; }
      }
      // LDS: lane's slot at 8*lane holds init (written first), then the returning atomic.
      std::string r = w ? "v[8:9]" : "v8", d0 = w ? "v[4:5]" : "v4", d1 = w ? "v[6:7]" : "v6", st = w ? "ds_write_b64 v1, v[2:3]" : "ds_write_b32 v1, v2";
      bool two = std::string(at.ds).find("mskor") != std::string::npos || std::string(at.ds).find("cmpst") != std::string::npos;
      std::string body = "  " + st + "\n  s_waitcnt lgkmcnt(0)\n  " + at.ds + " " + r + ", v1, " + d0 + (two ? ", " + d1 : "") +
                         "\n  s_waitcnt lgkmcnt(0)\n  " + (w ? "ds_read_b64 v[10:11], v1" : "ds_read_b32 v10, v1") +
                         "\n  s_waitcnt lgkmcnt(0)\n  global_store_dwordx2 v1, v[10:11], s[8:9]\n  v_mov_b32 v11, 0\n";
      if (!w) body = "  v_mov_b32 v11, 0\n" + body;
      INFO(cdnajit::arch_name(arch) << " " << at.ds);
      Run res = run(arch, body, init, a, b);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l << " init 0x" << std::hex << init[l] << " data 0x" << a[l] << " data2 0x" << b[l]);
        CHECK(res.out[l] == init[l]);                       // old value returned
        CHECK(res.mem[l] == at.f(init[l], a[l], b[l]));     // memory after
      }
      if (!at.glob) continue;
      // Global: the atomic on mem + 8*lane, returning (sc0) the old value.
      std::string gb = "  global_atomic_" + std::string(at.glob).substr(14) + " " + (w ? "v[8:9]" : "v8") + ", v1, " + d0 + ", s[8:9] sc0\n  s_waitcnt vmcnt(0)\n";
      gb = "  " + std::string(at.glob) + " " + (w ? "v[8:9]" : "v8") + ", v1, " + d0 + ", s[8:9] sc0\n  s_waitcnt vmcnt(0)\n";
      INFO(at.glob);
      Run rg = run(arch, gb, init, a, b, init);
      for (int l = 0; l < 64; ++l) {
        INFO("lane " << l);
        CHECK(rg.out[l] == init[l]);
        CHECK(rg.mem[l] == at.f(init[l], a[l], b[l]));
      }
    }
  }
}

TEST_CASE("f64/f16 rounding helpers, integer dot products, minimum3/maximum3, prng", "[sim][ext]") {
  std::mt19937_64 g(seed() + 2);
  struct Un { const char* body; int kind; std::function<uint64_t(uint64_t, uint64_t, uint64_t)> f; const char* arch_only; };
  auto fr = [](double x) { return std::isinf(x) ? NAN : std::fmin(x - std::floor(x), std::nextafter(1.0, 0.0)); };
  auto f16r = [](float x) -> uint64_t {  // oracle f32 -> f16 for exactly representable values
    if (std::isnan(x)) return 0x7e00;
    uint16_t s = std::signbit(x) ? 0x8000 : 0;
    x = std::fabs(x);
    if (std::isinf(x)) return s | 0x7c00;
    if (x == 0) return s;
    int e;
    float m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
    if (e - 1 < -14) return s | uint16_t(std::lround(std::ldexp(x, 24)));
    return s | uint16_t((e - 1 + 15) << 10) | uint16_t(std::lround((m * 2 - 1) * 1024));
  };
  const Un uns[] = {
      {"v_ceil_f64 v[8:9], v[2:3]", 2, [](uint64_t a, uint64_t, uint64_t) { return dbits(std::ceil(as_double(a))); }, nullptr},
      {"v_rndne_f64 v[8:9], v[2:3]", 2, [](uint64_t a, uint64_t, uint64_t) { return dbits(std::nearbyint(as_double(a))); }, nullptr},
      {"v_fract_f64 v[8:9], v[2:3]", 2, [&](uint64_t a, uint64_t, uint64_t) { return dbits(fr(as_double(a))); }, nullptr},
      {"v_frexp_mant_f64 v[8:9], v[2:3]", 2, [](uint64_t a, uint64_t, uint64_t) { double x = as_double(a); int e; return std::isfinite(x) ? dbits(std::frexp(x, &e)) : a; }, nullptr},
      {"v_frexp_exp_i32_f64 v8, v[2:3]", 2, [](uint64_t a, uint64_t, uint64_t) -> uint64_t { double x = as_double(a); int e = 0; if (std::isfinite(x) && x != 0) std::frexp(x, &e); return uint32_t(e); }, nullptr},
      {"v_floor_f16 v8, v2", 0, [&](uint64_t a, uint64_t, uint64_t) { return f16r(std::floor(h2f(uint16_t(a)))); }, nullptr},
      {"v_ceil_f16 v8, v2", 0, [&](uint64_t a, uint64_t, uint64_t) { return f16r(std::ceil(h2f(uint16_t(a)))); }, nullptr},
      {"v_trunc_f16 v8, v2", 0, [&](uint64_t a, uint64_t, uint64_t) { return f16r(std::trunc(h2f(uint16_t(a)))); }, nullptr},
      {"v_rndne_f16 v8, v2", 0, [&](uint64_t a, uint64_t, uint64_t) { return f16r(std::nearbyint(h2f(uint16_t(a)))); }, nullptr},
      {"v_dot4c_i32_i8 v2, v4, v6", 3, [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         int64_t s = int32_t(uint32_t(a));
         for (int i = 0; i < 4; ++i) s += int8_t(b >> (8 * i)) * int8_t(c >> (8 * i));
         return uint32_t(s); }, nullptr},
      {"v_dot8c_i32_i4 v2, v4, v6", 3, [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         int64_t s = int32_t(uint32_t(a));
         auto nib = [](uint64_t v, int i) { return (int((v >> (4 * i)) & 15) ^ 8) - 8; };  // signed 4-bit lane
         for (int i = 0; i < 8; ++i) s += nib(b, i) * nib(c, i);
         return uint32_t(s); }, nullptr},
      {"v_dot2c_i32_i16 v2, v4, v6", 3, [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         return uint32_t(int64_t(int32_t(uint32_t(a))) + int16_t(b) * int16_t(c) + int16_t(b >> 16) * int16_t(c >> 16)); }, nullptr},
      {"v_dot8_u32_u4 v8, v2, v4, v6", 3, [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         uint64_t s = uint32_t(c);
         for (int i = 0; i < 8; ++i) s += ((a >> (4 * i)) & 15) * ((b >> (4 * i)) & 15);
         return uint32_t(s); }, nullptr},
      {"v_maximum3_f32 v8, v2, v4, v6", 1, [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         float x[3] = {as_float(uint32_t(a)), as_float(uint32_t(b)), as_float(uint32_t(c))};
         for (float v : x) if (std::isnan(v)) return 0x7fc00000;
         float m = x[0];
         for (float v : x) if (v > m || (v == m && !std::signbit(v))) m = v;
         return fbits(m); }, "gfx950"},
      {"v_minimum3_f32 v8, v2, v4, v6", 1, [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         float x[3] = {as_float(uint32_t(a)), as_float(uint32_t(b)), as_float(uint32_t(c))};
         for (float v : x) if (std::isnan(v)) return 0x7fc00000;
         float m = x[0];
         for (float v : x) if (v < m || (v == m && std::signbit(v))) m = v;
         return fbits(m); }, "gfx950"},
      {"v_prng_b32 v8, v2", 3, [](uint64_t a, uint64_t, uint64_t) -> uint64_t {
         uint32_t x = uint32_t(a);
         return uint32_t(x << 1) ^ (x & 0x80000000u ? 0xc5u : 0u); }, "gfx950"},
  };
  for (Arch arch : kArchs) {
    for (const Un& u : uns) {
      if (u.arch_only && cdnajit::arch_name(arch) != u.arch_only) continue;
      auto a = values(g, u.kind, 3), b = values(g, u.kind, 4), c = values(g, u.kind, 5);
      if (u.kind == 0) for (int l = 0; l < 64; ++l) { a[l] = (a[l] & 0xffff) | 0xabcd0000; }  // high half must not matter
      std::string body = "  " + std::string(u.body) + "\n";
      bool mac = std::string(u.body).find("c_i32") != std::string::npos;  // accumulate forms: result in v2
      if (mac) body += "  v_mov_b32 v8, v2\n";
      INFO(cdnajit::arch_name(arch) << " " << u.body);
      Run r = run(arch, body, a, b, c);
      int bad = 0;
      for (int l = 0; l < 64; ++l) {
        uint64_t want = u.f(u.kind == 0 ? a[l] & 0xffff : a[l], b[l], c[l]);
        uint64_t got = r.out[l];
        if (u.kind != 2 || std::string(u.body).find("exp_i32") != std::string::npos) { want &= 0xffffffff; got &= 0xffffffff; }
        // NaN in, NaN out: the payload of a quieted NaN is not checked.
        bool nan_ok = (u.kind == 2 && std::isnan(as_double(want)) && std::isnan(as_double(got))) ||
                      (u.kind == 0 && (want & 0x7c00) == 0x7c00 && (want & 0x3ff) && (got & 0x7c00) == 0x7c00 && (got & 0x3ff));
        if (got != want && !nan_ok && bad++ < 3)
          FAIL_CHECK("lane " << l << std::hex << ": a=0x" << a[l] << " b=0x" << b[l] << " c=0x" << c[l] << " want 0x" << want << " got 0x" << got);
      }
      CHECK(bad == 0);
    }
  }
}
