// Float memory atomics against hand-computed bits (runtime/sim/atomic_float.hpp, ops_atomic.cpp):
// denormal flushing by where the atomic runs and by MODE, nearest-even rounding whatever MODE's
// round mode says, and the NaN / signed-zero selection of min/max, as the CDNA4 ISA guide's
// "Float Memory Atomics" section states them (LDS: the f32 add follows MODE's f32 field for
// inputs and result, min/max flush only for the comparison, the f64 add never flushes; outside
// LDS: f64 and packed adds never flush); the f32 add outside LDS under each
// Options::memory_atomic_add_f32_denormals choice; the Errors for the cases the evidence leaves
// open; and clang-22's ds_add_rtn_f32 / ds_min_rtn_f32 in a kernel built with
// -fgpu-flush-denormals-to-zero (FLOAT_DENORM_MODE_32 = 0). One wave; every lane its own address
// (lane * 8), so no result depends on lane order.
#include <catch2/catch.hpp>

#include <cstring>

#include "tests/sim/ext_harness.hpp"
#include "tests/sim/sim_harness.hpp"

using namespace exttest;

namespace {

// MODE fields (s_setreg_imm32_b32): FP_ROUND = MODE[3:0] (f32 [1:0], f16/f64 [3:2]; 1 = toward +inf),
// FP_DENORM f32 = MODE[5:4], f16/f64 = MODE[7:6] (0 flush in and out, 1 flush out, 2 flush in, 3 keep).
// The harness kernel's descriptor leaves the assembler's defaults: f32 field 0, f16/f64 field 3.
std::string set_f32_denorm(int f) { return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), " + std::to_string(f) + "\n"; }
std::string set_f64_denorm(int f) { return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 6, 2), " + std::to_string(f) + "\n"; }
const std::string kRoundUp = "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 5\n";

// LDS at lane * 8 (v1) starts as v2 (v[2:3]); `op` works on it with data v4 (v[4:5]) and returns the
// old value into v10 (v[10:11]). Out: lane 0's {new LDS value, returned old value} (64-bit ops: the
// new value only).
std::string lds32(const std::string& op) {
  return "  ds_write_b32 v1, v2\n  " + op + " v10, v1, v4\n  s_waitcnt lgkmcnt(0)\n  ds_read_b32 v8, v1\n"
         "  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v9, v10\n";
}
std::string lds64(const std::string& op) {
  return "  ds_write_b64 v1, v[2:3]\n  " + op + " v[10:11], v1, v[4:5]\n  s_waitcnt lgkmcnt(0)\n  ds_read_b64 v[8:9], v1\n"
         "  s_waitcnt lgkmcnt(0)\n";
}
// The same through a flat address in the shared aperture.
std::string flat_lds32(const std::string& op) {
  return "  ds_write_b32 v1, v2\n  s_mov_b64 s[10:11], src_shared_base\n  v_mov_b32 v12, v1\n  v_mov_b32 v13, s11\n"
         "  s_waitcnt lgkmcnt(0)\n  " + op + " v10, v[12:13], v4 sc0\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n  ds_read_b32 v8, v1\n"
         "  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v9, v10\n";
}
// Global memory at mem + lane * 8 (the harness's 64 slots) with data v4 / v[4:5].
std::string global32(const std::string& op) { return "  " + op + " v1, v4, s[8:9]\n  s_waitcnt vmcnt(0)\n"; }
std::string global64(const std::string& op) { return "  " + op + " v1, v[4:5], s[8:9]\n  s_waitcnt vmcnt(0)\n"; }

uint32_t lo(uint64_t v) { return uint32_t(v); }
uint32_t hi(uint64_t v) { return uint32_t(v >> 32); }

// Lane 0's outputs of `body` with v[2:3] = a, v[4:5] = b on every lane and every memory slot = mem.
Run one(Arch arch, const std::string& body, uint64_t a, uint64_t b, uint64_t mem = 0) {
  return run(arch, body, std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b), std::vector<uint64_t>(64, 0),
             std::vector<uint64_t>(64, mem));
}

