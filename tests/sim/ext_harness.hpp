// Test harness shared by the simulator's instruction-semantics tests (test_ext_ops.cpp,
// test_legacy_ops.cpp): a hand-written one-wave kernel around an instruction sequence, run
// on the simulator with three 64-lane inputs and a 64-slot memory, plus random inputs with
// special values. Seed from CDNAJIT_TEST_SEED (printed).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"
#include "tests/sim/hip_compile.hpp"

namespace exttest {

using cdnajit::Arch;


inline uint32_t seed() {
  static const uint32_t s = [] {
    const char* e = std::getenv("CDNAJIT_TEST_SEED");
    uint32_t v = e && *e ? uint32_t(std::strtoul(e, nullptr, 10)) : 20251126u;
    std::printf("CDNAJIT_TEST_SEED=%u\n", v);
    return v;
  }();
  return s;
}

// s[0:1] kernarg: {in, out, mem} pointers. v0 = lane. Inputs: A at in + 8*lane, B at +512,
// C at +1024 (one 64-bit slot per lane). The body leaves its result in v[8:9].
inline std::string kernel_text(const std::string& name, const std::string& body, Arch arch, int scratch_bytes = 0) {
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
         "  .amdhsa_group_segment_fixed_size 1024\n  .amdhsa_next_free_vgpr 16\n  .amdhsa_next_free_sgpr 16\n" +
         (scratch_bytes ? "  .amdhsa_private_segment_fixed_size " + std::to_string(scratch_bytes) + "\n" : std::string()) +
         "  .amdhsa_accum_offset 16\n.end_amdhsa_kernel\n";
}

struct Run {
  std::vector<uint64_t> out, mem;
};

// Runs `body` over one wave with inputs a, b, c (64 each) and `mem` (64 slots, for atomics).
inline Run run(Arch arch, const std::string& body, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
        const std::vector<uint64_t>& c, std::vector<uint64_t> mem = std::vector<uint64_t>(64), int scratch_bytes = 0) {
  auto co = cdnajit::read_code_object(simtest::assemble(kernel_text("k", body, arch, scratch_bytes), arch));
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

// Runs `body` with v2 = a, v4 = b on every lane (v6 = 0); returns lane 0's {v8, VCC bit}. Every
// lane must agree (the inputs are uniform), which is checked.
inline std::pair<uint32_t, uint32_t> run1(Arch arch, const std::string& body, uint32_t a, uint32_t b) {
  Run r = run(arch, body + "  v_cndmask_b32_e64 v9, 0, 1, vcc\n", std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b),
              std::vector<uint64_t>(64));
  for (int l = 1; l < 64; ++l) REQUIRE(r.out[l] == r.out[0]);
  return {uint32_t(r.out[0]), uint32_t(r.out[0] >> 32)};
}

inline uint64_t dbits(double d) { return std::bit_cast<uint64_t>(d); }
inline uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
inline double as_double(uint64_t u) { return std::bit_cast<double>(u); }
inline float as_float(uint32_t u) { return std::bit_cast<float>(u); }
// Oracle f16 <-> f32 (IEEE binary16, round to nearest even), written for this test.
inline float h2f(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? std::ldexp(float(m), -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(float(m | 1024), e - 25);
  return s ? -v : v;
}

// Random values of a type's bit width, with specials (NaN, +-inf, +-0, denormals, equal pairs) mixed in.
inline std::vector<uint64_t> values(std::mt19937_64& g, int kind /*0 f16, 1 f32, 2 f64, 3 int*/, int salt) {
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

inline const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

// MODE[7:0] as s_setreg writes it: f32 round [1:0], f16/f64 round [3:2], f32 denormals [5:4], f16/f64
// denormals [7:6] (round: 0 nearest even, 1 +inf, 2 -inf, 3 zero; denormals: 0 flush in and out, 1 flush
// out, 2 flush in, 3 keep).
inline uint32_t mode_bits(int round32, int round16, int denorm32 = 3, int denorm16 = 3) {
  return uint32_t(round32 | round16 << 2 | denorm32 << 4 | denorm16 << 6);
}

// `insn` after setting MODE[7:0] to `mode`.
inline std::string with_mode(uint32_t mode, const std::string& insn) {
  return "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), " + std::to_string(mode) + "\n  " + insn + "\n";
}

// Runs `prologue` then with_mode(mode, insn) (reading v[2:3], v[4:5], v[6:7], writing v8 or v[8:9]) on every
// lane; returns lane 0's v[8:9] (v8 in the low dword). Every lane has the same inputs and must agree.
inline uint64_t run_uniform_in_mode(Arch arch, const std::string& prologue, uint32_t mode, const std::string& insn,
                                    uint64_t a, uint64_t b, uint64_t c) {
  Run r = run(arch, prologue + with_mode(mode, insn), std::vector<uint64_t>(64, a), std::vector<uint64_t>(64, b),
              std::vector<uint64_t>(64, c));
  for (int l = 1; l < 64; ++l) REQUIRE(r.out[l] == r.out[0]);
  return r.out[0];
}

// The same without a prologue.
inline uint64_t run_in(Arch arch, uint32_t mode, const std::string& insn, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  return run_uniform_in_mode(arch, "", mode, insn, a, b, c);
}


}  // namespace exttest
