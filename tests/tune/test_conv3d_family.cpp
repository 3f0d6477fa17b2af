// The implicit-GEMM conv3d family of the tuner: its declared space, problem text, validity
// rules (each violation names its limit), the small-problem correctness check (which must be
// able to fail), and the launch it binds for the timing model (split-K adds its finalize).
#include <catch2/catch.hpp>

#include <cmath>

#include "codegen/conv3d_igemm.hpp"
#include "jit/isa/error.hpp"
#include "runtime/model/launch_model.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tools/tune_families/conv3d_igemm_check.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/time_source.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;

namespace {

const Family& fam() { return find_family("conv3d_igemm"); }

Config cfg(std::string_view text) { return parse_config(fam().space(), text); }

const char* kSeedDefault = "tile=128x128,tile_k=32,waves=2x4,stages=2,split_k=1,mapping=m,lds_dma=off";

}  // namespace

TEST_CASE("conv3d_igemm family: space and problem text", "[tune][conv3d]") {
  std::vector<std::string> names;
  for (const Param& p : fam().space()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"tile", "tile_k", "waves", "stages", "split_k", "mapping", "lds_dma"});
  CHECK(fam().canonical_problem("seed") == "bf16 N1 C128 D6 H40 W40 K128 k3x3x3 s1,1,1 p1,1,1 d1,1,1");
  CHECK(fam().canonical_problem("fp8 seed:72") == "fp8 N1 C128 D6 H72 W72 K128 k3x3x3 s1,1,1 p1,1,1 d1,1,1");
  const std::string odd = "bf16 N2 C13 D5 H9 W11 K20 k3x1x3 s1,2,1 p1,0,1 d1,1,2 bias";
  CHECK(fam().canonical_problem(odd) == odd);  // canonical text parses back to itself
  CHECK_THROWS_WITH(fam().canonical_problem("N1 C128"), Catch::Contains("expected '[bf16|fp8] seed'"));
  CHECK_THROWS_WITH(fam().canonical_problem("seed:0"), Catch::Contains("seed:H: '0' is out of range (valid: an integer 1..4096)"));
  // Numbers are read whole and in 64 bits: none wraps into range (sscanf's %d made 2^32 + 40 into 40).
  CHECK_THROWS_WITH(fam().canonical_problem("seed:4294967336"), Catch::Contains("'4294967336' is out of range"));
  CHECK_THROWS_WITH(fam().canonical_problem("bf16 N1 C128 D6 H40 W40 K128 k3x3x3 s1,1,1 p1,1,1 d1,1,4294967297"),
                    Catch::Contains("dil_w: '4294967297' is out of range (valid: an integer 0..1024)"));
  CHECK_THROWS_WITH(fam().canonical_problem("seed:+40"), Catch::Contains("seed:H: '+40' is not an integer"));
  CHECK_THROWS_WITH(fam().canonical_problem("bf16 N1 C0 D6 H40 W40 K128 k3x3x3 s1,1,1 p1,1,1 d1,1,1"),
                    Catch::Contains("C = 0 is out of range"));
}

