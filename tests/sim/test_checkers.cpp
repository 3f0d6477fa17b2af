// Each checker fires on a kernel written to trip it, with a message that names
// what was wrong and where.
#include <catch2/catch.hpp>

#include <functional>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using Catch::Matchers::Contains;

namespace {

// A hand-written kernel: `body` is the instruction text; s[0:1] = kernarg pointer, v0 = work-item id.
std::string asm_kernel(const std::string& name, const std::string& body, Arch arch, int lds = 0,
                       const std::string& extra_directives = "", int vgprs = 16) {
  std::string cpu(cdnajit::arch_name(arch));
  return ".amdgcn_target \"amdgcn-amd-amdhsa--" + cpu + "\"\n.text\n.globl " + name + "\n.p2align 8\n.type " + name +
         ",@function\n" + name + ":\n" + body + "\n.size " + name + ", .-" + name +
         "\n.rodata\n.p2align 6\n.amdhsa_kernel " + name +
         "\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_kernarg_size 16\n  .amdhsa_group_segment_fixed_size " +
         std::to_string(lds) +
         "\n  .amdhsa_next_free_vgpr " + std::to_string(vgprs) + "\n  .amdhsa_next_free_sgpr 16\n  .amdhsa_accum_offset " +
         std::to_string(vgprs) + "\n" + extra_directives +
         ".end_amdhsa_kernel\n";
}

std::string error_of(std::function<void()> f) {
  try {
    f();
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  return "<no error>";
}

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

std::string hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

TEST_CASE("out-of-bounds global store names kernel, pc, lane, address and allocation", "[sim][check]") {
  const char* src = R"(
extern "C" __global__ void oob(float* c, int n) {
  unsigned i = bid() * 64 + tid();
  if (i < n) c[i] = 1.0f;
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    uint64_t dc = dev.upload(std::vector<float>(100), "output");
    // In bounds: fine.
    dev.run(co, "oob", ArgPack().add(dc).add(100), dims1(2, 64));
    // n larger than the allocation: lane 36 of workgroup 1 (index 100) is the first out of bounds.
    std::string msg = error_of([&] { dev.run(co, "oob", ArgPack().add(dc).add(128), dims1(2, 64)); });
    CHECK_THAT(msg, Contains("out-of-bounds global store of 4 bytes"));
    CHECK_THAT(msg, Contains("kernel oob"));
    CHECK_THAT(msg, Contains("global_store_dword"));
    CHECK_THAT(msg, Contains("workgroup (1,0,0) wave 0, lane 36"));
    CHECK_THAT(msg, Contains("nearest allocation 'output'"));
    CHECK_THAT(msg, Contains("0 bytes past its end"));
    // Without bounds checking the store is dropped and nothing throws.
    cdnajit::sim::Options o;
    o.check_bounds = false;
    dev.run(co, "oob", ArgPack().add(dc).add(128), dims1(2, 64), o);
  }
}

// The whole-wave load path bounds the 64 lane addresses by their lowest and highest (eight-lane
// vector min/max on hosts with AVX-512, lane 63 in the last element): the one lane that leaves the
// allocation, past its end or before its start, must still be reported.
TEST_CASE("out-of-bounds global load by lane 63 alone, past the end or before the start", "[sim][check]") {
  const char* src = R"(
extern "C" __global__ void rd(const float* a, float* o, int rev) {
  int t = int(tid());
  o[t] = a[rev ? 62 - t : t];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    uint64_t da = dev.upload(std::vector<float>(63, 2.0f), "a");
    uint64_t dout = dev.upload(std::vector<float>(64), "out");
    for (int rev : {0, 1}) {
      INFO(cdnajit::arch_name(arch) << (rev ? ": lane 63 reads a[-1]" : ": lane 63 reads a[63]"));
      std::string msg = error_of([&] { dev.run(co, "rd", ArgPack().add(da).add(dout).add(rev), dims1(1, 64)); });
      CHECK_THAT(msg, Contains("out-of-bounds global load of 4 bytes"));
      CHECK_THAT(msg, Contains("lane 63"));
      CHECK_THAT(msg, Contains("nearest allocation 'a'"));
    }
  }
}

TEST_CASE("out-of-bounds global access near another allocation names the nearest one, never reads the neighbour",
          "[sim][check]") {
  // Two allocations: 'a' (64 bytes) and 'b' right after it. The allocator (runtime/sim/memory.cpp)
  // leaves at least 4 GiB of unmapped space between them, so an access past 'a' reaches 'b' only
  // through a real pointer to 'b'. Every address below is outside both and must be an error naming
  // the closer allocation; with check_bounds off it must read 0, never b's bytes.
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t a = dev.upload(std::vector<uint32_t>(16, 0x11111111u), "a");
    uint64_t b = dev.upload(std::vector<uint32_t>(16, 0xb0b0b0b0u), "b");
    uint64_t out = dev.upload(std::vector<uint32_t>(1, 0x5eedu), "out");
    REQUIRE(b > a + 64);
    // kernarg: [0] a 64-bit address, [8] a 32-bit offset, [16] the output pointer.
    // "saddr" loads from s[2:3] + v1 (a 32-bit offset, as the hardware's SADDR form adds it);
    // "vaddr" loads from the 64-bit address in v[4:5]. Lane 0 stores what it read to out[0].
    auto kernel = [&](bool saddr) {
      std::string load = saddr ? " v_mov_b32 v1, s4\n global_load_dword v2, v1, s[2:3]\n"
                               : " v_mov_b32 v4, s2\n v_mov_b32 v5, s3\n global_load_dword v2, v[4:5], off\n";
      std::string body = "s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_load_dword s4, s[0:1], 0x8\n"
                         " s_load_dwordx2 s[6:7], s[0:1], 0x10\n s_waitcnt lgkmcnt(0)\n" +
                         load + " s_waitcnt vmcnt(0)\n v_mov_b32 v3, 0\n global_store_dword v3, v2, s[6:7]\n s_endpgm";
      std::string src = asm_kernel("near", body, arch);
      src.replace(src.find(".amdhsa_kernarg_size 16"), 23, ".amdhsa_kernarg_size 24");
      return cdnajit::read_code_object(assemble(src, arch));
    };
    auto saddr_co = kernel(true), vaddr_co = kernel(false);
    auto launch = [&](const cdnajit::CodeObject& co, uint64_t addr, uint32_t offset, bool check) {
      std::vector<uint8_t> ka(24, 0);
      std::memcpy(ka.data(), &addr, 8);
      std::memcpy(ka.data() + 8, &offset, 4);
      std::memcpy(ka.data() + 16, &out, 8);
      cdnajit::sim::Options o;
      o.check_bounds = check;
      dev.sim.memory().write(out, std::vector<uint32_t>{0x5eedu}.data(), 4);
      dev.sim.launch(co, "near", ka, dims1(1, 1), o);
      return dev.download<uint32_t>(out, 1)[0];
    };
    // In bounds through both forms, and a real pointer to b reads b.
    CHECK(launch(saddr_co, a, 60, true) == 0x11111111u);
    CHECK(launch(vaddr_co, b, 0, true) == 0xb0b0b0b0u);

    struct Case {
      const char* what;
      bool saddr;
      uint64_t addr;
      uint32_t offset;
      std::string expect;  // the nearest-allocation phrase
    };
    const Case cases[] = {
        // The largest 32-bit offset from a's base: 4 GiB - 4 past it, still in the gap.
        {"a + 0xfffffffc (saddr)", true, a, 0xfffffffcu,
         "nearest allocation 'a' [" + hex64(a) + ", +64), address is " + std::to_string(0xfffffffcull - 64) +
             " bytes past its end"},
        // Just past a's end: where a packed allocator would have put b's first bytes.
        {"a + 64 (saddr)", true, a, 64, "nearest allocation 'a' [" + hex64(a) + ", +64), address is 0 bytes past its end"},
        {"a + 64 (vaddr)", false, a + 64, 0, "nearest allocation 'a' [" + hex64(a) + ", +64), address is 0 bytes past its end"},
        // Straddling a's end: 2 bytes inside, 2 outside.
        {"a + 62 (saddr)", true, a, 62, "nearest allocation 'a' [" + hex64(a) + ", +64), address is offset 62 inside it"},
        // In the gap just before b, and straddling b's start (2 bytes before, 2 inside).
        {"b - 4 (vaddr)", false, b - 4, 0, "nearest allocation 'b' [" + hex64(b) + ", +64), address is 4 bytes before it"},
        {"b - 2 (vaddr)", false, b - 2, 0, "nearest allocation 'b' [" + hex64(b) + ", +64), address is 2 bytes before it"},
        // Just past b's end.
        {"b + 64 (vaddr)", false, b + 64, 0, "nearest allocation 'b' [" + hex64(b) + ", +64), address is 0 bytes past its end"},
    };
    for (const Case& c : cases) {
      INFO(cdnajit::arch_name(arch) << ": " << c.what);
      const auto& co = c.saddr ? saddr_co : vaddr_co;
      std::string msg = error_of([&] { launch(co, c.addr, c.offset, true); });
      CHECK_THAT(msg, Contains("out-of-bounds global load of 4 bytes at address " + hex64(c.addr + c.offset)));
      CHECK_THAT(msg, Contains(c.expect));
      CHECK_THAT(msg, Contains("lane 0"));
      // Without bounds checking the load is dropped: 0, never a neighbour's bytes.
      CHECK(launch(co, c.addr, c.offset, false) == 0u);
    }
  }
}

TEST_CASE("out-of-bounds LDS access is reported", "[sim][check]") {
  const char* src = R"(
extern "C" __global__ void ldsoob(float* o, int k) {
  __shared__ float buf[64];
  buf[tid() + k] = 2.0f;
  sync();
  o[tid()] = buf[tid()];
})";
  for (Arch arch : kArchs) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    uint64_t d = dev.upload(std::vector<float>(64), "o");
    dev.run(co, "ldsoob", ArgPack().add(d).add(0), dims1(1, 64));
    REQUIRE(dev.download<float>(d, 64)[5] == 2.0f);
    std::string msg = error_of([&] { dev.run(co, "ldsoob", ArgPack().add(d).add(8), dims1(1, 64)); });
    CHECK_THAT(msg, Contains("out-of-bounds LDS access of 4 bytes at LDS address 0x100"));
    CHECK_THAT(msg, Contains("lane 56"));
    CHECK_THAT(msg, Contains("256 bytes of LDS"));
  }
}

