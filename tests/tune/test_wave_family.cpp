// The wave-specialised family (conv backward-weight in its baseline and wavelet 4:4 / 2:4
// forms): its declared space, problem text, validity rules naming the generator's limits, the
// comparison with the fp64 reference (which must be able to fail), candidates of every form
// passing their small-problem check and binding a launch the timing model times.
#include <catch2/catch.hpp>

#include <cmath>

#include "jit/isa/error.hpp"
#include "tools/tune_families/conv_bwd_weight_check.hpp"
#include "tools/tune_families/registry.hpp"
#include "runtime/tune/time_source.hpp"

using namespace cdnajit;
using namespace cdnajit::tune;

namespace {

const Family& fam() { return find_family("conv_bwd_weight"); }
Config cfg(std::string_view text) { return parse_config(fam().space(), text); }

}  // namespace

TEST_CASE("conv_bwd_weight family: space, problem text, validity", "[tune][wave]") {
  std::vector<std::string> names;
  for (const Param& p : fam().space()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"variant", "tile", "split_k"});
  CHECK(fam().space()[0].values == std::vector<std::string>{"baseline", "wavelet_4_4", "wavelet_4_2"});
  CHECK(fam().canonical_problem("seed") == "bf16 N1 G1 C256 K256 13x13 f3x3 s1x1 p1x1 d1x1");
  const std::string odd = "f16 N2 G3 C6 K10 9x7 f3x1 s2x1 p1x0 d1x2";
  CHECK(fam().canonical_problem(odd) == odd);  // canonical text parses back to itself
  CHECK_THROWS_WITH(fam().canonical_problem("N1 C3"), Catch::Contains("expected '[bf16|f16] seed'"));
  CHECK_THROWS_WITH(fam().canonical_problem("N1 G1 C3 K4 8x8 f3x3 s1x1 p1x1 d1x1"), Catch::Contains("C = 3 must be even"));
  // A count that does not fit an int is an error naming it, not a wrapped value (G4294967297 was G1).
  CHECK_THROWS_WITH(fam().canonical_problem("N1 G4294967297 C256 K256 13x13 f3x3 s1x1 p1x1 d1x1"),
                    Catch::Contains("G: '4294967297' is out of range"));
  CHECK_THROWS_WITH(fam().canonical_problem("N1 G1 C256 K256 13x13 f3x3 s1x1 p1x1 d1x1 "),
                    Catch::Contains("dil_w: '1 ' is not an integer"));  // sscanf ignored the trailing space

  const std::string seed = fam().canonical_problem("seed");
  CHECK(fam().invalid_reason(cfg("variant=wavelet_4_2,tile=128x128,split_k=1"), seed, Arch::gfx950)
            .find("128 accumulator VGPRs per math wave") != std::string::npos);
  // 13x13 pixels = 169 = 6 K tiles of 32: at most 4 splits.
  CHECK(fam().invalid_reason(cfg("variant=baseline,tile=64x64,split_k=4"), seed, Arch::gfx950) == "");
  CHECK(fam().invalid_reason(cfg("variant=baseline,tile=64x64,split_k=8"), seed, Arch::gfx950) ==
        "split_k 8: 169 pixels make 6 K tiles of 32, so only 4 splits (same kernel as split_k 4)");
  for (Arch a : {Arch::gfx942, Arch::gfx950}) {
    Enumeration e = enumerate(fam(), seed, a);
    // 3 variants x 4 tiles x splits {1, 2, 4}, minus (4,2) at 128x128 (3 split counts).
    CHECK(e.valid.size() == 3 * 4 * 3 - 3);
    CHECK(e.valid.size() + e.invalid.size() == 3 * 4 * 7);
  }
  // A larger problem keeps split-K 64.
  std::string big = fam().canonical_problem("N4 G1 C64 K64 56x56 f3x3 s1x1 p1x1 d1x1");
  CHECK(fam().invalid_reason(cfg("variant=wavelet_4_4,tile=64x64,split_k=64"), big, Arch::gfx950) == "");
}

TEST_CASE("conv_bwd_weight family: the fp64 comparison accepts fp32 rounding and rejects wrong values",
          "[tune][wave]") {
  codegen::BwdWeightShape s;
  s.C = 6, s.K = 4, s.Hi = s.Wi = 6, s.pad[0] = s.pad[1] = 1;
  codegen::BwdWeightInputs in = codegen::bwd_weight_random_inputs(s, codegen::BwdWeightDType::bf16, 5);
  std::vector<double> ref = codegen::bwd_weight_reference_fp64(s, in);
  std::vector<double> got(ref.size());
  for (size_t i = 0; i < ref.size(); ++i) got[i] = double(float(ref[i]));  // fp32 rounding of the exact sum
  CHECK(bwd_weight_compare_fp64(s, in, got, 1) == "");
  std::vector<double> wrong = got;
  wrong[7] += 1.0 / 64;  // one bf16 product-sized error
  CHECK(bwd_weight_compare_fp64(s, in, wrong, 1).find("dW[7] =") != std::string::npos);
  wrong = got;
  wrong[3] = std::nan("");
  CHECK(bwd_weight_compare_fp64(s, in, wrong, 1).find("dW[3] = nan") != std::string::npos);
}

TEST_CASE("conv_bwd_weight family: every form passes its check and binds a modelled launch", "[tune][wave]") {
  auto model = open_timing_model("mi355x");
  auto model942 = open_timing_model("mi300x");
  struct Case {
    Arch arch;
    const char* problem;
    const char* config;
  };
  const Case cases[] = {
      {Arch::gfx950, "seed", "variant=baseline,tile=64x64,split_k=1"},
      {Arch::gfx950, "seed", "variant=wavelet_4_4,tile=128x128,split_k=2"},
      {Arch::gfx950, "f16 N2 G2 C36 K20 21x21 f3x3 s2x2 p1x1 d1x1", "variant=wavelet_4_2,tile=64x128,split_k=4"},
      {Arch::gfx942, "seed", "variant=wavelet_4_2,tile=128x64,split_k=1"},
  };
  for (const Case& c : cases) {
    INFO(arch_name(c.arch) << " " << c.problem << " " << c.config);
    std::string problem = fam().canonical_problem(c.problem);
    REQUIRE(fam().invalid_reason(cfg(c.config), problem, c.arch) == "");
    auto cand = fam().build(cfg(c.config), problem, c.arch);
    auto dev = open_device(c.arch == Arch::gfx942 ? "sim:gfx942" : "sim:gfx950");
    CHECK(cand->check(*dev) == "");
    LaunchSpec l = cand->bind(*dev);
    double ms = (c.arch == Arch::gfx942 ? model942 : model)->modelled_ms(l);
    CHECK(ms > 0);
    CHECK(cand->summary().find("roles:") != std::string::npos);
  }
}
