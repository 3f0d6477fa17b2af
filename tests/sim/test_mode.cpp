// MODE register: s_setreg_b32 / s_getreg_b32 of HW_REG_MODE in a clang-compiled HIP kernel
// (__builtin_amdgcn_s_setreg), and the round and denormal modes the VALU arithmetic then follows:
// f32 add/sub/mul/fma, v_cvt_f16_f32, f64 add/mul/fma, each on operands whose results were worked
// out by hand for all four round modes (nearest even, +inf, -inf, zero), plus f32 and f64
// denormal flushing, and an Error for arithmetic the simulator does not model under a changed MODE.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

const char* kSrc = R"(
extern "C" __global__ void modes(const float* a, const float* b, const float* c, float* o, const double* da,
                                 const double* db, double* od, unsigned short* oh, unsigned* om, int mode,
                                 const int* n, float* oi) {
  unsigned i = tid();
  __builtin_amdgcn_s_setreg(1 | (0 << 6) | (7 << 11), mode);  // hwreg(HW_REG_MODE, 0, 8): round and denorm modes
  float x = a[i], y = b[i], z = c[i];
  o[i * 4 + 0] = x + y;
  o[i * 4 + 1] = x * y;
  o[i * 4 + 2] = __builtin_fmaf(x, y, z);
  o[i * 4 + 3] = x - y;
  od[i * 3 + 0] = da[i] + db[i];
  od[i * 3 + 1] = da[i] * db[i];
  od[i * 3 + 2] = __builtin_fma(da[i], db[i], da[i]);
  oh[i] = __builtin_bit_cast(unsigned short, (_Float16)x);
  oi[i] = (float)n[i];
  if (i == 0) om[0] = __builtin_amdgcn_s_getreg(1 | (0 << 6) | (31 << 11));  // all of MODE
}
)";