TEST_CASE("reading or overwriting a load destination before s_waitcnt is an error", "[sim][check]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t buf = dev.upload(std::vector<uint32_t>(65, 7), "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    auto run = [&](const std::string& body) {
      auto co = cdnajit::read_code_object(assemble(asm_kernel("wk", body, arch), arch));
      dev.sim.launch(co, "wk", ka, dims1(1, 64));
    };
    const std::string head = "s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n v_lshlrev_b32 v0, 2, v0\n"
                             " global_load_dword v1, v0, s[2:3]\n global_load_dword v2, v0, s[2:3] offset:4\n";
    // Correct: wait for both loads.
    run(head + " s_waitcnt vmcnt(0)\n v_add_u32 v3, v1, v2\n global_store_dword v0, v3, s[2:3]\n s_endpgm");
    REQUIRE(dev.download<uint32_t>(buf, 1)[0] == 14);
    // vmcnt(1) covers the first load only: using v1 is fine, v2 is not.
    std::string msg = error_of([&] { run(head + " s_waitcnt vmcnt(1)\n v_add_u32 v3, v1, v2\n s_endpgm"); });
    CHECK_THAT(msg, Contains("reads v2 while the load at pc 0x18 'global_load_dword v2, v0, s[2:3] offset:4'"));
    CHECK_THAT(msg, Contains("s_waitcnt vmcnt(0) is needed"));
    CHECK_THAT(msg, Contains("v_add_u32_e32 v3, v1, v2"));
    msg = error_of([&] { run(head + " v_mov_b32 v1, 0\n s_endpgm"); });
    CHECK_THAT(msg, Contains("overwrites v1"));
    CHECK_THAT(msg, Contains("s_waitcnt vmcnt(1) is needed"));
    // SMEM result used without any wait.
    msg = error_of([&] { run("s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_mov_b32 s4, s2\n s_endpgm"); });
    CHECK_THAT(msg, Contains("reads s2"));
    CHECK_THAT(msg, Contains("s_waitcnt lgkmcnt(0) is needed"));
  }
}

