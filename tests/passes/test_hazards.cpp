// Hazard pass: per rule, a minimal program where Auto inserts exactly the required
// wait states and no more, and Verify rejects the bare program naming the rule.
#include <catch2/catch.hpp>

#include "jit/passes/hazard_context.hpp"
#include "program_text.hpp"

using namespace cdnajit;
using passes::Mode;
using passes_test::findings_text;
using passes_test::program;
using passes_test::text;
using Lines = std::vector<std::string>;

namespace {

// Checks one hazard: the bare program is rejected by Verify with `rule` among the
// findings; Auto inserts exactly `wait_states`; the fixed program passes Verify; and
// with `wait_states` independent instructions already between the pair Auto adds nothing.
void expect_hazard(Arch arch, const Lines& lines, const std::string& rule, int wait_states) {
  INFO(arch_name(arch) << " rule " << rule);
  auto bare = program(lines);
  auto v = passes::run_hazards(bare, arch, Mode::Verify).findings;
  bool named = false;
  for (const auto& f : v)
    if (f.rule == rule && f.message.rfind(rule + ":", 0) == 0) named = true;
  INFO(findings_text(v));
  CHECK(named);
  CHECK(bare.size() == lines.size());

  auto fixed = program(lines);
  auto rep = passes::run_hazards(fixed, arch, Mode::Auto);
  CHECK(rep.wait_states_inserted == wait_states);
  CHECK(rep.nops_inserted == (wait_states + 7) / 8);
  CHECK(findings_text(passes::run_hazards(fixed, arch, Mode::Verify).findings) == "");

  // One wait state fewer than required must still be reported.
  if (wait_states > 1) {
    Lines short_by_one = lines;
    for (int left = wait_states - 1; left > 0; left -= 8)
      short_by_one.insert(short_by_one.begin() + 1, "s_nop " + std::to_string(std::min(left, 8) - 1));
    auto p = program(short_by_one);
    auto r = passes::run_hazards(p, arch, Mode::Auto);
    CHECK(r.wait_states_inserted == 1);
  }
  // Comment lines in between (Kernel::comment) emit nothing, so they give no wait state.
  auto commented = program(lines);
  for (int k = 0; k < wait_states; ++k) {
    isa::MachineInst note;
    note.comment = "a comment line";
    commented.insert(commented.begin() + 1, note);
  }
  CHECK(passes::run_hazards(commented, arch, Mode::Auto).wait_states_inserted == wait_states);
  // Independent instructions in between count as wait states.
  Lines padded = lines;
  for (int k = 0; k < wait_states; ++k) padded.insert(padded.begin() + 1, "s_mov_b32 s99, 0");
  auto p = program(padded);
  CHECK(passes::run_hazards(p, arch, Mode::Auto).wait_states_inserted == 0);
}

void expect_clean(Arch arch, const Lines& lines) {
  auto p = program(lines);
  CHECK(findings_text(passes::run_hazards(p, arch, Mode::Verify).findings) == "");
  CHECK(passes::run_hazards(p, arch, Mode::Auto).wait_states_inserted == 0);
}

}  // namespace

TEST_CASE("hazard valu-sgpr-vmem: VALU writes SGPR, VMEM reads it (5)", "[hazards]") {
  for (Arch a : {Arch::gfx942, Arch::gfx950})
    expect_hazard(a, {"v_readfirstlane_b32 s4, v0", "buffer_load_dword v1, v2, s[8:11], s4 offen"}, "valu-sgpr-vmem", 5);
  expect_hazard(Arch::gfx942, {"v_cmp_gt_u32_e64 s[4:5], v0, v1", "global_load_dword v1, v2, s[4:5]"}, "valu-sgpr-vmem", 5);
  expect_clean(Arch::gfx942, {"s_mov_b32 s4, 0", "buffer_load_dword v1, v2, s[8:11], s4 offen"});
}

TEST_CASE("hazard valu-vcc-div-fmas (4)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"v_cmp_gt_f32_e32 vcc, v0, v1", "v_div_fmas_f32 v2, v3, v4, v5"}, "valu-vcc-div-fmas", 4);
}

TEST_CASE("hazard valu-sgpr-lane-select: v_readlane/v_writelane lane select (4)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"v_readfirstlane_b32 s4, v0", "v_readlane_b32 s5, v1, s4"}, "valu-sgpr-lane-select", 4);
  expect_hazard(Arch::gfx950, {"v_readfirstlane_b32 s4, v0", "v_writelane_b32 v1, s6, s4"}, "valu-sgpr-lane-select", 4);
}

