// Store visibility between the waves of a workgroup (sim::Options::store_release): a store is
// visible to another wave only once the writer's s_waitcnt retired it, so reading (or writing)
// its bytes from another wave before that is an Error naming both waves, both instructions and
// the s_barrier between them. Hand-written kernels, and clang-22's own __syncthreads() code:
// that must verify clean (static) and run clean, and fail both ways with the wait before the
// barrier removed.
#include <catch2/catch.hpp>

#include <functional>
#include <regex>

#include "jit/asm/assemble.hpp"
#include "jit/asm/link.hpp"
#include "tests/runtime/static_verify.hpp"
#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using Catch::Matchers::Contains;
using SR = cdnajit::sim::Options::StoreRelease;

namespace {

const Arch kArchs[] = {Arch::gfx942, Arch::gfx950};

// Two waves (128 work-items); s[0:1] = kernarg pointer ({buf}), v0 = work-item id; 1 KiB of LDS.
std::string two_wave_kernel(const std::string& body, Arch arch, bool tg_split = false) {
  std::string cpu(cdnajit::arch_name(arch));
  return ".amdgcn_target \"amdgcn-amd-amdhsa--" + cpu + "\"\n.text\n.globl vis\n.p2align 8\n.type vis,@function\nvis:\n" +
         body + "\n.size vis, .-vis\n.rodata\n.p2align 6\n.amdhsa_kernel vis\n"
         "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_kernarg_size 16\n  .amdhsa_group_segment_fixed_size 1024\n"
         "  .amdhsa_next_free_vgpr 16\n  .amdhsa_next_free_sgpr 16\n  .amdhsa_accum_offset 16\n" +
         (tg_split ? "  .amdhsa_tg_split 1\n" : "") + ".end_amdhsa_kernel\n";
}

// Runs `body` over one workgroup of two waves with buf = 128 dwords of `init`; returns the
// simulator's Error text, or "" (then `out` holds buf).
std::string run(Arch arch, const std::string& body, SR mode, std::vector<uint32_t>* out = nullptr, int threads = 1,
                bool tg_split = false, uint32_t init = 0) {
  Device dev(arch);
  auto co = cdnajit::read_code_object(assemble(two_wave_kernel(body, arch, tg_split), arch));
  uint64_t buf = dev.upload(std::vector<uint32_t>(128, init), "buf");
  std::vector<uint8_t> ka(16, 0);
  std::memcpy(ka.data(), &buf, 8);
  cdnajit::sim::Options o;
  o.store_release = mode;
  o.threads = threads;
  try {
    dev.sim.launch(co, "vis", ka, dims1(1, 128), o);
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  if (out) *out = dev.download<uint32_t>(buf, 128);
  return "";
}

// Thread t stores 3t+1 in LDS dword t, passes the barrier, and stores LDS dword t ^ 64 (the same
// lane of the other wave) to buf[t]. `wait` is what stands before the barrier.
std::string lds_handoff(const std::string& wait, const std::string& read_offset = "") {
  return " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n v_mad_u32_u24 v2, v0, 3, 1\n"
         " s_waitcnt lgkmcnt(0)\n ds_write_b32 v1, v2\n" + wait +
         " s_barrier\n v_xor_b32 v4, 0x100, v1\n ds_read_b32 v5, v4" + read_offset + "\n s_waitcnt lgkmcnt(0)\n"
         " global_store_dword v1, v5, s[2:3]\n s_endpgm";
}

}  // namespace

// One s_waitcnt retires two LDS stores at once (the simulator retires them in one step); a third
// store stays pending across the barrier, so the reader's access is checked, and the second
// store's bytes must count as retired.
TEST_CASE("store visibility: every store an s_waitcnt retires at once is visible after the barrier, beside a later pending one",
          "[sim][check][visibility]") {
  const std::string body =
      " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n v_mad_u32_u24 v2, v0, 3, 1\n s_waitcnt lgkmcnt(0)\n"
      " ds_write_b32 v1, v2\n ds_write_b32 v1, v2 offset:512\n s_waitcnt lgkmcnt(0)\n ds_write_b32 v1, v0\n s_barrier\n"
      " v_xor_b32 v4, 0x100, v1\n ds_read_b32 v5, v4 offset:512\n s_waitcnt lgkmcnt(0)\n"
      " global_store_dword v1, v5, s[2:3]\n s_endpgm";
  for (Arch arch : kArchs)
    for (int threads : {1, 2}) {
      INFO(cdnajit::arch_name(arch) << ", " << threads << " host threads");
      std::vector<uint32_t> out;
      REQUIRE(run(arch, body, SR::Lds, &out, threads) == "");
      for (uint32_t t = 0; t < 128; ++t) CHECK(out[t] == 3 * (t ^ 64) + 1);
    }
}

// s_waitcnt lgkmcnt(1) retires the first of two LDS stores: the second (its tags not yet written
// when the first retires) stays pending, and another wave reading its bytes is an Error.
TEST_CASE("store visibility: the store an lgkmcnt(1) leaves outstanding stays pending when the older one retires",
          "[sim][check][visibility]") {
  const std::string body =
      " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n v_mad_u32_u24 v2, v0, 3, 1\n s_waitcnt lgkmcnt(0)\n"
      " ds_write_b32 v1, v2\n ds_write_b32 v1, v2 offset:512\n s_waitcnt lgkmcnt(1)\n s_barrier\n"
      " v_xor_b32 v4, 0x100, v1\n ds_read_b32 v5, v4 offset:512\n s_waitcnt lgkmcnt(0)\n"
      " global_store_dword v1, v5, s[2:3]\n s_endpgm";
  for (Arch arch : kArchs)
    for (int threads : {1, 2}) {
      INFO(cdnajit::arch_name(arch) << ", " << threads << " host threads");
      const std::string msg = run(arch, body, SR::Lds, nullptr, threads);
      INFO(msg);
      CHECK_THAT(msg, Contains("'ds_read_b32 v5, v4 offset:512'"));
      CHECK_THAT(msg, Contains("with 'ds_write_b32 v1, v2 offset:512'"));
      CHECK_THAT(msg, Contains("has not completed"));
    }
}

TEST_CASE("store visibility: an LDS store read by another wave before the writer's lgkmcnt wait is an Error naming both waves",
          "[sim][check][visibility]") {
  for (Arch arch : kArchs)
    for (int threads : {1, 2}) {
      INFO(cdnajit::arch_name(arch) << ", " << threads << " host threads");
      std::vector<uint32_t> out;
      REQUIRE(run(arch, lds_handoff(" s_waitcnt lgkmcnt(0)\n"), SR::Lds, &out, threads) == "");
      for (uint32_t t = 0; t < 128; ++t) CHECK(out[t] == 3 * (t ^ 64) + 1);
      std::string msg = run(arch, lds_handoff(""), SR::Lds, nullptr, threads);
      INFO(msg);
      // The reader: wave 0 (it runs past the barrier first), its instruction and lane.
      CHECK_THAT(msg, Contains("pc 0x2c 'ds_read_b32 v5, v4', workgroup (0,0,0) wave 0, lane 0: "));
      // The writer, its instruction, the bytes, the barrier and the wait it needs.
      CHECK_THAT(msg, Contains("reads LDS bytes [0x100, 0x104) that wave 1 of this workgroup stored with "
                               "'ds_write_b32 v1, v2' at pc 0x18"));
      CHECK_THAT(msg, Contains("wave 1 passed the s_barrier at pc 0x20 between them without waiting for it: it needs "
                               "s_waitcnt lgkmcnt(0) before that s_barrier"));
      // Off: the simulator's LDS is coherent at issue, so the kernel "works".
      CHECK(run(arch, lds_handoff(""), SR::None, &out, threads) == "");
    }
}

TEST_CASE("store visibility: only the bytes a pending store wrote are off limits", "[sim][check][visibility]") {
  for (Arch arch : kArchs) {
    // Reading LDS nobody stored to (0x200 bytes further) is fine without the wait.
    CHECK(run(arch, lds_handoff("", " offset:512"), SR::Lds) == "");
    // A store by the other wave that another store of that wave then covers keeps the newest pending.
    std::string two = " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n s_waitcnt lgkmcnt(0)\n"
                      " ds_write_b32 v1, v0\n s_waitcnt lgkmcnt(0)\n ds_write_b32 v1, v0 offset:512\n s_barrier\n"
                      " v_xor_b32 v4, 0x100, v1\n ds_read_b32 v5, v4\n ds_read_b32 v6, v4 offset:512\n s_waitcnt lgkmcnt(0)\n"
                      " global_store_dword v1, v6, s[2:3]\n s_endpgm";
    std::string msg = run(arch, two, SR::Lds);
    INFO(msg);
    CHECK_THAT(msg, Contains("'ds_read_b32 v6, v4 offset:512'") && Contains("reads LDS bytes [0x300, 0x304)"));
    CHECK_THAT(msg, Contains("'ds_write_b32 v1, v0 offset:512'"));
  }
}

TEST_CASE("store visibility: LDS atomics of several waves need no wait between them; reading the result does",
          "[sim][check][visibility]") {
  // Every thread adds 1 to LDS dword 0; after the barrier thread 0 of each wave reads the sum.
  auto body = [](const std::string& wait) {
    return " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_mov_b32 v1, 0\n v_mov_b32 v2, 1\n s_waitcnt lgkmcnt(0)\n"
           " ds_add_u32 v1, v2\n" + wait + " s_barrier\n ds_read_b32 v5, v1\n s_waitcnt lgkmcnt(0)\n"
           " v_lshlrev_b32 v3, 2, v0\n global_store_dword v3, v5, s[2:3]\n s_endpgm";
  };
  for (Arch arch : kArchs) {
    std::vector<uint32_t> out;
    REQUIRE(run(arch, body(" s_waitcnt lgkmcnt(0)\n"), SR::Lds, &out) == "");
    CHECK(out[0] == 128);
    CHECK(out[127] == 128);
    std::string msg = run(arch, body(""), SR::Lds);
    INFO(msg);
    CHECK_THAT(msg, Contains("'ds_read_b32 v5, v1'") && Contains("reads LDS bytes [0x0, 0x4) that wave 1") &&
                        Contains("stored with 'ds_add_u32 v1, v2'"));
  }
}

TEST_CASE("store visibility: a DS write over another wave's pending store is an Error", "[sim][check][visibility]") {
  // Both waves write LDS dword 0 (from lane 0) without a wait in between: the second write races the first.
  const std::string body = " v_mov_b32 v1, 0\n ds_write_b32 v1, v0\n s_barrier\n ds_write_b32 v1, v0 offset:4\n"
                           " v_cmp_eq_u32 vcc, 64, v0\n s_and_saveexec_b64 s[4:5], vcc\n ds_write_b32 v1, v0\n s_endpgm";
  for (Arch arch : kArchs) {
    std::string msg = run(arch, body, SR::Lds);
    INFO(msg);
    CHECK_THAT(msg, Contains("wave 1, lane 0: writes LDS bytes [0x0, 0x4) that wave 0 of this workgroup stored"));
  }
}

TEST_CASE("store visibility: global stores need the writer's vmcnt wait in threadgroup-split kernels or under All",
          "[sim][check][visibility]") {
  // Thread t stores 3t+1 to buf[t], passes the barrier, loads buf[t ^ 64] (the other wave's), and after a
  // second barrier stores the sum of both back to buf[t].
  auto body = [](const std::string& wait) {
    return " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n v_mad_u32_u24 v2, v0, 3, 1\n"
           " s_waitcnt lgkmcnt(0)\n global_store_dword v1, v2, s[2:3]\n" + wait +
           " s_barrier\n v_xor_b32 v4, 0x100, v1\n global_load_dword v5, v4, s[2:3]\n s_waitcnt vmcnt(0)\n"
           " s_barrier\n v_add_u32 v5, v5, v2\n global_store_dword v1, v5, s[2:3]\n s_endpgm";
  };
  for (Arch arch : kArchs) {
    INFO(cdnajit::arch_name(arch));
    for (bool tg : {false, true}) {
      std::vector<uint32_t> out;
      REQUIRE(run(arch, body(" s_waitcnt vmcnt(0)\n"), tg ? SR::Lds : SR::All, &out, 1, tg) == "");
      for (uint32_t t = 0; t < 128; ++t) CHECK(out[t] == 3 * t + 1 + 3 * (t ^ 64) + 1);
      std::string msg = run(arch, body(""), tg ? SR::Lds : SR::All, nullptr, 1, tg);
      INFO(msg);
      CHECK_THAT(msg, Contains("'global_load_dword v5, v4, s[2:3]', workgroup (0,0,0) wave 0, lane 0: reads global bytes"));
      CHECK_THAT(msg, Contains("that wave 1 of this workgroup stored with 'global_store_dword v1, v2, s[2:3]'"));
      CHECK_THAT(msg, Contains("needs s_waitcnt vmcnt(0) before that s_barrier"));
    }
    // Not threadgroup-split, default mode: the waves share the CU's L1, so LLVM's memory model needs no wait.
    CHECK(run(arch, body(""), SR::Lds) == "");
  }
}

TEST_CASE("store visibility: global atomics of several waves on one address need no wait between them",
          "[sim][check][visibility]") {
  const std::string body = " s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_mov_b32 v1, 0\n v_mov_b32 v2, 1\n s_waitcnt lgkmcnt(0)\n"
                           " global_atomic_add v1, v2, s[2:3]\n s_waitcnt vmcnt(0)\n s_barrier\n s_endpgm";
  for (Arch arch : kArchs) {
    std::vector<uint32_t> out;
    REQUIRE(run(arch, body, SR::All, &out) == "");
    CHECK(out[0] == 128);
  }
}

// ---- clang-22's __syncthreads() ------------------------------------------------------------

namespace {

// LDS: the classic reverse through shared memory. Global: a workgroup-private scratch buffer.
const char* kLdsSrc = R"(
extern "C" __global__ void lds_rev(unsigned* out) {
  __shared__ unsigned s[128];
  unsigned t = tid();
  s[t] = 3 * t + 1;
  sync();
  out[t] = s[127 - t];
})";
const char* kGlobalSrc = R"(
extern "C" __global__ void glob_rev(unsigned* out, unsigned* tmp) {
  unsigned t = tid();
  tmp[t] = 3 * t + 1;
  sync();
  out[t] = tmp[127 - t];
})";