TEST_CASE("runaway loop hits the instruction budget", "[sim][check]") {
  Arch arch = Arch::gfx942;
  Device dev(arch);
  auto co = cdnajit::read_code_object(assemble(asm_kernel("spin", "BB0:\n s_add_u32 s4, s4, 1\n s_branch BB0\n s_endpgm", arch), arch));
  cdnajit::sim::Options o;
  o.instruction_budget = 100000;
  std::vector<uint8_t> ka(16, 0);
  std::string msg = error_of([&] { dev.sim.launch(co, "spin", ka, dims1(1, 64), o); });
  CHECK_THAT(msg, Contains("instruction budget of 100000 wave-instructions exhausted"));
  CHECK_THAT(msg, Contains("kernel spin"));
}

// The budget stops the wave at the instruction that passes it, not at the next periodic check: budgets
// one apart stop a two-instruction loop on its two different instructions.
TEST_CASE("the instruction budget stops at the exact instruction", "[sim][check]") {
  Arch arch = Arch::gfx942;
  Device dev(arch);
  auto co = cdnajit::read_code_object(assemble(asm_kernel("spin", "BB0:\n s_add_u32 s4, s4, 1\n s_branch BB0\n s_endpgm", arch), arch));
  std::vector<uint8_t> ka(16, 0);
  auto stop = [&](uint64_t budget) {
    cdnajit::sim::Options o;
    o.instruction_budget = budget;
    std::string msg = error_of([&] { dev.sim.launch(co, "spin", ka, dims1(1, 64), o); });
    const bool add = msg.find("s_add_u32") != std::string::npos, branch = msg.find("s_branch") != std::string::npos;
    INFO(msg);
    REQUIRE(add != branch);
    return add;
  };
  for (uint64_t b : {100000ull, 131071ull, 131072ull, 200001ull}) {
    INFO("budget " << b);
    CHECK(stop(b) != stop(b + 1));
  }
}

TEST_CASE("an instruction the simulator does not implement is an error, never a no-op", "[sim][check]") {
  Arch arch = Arch::gfx950;
  Device dev(arch);
  auto co = cdnajit::read_code_object(assemble(asm_kernel("unimpl", "s_sendmsghalt sendmsg(MSG_INTERRUPT)\n s_endpgm", arch), arch));
  std::vector<uint8_t> ka(16, 0);
  std::string msg = error_of([&] { dev.sim.launch(co, "unimpl", ka, dims1(1, 64)); });
  CHECK_THAT(msg, Contains("not implemented"));
  CHECK_THAT(msg, Contains("s_sendmsghalt"));
  CHECK_THAT(msg, Contains("pc 0x0"));
}

TEST_CASE("a barrier after some waves have ended waits for the others only; one a live wave never reaches is a deadlock",
          "[sim][check]") {
  Arch arch = Arch::gfx942;
  Device dev(arch);
  // Wave 0 (ids < 64) ends; wave 1's barrier then waits for no one (S_BARRIER waits on the surviving waves).
  auto co = cdnajit::read_code_object(assemble(asm_kernel("ended",
      " v_cmp_gt_u32 vcc, 64, v0\n s_cbranch_vccz BB1\n s_endpgm\nBB1:\n s_barrier\n s_endpgm", arch), arch));
  std::vector<uint8_t> ka(16, 0);
  CHECK(error_of([&] { dev.sim.launch(co, "ended", ka, dims1(1, 128)); }) == "<no error>");
  // Wave 0 spins on an SGPR that never changes; wave 1 waits at the barrier.
  auto dead = cdnajit::read_code_object(assemble(asm_kernel("dead",
      " v_cmp_gt_u32 vcc, 64, v0\n s_cbranch_vccz BB1\nBB0:\n s_cmp_eq_u32 s4, 0\n s_cbranch_scc1 BB0\n"
      " s_endpgm\nBB1:\n s_barrier\n s_endpgm", arch), arch));
  std::string msg = error_of([&] { dev.sim.launch(dead, "dead", ka, dims1(1, 128)); });
  CHECK_THAT(msg, Contains("deadlock: wave 0 spins in the loop at pc 0x8 's_cmp_eq_u32 s4, 0'"));
  CHECK_THAT(msg, Contains("wave 1 waits at s_barrier (pc 0x14)"));
}

TEST_CASE("buffer loads outside num_records: zero by default, error with check_buffer_range", "[sim][check]") {
  Arch arch = Arch::gfx942;
  Device dev(arch);
  uint64_t buf = dev.upload(std::vector<uint32_t>(64, 5), "buf");
  std::vector<uint8_t> ka(16, 0);
  std::memcpy(ka.data(), &buf, 8);
  // V# with num_records = 128 bytes: lanes 32..63 are out of range.
  auto co = cdnajit::read_code_object(assemble(asm_kernel("bufk",
      " s_load_dwordx2 s[4:5], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n s_mov_b32 s6, 128\n s_mov_b32 s7, 0x20000\n"
      " v_lshlrev_b32 v0, 2, v0\n buffer_load_dword v1, v0, s[4:7], 0 offen\n s_waitcnt vmcnt(0)\n"
      " v_add_u32 v1, 1, v1\n global_store_dword v0, v1, s[4:5]\n s_endpgm", arch), arch));
  cdnajit::sim::Options strict;
  strict.check_buffer_range = true;
  std::string msg = error_of([&] { dev.sim.launch(co, "bufk", ka, dims1(1, 64), strict); });
  CHECK_THAT(msg, Contains("lane 32"));
  CHECK_THAT(msg, Contains("outside the V# range"));
  dev.sim.launch(co, "bufk", ka, dims1(1, 64));  // default: the hardware's behaviour
  auto out = dev.download<uint32_t>(buf, 64);
  CHECK(out[0] == 6);
  CHECK(out[31] == 6);
  CHECK(out[32] == 1);  // out-of-range load returned 0
  CHECK(out[63] == 1);
}