TEST_CASE("conv3d_igemm family: validity rules name the limit", "[tune][conv3d]") {
  const std::string bf16 = fam().canonical_problem("seed"), fp8 = fam().canonical_problem("fp8 seed");
  auto why = [&](const std::string& p, std::string_view c, Arch a) { return fam().invalid_reason(cfg(c), p, a); };
  CHECK(why(bf16, kSeedDefault, Arch::gfx950) == "");
  CHECK_THROWS_WITH(cfg("tile=128x128,tile_k=16,waves=2x4,stages=2,split_k=1,mapping=m,lds_dma=off"),
                    Catch::Contains("valid: 32, 64, 128, 256"));
  CHECK_THAT(why(fp8, "tile=128x128,tile_k=32,waves=2x4,stages=2,split_k=1,mapping=m,lds_dma=on", Arch::gfx950),
             Catch::Contains("multiple of the MFMA K 128"));
  CHECK_THAT(why(bf16, "tile=128x128,tile_k=32,waves=2x4,stages=2,split_k=1,mapping=m,lds_dma=on", Arch::gfx942),
             Catch::Contains("exists only on gfx950"));
  CHECK_THAT(why(bf16, "tile=256x128,tile_k=256,waves=2x2,stages=2,split_k=1,mapping=m,lds_dma=off", Arch::gfx950),
             Catch::Contains("LDS limit"));
  CHECK_THAT(why(bf16, "tile=256x128,tile_k=128,waves=2x2,stages=1,split_k=1,mapping=m,lds_dma=off", Arch::gfx950),
             Catch::Contains("register limit"));
  CHECK_THAT(why(fp8, "tile=64x128,tile_k=32,waves=2x4,stages=2,split_k=1,mapping=m,lds_dma=off", Arch::gfx942),
             Catch::Contains("alignment"));
  CHECK_THAT(why(bf16, "tile=128x128,tile_k=64,waves=2x4,stages=2,split_k=1,mapping=m,lds_dma=off", Arch::gfx942),
             Catch::Contains("exceeds gfx942's 65536 bytes per CU (LDS limit)"));
  CHECK_THAT(why(bf16, "tile=64x128,tile_k=256,waves=2x4,stages=1,split_k=1,mapping=m,lds_dma=off", Arch::gfx950),
             Catch::Contains("16-bit DS offset field (alignment/addressing limit)"));
  // The family's duplicate rules.
  CHECK_THAT(why(bf16, "tile=128x128,tile_k=32,waves=2x4,stages=2,split_k=1,mapping=n,lds_dma=off", Arch::gfx950),
             Catch::Contains("one N tile"));
  CHECK(why(bf16, "tile=128x64,tile_k=32,waves=2x2,stages=2,split_k=1,mapping=n,lds_dma=off", Arch::gfx950) == "");
  const std::string tiny_k = fam().canonical_problem("bf16 N1 C8 D4 H8 W8 K32 k1x1x1 s1,1,1 p0,0,0 d1,1,1");
  CHECK_THAT(why(tiny_k, "tile=64x128,tile_k=32,waves=2x2,stages=2,split_k=2,mapping=m,lds_dma=off", Arch::gfx950),
             Catch::Contains("split into only 1 ranges"));
  // Every combination is either valid or excluded with a reason; the space is the product of the values.
  for (Arch a : {Arch::gfx942, Arch::gfx950})
    for (const std::string& p : {bf16, fp8}) {
      Enumeration e = enumerate(fam(), p, a);
      size_t total = 1;
      for (const Param& q : fam().space()) total *= q.values.size();
      CHECK(e.valid.size() + e.invalid.size() == total);
      CHECK(!e.valid.empty());
      for (const std::string& s : e.invalid) CHECK(s.find(": ") != std::string::npos);
      std::printf("conv3d_igemm %s on %s: %zu valid, %zu invalid configurations\n", p.c_str(),
                  std::string(arch_name(a)).c_str(), e.valid.size(), e.invalid.size());
    }
}

TEST_CASE("conv3d_igemm family: the rounding bound accepts rounding and rejects a wrong output", "[tune][conv3d]") {
  std::vector<double> ref{1.0, -2.5, 0.0, 100.0}, abs_sum{3.0, 4.0, 2.0, 300.0};
  std::vector<double> got = ref;
  got[0] = 1.0 + std::ldexp(1.0, -8);  // one bf16 ulp at 1.0: a rounding difference
  CHECK(conv3d_compare_with_tolerance(got, ref, abs_sum, 27 * 128) == "");
  got[3] = 100.0 * (1 + 1.0 / 64);  // four bf16 ulps off, far beyond the accumulation bound
  CHECK_THAT(conv3d_compare_with_tolerance(got, ref, abs_sum, 27 * 128), Catch::Contains("1 of 4 outputs"));
  got = ref;
  got[2] = std::nan("");
  CHECK_THAT(conv3d_compare_with_tolerance(got, ref, abs_sum, 27 * 128), Catch::Contains("first at 2"));
}

