// Wait-count pass: each case is a minimal program; Auto must insert exactly the
// weakest wait, Verify must reject the bare program naming register and wait.
#include <catch2/catch.hpp>

#include "jit/isa/error.hpp"
#include "program_text.hpp"

using namespace cdnajit;
using passes::Mode;
using passes_test::findings_text;
using passes_test::program;
using passes_test::text;
using Lines = std::vector<std::string>;

namespace {

// Runs Auto on `in`, checks the result is `expected`, safe and free of redundant waits.
passes::Report auto_is(const Lines& in, const Lines& expected, Arch arch = Arch::gfx942) {
  auto p = program(in);
  auto rep = passes::run_waitcnt(p, arch, Mode::Auto);
  CHECK(text(p) == expected);
  CHECK(findings_text(passes::run_waitcnt(p, arch, Mode::Verify).findings) == "");
  CHECK(findings_text(passes::find_redundant_waits(p, arch)) == "");
  return rep;
}

std::vector<passes::Finding> verify(const Lines& in, Arch arch = Arch::gfx942) {
  auto p = program(in);
  auto before = text(p);
  auto rep = passes::run_waitcnt(p, arch, Mode::Verify);
  CHECK(text(p) == before);  // Verify inserts nothing
  return rep.findings;
}

}  // namespace

TEST_CASE("waitcnt: straight-line load then use", "[waitcnt]") {
  Lines in = {"global_load_dword v1, v[2:3], off", "v_add_f32_e32 v4, v1, v1", "s_endpgm"};
  auto rep = auto_is(in, {"global_load_dword v1, v[2:3], off", "s_waitcnt vmcnt(0)", "v_add_f32_e32 v4, v1, v1", "s_endpgm"});
  CHECK(rep.waits_inserted == 1);
  auto p = program(in);
  passes::run_waitcnt(p, Arch::gfx942, Mode::Auto);
  CHECK(p[1].comment.find("v1") != std::string::npos);  // says what it protects

  auto f = verify(in);
  REQUIRE(f.size() == 1);
  CHECK(f[0].index == 1);
  CHECK(f[0].rule == "waitcnt");
  CHECK(f[0].message.find("v_add_f32_e32 v4, v1, v1") != std::string::npos);
  CHECK(f[0].message.find("v1") != std::string::npos);
  CHECK(f[0].message.find("s_waitcnt vmcnt(0)") != std::string::npos);
}

TEST_CASE("waitcnt: in-order DS queue gets the weakest count", "[waitcnt]") {
  auto_is({"ds_read_b32 v1, v0", "ds_read_b32 v2, v0 offset:4", "ds_read_b32 v3, v0 offset:8",
           "v_add_f32_e32 v4, v1, v1", "v_add_f32_e32 v5, v2, v3", "s_endpgm"},
          {"ds_read_b32 v1, v0", "ds_read_b32 v2, v0 offset:4", "ds_read_b32 v3, v0 offset:8", "s_waitcnt lgkmcnt(2)",
           "v_add_f32_e32 v4, v1, v1", "s_waitcnt lgkmcnt(0)", "v_add_f32_e32 v5, v2, v3", "s_endpgm"});
}

TEST_CASE("waitcnt: in-order VMEM queue, stores count too", "[waitcnt]") {
  auto_is({"global_load_dword v1, v[8:9], off", "global_store_dword v[10:11], v20, off",
           "global_load_dword v2, v[8:9], off offset:4", "v_mov_b32_e32 v3, v1", "s_endpgm"},
          {"global_load_dword v1, v[8:9], off", "global_store_dword v[10:11], v20, off",
           "global_load_dword v2, v[8:9], off offset:4", "s_waitcnt vmcnt(2)", "v_mov_b32_e32 v3, v1", "s_endpgm"});
}

TEST_CASE("waitcnt: SMEM returns out of order, so it needs lgkmcnt(0)", "[waitcnt]") {
  auto_is({"s_load_dword s4, s[0:1], 0", "s_load_dword s5, s[0:1], 4", "v_mov_b32_e32 v1, s4", "s_endpgm"},
          {"s_load_dword s4, s[0:1], 0", "s_load_dword s5, s[0:1], 4", "s_waitcnt lgkmcnt(0)",
           "v_mov_b32_e32 v1, s4", "s_endpgm"});
  // A pending SMEM also makes an older DS result unorderable.
  auto_is({"ds_read_b32 v1, v0", "s_load_dword s5, s[0:1], 4", "v_mov_b32_e32 v2, v1", "s_endpgm"},
          {"ds_read_b32 v1, v0", "s_load_dword s5, s[0:1], 4", "s_waitcnt lgkmcnt(0)", "v_mov_b32_e32 v2, v1",
           "s_endpgm"});
}