TEST_CASE("structured buffer (idxen, stride 12): index >= num_records reads 0 and drops stores", "[sim][check]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    std::vector<uint32_t> data(64 * 3);
    for (uint32_t i = 0; i < data.size(); ++i) data[i] = 0x100 + i;
    uint64_t buf = dev.upload(data, "buf"), out = dev.upload(std::vector<uint32_t>(64 * 3, 0xeeee), "out");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    std::memcpy(ka.data() + 8, &out, 8);
    // V#: stride 12 (word1 bits 29:16), num_records = 40 records. Lane l reads dwords 1..2 of
    // record l (idxen + offen: v[0] index, v[1] = 4) and stores them into record l of `out`.
    auto co = cdnajit::read_code_object(assemble(asm_kernel("sbuf",
        " s_load_dwordx4 s[4:7], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n s_mov_b32 s8, s4\n s_and_b32 s9, s5, 0xffff\n"
        " s_or_b32 s9, s9, 0xc0000\n s_mov_b32 s10, 40\n s_mov_b32 s11, 0x20000\n"
        " s_and_b32 s7, s7, 0xffff\n s_or_b32 s5, s7, 0xc0000\n s_mov_b32 s4, s6\n s_mov_b32 s6, 40\n s_mov_b32 s7, 0x20000\n"
        " v_mov_b32 v1, 4\n buffer_load_dwordx2 v[2:3], v[0:1], s[8:11], 0 idxen offen\n s_waitcnt vmcnt(0)\n"
        " buffer_store_dwordx2 v[2:3], v[0:1], s[4:7], 0 idxen offen\n s_endpgm", arch), arch));
    dev.sim.launch(co, "sbuf", ka, dims1(1, 64));
    auto o = dev.download<uint32_t>(out, 64 * 3);
    for (uint32_t l = 0; l < 64; ++l) {
      INFO("lane " << l);
      CHECK(o[3 * l] == 0xeeee);  // dword 0 of each record is never written
      CHECK(o[3 * l + 1] == (l < 40 ? data[3 * l + 1] : 0xeeee));  // index >= num_records: store dropped
      CHECK(o[3 * l + 2] == (l < 40 ? data[3 * l + 2] : 0xeeee));
    }
    cdnajit::sim::Options strict;
    strict.check_buffer_range = true;
    std::string msg = error_of([&] { dev.sim.launch(co, "sbuf", ka, dims1(1, 64), strict); });
    CHECK_THAT(msg, Contains("lane 40"));
    CHECK_THAT(msg, Contains("num_records 40"));
  }
}

TEST_CASE("registers beyond the descriptor's allocation are rejected at launch", "[sim][check]") {
  Arch arch = Arch::gfx942;
  Device dev(arch);
  auto co = cdnajit::read_code_object(assemble(asm_kernel("regs", " v_mov_b32 v20, 0\n s_endpgm", arch), arch));
  std::vector<uint8_t> ka(16, 0);
  std::string msg = error_of([&] { dev.sim.launch(co, "regs", ka, dims1(1, 64)); });
  CHECK_THAT(msg, Contains("uses v20 but the kernel descriptor allocates 16 VGPRs"));
}

TEST_CASE("LDS reads whose destination overlaps the address register", "[sim][lds]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t buf = dev.upload(std::vector<uint32_t>(64 * 4, 0), "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    // LDS[4*i] = i + 100; then v[0:1] = LDS[addr], LDS[addr + 4] with addr in v0; and a b64 read the same way.
    auto co = cdnajit::read_code_object(assemble(asm_kernel("ovl",
        " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v5, 2, v0\n v_add_u32 v6, 100, v0\n ds_write_b32 v5, v6\n"
        " s_waitcnt lgkmcnt(0)\n v_mov_b32 v0, v5\n ds_read2_b32 v[0:1], v0 offset1:1\n v_mov_b32 v2, v5\n"
        " ds_read_b64 v[2:3], v2\n s_waitcnt lgkmcnt(0)\n v_lshlrev_b32 v4, 2, v5\n"
        " global_store_dwordx4 v4, v[0:3], s[2:3]\n s_endpgm", arch, 512), arch));
    cdnajit::sim::LaunchDims d;
    d.block[0] = 64;
    dev.sim.launch(co, "ovl", ka, d);
    auto out = dev.download<uint32_t>(buf, 64 * 4);
    for (int l = 0; l < 63; ++l) {
      INFO("lane " << l);
      REQUIRE(out[l * 4 + 0] == uint32_t(100 + l));
      REQUIRE(out[l * 4 + 1] == uint32_t(101 + l));
      REQUIRE(out[l * 4 + 2] == uint32_t(100 + l));
      REQUIRE(out[l * 4 + 3] == uint32_t(101 + l));
    }
  }
}

TEST_CASE("f32 denormals are flushed in and out when the descriptor's denorm mode is 0", "[sim][float]") {
  for (Arch arch : kArchs) {
    for (int mode : {0, 3}) {
      Device dev(arch);
      // in: {denormal 1 ulp, FLT_MIN (normal), 2.0}; out[i] = in[i] * 0.5 for each.
      std::vector<uint32_t> in = {0x00000001u, 0x00800000u, 0x40000000u};
      uint64_t buf = dev.upload(std::vector<uint32_t>(64, 0), "buf");
      dev.sim.memory().write(buf, in.data(), 12);
      std::vector<uint8_t> ka(16, 0);
      std::memcpy(ka.data(), &buf, 8);
      auto co = cdnajit::read_code_object(assemble(asm_kernel("dnm",
          " s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n v_lshlrev_b32 v0, 2, v0\n"
          " global_load_dword v1, v0, s[2:3]\n s_waitcnt vmcnt(0)\n v_mul_f32 v1, 0.5, v1\n"
          " global_store_dword v0, v1, s[2:3] offset:64\n s_endpgm", arch, 0,
          "  .amdhsa_float_denorm_mode_32 " + std::to_string(mode) + "\n"), arch));
      REQUIRE(co.find("dnm")->float_denorm_mode_32 == uint32_t(mode));
      cdnajit::sim::LaunchDims d;
      d.block[0] = 3;
      dev.sim.launch(co, "dnm", ka, d);
      auto out = dev.download<uint32_t>(buf + 64, 3);
      INFO("mode " << mode);
      if (mode == 0) {
        CHECK(out[0] == 0u);           // denormal input flushed to +0
        CHECK(out[1] == 0u);           // normal input, denormal result flushed to +0
      } else {
        CHECK(out[0] == 0u);           // 2^-149 * 0.5 rounds to 0 (ties to even)
        CHECK(out[1] == 0x00400000u);  // kept as a denormal
      }
      CHECK(out[2] == 0x3f800000u);
    }
  }
}