float fbits(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
double dbits(uint64_t u) { double f; std::memcpy(&f, &u, 8); return f; }
uint64_t bits64(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }

// One lane's operands and the results worked out by hand, per round mode
// [nearest even, toward +inf, toward -inf, toward zero]; slots without an expectation are 0/0.
struct Case {
  const char* what;
  float x, y, z;
  double dx, dy;
  int slot;  // 0 add, 1 mul, 2 fma, 3 sub (f32); 4 f16 of x; 5 add, 6 mul, 7 fma(dx, dy, dx) (f64); 8 f32 of int n
  int n;
  uint64_t want[4];
};

const Case kCases[] = {
    {"1 + 2^-24 (a tie)", 1.0f, 0x1p-24f, 0, 0, 0, 0, 0, {0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000}},
    {"1 + 1.5*2^-24", 1.0f, 0x1.8p-24f, 0, 0, 0, 0, 0, {0x3f800001, 0x3f800001, 0x3f800000, 0x3f800000}},
    {"-1 - 1.5*2^-24", -1.0f, -0x1.8p-24f, 0, 0, 0, 0, 0, {0xbf800001, 0xbf800000, 0xbf800001, 0xbf800000}},
    {"1 - 1 (exact zero)", 1.0f, 1.0f, 0, 0, 0, 3, 0, {0x00000000, 0x00000000, 0x80000000, 0x00000000}},
    {"FLT_MAX * 2", FLT_MAX, 2.0f, 0, 0, 0, 1, 0, {0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff}},
    {"-FLT_MAX * 2", -FLT_MAX, 2.0f, 0, 0, 0, 1, 0, {0xff800000, 0xff7fffff, 0xff800000, 0xff7fffff}},
    {"(1+2^-23)^2 = 1 + 2^-22 + 2^-46", fbits(0x3f800001), fbits(0x3f800001), 0.0f, 0, 0, 1, 0, {0x3f800002, 0x3f800003, 0x3f800002, 0x3f800002}},
    {"fma(1+2^-23, 1+2^-23, -1) = 2^-22 + 2^-46 (a tie at 2^-22)", fbits(0x3f800001), fbits(0x3f800001), -1.0f, 0, 0, 2, 0, {0x34800000, 0x34800001, 0x34800000, 0x34800000}},
    {"fma(1+2^-23, 1-2^-24, 0) = 1 + 2^-24 - 2^-47", fbits(0x3f800001), fbits(0x3f7fffff), 0.0f, 0, 0, 2, 0, {0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000}},
    {"f16 of 1 + 2^-11 (a tie)", fbits(0x3f801000), 0, 0, 0, 0, 4, 0, {0x3c00, 0x3c01, 0x3c00, 0x3c00}},
    {"f16 of -(1 + 3*2^-12)", fbits(0xbf801800), 0, 0, 0, 0, 4, 0, {0xbc01, 0xbc00, 0xbc01, 0xbc00}},
    {"f16 of 70000 (overflow)", 70000.0f, 0, 0, 0, 0, 4, 0, {0x7c00, 0x7c00, 0x7bff, 0x7bff}},
    {"f64 1 + 2^-53 (a tie)", 0, 0, 0, 1.0, 0x1p-53, 5, 0, {0x3ff0000000000000, 0x3ff0000000000001, 0x3ff0000000000000, 0x3ff0000000000000}},
    {"f64 -1 - 1.5*2^-53", 0, 0, 0, -1.0, -0x1.8p-53, 5, 0, {0xbff0000000000001, 0xbff0000000000000, 0xbff0000000000001, 0xbff0000000000000}},
    {"f64 (1+2^-52)^2 = 1 + 2^-51 + 2^-104", 0, 0, 0, dbits(0x3ff0000000000001), dbits(0x3ff0000000000001), 6, 0, {0x3ff0000000000002, 0x3ff0000000000003, 0x3ff0000000000002, 0x3ff0000000000002}},
    {"f64 fma(1+2^-52, 1+2^-52, 1+2^-52) = 2 + 3*2^-52 + 2^-104", 0, 0, 0, dbits(0x3ff0000000000001),
     dbits(0x3ff0000000000001), 7, 0, {0x4000000000000002, 0x4000000000000002, 0x4000000000000001, 0x4000000000000001}},
    {"f32 of int 2^24 + 1 (a tie)", 0, 0, 0, 0, 0, 8, 16777217, {0x4b800000, 0x4b800001, 0x4b800000, 0x4b800000}},
    {"f32 of int -(2^24 + 3)", 0, 0, 0, 0, 0, 8, -16777219, {0xcb800002, 0xcb800001, 0xcb800002, 0xcb800001}},
};
constexpr int kCount = int(sizeof kCases / sizeof kCases[0]);

struct Result {
  std::vector<uint32_t> f32;
  std::vector<uint64_t> f64;
  std::vector<uint16_t> f16;
  std::vector<uint32_t> from_int;
  uint32_t mode = 0;
};

Result run_modes(Device& dev, const cdnajit::CodeObject& co, const std::vector<float>& x, const std::vector<float>& y,
                 const std::vector<float>& z, const std::vector<double>& dx, const std::vector<double>& dy, int mode,
                 const std::vector<int>& n = std::vector<int>(64, 1)) {
  uint64_t a = dev.upload(x), b = dev.upload(y), c = dev.upload(z), o = dev.upload(std::vector<uint32_t>(64 * 4));
  uint64_t da = dev.upload(dx), db = dev.upload(dy), od = dev.upload(std::vector<uint64_t>(64 * 3));
  uint64_t oh = dev.upload(std::vector<uint16_t>(64)), om = dev.upload(std::vector<uint32_t>(1));
  uint64_t dn = dev.upload(n), oi = dev.upload(std::vector<uint32_t>(64));
  dev.run(co, "modes",
          ArgPack().add(a).add(b).add(c).add(o).add(da).add(db).add(od).add(oh).add(om).add(mode).add(dn).add(oi),
          dims1(1, 64));
  Result r;
  r.f32 = dev.download<uint32_t>(o, 64 * 4);
  r.f64 = dev.download<uint64_t>(od, 64 * 3);
  r.f16 = dev.download<uint16_t>(oh, 64);
  r.mode = dev.download<uint32_t>(om, 1)[0];
  r.from_int = dev.download<uint32_t>(oi, 64);
  return r;
}

}  // namespace