TEST_CASE("waitcnt: FLAT counts on both counters and forces 0", "[waitcnt]") {
  auto_is({"ds_read_b32 v4, v5", "flat_load_dword v1, v[2:3]", "v_add_f32_e32 v6, v4, v4", "s_endpgm"},
          {"ds_read_b32 v4, v5", "flat_load_dword v1, v[2:3]", "s_waitcnt lgkmcnt(0)", "v_add_f32_e32 v6, v4, v4",
           "s_endpgm"});
}

TEST_CASE("waitcnt: overwriting a pending load destination waits (WAW)", "[waitcnt]") {
  auto_is({"global_load_dword v1, v[2:3], off", "v_mov_b32_e32 v1, 0", "s_endpgm"},
          {"global_load_dword v1, v[2:3], off", "s_waitcnt vmcnt(0)", "v_mov_b32_e32 v1, 0", "s_endpgm"});
  // VMEM results land in order: a second load into the same register needs no wait.
  auto_is({"global_load_dword v1, v[2:3], off", "global_load_dword v1, v[2:3], off offset:4", "s_endpgm"},
          {"global_load_dword v1, v[2:3], off", "global_load_dword v1, v[2:3], off offset:4", "s_endpgm"});
  // Store data is read at issue on gfx9: overwriting it needs no wait.
  auto_is({"global_store_dword v[2:3], v1, off", "v_mov_b32_e32 v1, 0", "s_endpgm"},
          {"global_store_dword v[2:3], v1, off", "v_mov_b32_e32 v1, 0", "s_endpgm"});
}

TEST_CASE("waitcnt: s_endpgm needs no wait", "[waitcnt]") {
  auto_is({"global_load_dword v1, v[2:3], off", "s_endpgm"}, {"global_load_dword v1, v[2:3], off", "s_endpgm"});
}

TEST_CASE("waitcnt: loop back edge carries a pending load into the header", "[waitcnt]") {
  Lines in = {"v_mov_b32_e32 v1, 0",
              "LOOP:",
              "v_add_f32_e32 v2, v1, v2",  // reads v1 loaded at the end of the previous iteration
              "global_load_dword v1, v[4:5], off",
              "s_sub_u32 s0, s0, 1",
              "s_cmp_lg_u32 s0, 0",
              "s_cbranch_scc1 LOOP",
              "s_endpgm"};
  auto rep = auto_is(in, {"v_mov_b32_e32 v1, 0", "LOOP:", "s_waitcnt vmcnt(0)", "v_add_f32_e32 v2, v1, v2",
                          "global_load_dword v1, v[4:5], off", "s_sub_u32 s0, s0, 1", "s_cmp_lg_u32 s0, 0",
                          "s_cbranch_scc1 LOOP", "s_endpgm"});
  CHECK(rep.waits_inserted == 1);
  auto f = verify(in);
  REQUIRE(f.size() == 1);
  CHECK(f[0].index == 2);
  CHECK(f[0].message.find("v1") != std::string::npos);
}

TEST_CASE("waitcnt: pessimistic union at an if/else join", "[waitcnt]") {
  Lines head = {"s_cmp_eq_u32 s0, 0",
                "s_cbranch_scc0 ELSE",
                "global_load_dword v1, v[8:9], off",
                "s_branch JOIN",
                "ELSE:",
                "global_load_dword v2, v[8:9], off",
                "global_load_dword v3, v[8:9], off offset:4",
                "JOIN:"};
  // v1 is the newest load on its path: vmcnt(0). v2 has one newer load after it: vmcnt(1).
  Lines in = head;
  in.insert(in.end(), {"v_mov_b32_e32 v10, v2", "v_mov_b32_e32 v11, v1", "s_endpgm"});
  Lines out = head;
  out.insert(out.end(), {"s_waitcnt vmcnt(1)", "v_mov_b32_e32 v10, v2", "s_waitcnt vmcnt(0)", "v_mov_b32_e32 v11, v1",
                         "s_endpgm"});
  auto_is(in, out);
}