TEST_CASE("the f32 denormal flush leaves integer and 16-bit operands of float instructions alone", "[sim][float]") {
  // Under FLOAT_DENORM_MODE_32 = 0 only f32 values are flushed: the integer 5 (bit pattern of a
  // denormal), an ldexp exponent, f16 bits and an frexp exponent pass through unchanged.
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t buf = dev.upload(std::vector<uint32_t>(64, 0), "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    auto co = cdnajit::read_code_object(assemble(asm_kernel("dnm_int",
        " s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n v_mov_b32 v0, 0\n v_mov_b32 v1, 5\n"
        " v_cvt_f32_u32 v2, v1\n v_cvt_f32_i32 v3, v1\n v_ldexp_f32 v4, 1.0, v1\n v_cvt_f16_f32 v5, 1.0\n"
        " v_mov_b32 v6, 0x3c00\n v_cvt_f32_f16 v7, v6\n v_mov_b32 v8, 0x41000000\n v_frexp_exp_i32_f32 v9, v8\n"
        " global_store_dword v0, v2, s[2:3]\n global_store_dword v0, v3, s[2:3] offset:4\n"
        " global_store_dword v0, v4, s[2:3] offset:8\n global_store_dword v0, v5, s[2:3] offset:12\n"
        " global_store_dword v0, v7, s[2:3] offset:16\n global_store_dword v0, v9, s[2:3] offset:20\n s_endpgm",
        arch, 0, "  .amdhsa_float_denorm_mode_32 0\n"), arch));
    REQUIRE(co.find("dnm_int")->float_denorm_mode_32 == 0u);
    cdnajit::sim::LaunchDims d;
    d.block[0] = 1;
    dev.sim.launch(co, "dnm_int", ka, d);
    auto out = dev.download<uint32_t>(buf, 6);
    CHECK(out[0] == 0x40a00000u);  // v_cvt_f32_u32 5 = 5.0
    CHECK(out[1] == 0x40a00000u);  // v_cvt_f32_i32 5 = 5.0
    CHECK(out[2] == 0x42000000u);  // v_ldexp_f32 1.0 * 2^5 = 32.0
    CHECK(out[3] == 0x3c00u);      // v_cvt_f16_f32 1.0 = f16 1.0 (high half zero)
    CHECK(out[4] == 0x3f800000u);  // v_cvt_f32_f16 of f16 1.0
    CHECK(out[5] == 4u);           // v_frexp_exp_i32_f32 8.0 = 4 (8 = 0.5 * 2^4)
  }
}

// HipKittens' make_srsrc (github.com/HazyResearch/HipKittens, include/ops/warp/memory/util/util.cuh)
// sets SWIZZLE_ENABLE and CACHE_SWIZZLE with a row stride for raw offen loads: the MI300 cache-swizzle
// mode, whose addresses stay linear (runtime/sim/ops_mem.cpp, linear_cache_swizzle).
TEST_CASE("a V# in the cache-swizzle mode addresses raw offen accesses linearly; other swizzles are refused",
          "[sim][check]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    std::vector<uint32_t> data(256);
    for (uint32_t i = 0; i < data.size(); ++i) data[i] = 0x500 + i;
    uint64_t buf = dev.upload(data, "buf"), out = dev.upload(std::vector<uint32_t>(256, 0), "out");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    std::memcpy(ka.data() + 8, &out, 8);
    auto run = [&](const std::string& word1_bits) {
      // V#: base = buf, stride 0x100 (word1 bits 29:16) plus `word1_bits`, num_records 1024 bytes.
      // Lane l loads the dwordx4 at byte 16 l and stores it to out[4 l .. 4 l + 3].
      auto co = cdnajit::read_code_object(assemble(asm_kernel("swz",
          " s_load_dwordx4 s[4:7], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n s_mov_b32 s8, s4\n s_and_b32 s9, s5, 0xffff\n"
          " s_or_b32 s9, s9, " + word1_bits + "\n s_mov_b32 s10, 1024\n s_mov_b32 s11, 0x20000\n"
          " v_lshlrev_b32 v1, 4, v0\n buffer_load_dwordx4 v[2:5], v1, s[8:11], 0 offen\n s_waitcnt vmcnt(0)\n"
          " global_store_dwordx4 v1, v[2:5], s[6:7]\n s_endpgm", arch), arch));
      dev.sim.launch(co, "swz", ka, dims1(1, 64));
    };
    run("0xc1000000");  // SWIZZLE_ENABLE | CACHE_SWIZZLE | stride 0x100
    CHECK(dev.download<uint32_t>(out, 256) == data);
    std::string msg = error_of([&] { run("0x81000000"); });  // SWIZZLE_ENABLE alone: address swizzling
    CHECK_THAT(msg, Contains("SWIZZLE_ENABLE set: swizzled / thread-id addressing is not modelled"));
  }
}

TEST_CASE("reading LDS written by an LDS DMA before its vmcnt wait is an error", "[sim][check]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t buf = dev.upload(std::vector<uint32_t>(128, 9), "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    auto run = [&](const std::string& wait, int threads) {
      // Every wave DMAs 64 dwords to LDS [0, 256) (wave 0) / [256, 512) (wave 1), then reads the other half.
      auto co = cdnajit::read_code_object(assemble(asm_kernel("dma_chk",
          " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n v_and_b32 v2, 0xffffff00, v1\n"
          " v_readfirstlane_b32 s4, v2\n s_mov_b32 m0, s4\n v_and_b32 v3, 0xff, v1\n s_waitcnt lgkmcnt(0)\n"
          " global_load_lds_dword v3, s[2:3]\n" + wait + " s_barrier\n v_xor_b32 v4, 0x100, v1\n"
          " ds_read_b32 v5, v4\n s_waitcnt lgkmcnt(0)\n global_store_dword v1, v5, s[2:3]\n s_endpgm", arch, 512), arch));
      cdnajit::sim::Options o;
      o.threads = threads;
      dev.sim.launch(co, "dma_chk", ka, dims1(1, 128), o);
    };
    run(" s_waitcnt vmcnt(0)\n", 1);
    CHECK(dev.download<uint32_t>(buf, 1)[0] == 9);
    std::string msg = error_of([&] { run("", 1); });
    CHECK_THAT(msg, Contains("reads LDS bytes"));
    CHECK_THAT(msg, Contains("global_load_lds_dword"));
    CHECK_THAT(msg, Contains("s_waitcnt vmcnt(0) before the s_barrier"));
    CHECK_THAT(msg, Contains("wave 1"));
    INFO(msg);
    CHECK(msg.find("of wave 1 has not completed") != std::string::npos);
    // With the wait-count check off (a kernel that relies on timing instead of the wait), the read
    // runs and sees the DMA's data, which the simulator writes at issue.
    auto co = cdnajit::read_code_object(assemble(asm_kernel("dma_nochk",
        " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n v_and_b32 v2, 0xffffff00, v1\n"
        " v_readfirstlane_b32 s4, v2\n s_mov_b32 m0, s4\n v_and_b32 v3, 0xff, v1\n s_waitcnt lgkmcnt(0)\n"
        " global_load_lds_dword v3, s[2:3]\n s_barrier\n v_xor_b32 v4, 0x100, v1\n"
        " ds_read_b32 v5, v4\n s_waitcnt vmcnt(0) lgkmcnt(0)\n v_add_u32 v5, 1, v5\n global_store_dword v1, v5, s[2:3]\n"
        " s_endpgm", arch, 512), arch));
    cdnajit::sim::Options lax;
    lax.check_waitcnt = false;
    const std::vector<uint32_t> nines(128, 9);
    dev.sim.memory().write(buf, nines.data(), nines.size() * 4);
    dev.sim.launch(co, "dma_nochk", ka, dims1(1, 128), lax);
    CHECK(dev.download<uint32_t>(buf, 128) == std::vector<uint32_t>(128, 10));
  }
}

