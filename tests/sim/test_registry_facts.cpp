// The simulator binds semantics by opcode and reads each instruction's unit and wait counter from
// its ISA table row (jit/isa), instead of restating them per handler. These check what that
// changed: the decoded unit and counter of every instruction of a kernel are its row's, including
// the five rows whose counter the handler registrations used to restate differently (ds_nop,
// s_dcache_inv/wb, s_memtime, s_memrealtime: all lgkmcnt, as LLVM 22 counts them — DS_VOID keeps
// DS_Pseudo's LGKM_CNT = 1, SM_Inval_Pseudo / SM_Time_Pseudo keep SM_Pseudo's).
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/coverage.hpp"
#include "runtime/sim/sim_internal.hpp"
#include "tests/sim/hip_compile.hpp"

using namespace cdnajit;

TEST_CASE("decoded instructions take their unit and wait counter from the ISA table row", "[sim][registry]") {
  CHECK(sim::executable_mnemonics().size() > 800);  // the registry is populated
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    const std::string cpu(arch_name(arch));
    const std::string text =
        ".amdgcn_target \"amdgcn-amd-amdhsa--" + cpu + "\"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"
        " s_load_dwordx2 s[2:3], s[0:1], 0x0\n s_memtime s[4:5]\n s_memrealtime s[6:7]\n s_dcache_wb\n s_dcache_inv\n"
        " ds_nop\n ds_read_b32 v1, v0\n global_load_dword v2, v0, s[2:3]\n flat_load_dword v3, v[4:5]\n"
        " v_add_u32 v1, v1, v2\n s_waitcnt vmcnt(0) lgkmcnt(0)\n s_endpgm\n.size k, .-k\n"
        ".rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
        "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 16\n  .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n";
    const CodeObject co = read_code_object(simtest::assemble(text, arch));
    const auto dk = sim::decode_kernel(co, *co.find("k"));
    std::map<std::string, int> counter;
    for (const sim::Op& op : dk->ops) {
      INFO(op.text);
      REQUIRE(op.fn != nullptr);
      REQUIRE(op.info != nullptr);
      CHECK(op.unit == op.info->unit);
      CHECK(op.counter == sim::counter_code(*op.info));
      counter[std::string(op.info->mnemonic)] = op.counter;
    }
    // The codes of Op::counter: 1 vmcnt, 2 lgkmcnt in order, 3 lgkmcnt out of order (SMEM), 4 both (FLAT).
    CHECK(counter.at("ds_nop") == 2);
    CHECK(counter.at("s_dcache_wb") == 3);
    CHECK(counter.at("s_dcache_inv") == 3);
    CHECK(counter.at("s_memtime") == 3);
    CHECK(counter.at("s_memrealtime") == 3);
    CHECK(counter.at("ds_read_b32") == 2);
    CHECK(counter.at("global_load_dword") == 1);
    CHECK(counter.at("flat_load_dword") == 4);
    CHECK(counter.at("v_add_u32") == 0);
  }
}