// The harness's kernel under `opt`: lane 0's memory slot after `body` (mem slots = mem, v[4:5] = b).
uint64_t mem_with(Arch arch, const std::string& body, uint64_t mem, uint64_t b, const cdnajit::sim::Options& opt) {
  auto co = cdnajit::read_code_object(simtest::assemble(kernel_text("k", body, arch), arch));
  cdnajit::sim::Simulator sim(arch);
  std::vector<uint64_t> in(192, 0), slots(64, mem);
  for (int l = 0; l < 64; ++l) in[64 + l] = b;
  const uint64_t pin = sim.memory().alloc(in.size() * 8, "in"), pout = sim.memory().alloc(64 * 8, "out"),
                 pmem = sim.memory().alloc(64 * 8, "mem");
  sim.memory().write(pin, in.data(), in.size() * 8);
  sim.memory().write(pmem, slots.data(), 64 * 8);
  const uint64_t args[3] = {pin, pout, pmem};
  std::vector<uint8_t> ka(24);
  std::memcpy(ka.data(), args, 24);
  sim.launch(co, "k", ka, cdnajit::sim::LaunchDims{}, opt);
  sim.memory().read(pmem, slots.data(), 64 * 8);
  return slots[0];
}

}  // namespace

TEST_CASE("LDS f32 atomic add follows MODE's f32 denormal field for inputs and result", "[sim][atomic][denorm]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (const char* op : {"ds_add_rtn_f32", "flat_atomic_add_f32"}) {
      INFO(op);
      auto body = [&](int f) { return set_f32_denorm(f) + (op[0] == 'd' ? lds32(op) : flat_lds32(op)); };
      // 2^-126 + -2^-149 = 0x007fffff (a denormal sum): kept (3); inputs flushed (2, 0): 2^-126;
      // output flushed (1): +0. The returned old value is the memory's, unflushed.
      const uint32_t norm = 0x00800000u, mtiny = 0x80000001u;
      for (auto [f, want] : {std::pair{3, 0x007fffffu}, {2, norm}, {1, 0u}, {0, norm}}) {
        INFO("FP_DENORM f32 = " << f);
        const Run r = one(arch, body(f), norm, mtiny);
        CHECK(lo(r.out[0]) == want);
        CHECK(hi(r.out[0]) == norm);
      }
      // -2^-126 + 2^-149 = 0x807fffff; an output flush keeps the sign: -0.
      CHECK(lo(one(arch, body(3), 0x80800000u, 0x00000001u).out[0]) == 0x807fffffu);
      CHECK(lo(one(arch, body(1), 0x80800000u, 0x00000001u).out[0]) == 0x80000000u);
      // 2^-149 + 2^-149 = 2^-148: kept, or +0 however it is flushed; the old value returned as stored.
      for (auto [f, want] : {std::pair{3, 0x00000002u}, {2, 0u}, {1, 0u}, {0, 0u}}) {
        const Run r = one(arch, body(f), 0x00000001u, 0x00000001u);
        CHECK(lo(r.out[0]) == want);
        CHECK(hi(r.out[0]) == 0x00000001u);
      }
    }
  }
}

TEST_CASE("LDS f32/f64 atomic min/max flush input denormals for the comparison only", "[sim][atomic][denorm]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // min(mem 2^-149, +0): +0 kept-denormal mode; flushing inputs makes both +0, a tie, which keeps
    // the memory value unmodified (the pseudo-code's `src < tmp ? src : tmp`).
    for (auto [f, want] : {std::pair{3, 0u}, {1, 0u}, {2, 1u}, {0, 1u}}) {
      INFO("FP_DENORM f32 = " << f);
      CHECK(lo(one(arch, set_f32_denorm(f) + lds32("ds_min_rtn_f32"), 0x00000001u, 0u).out[0]) == want);
      CHECK(lo(one(arch, set_f32_denorm(f) + lds32("ds_max_rtn_f32"), 0u, 0x00000001u).out[0]) == (want ? 0u : 1u));
    }
    // f64 in LDS: the f16/f64 field; outside LDS (global_atomic_max_f64) never.
    CHECK(one(arch, set_f64_denorm(3) + lds64("ds_max_rtn_f64"), 0, 1).out[0] == 1u);
    CHECK(one(arch, set_f64_denorm(0) + lds64("ds_max_rtn_f64"), 0, 1).out[0] == 0u);
    CHECK(one(arch, set_f64_denorm(0) + global64("global_atomic_max_f64"), 0, 1, 0).mem[0] == 1u);
    // The f32 field does not touch f64 (and vice versa).
    CHECK(one(arch, set_f32_denorm(0) + lds64("ds_max_rtn_f64"), 0, 1).out[0] == 1u);
    CHECK(lo(one(arch, set_f32_denorm(3) + set_f64_denorm(0) + lds32("ds_max_rtn_f32"), 0u, 1u).out[0]) == 1u);
  }
}