// LLVM 22's SIInsertWaitcnts makes any instruction that may access LDS (loads and stores alike) wait on
// vmcnt for an outstanding LDS DMA to the same LDS: the DMA writes LDS asynchronously and counts on vmcnt
// (VM_CNT, like any VMEM load), so a DS write before that wait races the DMA's write of the same bytes.
TEST_CASE("a DS write over LDS an LDS DMA has not completed is an error; with the vmcnt wait it is clean",
          "[sim][check]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t buf = dev.upload(std::vector<uint32_t>(64, 9), "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    auto run = [&](const std::string& wait, const std::string& ds) {
      // One wave DMAs 64 dwords to LDS [0, 256), then overwrites dword l with l (or 4 more bytes after it).
      auto co = cdnajit::read_code_object(assemble(asm_kernel("dma_w",
          " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n s_mov_b32 m0, 0\n s_waitcnt lgkmcnt(0)\n"
          " global_load_lds_dword v1, s[2:3]\n" + wait + ds + "\n s_waitcnt vmcnt(0) lgkmcnt(0)\n ds_read_b32 v5, v1\n"
          " s_waitcnt lgkmcnt(0)\n global_store_dword v1, v5, s[2:3]\n s_endpgm", arch, 512), arch));
      dev.sim.launch(co, "dma_w", ka, dims1(1, 64));
    };
    run(" s_waitcnt vmcnt(0)\n", " ds_write_b32 v1, v0");
    auto out = dev.download<uint32_t>(buf, 64);
    for (uint32_t l = 0; l < 64; ++l) CHECK(out[l] == l);  // the DS write landed after the DMA
    std::string msg = error_of([&] { run("", " ds_write_b32 v1, v0"); });
    INFO(msg);
    CHECK_THAT(msg, Contains("'ds_write_b32 v1, v0'") && Contains("writes LDS bytes [0x0, 0x4)"));
    CHECK_THAT(msg, Contains("the LDS DMA at pc 0x14 'global_load_lds_dword v1, s[2:3]' of wave 0 has not completed"));
    CHECK_THAT(msg, Contains("needs s_waitcnt vmcnt(0) first"));
    // write2 through the generic path, and an LDS atomic: the same finding.
    msg = error_of([&] { run("", " ds_write2_b32 v1, v0, v0 offset1:1"); });
    CHECK_THAT(msg, Contains("ds_write2_b32") && Contains("writes LDS bytes"));
    msg = error_of([&] { run("", " ds_add_u32 v1, v0"); });
    CHECK_THAT(msg, Contains("ds_add_u32") && Contains("writes LDS bytes"));
    // Bytes the DMA does not write are free to use before the wait.
    run("", " v_add_u32 v6, 0x100, v1\n ds_write_b32 v6, v0");
  }
}

TEST_CASE("the source register of a DPP instruction counts as a read for the wait-count check", "[sim][check]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    std::vector<uint32_t> in(64);
    for (uint32_t l = 0; l < 64; ++l) in[l] = 100 + l;
    uint64_t buf = dev.upload(in, "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    auto run = [&](const std::string& wait) {
      auto co = cdnajit::read_code_object(assemble(asm_kernel("dpp_w",
          " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n s_waitcnt lgkmcnt(0)\n"
          " global_load_dword v2, v1, s[2:3]\n" + wait +
          " v_mov_b32_dpp v3, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
          " global_store_dword v1, v3, s[2:3]\n s_endpgm", arch), arch));
      dev.sim.launch(co, "dpp_w", ka, dims1(1, 64));
    };
    run(" s_waitcnt vmcnt(0)\n");
    auto out = dev.download<uint32_t>(buf, 64);
    for (uint32_t l = 0; l < 64; ++l) CHECK(out[l] == 100 + (l ^ 1));  // quad_perm [1,0,3,2] swaps lane pairs
    dev.sim.memory().write(buf, in.data(), 64 * 4);
    std::string msg = error_of([&] { run(""); });
    INFO(msg);
    CHECK_THAT(msg, Contains("v_mov_b32_dpp v3, v2") && Contains("reads v2 while the load at pc 0x10"));
    CHECK_THAT(msg, Contains("s_waitcnt vmcnt(0) is needed"));
  }
}