TEST_CASE("s_setreg of MODE: f32, f16 and f64 round modes on hand-computed cases", "[sim][numerics][mode]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Device dev(arch);
    auto co = load_hip(kSrc, arch);
    std::string dis = dev.sim.disassemble(co, "modes");
    for (const char* m : {"s_setreg_b32", "s_getreg_b32", "v_add_f32", "v_fmac_f32", "v_cvt_f16_f32", "v_add_f64", "v_cvt_f32_i32"})
      REQUIRE(dis.find(m) != std::string::npos);
    std::vector<float> x(64, 1.0f), y(64, 1.0f), z(64, 0.0f);
    std::vector<double> dx(64, 1.0), dy(64, 1.0);
    std::vector<int> n(64, 1);
    for (int i = 0; i < kCount; ++i) {
      x[i] = kCases[i].x; y[i] = kCases[i].y; z[i] = kCases[i].z;
      dx[i] = kCases[i].dx; dy[i] = kCases[i].dy; n[i] = kCases[i].n;
    }
    for (int rm = 0; rm < 4; ++rm) {
      const int mode = rm | rm << 2 | 0xf0;  // the same round mode for f32 and f16/f64, denormals kept
      INFO("arch " << cdnajit::arch_name(arch) << " round mode " << rm);
      Result r = run_modes(dev, co, x, y, z, dx, dy, mode, n);
      // s_getreg reads back the whole MODE: the fields just written, DX10_CLAMP and IEEE from the descriptor.
      CHECK((r.mode & 0xff) == uint32_t(mode));
      CHECK(((r.mode >> 8) & 3) == 3);
      for (int i = 0; i < kCount; ++i) {
        const Case& c = kCases[i];
        uint64_t got = c.slot <= 3 ? r.f32[i * 4 + c.slot] : c.slot == 4 ? r.f16[i] : c.slot == 8 ? r.from_int[i]
                                                                                    : r.f64[i * 3 + (c.slot - 5)];
        INFO(c.what << ": got 0x" << std::hex << got << " want 0x" << c.want[rm]);
        CHECK(got == c.want[rm]);
      }
    }
  }
}

TEST_CASE("s_setreg of MODE: f32 and f64 denormal modes flush inputs and outputs", "[sim][numerics][mode]") {
  Device dev(Arch::gfx942);
  auto co = load_hip(kSrc, Arch::gfx942);
  std::vector<float> x(64, 1.0f), y(64, 1.0f), z(64, 0.0f);
  std::vector<double> dx(64, 1.0), dy(64, 1.0);
  x[0] = 0x1p-127f; y[0] = 2.0f;    // lane 0: denormal input, normal product 2^-126
  x[1] = 0x1p-126f; y[1] = 0.5f;    // lane 1: normal inputs, denormal product 2^-127
  dx[0] = 0x1p-1074; dy[0] = 0x1p60;  // lane 0: f64 denormal input
  dx[1] = 0x1p-1000; dy[1] = 0x1p-30;  // lane 1: f64 denormal product 2^-1030
  // FP_DENORM: 0 flush inputs and outputs, 1 flush outputs, 2 flush inputs, 3 keep (ISA guides).
  const uint32_t in_kept = 0x00800000, out_kept = 0x00400000;
  const uint64_t d_in_kept = bits64(0x1p-1014), d_out_kept = bits64(0x1p-1030);
  for (int dm = 0; dm < 4; ++dm) {
    INFO("denorm mode " << dm);
    const bool flush_in = dm == 0 || dm == 2, flush_out = dm == 0 || dm == 1;
    Result f = run_modes(dev, co, x, y, z, dx, dy, dm << 4 | 3 << 6);  // f32 denorm mode dm, f16/f64 kept
    CHECK(f.f32[0 * 4 + 1] == (flush_in ? 0u : in_kept));
    CHECK(f.f32[1 * 4 + 1] == (flush_out ? 0u : out_kept));
    Result d = run_modes(dev, co, x, y, z, dx, dy, 3 << 4 | dm << 6);  // f16/f64 denorm mode dm, f32 kept
    CHECK(d.f64[0 * 3 + 1] == (flush_in ? 0u : d_in_kept));
    CHECK(d.f64[1 * 3 + 1] == (flush_out ? 0u : d_out_kept));
    CHECK(d.f32[0 * 4 + 1] == in_kept);  // f32 unaffected
  }
}

TEST_CASE("arithmetic the simulator does not model under a changed MODE is an Error, not a guess", "[sim][numerics][mode]") {
  const char* src = R"(
extern "C" __global__ void rz_sqrt(const float* a, float* o) {
  __builtin_amdgcn_s_setreg(1 | (0 << 6) | (1 << 11), 3);  // f32 round toward zero
  o[tid()] = __builtin_amdgcn_sqrtf(a[tid()]);
})";
  Device dev(Arch::gfx942);
  auto co = load_hip(src, Arch::gfx942);
  uint64_t a = dev.upload(std::vector<float>(64, 2.0f)), o = dev.upload(std::vector<float>(64));
  try {
    dev.run(co, "rz_sqrt", ArgPack().add(a).add(o), dims1(1, 64));
    FAIL("expected an Error");
  } catch (const cdnajit::Error& e) {
    std::string m = e.what();
    INFO(m);
    CHECK(m.find("v_sqrt_f32") != std::string::npos);
    CHECK(m.find("MODE is not the default") != std::string::npos);
  }
}