TEST_CASE("Float atomic min/max: a quiet NaN loses, a signalling NaN wins quieted, -0 < +0", "[sim][atomic][nan]") {
  // {memory, data, min, max}
  struct C { uint64_t mem, data, min, max; };
  const C f32[] = {
      {0x7fc00000, 0x3f800000, 0x3f800000, 0x3f800000},  // quiet NaN in memory loses to 1
      {0x3f800000, 0x7fc00000, 0x3f800000, 0x3f800000},  // ... and as data
      {0x7fc00000, 0xff800000, 0xff800000, 0xff800000},  // even to -inf (min and max)
      {0x3f800000, 0x7f800001, 0x7fc00001, 0x7fc00001},  // signalling NaN data wins, quieted
      {0xff800001, 0x40000000, 0xffc00001, 0xffc00001},  // signalling NaN in memory, sign kept
      {0x00000000, 0x80000000, 0x80000000, 0x00000000},  // -0 < +0
      {0x80000000, 0x00000000, 0x80000000, 0x00000000},
      {0xbf800000, 0x3f800000, 0xbf800000, 0x3f800000},  // ordinary values
  };
  const C f64[] = {
      {0x7ff8000000000000, dbits(3.0), dbits(3.0), dbits(3.0)},
      {dbits(3.0), 0x7ff8000000000000, dbits(3.0), dbits(3.0)},
      {dbits(1.0), 0x7ff0000000000001, 0x7ff8000000000001, 0x7ff8000000000001},
      {0, 1ull << 63, 1ull << 63, 0},
      {dbits(-2.0), dbits(5.0), dbits(-2.0), dbits(5.0)},
  };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (const C& c : f32) {
      INFO(std::hex << "f32 mem " << c.mem << " data " << c.data);
      const Run rmin = one(arch, lds32("ds_min_rtn_f32"), c.mem, c.data), rmax = one(arch, lds32("ds_max_rtn_f32"), c.mem, c.data);
      CHECK(lo(rmin.out[0]) == c.min);
      CHECK(lo(rmax.out[0]) == c.max);
      CHECK(hi(rmin.out[0]) == c.mem);  // the old value, as stored
    }
    for (const C& c : f64) {
      INFO(std::hex << "f64 mem " << c.mem << " data " << c.data);
      CHECK(one(arch, lds64("ds_min_rtn_f64"), c.mem, c.data).out[0] == c.min);
      CHECK(one(arch, lds64("ds_max_rtn_f64"), c.mem, c.data).out[0] == c.max);
      CHECK(one(arch, global64("global_atomic_min_f64"), 0, c.data, c.mem).mem[0] == c.min);
      CHECK(one(arch, global64("global_atomic_max_f64"), 0, c.data, c.mem).mem[0] == c.max);
    }
  }
}

TEST_CASE("Float atomic adds: a NaN operand gives itself made quiet, memory's first; inf + -inf the positive quiet NaN",
          "[sim][atomic][nan]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    struct C { uint32_t mem, data, want; };
    const C f32[] = {
        {0x7f800001u, 0x3f800000u, 0x7fc00001u},  // signalling NaN in memory, quieted
        {0x3f800000u, 0xff800005u, 0xffc00005u},  // signalling NaN data, sign and payload kept
        {0x7fc00002u, 0xffc00003u, 0x7fc00002u},  // both NaN: the memory operand's
        {0xff800000u, 0x7f800000u, 0x7fc00000u},  // -inf + inf
        {0x80000000u, 0x00000000u, 0x00000000u},  // -0 + +0 = +0
        {0x80000000u, 0x80000000u, 0x80000000u},  // -0 + -0 = -0
    };
    for (const C& c : f32) {
      INFO(std::hex << "mem " << c.mem << " data " << c.data);
      CHECK(lo(one(arch, lds32("ds_add_rtn_f32"), c.mem, c.data).out[0]) == c.want);
      CHECK(lo(one(arch, global32("global_atomic_add_f32"), 0, c.data, c.mem).mem[0]) == c.want);
    }
    CHECK(one(arch, lds64("ds_add_rtn_f64"), 0x7ff0000000000001, dbits(1.0)).out[0] == 0x7ff8000000000001u);
    CHECK(one(arch, global64("global_atomic_add_f64"), 0, 0xfff0000000000000, 0x7ff0000000000000).mem[0] == 0x7ff8000000000000u);
    // Packed f16: per half (low: signalling NaN 0x7c01 quieted to 0x7e01; high: inf + -inf = 0x7e00).
    CHECK(lo(one(arch, lds32("ds_pk_add_rtn_f16"), 0x7c007c01u, 0xfc003c00u).out[0]) == 0x7e007e01u);
  }
}