TEST_CASE("hazard valu-sgpr-valu: VALU writes SGPR or VCC, VALU reads it (2)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"v_cmp_gt_u32_e64 s[4:5], v0, v1", "v_cndmask_b32_e64 v2, v3, v4, s[4:5]"},
                "valu-sgpr-valu", 2);
  expect_hazard(Arch::gfx950, {"v_cmp_gt_u32_e32 vcc, v0, v1", "v_cndmask_b32_e32 v2, v3, v4, vcc"}, "valu-sgpr-valu", 2);
  expect_clean(Arch::gfx942, {"s_mov_b64 s[4:5], 0", "v_cndmask_b32_e64 v2, v3, v4, s[4:5]"});
}

TEST_CASE("hazard valu-vgpr-readlane: VALU writes VGPR, v_readfirstlane reads it (1)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"v_add_u32_e32 v1, v2, v3", "v_readfirstlane_b32 s4, v1"}, "valu-vgpr-readlane", 1);
}

TEST_CASE("hazard valu-exec-lane-access: v_cmpx then v_readfirstlane (4)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"v_cmpx_gt_u32_e32 vcc, v0, v1", "v_readfirstlane_b32 s4, v2"}, "valu-exec-lane-access", 4);
}

TEST_CASE("hazard trans-use: transcendental result read by a VALU (1)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"v_exp_f32_e32 v1, v2", "v_add_f32_e32 v3, v1, v4"}, "trans-use", 1);
  expect_clean(Arch::gfx942, {"v_exp_f32_e32 v1, v2", "v_add_f32_e32 v3, v5, v4"});
  expect_clean(Arch::gfx942, {"v_exp_f32_e32 v1, v2", "v_log_f32_e32 v3, v1"});  // trans -> trans is forwarded
}

TEST_CASE("hazard dst-sel-forwarding: partial VGPR write then access (1)", "[hazards]") {
  expect_hazard(Arch::gfx942,
                {"v_add_f16_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0",
                 "v_add_f32_e32 v4, v1, v5"},
                "dst-sel-forwarding", 1);
  expect_hazard(Arch::gfx950, {"v_add_f16_e64 v1, v2, v3 op_sel:[0,0,1]", "v_mov_b32_e32 v4, v1"}, "dst-sel-forwarding", 1);
  expect_clean(Arch::gfx942, {"v_add_f16_e64 v1, v2, v3 op_sel:[1,0,0]", "v_mov_b32_e32 v4, v1"});
  // Packed ops with op_sel_hi[0] = 1 (the default) count as partial writes, as in LLVM.
  expect_hazard(Arch::gfx950, {"v_pk_mul_f16 v2, v1, v1", "v_pk_mul_f16 v3, v2, v1"}, "dst-sel-forwarding", 1);
  expect_clean(Arch::gfx942, {"v_pk_mul_f16 v2, v1, v1 op_sel_hi:[0,1]", "v_pk_mul_f16 v3, v2, v1"});
}

TEST_CASE("hazard dpp: VGPR write then DPP read (2), EXEC write then DPP (5)", "[hazards]") {
  expect_hazard(Arch::gfx942,
                {"v_add_u32_e32 v1, v2, v3", "v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"}, "dpp",
                2);
  expect_hazard(Arch::gfx942,
                {"v_cmpx_gt_u32_e32 vcc, v0, v1", "v_mov_b32_dpp v4, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"},
                "dpp", 5);
}

TEST_CASE("hazard store-data-overwrite: wide store data overwritten by VALU (2)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"global_store_dwordx4 v[0:1], v[2:5], off", "v_mov_b32_e32 v3, 0"},
                "store-data-overwrite", 2);
  expect_hazard(Arch::gfx950, {"buffer_store_dwordx3 v[2:4], v0, s[8:11], 0 offen", "v_mov_b32_e32 v4, 0"},
                "store-data-overwrite", 2);
  expect_clean(Arch::gfx942, {"buffer_store_dwordx4 v[2:5], v0, s[8:11], s4 offen", "v_mov_b32_e32 v3, 0"});
  expect_clean(Arch::gfx942, {"global_store_dwordx2 v[0:1], v[2:3], off", "v_mov_b32_e32 v3, 0"});
}

