// The MFMA GEMM family of the tuner: its declared space, problem text, validity rules (each
// violation names its limit), and a candidate that passes its small-problem check and binds a
// launch the timing model times.
#include <catch2/catch.hpp>

#include <cstdio>

#include "jit/isa/error.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/time_source.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;

namespace {

const Family& fam() { return find_family("gemm"); }
Config cfg(std::string_view text) { return parse_config(fam().space(), text); }

}  // namespace

TEST_CASE("gemm family: space, problem text and validity rules", "[tune][gemm]") {
  std::vector<std::string> names;
  for (const Param& p : fam().space()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"tile", "tile_k", "waves", "stages", "mfma", "dma", "group_m", "read_ahead", "lds_xor", "ra_split", "pingpong"});
  CHECK(fam().canonical_problem("1024x512x256") == "1024x512x256 NT bf16");
  CHECK(fam().canonical_problem("64x64x64 NN f32") == "64x64x64 NN f32");
  CHECK_THROWS_WITH(fam().canonical_problem("1024x512"), Catch::Contains("expected 'MxNxK"));
  CHECK_THROWS_WITH(fam().canonical_problem("64x64x64 TX"), Catch::Contains("valid: NN, NT, TN, TT"));
  CHECK(fam().canonical_problem("64x64x64 TN f16 f16 act=gelu_tanh bias=col") == "64x64x64 TN f16 f16 bias=col act=gelu_tanh");
  CHECK_THROWS_WITH(fam().canonical_problem("64x64x64 NT bf16 bf16 extra"), Catch::Contains("unexpected 'extra'"));
  CHECK_THROWS_WITH(fam().canonical_problem("64x64x40"), Catch::Contains("multiple of tile_k"));
  const std::string p = fam().canonical_problem("1024x1024x1024");
  auto why = [&](std::string_view c, Arch a) { return fam().invalid_reason(cfg(c), p, a); };
  CHECK(why("tile=128x128,tile_k=64,waves=2x2,stages=2,mfma=16,dma=0,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", Arch::gfx950) == "");
  CHECK_THAT(why("tile=128x128,tile_k=64,waves=2x2,stages=2,mfma=16,dma=0,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", Arch::gfx942), Catch::Contains("LDS limit"));
  CHECK_THAT(why("tile=64x64,tile_k=32,waves=4x2,stages=2,mfma=32,dma=0,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", Arch::gfx950), Catch::Contains("MFMA block"));
  CHECK_THAT(why("tile=128x128,tile_k=32,waves=2x2,stages=3,mfma=16,dma=1,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", Arch::gfx942),
             Catch::Contains("only on gfx950"));
  // read-ahead needs the DMA path's two stages and quadrants of MFMA blocks (plan checks)
  CHECK(why("tile=128x128,tile_k=64,waves=2x2,stages=2,mfma=16,dma=1,group_m=8,read_ahead=1,lds_xor=0,ra_split=1,pingpong=0", Arch::gfx950) == "");
  CHECK_THAT(why("tile=128x128,tile_k=64,waves=2x2,stages=2,mfma=16,dma=0,group_m=8,read_ahead=1,lds_xor=0,ra_split=1,pingpong=0", Arch::gfx950),
             Catch::Contains("needs lds_dma"));
  CHECK(why("tile=128x128,tile_k=64,waves=2x2,stages=1,mfma=16,dma=0,group_m=8,read_ahead=1,lds_xor=0,ra_split=1,pingpong=0", Arch::gfx950) == "");
  // gfx942: 256x256 tiles with 128-byte K rows fit one 64 KiB stage only unpadded (XOR-swizzled rows)
  CHECK_THAT(why("tile=256x256,tile_k=64,waves=2x4,stages=1,mfma=16,dma=0,group_m=8,read_ahead=1,lds_xor=0,ra_split=2,pingpong=0", Arch::gfx942),
             Catch::Contains("LDS limit"));
  CHECK(why("tile=256x256,tile_k=64,waves=2x4,stages=1,mfma=16,dma=0,group_m=8,read_ahead=1,lds_xor=1,ra_split=2,pingpong=0", Arch::gfx942) == "");
  // ping-pong: two groups of 4 waves on the DMA path's two stages, not with read-ahead
  CHECK(why("tile=256x256,tile_k=64,waves=2x4,stages=2,mfma=16,dma=1,group_m=8,read_ahead=0,lds_xor=0,ra_split=1,pingpong=1", Arch::gfx950) == "");
  CHECK_THAT(why("tile=128x128,tile_k=64,waves=2x2,stages=2,mfma=16,dma=1,group_m=8,read_ahead=0,lds_xor=0,ra_split=1,pingpong=1", Arch::gfx950),
             Catch::Contains("8 waves"));
  CHECK_THAT(why("tile=128x128,tile_k=64,waves=2x4,stages=2,mfma=16,dma=1,group_m=8,read_ahead=1,lds_xor=0,ra_split=1,pingpong=1", Arch::gfx950),
             Catch::Contains("without pingpong"));
  // 128x112 tiles with 4 x 1 waves (7 MFMA blocks per wave along N): 2048^2 in 304 tiles on gfx942
  const std::string p2048 = fam().canonical_problem("2048x2048x2048");
  CHECK(fam().invalid_reason(cfg("tile=128x112,tile_k=64,waves=4x1,stages=1,mfma=16,dma=0,group_m=0,read_ahead=1,lds_xor=0,ra_split=1,pingpong=0"),
                             p2048, Arch::gfx942) == "");
  Enumeration e = enumerate(fam(), p, Arch::gfx950);
  CHECK(!e.valid.empty());
  std::printf("gemm %s on gfx950: %zu valid, %zu invalid configurations\n", p.c_str(), e.valid.size(), e.invalid.size());
}

TEST_CASE("gemm family: a candidate passes its check and binds a modelled launch", "[tune][gemm]") {
  auto dev = open_device("sim:gfx950");
  auto model = open_timing_model("mi355x");
  for (auto [config, problem] : {std::pair{"tile=64x64,tile_k=64,waves=2x2,stages=2,mfma=16,dma=0,group_m=8,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", "256x256x256 NN"},
                                 {"tile=64x64,tile_k=32,waves=2x2,stages=3,mfma=16,dma=1,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", "256x256x256 NT"},
                                 {"tile=128x128,tile_k=64,waves=2x4,stages=2,mfma=16,dma=1,group_m=8,read_ahead=1,lds_xor=0,ra_split=1,pingpong=0", "256x256x256 NT"},
                                 // K-row operands (the check's M and N are whole chunks), f16, fp8, the epilogue
                                 {"tile=64x64,tile_k=64,waves=2x2,stages=2,mfma=16,dma=0,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", "256x256x256 TN f16 f16 bias=col act=silu"},
                                 {"tile=64x64,tile_k=128,waves=2x2,stages=2,mfma=16,dma=0,group_m=0,read_ahead=0,lds_xor=0,ra_split=1,pingpong=0", "256x256x256 NN bf16 e5m2"},
                                 {"tile=128x128,tile_k=64,waves=2x4,stages=2,mfma=16,dma=1,group_m=8,read_ahead=0,lds_xor=0,ra_split=1,pingpong=1", "256x256x256 NT"}}) {
    auto c = fam().build(cfg(config), fam().canonical_problem(problem), Arch::gfx950);
    CHECK(c->check(*dev) == "");
    const double ms = model->modelled_ms(c->bind(*dev));
    std::printf("modelled (model mi355x): gemm %s [%s]: %.4f ms\n", problem, config, ms);
    CHECK(ms > 0);
  }
}