TEST_CASE("waitcnt: LDS DMA then ds_read waits on vmcnt", "[waitcnt]") {
  auto rep = auto_is({"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", "ds_read_b32 v2, v3", "s_endpgm"},
                     {"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", "s_waitcnt vmcnt(0)",
                      "ds_read_b32 v2, v3", "s_endpgm"});
  auto p = program({"s_mov_b32 m0, s2", "buffer_load_dword v1, s[4:7], 0 offen lds", "ds_write_b32 v3, v4", "s_endpgm"});
  passes::run_waitcnt(p, Arch::gfx950, Mode::Auto);
  REQUIRE(text(p).size() == 5);
  CHECK(text(p)[2] == "s_waitcnt vmcnt(0)");
  CHECK(p[2].comment.find("LDS") != std::string::npos);
  // ds_bpermute does not touch LDS memory: no wait.
  auto_is({"global_load_lds_dword v[0:1], off", "ds_bpermute_b32 v2, v3, v4", "s_endpgm"},
          {"global_load_lds_dword v[0:1], off", "ds_bpermute_b32 v2, v3, v4", "s_endpgm"});
}

TEST_CASE("waitcnt: Verify without LDS-DMA findings leaves out exactly the rule 'waitcnt-lds-dma'", "[waitcnt]") {
  // A DS read after an LDS DMA (rule waitcnt-lds-dma), then a read of a pending VGPR (rule waitcnt).
  const Lines in = {"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", "ds_read_b32 v2, v3",
                    "global_load_dword v5, v[6:7], off", "v_mov_b32_e32 v8, v5", "s_endpgm"};
  auto rules = [&](bool lds_dma_findings) {
    auto p = program(in);
    passes::Report w, h;
    passes::run_waitcnt_and_hazards(p, Arch::gfx950, Mode::Verify, Mode::Off, w, h, passes::BarrierRelease::Lds,
                                    nullptr, lds_dma_findings);
    std::vector<std::pair<size_t, std::string>> r;
    for (const passes::Finding& f : w.findings) r.emplace_back(f.index, f.rule);
    return r;
  };
  using Found = std::vector<std::pair<size_t, std::string>>;
  CHECK(rules(true) == Found{{2, "waitcnt-lds-dma"}, {4, "waitcnt"}});
  CHECK(rules(false) == Found{{4, "waitcnt"}});
}

TEST_CASE("waitcnt: DS reads and writes after an LDS DMA, and a DPP source register, need the wait", "[waitcnt]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    // A DS write races the DMA's write of LDS until vmcnt covers the DMA (LLVM's SIInsertWaitcnts waits
    // vmcnt before any LDS access, load or store, after an LDS DMA).
    for (const char* ds : {"ds_write_b32 v3, v4", "ds_add_u32 v3, v4", "ds_read_b32 v2, v3"}) {
      INFO(ds);
      auto f = verify({"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", ds, "s_endpgm"}, arch);
      REQUIRE(f.size() == 1);
      CHECK(f[0].index == 2);
      // Only LDS, written by an LDS DMA: the rule a DMA schedule can set apart (jit/passes/README.md).
      CHECK(f[0].rule == "waitcnt-lds-dma");
      CHECK(f[0].message.find("LDS") != std::string::npos);
      CHECK(f[0].message.find("vmcnt(0)") != std::string::npos);
      CHECK(verify({"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", "s_waitcnt vmcnt(0)", ds, "s_endpgm"}, arch)
                .empty());
    }
    // The same DS read with its address register also pending is an ordinary missing wait.
    {
      auto g = verify({"s_mov_b32 m0, s2", "global_load_lds_dword v[0:1], off", "global_load_dword v3, v[4:5], off",
                       "ds_read_b32 v2, v3", "s_endpgm"},
                      arch);
      REQUIRE(g.size() == 1);
      CHECK(g[0].rule == "waitcnt");
    }
    // The DPP source is read by the permutation: the load into it must have returned.
    auto f = verify({"global_load_dword v1, v[2:3], off",
                     "v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", "s_endpgm"}, arch);
    REQUIRE(f.size() == 1);
    CHECK(f[0].index == 1);
    CHECK(f[0].rule == "waitcnt");
    CHECK(f[0].message.find("v1") != std::string::npos);
    CHECK(verify({"global_load_dword v1, v[2:3], off", "s_waitcnt vmcnt(0)",
                  "v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", "s_endpgm"}, arch)
              .empty());
  }
}

