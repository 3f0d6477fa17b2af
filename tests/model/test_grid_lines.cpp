// A sampled launch's memory hierarchy sees the whole first round's reuse (runtime/model/grid_lines.hpp):
// the first round traced address-only, checked against the workgroups simulated in full, and the
// sampled lines kept (stated) when the check fails.
#include <catch2/catch.hpp>

#include <vector>

#include "codegen/gemm.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "runtime/model/model_device.hpp"

using namespace cdnajit;
using Catch::Matchers::Contains;

namespace {

model::ModelReport model_gemm_launch(const codegen::GemmPlan& p, model::SimulatedGrid grid) {
  const BuildResult b = codegen::build_gemm(p);
  const codegen::GemmInputs in = codegen::gemm_random_inputs(p, 1);
  auto dev = open_sim_device(p.arch);
  Buffer a = dev->upload(in.a, "a");
  Buffer bb = dev->upload(in.b, "b");
  Buffer c = dev->alloc(size_t(p.c_bytes()), "c");
  DeviceKernel k = dev->load(b.code_object).kernel(b.name);
  return model::model_launch(*dev, k, {p.grid[0], p.grid[1], p.grid[2]}, {uint32_t(p.threads)}, 0,
                             KernelArgs().ptr(a).ptr(bb).ptr(c), model::product("mi350x"), {}, grid)
      .report;
}

}  // namespace

TEST_CASE("Sampled GEMM launch: HBM traffic of the shared A and B panels as in the full grid, not per sampled workgroup",
          "[model][memory][grid_lines]") {
  // 1024 x 1024 x 512 bf16, 64 x 64 tiles: 256 workgroups, all in the first round of MI350X's
  // 256 CUs. Each A row panel is read by the 16 workgroups of its tile row, each B panel by 16.
  // Unique footprint: A 1 MiB + B 1 MiB read, C 2 MiB written. Sixteen sampled workgroups
  // (0..15: one B panel, every A panel) scaled to the grid would charge about 17 MiB of reads.
  codegen::GemmShape s;
  s.M = s.N = 1024;
  s.K = 512;
  codegen::GemmConfig cfg;
  cfg.tile_m = cfg.tile_n = 64;
  const codegen::GemmPlan p = codegen::make_gemm_plan(s, Arch::gfx950, cfg);
  REQUIRE(p.grid[0] * p.grid[1] * p.grid[2] == 256);
  const model::ModelReport full = model_gemm_launch(p, model::SimulatedGrid::full);
  const model::ModelReport sampled = model_gemm_launch(p, model::SimulatedGrid::sampled);
  const double mib = 1024.0 * 1024.0;
  const double footprint_read = 2 * mib, footprint_write = 2 * mib;
  INFO("full: HBM read " << full.traffic.hbm_read_bytes / mib << " MiB, write " << full.traffic.hbm_write_bytes / mib
                         << " MiB; sampled: read " << sampled.traffic.hbm_read_bytes / mib << " MiB, write "
                         << sampled.traffic.hbm_write_bytes / mib << " MiB");
  // The full grid's traced round is the whole grid: every panel fetched once.
  CHECK(full.traffic.hbm_read_bytes == Approx(footprint_read).epsilon(0.02));
  CHECK(full.traffic.hbm_write_bytes == Approx(footprint_write).epsilon(0.02));
  // The sampled launch traced the round address-only, checked it and used it.
  CHECK(sampled.grid_lines.attempted);
  CHECK(sampled.grid_lines.used);
  CHECK(sampled.grid_lines.round_workgroups == 256);
  CHECK(sampled.grid_lines.checked_workgroups == model::kSampledTracedWorkgroups);
  CHECK(sampled.grid_lines.mismatch.empty());
  CHECK_THAT(model::format_report(sampled), Contains("traced address-only"));
  // Within 10% of the full grid's traffic at every level beyond the L1 (here equal: same lines).
  CHECK(sampled.traffic.hbm_bytes() == Approx(full.traffic.hbm_bytes()).epsilon(0.10));
  CHECK(sampled.traffic.mall_bytes() == Approx(full.traffic.mall_bytes()).epsilon(0.10));
  CHECK(sampled.traffic.l2_bytes() == Approx(full.traffic.l2_bytes()).epsilon(0.10));
  CHECK(sampled.ms == Approx(full.ms).epsilon(0.01));
}

namespace {

// Each lane stores an index (its global thread id + 1), reads it back and reads the line it names:
// the addresses depend on the workgroup's own global store, which an address-only run does not make
// (it reads what memory held before the launch, 0).
BuildResult readback_gather(Arch arch) {
  Kernel k("readback_gather", arch);
  k.set_workgroup_size(64);
  Reg a = k.load_arg(k.arg<const float*>("a"));
  Reg idx = k.load_arg(k.arg<uint32_t*>("idx"));
  Reg out = k.load_arg(k.arg<float*>("out"));
  Reg wg_base = k.sgpr("wg_base");
  Reg id = k.vgpr("id"), off = k.vgpr("off"), ticket = k.vgpr("ticket"), back = k.vgpr("back"), line = k.vgpr("line"),
      x = k.vgpr("x");
  k.s_lshl_b32(wg_base, k.workgroup_id(0), 6);
  k.v_add_u32(id, wg_base, k.workitem_id(0));
  k.v_lshlrev_b32(off, 2, id);
  k.v_add_u32(ticket, 1, id);
  k.s_waitcnt(lgkmcnt(0));
  k.global_store_dword(off, ticket, idx);
  k.s_waitcnt(vmcnt(0));
  k.global_load_dword(back, off, idx);
  k.s_waitcnt(vmcnt(0));
  k.v_lshlrev_b32(line, 7, back);
  k.global_load_dword(x, line, a);
  k.s_waitcnt(vmcnt(0));
  k.global_store_dword(off, x, out);
  k.s_endpgm();
  return k.build();
}

}  // namespace

TEST_CASE("Sampled launch whose addresses depend on its own global stores: the address-only round is refused, stated",
          "[model][memory][grid_lines]") {
  const uint32_t workgroups = 64;
  auto dev = open_sim_device(Arch::gfx950);
  const BuildResult b = readback_gather(Arch::gfx950);
  Buffer a = dev->alloc((size_t(workgroups) * 64 + 1) * 128, "a");
  Buffer idx = dev->alloc(size_t(workgroups) * 64 * 4, "idx");
  Buffer out = dev->alloc(size_t(workgroups) * 64 * 4, "out");
  DeviceKernel k = dev->load(b.code_object).kernel("readback_gather");
  const model::ModelReport r =
      model::model_launch(*dev, k, {workgroups}, {64}, 0, KernelArgs().ptr(a).ptr(idx).ptr(out),
                          model::product("mi350x"), {}, model::SimulatedGrid::sampled)
          .report;
  CHECK(r.grid_lines.attempted);
  CHECK(r.grid_lines.round_workgroups == workgroups);
  CHECK_FALSE(r.grid_lines.used);
  CHECK_THAT(r.grid_lines.mismatch, Contains("workgroup 0 wave 0: global access 2 touches other lines"));
  CHECK_THAT(model::format_report(r), Contains("run in full only"));
  // The sampled run's results are the full launch's for the workgroups it ran (the address-only
  // round wrote nothing before it): workgroup 0's lanes read a[(i + 1) * 32] = 0 and stored it.
  const std::vector<uint32_t> got = dev->download<uint32_t>(idx);
  for (uint32_t i = 0; i < 64; ++i) REQUIRE(got[i] == i + 1);
  CHECK(got[64 * 20] == 0);  // workgroup 20 is neither traced nor recorded: not run
}