TEST_CASE("Float atomic adds round to nearest even whatever MODE's round mode says", "[sim][atomic][round]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // Toward +inf would give one ulp more than 1 in each case.
    const uint32_t one32 = 0x3f800000u, t30 = 0x30800000u;  // 1 + 2^-30
    CHECK(lo(one(arch, kRoundUp + lds32("ds_add_rtn_f32"), one32, t30).out[0]) == one32);
    CHECK(lo(one(arch, kRoundUp + global32("global_atomic_add_f32"), 0, t30, one32).mem[0]) == one32);
    CHECK(one(arch, kRoundUp + lds64("ds_add_rtn_f64"), dbits(1.0), dbits(0x1p-60)).out[0] == dbits(1.0));
    CHECK(one(arch, kRoundUp + global64("global_atomic_add_f64"), 0, dbits(0x1p-60), dbits(1.0)).mem[0] == dbits(1.0));
    // Packed: f16 1 + 2^-14 (0x3c00 + 0x0400), bf16 1 + 2^-20 (0x3f80 + 0x3580).
    CHECK(lo(one(arch, kRoundUp + lds32("ds_pk_add_rtn_f16"), 0x3c003c00u, 0x04000400u).out[0]) == 0x3c003c00u);
    CHECK(lo(one(arch, kRoundUp + lds32("ds_pk_add_rtn_bf16"), 0x3f803f80u, 0x35803580u).out[0]) == 0x3f803f80u);
    CHECK(lo(one(arch, kRoundUp + global32("global_atomic_pk_add_f16"), 0, 0x04000400u, 0x3c003c00u).mem[0]) == 0x3c003c00u);
    CHECK(lo(one(arch, kRoundUp + global32("global_atomic_pk_add_bf16"), 0, 0x35803580u, 0x3f803f80u).mem[0]) == 0x3f803f80u);
  }
}

TEST_CASE("f64 and packed atomic adds: kept denormals where the evidence agrees, an Error where it does not",
          "[sim][atomic][denorm]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // The f64 adder never flushes, in LDS or outside: 2^-1074 + 2^-1074 = 2^-1073 under a flushing field.
    CHECK(one(arch, set_f64_denorm(0) + lds64("ds_add_rtn_f64"), 1, 1).out[0] == 2u);
    CHECK(one(arch, set_f64_denorm(0) + global64("global_atomic_add_f64"), 0, 1, 1).mem[0] == 2u);
    // Packed f16 outside LDS never flushes.
    CHECK(lo(one(arch, set_f64_denorm(0) + global32("global_atomic_pk_add_f16"), 0, 0x00010001u, 0x00010001u).mem[0]) == 0x00020002u);
    // In LDS: kept while the fields keep; normal values under a flushing field are unaffected ...
    CHECK(lo(one(arch, lds32("ds_pk_add_rtn_f16"), 0x00010001u, 0x00010001u).out[0]) == 0x00020002u);
    CHECK(lo(one(arch, set_f64_denorm(0) + lds32("ds_pk_add_rtn_f16"), 0x3c003c00u, 0x3c003c00u).out[0]) == 0x40004000u);
    CHECK(lo(one(arch, set_f32_denorm(0) + lds32("ds_pk_add_rtn_f16"), 0x00010001u, 0x00010001u).out[0]) == 0x00020002u);
    // ... and a denormal under a flushing field is refused (ISA guide: MODE; LLVM 22: never flush).
    CHECK_THROWS_WITH(one(arch, set_f64_denorm(0) + lds32("ds_pk_add_rtn_f16"), 0x3c000001u, 0x3c003c00u),
                      Catch::Contains("never flush"));
    CHECK_THROWS_WITH(one(arch, set_f64_denorm(1) + lds32("ds_pk_add_rtn_f16"), 0x00010000u, 0x00010000u),
                      Catch::Contains("never flush"));
    CHECK_THROWS_WITH(one(arch, set_f32_denorm(0) + lds32("ds_pk_add_rtn_bf16"), 0x00013f80u, 0x3f803f80u),
                      Catch::Contains("never flush"));
    CHECK(lo(one(arch, set_f32_denorm(0) + lds32("ds_pk_add_rtn_bf16"), 0x3f803f80u, 0x3f803f80u).out[0]) == 0x40004000u);
  }
}