TEST_CASE("waitcnt: Auto keeps needed author waits, removes no-op ones", "[waitcnt]") {
  Lines in = {"s_load_dword s4, s[0:1], 0", "s_waitcnt lgkmcnt(0)", "s_waitcnt lgkmcnt(0)", "v_mov_b32_e32 v1, s4",
              "global_load_lds_dword v[0:1], off", "s_waitcnt vmcnt(0)",  // author: make the DMA visible before the barrier
              "s_barrier", "s_endpgm"};
  auto orig = program(in);
  auto red = passes::find_redundant_waits(orig, Arch::gfx942);
  REQUIRE(red.size() == 1);
  CHECK(red[0].index == 2);
  CHECK(red[0].rule == "redundant-waitcnt");
  auto rep = auto_is(in, {"s_load_dword s4, s[0:1], 0", "s_waitcnt lgkmcnt(0)", "v_mov_b32_e32 v1, s4",
                          "global_load_lds_dword v[0:1], off", "s_waitcnt vmcnt(0)", "s_barrier", "s_endpgm"});
  CHECK(rep.waits_removed == 1);
  CHECK(rep.waits_inserted == 0);
  // A wait made redundant by one Auto inserts is removed too.
  auto_is({"global_load_dword v1, v[2:3], off", "v_mov_b32_e32 v4, v1", "s_waitcnt vmcnt(0)", "s_endpgm"},
          {"global_load_dword v1, v[2:3], off", "s_waitcnt vmcnt(0)", "v_mov_b32_e32 v4, v1", "s_endpgm"});
}

TEST_CASE("waitcnt: Verify trusts sufficient author waits and names the missing one", "[waitcnt]") {
  CHECK(verify({"global_load_dword v1, v[2:3], off", "global_load_dword v2, v[2:3], off offset:4", "s_waitcnt vmcnt(1)",
                "v_mov_b32_e32 v4, v1", "s_endpgm"})
            .empty());
  auto f = verify({"global_load_dword v1, v[2:3], off", "global_load_dword v2, v[2:3], off offset:4",
                   "s_waitcnt vmcnt(1)", "v_mov_b32_e32 v4, v2", "s_endpgm"});
  REQUIRE(f.size() == 1);
  CHECK(f[0].index == 3);
  CHECK(f[0].message.find("v2") != std::string::npos);
  CHECK(f[0].message.find("s_waitcnt vmcnt(0)") != std::string::npos);
}

TEST_CASE("waitcnt: Off does nothing", "[waitcnt]") {
  auto p = program({"global_load_dword v1, v[2:3], off", "v_mov_b32_e32 v4, v1", "s_endpgm"});
  auto rep = passes::run_waitcnt(p, Arch::gfx942, Mode::Off);
  CHECK(p.size() == 3);
  CHECK(rep.findings.empty());
}

TEST_CASE("waitcnt: decoded branch targets by address", "[waitcnt][cfg]") {
  // Loop whose back edge is a numeric s_cbranch (decoded form).
  std::vector<isa::MachineInst> p;
  const char* lines[] = {"global_load_dword v1, v[2:3], off", "v_add_f32_e32 v4, v1, v4", "s_cbranch_scc1 65534",
                         "s_endpgm"};
  uint64_t addr = 0x100;
  for (const char* l : lines) {
    isa::MachineInst mi;
    mi.address = addr;
    mi.size_bytes = 4;
    std::string err;
    REQUIRE(isa::parse(l, mi, err));
    p.push_back(mi);
    addr += std::string(l).rfind("global", 0) == 0 ? 8 : 4;
    p.back().size_bytes = std::string(l).rfind("global", 0) == 0 ? 8 : 4;
  }
  // s_cbranch at 0x10c: target = 0x10c + 4 + 4 * (-2) = 0x108, the v_add.
  auto f = passes::run_waitcnt(p, Arch::gfx942, Mode::Verify).findings;
  REQUIRE(f.size() == 1);
  CHECK(f[0].index == 1);
}

TEST_CASE("waitcnt: branch to an unknown label is an error", "[waitcnt][cfg]") {
  auto p = program({"s_branch NOWHERE", "s_endpgm"});
  CHECK_THROWS_AS(passes::run_waitcnt(p, Arch::gfx942, Mode::Auto), Error);
  try {
    passes::run_waitcnt(p, Arch::gfx942, Mode::Auto);
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("NOWHERE") != std::string::npos);
  }
}