TEST_CASE("s_setreg of MODE: the f32 denormal mode flushes packed f32 math (v_pk_mul/add/fma_f32)", "[sim][numerics][mode]") {
  // The packed f32 VOP3P instructions are f32 arithmetic and follow MODE.FP_DENORM[1:0] like the
  // scalar ones (CDNA3/CDNA4 ISA guides: the f32 denormal mode covers single-precision VALU
  // operations; LLVM lowers <2 x float> fmul/fadd/fma to them under the same
  // "denormal-fp-math-f32" as scalar f32). Lane 0: denormal input, normal result; lane 1: normal
  // inputs, denormal result; both halves of each pair.
  const char* src = R"(
typedef float v2f __attribute__((ext_vector_type(2)));
extern "C" __global__ void pk(const v2f* a, const v2f* b, const v2f* c, v2f* o, int mode) {
  unsigned i = tid();
  __builtin_amdgcn_s_setreg(1 | (0 << 6) | (7 << 11), mode);  // hwreg(HW_REG_MODE, 0, 8)
  v2f x = a[i], y = b[i], z = c[i];
  o[i * 3 + 0] = x * y;
  o[i * 3 + 1] = x + z;
  o[i * 3 + 2] = __builtin_elementwise_fma(x, y, z);
})";
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(cdnajit::arch_name(arch));
    Device dev(arch);
    auto co = load_hip(src, arch);
    const std::string dis = dev.sim.disassemble(co, "pk");
    for (const char* m : {"v_pk_mul_f32", "v_pk_add_f32", "v_pk_fma_f32"}) {
      INFO(m);
      REQUIRE(dis.find(m) != std::string::npos);
    }
    // Lane 0: x = 2^-127 (denormal), y = 2, z = 2^-126 -> x*y = 2^-126, x+z = 1.5 * 2^-126,
    // fma = 2^-125. Lane 1: x = 2^-126, y = 0.5, z = -2^-126 -> x*y = 2^-127 (denormal), x+z = 0,
    // fma = -2^-127 (denormal). Other lanes: 1.
    std::vector<float> a(128, 1.0f), b(128, 1.0f), c(128, 1.0f);
    for (int h = 0; h < 2; ++h) {
      a[h] = 0x1p-127f, b[h] = 2.0f, c[h] = 0x1p-126f;
      a[2 + h] = 0x1p-126f, b[2 + h] = 0.5f, c[2 + h] = -0x1p-126f;
    }
    for (int dm = 0; dm < 4; ++dm) {
      INFO("f32 denorm mode " << dm);
      const bool flush_in = dm == 0 || dm == 2, flush_out = dm == 0 || dm == 1;
      uint64_t da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c), dout = dev.upload(std::vector<float>(64 * 6));
      dev.run(co, "pk", ArgPack().add(da).add(db).add(dc).add(dout).add(dm << 4 | 3 << 6), dims1(1, 64));
      auto o = dev.download<float>(dout, 64 * 6);
      for (int h = 0; h < 2; ++h) {
        INFO("half " << h);
        // Lane 0 (denormal input x): flushed inputs give 0 * 2 = 0, 0 + 2^-126, fma(0, 2, 2^-126).
        CHECK(o[0 * 6 + 0 + h] == (flush_in ? 0.0f : 0x1p-126f));
        CHECK(o[0 * 6 + 2 + h] == (flush_in ? 0x1p-126f : 0x1.8p-126f));
        CHECK(o[0 * 6 + 4 + h] == (flush_in ? 0x1p-126f : 0x1p-125f));
        // Lane 1 (denormal results).
        CHECK(o[1 * 6 + 0 + h] == (flush_out ? 0.0f : 0x1p-127f));
        CHECK(o[1 * 6 + 2 + h] == 0.0f);
        CHECK(o[1 * 6 + 4 + h] == (flush_out ? 0.0f : -0x1p-127f));
      }
    }
  }
}