TEST_CASE("hazard salu-m0: SALU writes M0, LDS DMA reads it (1)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off"}, "salu-m0", 1);
  expect_hazard(Arch::gfx950, {"s_mov_b32 m0, s2", "buffer_load_dword v1, s[4:7], 0 offen lds"}, "salu-m0", 1);
}

TEST_CASE("hazard valu-exec-mfma (4) and valu-vgpr-mfma (2)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"v_cmpx_gt_u32_e32 vcc, v20, v21", "v_mfma_f32_16x16x16_f16 v[0:3], v[10:11], v[12:13], v[0:3]"},
                "valu-exec-mfma", 4);
  expect_hazard(Arch::gfx950, {"v_mov_b32_e32 v10, 0", "v_mfma_f32_16x16x16_f16 v[0:3], v[10:11], v[12:13], v[0:3]"},
                "valu-vgpr-mfma", 2);
}

TEST_CASE("hazard mfma-mfma: by pass count, XDL and arch", "[hazards]") {
  const std::string mfma = "v_mfma_f32_16x16x16_f16 v[0:3], v[10:11], v[12:13], v[0:3]";  // XDL, 4 passes
  // SrcC exactly the same registers: back-to-back accumulation needs nothing (4-pass).
  expect_clean(Arch::gfx942, {mfma, mfma});
  // SrcC overlapping: P + 1 on gfx942, P + 2 on gfx950.
  expect_hazard(Arch::gfx942, {mfma, "v_mfma_f32_16x16x16_f16 v[4:7], v[10:11], v[12:13], v[2:5]"}, "mfma-mfma", 5);
  expect_hazard(Arch::gfx950, {mfma, "v_mfma_f32_16x16x16_f16 v[4:7], v[10:11], v[12:13], v[2:5]"}, "mfma-mfma", 6);
  // SrcA/B: P + 3 (gfx950 +1 for P > 2).
  expect_hazard(Arch::gfx942, {mfma, "v_mfma_f32_16x16x16_f16 v[4:7], v[0:1], v[12:13], v[4:7]"}, "mfma-mfma", 7);
  expect_hazard(Arch::gfx950, {mfma, "v_mfma_f32_16x16x16_f16 v[4:7], v[0:1], v[12:13], v[4:7]"}, "mfma-mfma", 8);
  // Non-XDL (f32 inputs, 8 passes) producer read as SrcA: P + 2.
  expect_hazard(Arch::gfx942, {"v_mfma_f32_16x16x4_f32 v[0:3], v4, v5, v[0:3]",
                               "v_mfma_f32_16x16x4_f32 v[8:11], v1, v5, v[8:11]"},
                "mfma-mfma", 10);
}

TEST_CASE("hazard mfma-read / mfma-overwrite / mfma-srcc-overwrite", "[hazards]") {
  const std::string mfma = "v_mfma_f32_16x16x16_f16 v[0:3], v[10:11], v[12:13], v[4:7]";  // XDL, 4 passes
  expect_hazard(Arch::gfx942, {mfma, "v_add_f32_e32 v20, v1, v1"}, "mfma-read", 7);
  expect_hazard(Arch::gfx950, {mfma, "v_add_f32_e32 v20, v1, v1"}, "mfma-read", 8);
  expect_hazard(Arch::gfx942, {mfma, "global_store_dword v[8:9], v2, off"}, "mfma-read", 7);
  expect_hazard(Arch::gfx942, {mfma, "v_mov_b32_e32 v1, 0"}, "mfma-overwrite", 7);
  expect_hazard(Arch::gfx942, {mfma, "v_mov_b32_e32 v5, 0"}, "mfma-srcc-overwrite", 3);
  // 16 wait states and more: split into s_nop 7 chunks.
  expect_hazard(Arch::gfx950, {"v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7]", "v_add_f32_e32 v20, v1, v1"},
                "mfma-read", 19);
}

TEST_CASE("hazard dot-result: v_dot2 result read by another VALU (3)", "[hazards]") {
  expect_hazard(Arch::gfx950, {"v_dot2_f32_bf16 v1, v2, v3, v1", "v_add_f32_e32 v4, v1, v1"}, "dot-result", 3);
  expect_hazard(Arch::gfx950, {"v_dot2_f32_bf16 v1, v2, v3, v1", "v_dot2_f32_bf16 v5, v1, v3, v5"}, "dot-result", 3);
  // Accumulating into the same SrcC with the same opcode is forwarded.
  expect_clean(Arch::gfx950, {"v_dot2_f32_bf16 v1, v2, v3, v1", "v_dot2_f32_bf16 v1, v4, v5, v1"});
}