TEST_CASE("two in-order loads into the same register: legal, the later one lands last", "[sim][check]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    Device dev(arch);
    std::vector<uint32_t> init(128);
    for (uint32_t i = 0; i < 128; ++i) init[i] = 1000 + i;
    uint64_t buf = dev.upload(init, "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    auto run = [&](const std::string& body) {
      auto co = cdnajit::read_code_object(assemble(asm_kernel("twice", body, arch, 512), arch));
      dev.sim.launch(co, "twice", ka, dims1(1, 64));
    };
    const std::string head = "s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n v_lshlrev_b32 v0, 2, v0\n";
    // VMEM: buf[i] then buf[i + 64] into v1; after vmcnt(0) v1 holds the second value.
    const std::string vm2 = head + " global_load_dword v1, v0, s[2:3]\n global_load_dword v1, v0, s[2:3] offset:256\n";
    run(vm2 + " s_waitcnt vmcnt(0)\n v_add_u32 v2, 1, v1\n global_store_dword v0, v2, s[2:3] offset:256\n s_endpgm");
    auto out = dev.download<uint32_t>(buf + 256, 64);
    CHECK(out[0] == 1065);
    CHECK(out[63] == 1128);
    // vmcnt(1) retires only the older load: v1 is still outstanding (the newer load).
    std::string msg = error_of([&] { run(vm2 + " s_waitcnt vmcnt(1)\n v_add_u32 v2, 1, v1\n s_endpgm"); });
    CHECK_THAT(msg, Contains("reads v1 while the load at pc 0x18 'global_load_dword v1, v0, s[2:3] offset:256'"));
    CHECK_THAT(msg, Contains("s_waitcnt vmcnt(0) is needed"));
    // A VALU write of a register with loads in flight is still an error.
    msg = error_of([&] { run(vm2 + " v_mov_b32 v1, 0\n s_endpgm"); });
    CHECK_THAT(msg, Contains("overwrites v1"));
    CHECK_THAT(msg, Contains("s_waitcnt vmcnt(0) is needed"));
    // DS: the same on lgkmcnt.
    const std::string ds2 = head + " v_add_u32 v3, 7, v0\n ds_write_b32 v0, v3\n s_waitcnt lgkmcnt(0)\n"
                                   " ds_read_b32 v1, v0\n ds_read_b32 v1, v0 offset:4\n";
    run(ds2 + " s_waitcnt lgkmcnt(0)\n global_store_dword v0, v1, s[2:3]\n s_endpgm");
    out = dev.download<uint32_t>(buf, 64);
    CHECK(out[0] == 11);   // LDS[4] = 4 + 7
    CHECK(out[62] == 259);  // LDS[252] = 252 + 7
    msg = error_of([&] { run(ds2 + " s_waitcnt lgkmcnt(1)\n v_mov_b32 v2, v1\n s_endpgm"); });
    CHECK_THAT(msg, Contains("reads v1 while the load at pc"));
    CHECK_THAT(msg, Contains("ds_read_b32 v1, v0 offset:4"));
    CHECK_THAT(msg, Contains("s_waitcnt lgkmcnt(0) is needed"));
    // Different counters (VMEM then DS into the same register) are not ordered: error.
    msg = error_of([&] { run(head + " global_load_dword v1, v0, s[2:3]\n ds_read_b32 v1, v0\n s_endpgm"); });
    CHECK_THAT(msg, Contains("overwrites v1"));
    // SMEM returns out of order: a second SMEM load into a pending SGPR is an error.
    msg = error_of([&] { run("s_load_dword s4, s[0:1], 0x0\n s_load_dword s4, s[0:1], 0x4\n s_endpgm"); });
    CHECK_THAT(msg, Contains("overwrites s4"));
    CHECK_THAT(msg, Contains("s_waitcnt lgkmcnt(0) is needed"));
  }
}

TEST_CASE("a loop re-issuing the same load into one register keeps it outstanding", "[sim][check]") {
  Arch arch = Arch::gfx942;
  Device dev(arch);
  uint64_t buf = dev.upload(std::vector<uint32_t>(64, 3), "buf");
  std::vector<uint8_t> ka(16, 0);
  std::memcpy(ka.data(), &buf, 8);
  auto run = [&](const std::string& tail) {
    auto co = cdnajit::read_code_object(assemble(asm_kernel("reload",
        "s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n v_lshlrev_b32 v0, 2, v0\n s_mov_b32 s4, 3\n"
        "BB0:\n global_load_dword v1, v0, s[2:3]\n s_sub_u32 s4, s4, 1\n s_cmp_lg_u32 s4, 0\n s_cbranch_scc1 BB0\n" + tail,
        arch), arch));
    dev.sim.launch(co, "reload", ka, dims1(1, 64));
  };
  run(" s_waitcnt vmcnt(0)\n v_mov_b32 v2, v1\n s_endpgm");
  // Three instances of the same instruction are in flight; vmcnt(1) leaves the newest outstanding.
  std::string msg = error_of([&] { run(" s_waitcnt vmcnt(1)\n v_mov_b32 v2, v1\n s_endpgm"); });
  CHECK_THAT(msg, Contains("reads v1"));
  CHECK_THAT(msg, Contains("s_waitcnt vmcnt(0) is needed"));
}

TEST_CASE("lgkmcnt saturates at 15: issuing a 16th DS load retires the oldest", "[sim][check]") {
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    Device dev(arch);
    std::vector<uint8_t> ka(16, 0);
    // k ds_read_b32 into v1..vk (no waits), then read `reg` without a wait.
    auto run = [&](int k, int reg) {
      std::string body = " v_lshlrev_b32 v0, 2, v0\n";
      for (int i = 1; i <= k; ++i) body += " ds_read_b32 v" + std::to_string(i) + ", v0 offset:" + std::to_string(4 * i) + "\n";
      body += " v_mov_b32 v20, v" + std::to_string(reg) + "\n s_endpgm";
      auto co = cdnajit::read_code_object(assemble(asm_kernel("sat", body, arch, 512, "", 24), arch));
      dev.sim.launch(co, "sat", ka, dims1(1, 64));
    };
    // 15 outstanding (the counter's maximum): all still pending, the oldest included.
    std::string msg = error_of([&] { run(15, 1); });
    CHECK_THAT(msg, Contains("reads v1 while the load"));
    CHECK_THAT(msg, Contains("s_waitcnt lgkmcnt(14) is needed"));
    // The 16th issue waits for the oldest to return: v1 is then complete, v2 is not.
    CHECK(error_of([&] { run(16, 1); }) == "<no error>");
    msg = error_of([&] { run(16, 2); });
    CHECK_THAT(msg, Contains("reads v2 while the load"));
    CHECK_THAT(msg, Contains("s_waitcnt lgkmcnt(14) is needed"));
    // One more issue retires the next oldest.
    CHECK(error_of([&] { run(17, 2); }) == "<no error>");
    msg = error_of([&] { run(17, 3); });
    CHECK_THAT(msg, Contains("reads v3 while the load"));
  }
}