TEST_CASE("f32 atomic add outside LDS under each Options::memory_atomic_add_f32_denormals choice", "[sim][atomic][denorm]") {
  using Choice = cdnajit::sim::Options::MemoryAtomicAddF32Denormals;
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (const char* op : {"global_atomic_add_f32", "flat_atomic_add_f32", "buffer_atomic_add_f32"}) {
      INFO(op);
      // flat with a global address: v[12:13] = mem + lane * 8; buffer: a raw V# over mem in s[12:15].
      const std::string body =
          op[0] == 'g' ? global32(op)
          : op[0] == 'f'
              ? "  v_mov_b32 v13, s9\n  v_add_co_u32 v12, vcc, s8, v1\n  v_addc_co_u32 v13, vcc, 0, v13, vcc\n  " +
                    std::string(op) + " v[12:13], v4\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
              : "  s_mov_b32 s12, s8\n  s_and_b32 s13, s9, 0xffff\n  s_mov_b32 s14, -1\n  s_mov_b32 s15, 0\n  " +
                    std::string(op) + " v4, v1, s[12:15], 0 offen\n  s_waitcnt vmcnt(0)\n";
      cdnajit::sim::Options opt;
      // Default (Keep): 2^-126 + -2^-149 = 0x007fffff in every MODE.
      for (int f : {3, 0})
        CHECK(lo(mem_with(arch, set_f32_denorm(f) + body, 0x00800000u, 0x80000001u, opt)) == 0x007fffffu);
      opt.memory_atomic_add_f32_denormals = Choice::FlushInputs;
      CHECK(lo(mem_with(arch, body, 0x00800000u, 0x80000001u, opt)) == 0x00800000u);
      CHECK(lo(mem_with(arch, body, 0x00000001u, 0x3f800000u, opt)) == 0x3f800000u);
      opt.memory_atomic_add_f32_denormals = Choice::Refuse;
      CHECK(lo(mem_with(arch, body, 0x3f800000u, 0x3f800000u, opt)) == 0x40000000u);
      CHECK_THROWS_WITH(mem_with(arch, body, 0x00800000u, 0x80000001u, opt), Catch::Contains("memory_atomic_add_f32_denormals"));
      CHECK_THROWS_WITH(mem_with(arch, body, 0x00000000u, 0x00000001u, opt), Catch::Contains("memory_atomic_add_f32_denormals"));
    }
  }
}

TEST_CASE("LDS float compare-store flushes for the comparison; storing a denormal while flushing is refused",
          "[sim][atomic][denorm]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    // ds_cmpst_rtn_f32 vdst, addr, cmp, new: mem 2^-149 compared with +0 matches only when flushed.
    const std::string cmpst = "  ds_write_b32 v1, v2\n  ds_cmpst_rtn_f32 v10, v1, v4, v6\n  s_waitcnt lgkmcnt(0)\n"
                              "  ds_read_b32 v8, v1\n  s_waitcnt lgkmcnt(0)\n";
    auto cmp = [&](int f, uint32_t mem, uint32_t c, uint32_t n) {
      return lo(run(arch, set_f32_denorm(f) + cmpst, std::vector<uint64_t>(64, mem), std::vector<uint64_t>(64, c),
                    std::vector<uint64_t>(64, n)).out[0]);
    };
    CHECK(cmp(3, 0x00000001u, 0u, 0x3f800000u) == 0x00000001u);
    CHECK(cmp(0, 0x00000001u, 0u, 0x3f800000u) == 0x3f800000u);
    CHECK(cmp(3, 0x80000000u, 0u, 0x3f800000u) == 0x3f800000u);  // -0 == +0
    CHECK(cmp(3, 0x7fc00000u, 0x7fc00000u, 0x3f800000u) == 0x7fc00000u);  // a NaN never matches
    CHECK(cmp(3, 0x3f800000u, 0x3f800000u, 0x00000001u) == 0x00000001u);
    CHECK_THROWS_WITH(cmp(0, 0x3f800000u, 0x3f800000u, 0x00000001u), Catch::Contains("compare-store"));
  }
}