TEST_CASE("waitcnt: raw-text instructions are analysed when they parse", "[waitcnt]") {
  auto raw = [](std::string text) {
    isa::MachineInst mi;
    mi.raw = std::move(text);
    return mi;
  };
  std::vector<isa::MachineInst> p = {raw("global_load_dword v1, v[2:3], off")};
  auto rest = program({"v_mov_b32_e32 v4, v1", "s_endpgm"});
  p.insert(p.end(), rest.begin(), rest.end());
  passes::run_waitcnt(p, Arch::gfx942, Mode::Auto);
  REQUIRE(p.size() == 4);
  CHECK(p[0].raw == "global_load_dword v1, v[2:3], off");  // emitted unchanged
  CHECK(text(p)[1] == "s_waitcnt vmcnt(0)");
  // Text the parser does not know: everything in flight must land before it.
  std::vector<isa::MachineInst> q = program({"ds_read_b32 v1, v0"});
  q.push_back(raw("v_some_future_op v9, v1"));
  passes::run_waitcnt(q, Arch::gfx942, Mode::Auto);
  REQUIRE(q.size() == 3);
  CHECK(text(q)[1] == "s_waitcnt lgkmcnt(0)");
}

// VGPR indexing (s_set_gpr_idx_on): a VALU operand may be offset by up to 255 registers, so an
// instruction that may run with the mode on is treated as touching every VGPR from the one it
// names up to v255 (jit/passes/gpr_idx.cpp); after s_set_gpr_idx_off (on every path) it is not.
TEST_CASE("waitcnt: VGPR indexing widens VALU operands to the reachable range", "[waitcnt][gpr_idx]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    INFO(arch_name(arch));
    // v_mov_b32 v8, v2 under index 8 reads v10, the load's destination: a finding.
    Lines in = {"global_load_dword v10, v[0:1], off", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "v_mov_b32_e32 v8, v2",
                "s_set_gpr_idx_off", "s_endpgm"};
    auto f = verify(in, arch);
    REQUIRE(f.size() == 1);
    CHECK(findings_text(f).find("v10") != std::string::npos);
    // Auto inserts the wait in front of the indexed instruction.
    auto p = program(in);
    passes::run_waitcnt(p, arch, Mode::Auto);
    CHECK(text(p) == Lines{"global_load_dword v10, v[0:1], off", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "s_waitcnt vmcnt(0)",
                           "v_mov_b32_e32 v8, v2", "s_set_gpr_idx_off", "s_endpgm"});
    // A register below the one named cannot be reached (the index is unsigned): no finding.
    CHECK(verify({"global_load_dword v1, v[2:3], off", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "v_mov_b32_e32 v8, v4",
                  "s_set_gpr_idx_off", "s_endpgm"}, arch).empty());
    // The same instruction after s_set_gpr_idx_off reads v2 only: no finding.
    CHECK(verify({"s_set_gpr_idx_on s2, gpr_idx(SRC0)", "s_set_gpr_idx_off", "global_load_dword v10, v[0:1], off",
                  "v_mov_b32_e32 v8, v2", "s_endpgm"}, arch).empty());
    // A destination that may be offset onto a pending load's register (write-after-load): a finding.
    CHECK(verify({"global_load_dword v10, v[0:1], off", "s_set_gpr_idx_on s2, gpr_idx(DST)", "v_mov_b32_e32 v3, 0",
                  "s_set_gpr_idx_off", "s_endpgm"}, arch).size() == 1);
    // Only the enabled slots are widened: with SRC0 alone the destination v3 is exact (no write-after-load),
    // and the finding names the read only.
    CHECK(verify({"global_load_dword v10, v[0:1], off", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "v_mov_b32_e32 v3, 0",
                  "s_set_gpr_idx_off", "s_endpgm"}, arch).empty());
    CHECK(findings_text(f).find("overwrites") == std::string::npos);
    // s_set_gpr_idx_mode changes the enables while the mode is on; another M0 write makes them unknown.
    CHECK(verify({"global_load_dword v10, v[0:1], off", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "s_set_gpr_idx_mode gpr_idx(DST)",
                  "v_mov_b32_e32 v3, 0", "s_set_gpr_idx_off", "s_endpgm"}, arch).size() == 1);
    CHECK(verify({"global_load_dword v10, v[0:1], off", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "s_mov_b32 m0, s3",
                  "v_mov_b32_e32 v3, 0", "s_set_gpr_idx_off", "s_endpgm"}, arch).size() == 1);
    // The mode reaches a block through a branch: the instruction after the join is widened.
    CHECK(verify({"global_load_dword v10, v[0:1], off", "s_cbranch_scc0 L", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "L:",
                  "v_mov_b32_e32 v8, v2", "s_endpgm"}, arch).size() == 1);
  }
}
