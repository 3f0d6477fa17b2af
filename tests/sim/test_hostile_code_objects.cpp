// Code objects written to hurt the reader, the decoder and the simulator: each
// must end in a cdnajit::Error that names the problem (never a crash, a hang,
// an unbounded allocation or a silently wrong run).
#include <catch2/catch.hpp>

#include "jit/asm/assemble.hpp"
#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using Catch::Matchers::Contains;

namespace {

// A hand-written kernel with extra descriptor directives; s[0:1] = kernarg pointer.
std::string kernel_text(const std::string& body, const std::string& directives = "") {
  return ".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n" + body +
         "\n.size k, .-k\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
         "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 16\n  .amdhsa_accum_offset 8\n" +
         directives + ".end_amdhsa_kernel\n";
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const cdnajit::Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("hostile code object: an unlinked relocatable object is rejected by name", "[sim][hostile]") {
  cdnajit::AsmResult r = cdnajit::assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942);
  REQUIRE(r.ok);
  std::string msg = error_of([&] { cdnajit::read_code_object(r.object); });
  CHECK_THAT(msg, Contains("relocatable object (ET_REL") && Contains("Link it first"));
  // The same text linked is fine.
  CHECK_NOTHROW(cdnajit::read_code_object(assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942)));
}

TEST_CASE("hostile code object: sizes in the descriptor are capped with a named limit", "[sim][hostile]") {
  // kernarg_size 0xfffffff0 once cost 116 s and 12.6 GB; a huge scratch size aborted a simulator worker thread.
  std::string k = error_of([] {
    cdnajit::read_code_object(assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 0xfffffff0\n"), Arch::gfx942));
  });
  CHECK_THAT(k, Contains("kernarg_size 4294967280 exceeds the limit of 65536") && Contains("kMaxKernargBytes"));
  std::string p = error_of([] {
    cdnajit::read_code_object(assemble(
        kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n  .amdhsa_private_segment_fixed_size 0x7ffffff0\n"), Arch::gfx942));
  });
  CHECK_THAT(p, Contains("private_segment_fixed_size") && Contains("kMaxPrivateSegmentBytes"));
  // Even past the reader (a CodeObject built in memory), the launch fails cleanly, never std::terminate.
  auto co = cdnajit::read_code_object(assemble(kernel_text("s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  co.kernels[0].private_segment_size = 0x7ffffff0;
  Device dev(Arch::gfx942);
  std::vector<uint8_t> ka(16, 0);
  cdnajit::sim::Options o;
  o.threads = 2;
  std::string l = error_of([&] { dev.sim.launch(co, "k", ka, dims1(4, 64), o); });
  CHECK_THAT(l, Contains("private segment (scratch) bytes") && Contains("kernel k"));
}

TEST_CASE("hostile code object: code ending mid-instruction is not decoded from bytes past its end", "[sim][hostile]") {
  // v_mov_b32 with a 32-bit literal is 8 bytes; cut the kernel (and .text) after its first 4.
  auto co = cdnajit::read_code_object(
      assemble(kernel_text("s_nop 0\n v_mov_b32 v1, 0x12345678\n s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  Device dev(Arch::gfx942);
  std::string whole = dev.sim.disassemble(co, "k");
  REQUIRE_THAT(whole, Contains("0x12345678"));
  cdnajit::CodeObject cut = co;
  cut.kernels[0].code_size = 8;  // s_nop (4) + the first dword of v_mov_b32
  cut.text.resize(cut.kernels[0].entry_offset + 8);
  cut.bytes.push_back(0);  // a different cache key than `co`
  cdnajit::sim::Simulator fresh(Arch::gfx942);
  std::string dis = fresh.disassemble(cut, "k");
  INFO(dis);
  CHECK_THAT(dis, Contains("undecodable"));
  CHECK_THAT(dis, !Contains("0x12345678"));
}

TEST_CASE("hostile code object: an infinite loop stops at the wall-clock limit", "[sim][hostile]") {
  auto co = cdnajit::read_code_object(
      assemble(kernel_text("BB0:\n s_add_u32 s4, s4, 1\n s_branch BB0\n s_endpgm", "  .amdhsa_kernarg_size 16\n"), Arch::gfx942));
  Device dev(Arch::gfx942);
  cdnajit::sim::Options o;
  o.instruction_budget = 1ull << 48;  // the budget alone would take hours
  o.time_limit_seconds = 0.2;
  std::vector<uint8_t> ka(16, 0);
  std::string msg = error_of([&] { dev.sim.launch(co, "k", ka, dims1(1, 64), o); });
  CHECK_THAT(msg, Contains("time limit of 0.2 s exceeded") && Contains("--timeout") && Contains("kernel k"));
}