TEST_CASE("a launch's Error says its kind: out of bounds, unwaited read, deadlock, other", "[sim][check]") {
  using Kind = cdnajit::sim::LaunchError::Kind;
  const Arch arch = Arch::gfx942;
  Device dev(arch);
  uint64_t buf = dev.upload(std::vector<uint32_t>(64), "buf");
  std::vector<uint8_t> ka(16, 0);
  std::memcpy(ka.data(), &buf, 8);
  auto kind_of = [&](const std::string& body, uint32_t block = 64) {
    auto co = cdnajit::read_code_object(assemble(asm_kernel("k", body, arch), arch));
    try {
      dev.sim.launch(co, "k", ka, dims1(1, block));
    } catch (const cdnajit::sim::LaunchError& e) {
      return e.kind;
    }
    FAIL("no LaunchError");
    return Kind::Other;
  };
  const std::string head = "s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n v_lshlrev_b32 v0, 2, v0\n";
  CHECK(kind_of(head + " global_store_dword v0, v0, s[2:3] offset:256\n s_endpgm") == Kind::OutOfBounds);
  CHECK(kind_of(head + " global_load_dword v1, v0, s[2:3]\n v_add_u32 v2, 1, v1\n s_endpgm") == Kind::UnwaitedRead);
  CHECK(kind_of(" v_cmp_gt_u32 vcc, 64, v0\n s_cbranch_vccz BB1\nBB0:\n s_cmp_eq_u32 s4, 0\n s_cbranch_scc1 BB0\n"
                " s_endpgm\nBB1:\n s_barrier\n s_endpgm", 128) == Kind::Deadlock);
  CHECK(kind_of(" s_sendmsghalt sendmsg(MSG_INTERRUPT)\n s_endpgm") == Kind::Other);
}

TEST_CASE("buffer resources with SWIZZLE_ENABLE and ADD_TID_ENABLE: addresses as the ISA guide's formula gives",
          "[sim][check]") {
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t buf = dev.upload(std::vector<uint32_t>(128, 0xeeee), "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    // Lane l stores l + 1 at index l, offset 4. `word1_or` and `word3` complete the V#.
    auto store = [&](const std::string& word1_or, const std::string& word3, const std::string& inst) {
      auto co = cdnajit::read_code_object(assemble(asm_kernel("swz",
          " s_load_dwordx2 s[4:5], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n s_or_b32 s5, s5, " + word1_or +
          "\n s_mov_b32 s6, 1000\n s_mov_b32 s7, " + word3 + "\n v_mov_b32 v1, 4\n v_add_u32 v2, 1, v0\n v_mov_b32 v3, 0\n " +
          inst + "\n s_endpgm", arch), arch));
      dev.sim.launch(co, "swz", ka, dims1(1, 64));
    };
    // Swizzled: stride 8 (word1[29:16]), SWIZZLE_ENABLE (word1[31]); ELEMENT_SIZE 4 bytes (word3[20:19] = 1),
    // INDEX_STRIDE 16 (word3[22:21] = 1). Address = (l / 16 * 8 + 4 / 4 * 4) * 16 + l % 16 * 4 + 4 % 4.
    store("0x80080000", "0x2a0000", "buffer_store_dword v2, v[0:1], s[4:7], 0 idxen offen");
    auto o = dev.download<uint32_t>(buf, 128);
    for (uint32_t l = 0; l < 64; ++l) {
      INFO("lane " << l);
      const uint32_t addr = (l / 16 * 8 + 4) * 16 + l % 16 * 4;  // lane 0: 64, lane 15: 124, lane 16: 192
      CHECK(o[addr / 4] == l + 1);
    }
    CHECK(o[0] == 0xeeee);   // bytes 0..63 of each 128-byte block hold the records' first element
    CHECK(o[15] == 0xeeee);
    // ADD_TID_ENABLE (word3[23]) without idxen: index = lane id; stride 4, linear: address = 4 * l.
    store("0x40000", "0x820000", "buffer_store_dword v2, off, s[4:7], 0");
    o = dev.download<uint32_t>(buf, 128);
    for (uint32_t l = 0; l < 64; ++l) CHECK(o[l] == l + 1);
    // SWIZZLE_ENABLE with CACHE_SWIZZLE (word1[30]) on a raw offen access: the MI300 cache-swizzle mode, linear.
    store("0xc0080000", "0x2a0000", "v_lshlrev_b32 v1, 2, v0\n buffer_store_dword v2, v1, s[4:7], 0 offen offset:4");
    o = dev.download<uint32_t>(buf, 128);
    for (uint32_t l = 0; l < 64; ++l) CHECK(o[l + 1] == l + 1);
    // A swizzled access wider than an element: its bytes are not contiguous, an Error.
    std::string msg = error_of([&] { store("0x80080000", "0x2a0000", "buffer_store_dwordx2 v[2:3], v[0:1], s[4:7], 0 idxen offen"); });
    CHECK_THAT(msg, Contains("crosses an element (8 bytes at offset 4, the V#'s ELEMENT_SIZE is 4 bytes"));
  }
}

TEST_CASE("ds_nop counts on lgkmcnt: an s_waitcnt lgkmcnt(1) after it covers the DS read before it", "[sim][check]") {
  // LLVM 22 counts ds_nop on lgkmcnt (DSInstructions.td: DS_VOID keeps DS_Pseudo's LGKM_CNT = 1), as the
  // ISA table does; DS operations complete in order, so lgkmcnt(1) leaves only the ds_nop outstanding.
  for (Arch arch : kArchs) {
    Device dev(arch);
    uint64_t buf = dev.upload(std::vector<uint32_t>(64, 0), "buf");
    std::vector<uint8_t> ka(16, 0);
    std::memcpy(ka.data(), &buf, 8);
    auto co = cdnajit::read_code_object(assemble(asm_kernel("dsnop",
        " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v5, 2, v0\n v_add_u32 v6, 100, v0\n ds_write_b32 v5, v6\n"
        " s_waitcnt lgkmcnt(0)\n ds_read_b32 v1, v5\n ds_nop\n s_waitcnt lgkmcnt(1)\n"
        " global_store_dword v5, v1, s[2:3]\n s_endpgm", arch, 256), arch));
    dev.sim.launch(co, "dsnop", ka, dims1(1, 64));
    auto out = dev.download<uint32_t>(buf, 64);
    for (int l = 0; l < 64; ++l) REQUIRE(out[l] == uint32_t(100 + l));
  }
}
