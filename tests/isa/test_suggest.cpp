// Near-miss suggestions for mnemonics the table lacks (jit/isa/suggest.hpp).
#include <catch2/catch.hpp>

#include <algorithm>

#include "jit/isa/isa.hpp"
#include "jit/isa/suggest.hpp"
#include "jit/isa/validate.hpp"

using namespace cdnajit::isa;

static bool contains(const std::vector<std::string_view>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST_CASE("near misses: alias spellings map to the table's name", "[isa][suggest]") {
  // The gfx908 `_1k` names and LLVM's older spelling without the type underscore.
  REQUIRE(find("v_mfma_f32_32x32x8_bf16_1k") == nullptr);
  CHECK(near_misses("v_mfma_f32_32x32x8_bf16_1k").front() == "v_mfma_f32_32x32x8_bf16");
  CHECK(near_misses("v_mfma_f32_32x32x8bf16_1k").front() == "v_mfma_f32_32x32x8_bf16");
  CHECK(near_misses("V_MFMA_F32_16X16X16BF16_1K").front() == "v_mfma_f32_16x16x16_bf16");
  // Encoding suffixes.
  CHECK(near_misses("v_add_f32_e64").front() == "v_add_f32");
  CHECK(near_misses("v_mov_b32_e32").front() == "v_mov_b32");
  CHECK(near_misses("v_add_f32_sdwa").front() == "v_add_f32");
}

TEST_CASE("near misses: typos by edit distance, nothing for far names", "[isa][suggest]") {
  CHECK(contains(near_misses("v_add_f33"), "v_add_f32"));
  CHECK(contains(near_misses("ds_raed_b32"), "ds_read_b32"));
  CHECK(near_misses("s_frobnicate_everything_b64").empty());
  CHECK(near_misses("v_add_f33", 1).size() == 1);
  CHECK(did_you_mean("s_frobnicate_everything_b64").empty());
  CHECK(did_you_mean("v_mfma_f32_32x32x8_bf16_1k") == "; did you mean 'v_mfma_f32_32x32x8_bf16'?");
}

TEST_CASE("the validator's unknown-instruction error names the near miss", "[isa][suggest]") {
  MachineInst mi;
  mi.mnemonic = "v_mfma_f32_32x32x8bf16_1k";
  std::string err;
  REQUIRE_FALSE(validate(mi, cdnajit::Arch::gfx942, err));
  CHECK(err.find("did you mean 'v_mfma_f32_32x32x8_bf16'") != std::string::npos);
}