TEST_CASE("hazard dgemm-fma64 (2)", "[hazards]") {
  expect_hazard(Arch::gfx942,
                {"v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7]", "v_fma_f64 v[20:21], v[22:23], v[24:25], v[26:27]"},
                "dgemm-fma64", 2);
}

TEST_CASE("hazard permlane (gfx950): VALU write -> v_permlane*_swap reading it (2)", "[hazards]") {
  REQUIRE(isa::find("v_permlane32_swap_b32") != nullptr);
  auto p = program({"v_add_u32_e32 v1, v2, v3", "v_permlane32_swap_b32_e32 v1, v4"});
  REQUIRE(p[1].info == isa::find("v_permlane32_swap_b32"));
  auto v = p;
  auto f = passes::run_hazards(v, Arch::gfx950, Mode::Verify).findings;
  REQUIRE(!f.empty());
  CHECK(f[0].rule == "permlane");
  auto rep = passes::run_hazards(p, Arch::gfx950, Mode::Auto);
  CHECK(rep.wait_states_inserted == 2);
}

TEST_CASE("hazard soft-clause: back-to-back memory ops overwriting a clause register (1)", "[hazards]") {
  expect_hazard(Arch::gfx942, {"global_load_dword v2, v[0:1], off", "global_load_dword v0, v[4:5], off"}, "soft-clause", 1);
  expect_hazard(Arch::gfx950, {"global_load_dword v2, v[0:1], off", "global_store_dword v[4:5], v6, off"}, "soft-clause", 1);
  expect_hazard(Arch::gfx942, {"s_load_dwordx2 s[4:5], s[0:1], 0", "s_load_dword s0, s[2:3], 0"}, "soft-clause", 1);
  expect_clean(Arch::gfx942, {"global_load_dword v2, v[0:1], off", "global_load_dword v3, v[0:1], off offset:4"});
  expect_clean(Arch::gfx942, {"global_store_dword v[4:5], v6, off", "global_store_dword v[4:5], v7, off offset:4"});
}

TEST_CASE("hazards: worst path over CFG predecessors", "[hazards][cfg]") {
  Lines in = {"s_cmp_eq_u32 s0, 0", "s_cbranch_scc0 JOIN", "v_readfirstlane_b32 s4, v0", "JOIN:",
              "buffer_load_dword v1, v2, s[8:11], s4 offen", "s_endpgm"};
  auto p = program(in);
  auto f = passes::run_hazards(p, Arch::gfx942, Mode::Verify).findings;
  REQUIRE(f.size() == 1);
  CHECK(f[0].index == 4);
  CHECK(f[0].message.find("v_readfirstlane_b32 s4, v0") != std::string::npos);
  CHECK(f[0].message.find("5 missing") != std::string::npos);
  auto rep = passes::run_hazards(p, Arch::gfx942, Mode::Auto);
  CHECK(rep.wait_states_inserted == 5);
  CHECK(text(p)[4] == "s_nop 4");  // placed after the label, before the consumer
  // Around a loop: the write at the bottom reaches the read at the top via the back edge.
  auto loop = program({"LOOP:", "buffer_load_dword v1, v2, s[8:11], s4 offen", "s_sub_u32 s0, s0, 1",
                       "v_readfirstlane_b32 s4, v0", "s_cbranch_scc1 LOOP", "s_endpgm"});
  auto lf = passes::run_hazards(loop, Arch::gfx942, Mode::Verify).findings;
  REQUIRE(lf.size() == 1);
  CHECK(lf[0].message.find("4 missing") != std::string::npos);  // the branch already gives 1
}

TEST_CASE("hazards: Off does nothing; author s_nop counts", "[hazards]") {
  auto p = program({"v_exp_f32_e32 v1, v2", "v_add_f32_e32 v3, v1, v4"});
  CHECK(passes::run_hazards(p, Arch::gfx942, Mode::Off).findings.empty());
  CHECK(p.size() == 2);
  expect_clean(Arch::gfx942, {"v_readfirstlane_b32 s4, v0", "s_nop 4", "buffer_load_dword v1, v2, s[8:11], s4 offen"});
}

TEST_CASE("hazards: every rule has a name and a check", "[hazards]") {
  CHECK(passes::hazard_rules().size() == 21);
  for (const auto& r : passes::hazard_rules()) {
    CHECK(std::string(r.name).size() > 2);
    CHECK(r.check != nullptr);
  }
}