// The s_waitcnt right before the (first) s_barrier of the kernel's assembly, without its comment.
std::string wait_before_barrier(const std::string& s) {
  static const std::regex wait_then_barrier(R"(\n[ \t]*(s_waitcnt [^\n;]*[^\n; \t])[^\n]*\n[ \t]*s_barrier\b)");
  std::smatch m;
  return std::regex_search(s, m, wait_then_barrier) ? m[1].str() : "<none>";
}

// The kernel's assembly with the s_waitcnt right before the s_barrier removed (exactly one).
std::string without_barrier_wait(const std::string& s) {
  static const std::regex wait_then_barrier(R"(\n[ \t]*s_waitcnt[^\n]*\n([ \t]*s_barrier\b))");
  std::smatch m;
  REQUIRE(std::regex_search(s, m, wait_then_barrier));
  INFO(m[0].str());
  return std::string(s.begin(), s.begin() + m.position(0)) + "\n" + m[1].str() + std::string(m[0].second, s.end());
}

// Static verify findings of every kernel in the code object (the release by its TG_SPLIT bit).
std::string static_findings(const std::vector<uint8_t>& bytes) {
  cdnajit::CodeObject co = cdnajit::read_code_object(bytes);
  std::string out;
  for (const cdnajit::KernelInfo& k : co.kernels) {
    auto prog = kt::decoded_program(co, k.name);
    auto release = k.tg_split() ? cdnajit::passes::BarrierRelease::All : cdnajit::passes::BarrierRelease::Lds;
    for (const auto& f : cdnajit::passes::run_waitcnt(prog, co.arch, cdnajit::passes::Mode::Verify, release).findings)
      out += "[" + f.rule + "] " + f.message + "\n";
  }
  return out;
}