TEST_CASE("conv3d_igemm family: candidates pass the check and bind a timed launch chain", "[tune][conv3d]") {
  auto dev = open_device("sim:gfx950");
  const std::string p = fam().canonical_problem("bf16 seed:12");
  auto plain = fam().build(cfg("tile=64x128,tile_k=32,waves=2x2,stages=2,split_k=1,mapping=m,lds_dma=off"), p, Arch::gfx950);
  auto split = fam().build(cfg("tile=64x128,tile_k=64,waves=2x2,stages=1,split_k=2,mapping=m,lds_dma=off"), p, Arch::gfx950);
  CHECK(plain->check(*dev) == "");
  CHECK(split->check(*dev) == "");
  LaunchSpec a = plain->bind(*dev), b = split->bind(*dev);
  CHECK(a.then.empty());
  REQUIRE(b.then.size() == 1);  // the finalize of split-K
  auto model = open_timing_model("mi355x");
  const double ta = model->modelled_ms(a), tb = model->modelled_ms(b);
  LaunchSpec gemm_only = b;
  gemm_only.then.clear();
  const double tg = model->modelled_ms(gemm_only);
  std::printf("modelled (model mi355x): 64x128 split 1 %.4f ms; split 2 %.4f ms, of which the GEMM %.4f ms\n", ta, tb, tg);
  CHECK(ta > 0);
  CHECK(tb > tg);  // the chain's finalize is in the time
  auto fp8 = fam().build(cfg("tile=64x128,tile_k=64,waves=2x2,stages=2,split_k=1,mapping=m,lds_dma=off"),
                         fam().canonical_problem("fp8 N1 C13 D3 H7 W9 K20 k3x3x3 s1,2,1 p1,1,1 d1,1,1 bias"), Arch::gfx942);
  auto dev942 = open_device("sim:gfx942");
  CHECK(fp8->check(*dev942) == "");
}

TEST_CASE("conv3d_igemm: the model's occupancy counts a unified VGPR+AGPR allocation once",
          "[tune][conv3d]") {
  // 128x128 tile, 2x2 waves, tile_k 64: each wave holds a 64x64 accumulator (64 AGPRs) and
  // fragments for two MFMA k-steps; the metadata's .vgpr_count is then accum_offset + AGPRs.
  codegen::Conv3dConfig c;
  c.tile_k = 64;
  c.waves_m = 2;
  c.waves_n = 2;
  codegen::Conv3dPlan p = codegen::make_conv3d_plan(codegen::conv3d_seed_shape(12), codegen::Conv3dDType::bf16,
                                                    Arch::gfx950, c);
  BuildResult b = codegen::build_conv3d_igemm(p);
  CodeObject co = read_code_object(b.code_object);
  const KernelInfo* k = co.find(b.name);
  REQUIRE(k);
  REQUIRE(k->agpr_count > 0);
  std::printf("unified allocation: .vgpr_count %u = architectural %u + AGPRs %u\n", k->vgpr_count,
              architectural_vgprs(*k), k->agpr_count);
  CHECK(architectural_vgprs(*k) + k->agpr_count == k->vgpr_count);
  CHECK(architectural_vgprs(*k) == uint32_t(b.stats.vgprs + 3) / 4 * 4);  // accum_offset: the JIT's VGPRs, granule 4
  sim::LaunchDims d;
  d.grid[0] = p.grid[0];
  d.block[0] = uint32_t(p.threads);
  model::LaunchPlan lp = model::plan_launch(*k, Arch::gfx950, d, model::product("mi355x"));
  // Independent arithmetic (gfx950: 512 unified registers per lane, granule 8; 160 KiB LDS per CU,
  // 4 SIMDs): counting the AGPRs twice would lower the register limit, and an allocation over 256
  // would be rejected as too many VGPRs.
  const uint32_t by_regs = 512 / ((k->vgpr_count + 7) / 8 * 8);
  const uint32_t by_lds = 163840 / k->group_segment_size * uint32_t(p.threads / 64) / 4;
  CHECK(lp.waves_per_simd == int(std::min(by_regs, by_lds)));
}