TEST_CASE("clang: LDS atomic add and min of denormals in a kernel built with -fgpu-flush-denormals-to-zero",
          "[sim][atomic][denorm][clang]") {
  const char* src = R"(
extern "C" __global__ void lds_add(const float* in, float* out) {
  __shared__ float s[64];
  unsigned t = tid();
  s[t] = in[t];
  sync();
  out[64 + t] = __hip_atomic_fetch_add(&s[t], in[64 + t], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  sync();
  out[t] = s[t];
}
extern "C" __global__ void lds_min(const float* in, float* out) {
  __shared__ float s[64];
  unsigned t = tid();
  s[t] = in[t];
  sync();
  out[64 + t] = __hip_atomic_fetch_min(&s[t], in[64 + t], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  sync();
  out[t] = s[t];
}
)";
  // Lane t: memory m, data d. Hand-computed per mode (FTZ: FLOAT_DENORM_MODE_32 = 0).
  struct C { uint32_t m, d, add_keep, add_ftz, min_keep, min_ftz; };
  const C cases[] = {
      {0x00800000u, 0x80000001u, 0x007fffffu, 0x00800000u, 0x80000001u, 0x80000001u},  // min: -denorm (flushed -0) < 2^-126
      {0x00000001u, 0x00000001u, 0x00000002u, 0x00000000u, 0x00000001u, 0x00000001u},  // min tie keeps memory
      {0x00000002u, 0x00000001u, 0x00000003u, 0x00000000u, 0x00000001u, 0x00000002u},  // flushed: a tie
      {0x3f800000u, 0x00000001u, 0x3f800000u, 0x3f800000u, 0x00000001u, 0x00000001u},
      {0x80800000u, 0x00000001u, 0x807fffffu, 0x80800000u, 0x80800000u, 0x80800000u},
  };
  const int nc = int(sizeof(cases) / sizeof(cases[0]));
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (bool ftz : {false, true}) {
      INFO("ftz " << ftz);
      std::string why;
      std::vector<std::string> flags;
      if (ftz) flags.push_back("-fgpu-flush-denormals-to-zero");
      auto co = simtest::load_hip_or_skip(src, arch, why, flags);
      if (!co) {
        WARN("skipped: " << why);
        return;
      }
      simtest::Device dev(arch);
      REQUIRE(dev.sim.disassemble(*co, "lds_add").find("ds_add_rtn_f32") != std::string::npos);
      REQUIRE(dev.sim.disassemble(*co, "lds_min").find("ds_min_rtn_f32") != std::string::npos);
      std::vector<uint32_t> in(128);
      for (int t = 0; t < 64; ++t) {
        in[t] = cases[t % nc].m;
        in[64 + t] = cases[t % nc].d;
      }
      for (const char* k : {"lds_add", "lds_min"}) {
        const uint64_t din = dev.upload(in), dout = dev.upload(std::vector<uint32_t>(128, 0xdeadbeefu));
        dev.run(*co, k, simtest::ArgPack().add(din).add(dout), simtest::dims1(1, 64));
        const auto out = dev.download<uint32_t>(dout, 128);
        for (int t = 0; t < 64; ++t) {
          const C& c = cases[t % nc];
          INFO(k << " lane " << t);
          const bool add = k[4] == 'a';
          CHECK(out[t] == (add ? (ftz ? c.add_ftz : c.add_keep) : (ftz ? c.min_ftz : c.min_keep)));
          CHECK(out[64 + t] == c.m);
        }
      }
    }
  }
}