// Runs lds_rev / glob_rev on 128 threads; "" and out[t] = 3(127 - t) + 1, or the Error.
std::string run_rev(Arch arch, const std::vector<uint8_t>& bytes, const std::string& name) {
  Device dev(arch);
  auto co = cdnajit::read_code_object(bytes);
  uint64_t out = dev.upload(std::vector<uint32_t>(128), "out"), tmp = dev.upload(std::vector<uint32_t>(128), "tmp");
  try {
    ArgPack args;
    args.add(out);
    if (name == "glob_rev") args.add(tmp);
    dev.run(co, name, args, dims1(1, 128));
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  auto got = dev.download<uint32_t>(out, 128);
  for (uint32_t t = 0; t < 128; ++t) CHECK(got[t] == 3 * (127 - t) + 1);
  return "";
}

}  // namespace

TEST_CASE("store visibility: clang-22's __syncthreads() verifies and runs clean; without its wait both checks fail",
          "[sim][check][visibility][clang]") {
  struct Case {
    const char* src;
    const char* name;
    std::vector<std::string> flags;
    const char* wait;  // what clang puts before s_barrier
  };
  const Case cases[] = {
      {kLdsSrc, "lds_rev", {}, "lgkmcnt(0)"},
      // Threadgroup-split mode: the waves of a workgroup may run on different CUs.
      {kGlobalSrc, "glob_rev", {"-Xclang", "-target-feature", "-Xclang", "+tgsplit"}, "vmcnt(0)"},
  };
  for (Arch arch : kArchs)
    for (const Case& c : cases) {
      INFO(cdnajit::arch_name(arch) << " " << c.name);
      std::vector<uint8_t> co = compile_hip(c.src, arch, c.flags);
      std::vector<std::string> sflags = c.flags;
      sflags.push_back("-S");
      std::vector<uint8_t> s_bytes = compile_hip(c.src, arch, sflags);
      const std::string text(s_bytes.begin(), s_bytes.end());
      // What clang emits before the barrier (the rule this project follows).
      CHECK(wait_before_barrier(text) == std::string("s_waitcnt ") + c.wait);
      CHECK(static_findings(co) == "");
      CHECK(run_rev(arch, co, c.name) == "");
      // The same code without that wait.
      const std::string cut = without_barrier_wait(text);
      cdnajit::AsmResult ar = cdnajit::assemble(cut, arch);
      INFO(cdnajit::format_diagnostics(ar.diagnostics));
      REQUIRE(ar.ok);
      std::vector<uint8_t> bad = cdnajit::link_code_object(ar.object, arch);
      const std::string found = static_findings(bad);
      INFO(found);
      CHECK_THAT(found, Contains("'s_barrier' (instruction #") && Contains(" to the other waves of the workgroup") &&
                            Contains(std::string("needs 's_waitcnt ") + c.wait + "' before it"));
      const std::string msg = run_rev(arch, bad, c.name);
      INFO(msg);
      CHECK_THAT(msg, Contains("that wave 1 of this workgroup stored with") && Contains("wave 0, lane 0") &&
                          Contains(std::string("needs s_waitcnt ") + c.wait + " before that s_barrier"));
    }
  // The global kernel without tgsplit: clang emits no wait, and it verifies and runs clean by default.
  for (Arch arch : kArchs) {
    std::vector<uint8_t> co = compile_hip(kGlobalSrc, arch, {});
    CHECK(static_findings(co) == "");
    CHECK(run_rev(arch, co, "glob_rev") == "");
  }
}
