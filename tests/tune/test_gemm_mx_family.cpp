// The MX-scaled GEMM family of the tuner: its declared space (both pipelines, K tile, order),
// problem text with the scale layout, validity rules of the LDS read-ahead pipeline, and an LDS
// candidate that passes its small-problem check and binds a launch the timing model times.
#include <catch2/catch.hpp>

#include <cstdio>

#include "jit/isa/error.hpp"
#include "runtime/tune/time_source.hpp"
#include "tools/tune_families/registry.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;

namespace {

const Family& fam() { return find_family("gemm_mx"); }
Config cfg(std::string_view text) { return parse_config(fam().space(), text); }

}  // namespace

TEST_CASE("gemm_mx family: space, problem text and the LDS pipeline's validity rules", "[tune][gemm_mx]") {
  std::vector<std::string> names;
  for (const Param& p : fam().space()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"tile", "waves", "mfma", "pipeline", "tile_k", "group_m", "persistent"});
  CHECK(fam().canonical_problem("1024x512x256 fp4") == "1024x512x256 fp4 f32");
  CHECK(fam().canonical_problem("1024x512x256 fp4 bf16 km") == "1024x512x256 fp4 bf16 km");
  CHECK_THROWS_WITH(fam().canonical_problem("64x64x128 fp8 f32 nk"), Catch::Contains("valid: mk"));
  const std::string p4 = fam().canonical_problem("1024x1024x1024 fp4 bf16 km");
  const std::string p6 = fam().canonical_problem("1024x1024x1024 fp6");
  auto why = [&](std::string_view c, const std::string& p) { return fam().invalid_reason(cfg(c), p, Arch::gfx950); };
  CHECK(why("tile=256x256,waves=2x4,mfma=16,pipeline=lds,tile_k=128,group_m=8,persistent=0", p4) == "");
  CHECK(why("tile=256x256,waves=2x2,mfma=16,pipeline=lds,tile_k=256,group_m=8,persistent=0", p4) == "");
  CHECK_THAT(why("tile=128x128,waves=2x2,mfma=32,pipeline=lds,tile_k=128,group_m=0,persistent=0", p4), Catch::Contains("mfma 16"));
  CHECK_THAT(why("tile=128x128,waves=2x2,mfma=16,pipeline=lds,tile_k=128,group_m=0,persistent=0", p6), Catch::Contains("fp6/bf6"));
  CHECK_THAT(why("tile=128x128,waves=2x2,mfma=16,pipeline=direct,tile_k=256,group_m=0,persistent=0", p4),
             Catch::Contains("read-ahead pipeline only"));
  CHECK(why("tile=128x128,waves=2x2,mfma=16,pipeline=direct,tile_k=128,group_m=8,persistent=0", p4) == "");
  // persistent workgroups (the LDS pipeline's whole-tile, grouped form) are in the space with their limits
  CHECK(why("tile=256x256,waves=2x2,mfma=16,pipeline=lds,tile_k=256,group_m=8,persistent=4", p4) == "");
  CHECK_THAT(why("tile=256x256,waves=2x2,mfma=16,pipeline=direct,tile_k=128,group_m=8,persistent=2", p4),
             Catch::Contains("LDS read-ahead pipeline only"));
  CHECK_THAT(why("tile=256x256,waves=2x2,mfma=16,pipeline=lds,tile_k=256,group_m=0,persistent=2", p4),
             Catch::Contains("group_m >= 1"));
  Enumeration e = enumerate(fam(), p4, Arch::gfx950);
  CHECK(!e.valid.empty());
  std::printf("gemm_mx %s on gfx950: %zu valid, %zu invalid configurations\n", p4.c_str(), e.valid.size(),
              e.invalid.size());
}

TEST_CASE("gemm_mx family: an LDS read-ahead candidate passes its check and binds a modelled launch",
          "[tune][gemm_mx]") {
  auto dev = open_device("sim:gfx950");
  auto model = open_timing_model("mi355x");
  const std::string problem = fam().canonical_problem("256x256x512 fp4 bf16 km");
  // the second: persistent workgroups of 2 output tiles (the check runs 3 whole tiles, 4 K tiles)
  for (const char* config : {"tile=128x128,waves=2x2,mfma=16,pipeline=lds,tile_k=128,group_m=8,persistent=0",
                             "tile=128x128,waves=2x2,mfma=16,pipeline=lds,tile_k=128,group_m=8,persistent=2"}) {
    auto c = fam().build(cfg(config), problem, Arch::gfx950);
    CHECK(c->check(*dev) == "");
    const double ms = model->modelled_ms(c->bind(*dev));
    std::printf("modelled (model mi355x): gemm_mx %s [%s]: %.4f ms\n", problem.c_str(), config, ms);
    CHECK(ms > 0);
  }
}
