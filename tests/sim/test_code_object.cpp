// read_code_object: fields of a clang-built kernel, and rejection (never a
// crash) of truncated, bit-flipped and random inputs.
#include <catch2/catch.hpp>

#include <cstdio>

#include <algorithm>
#include <random>

#include "tests/test_support.hpp"
#include "jit/codeobject/msgpack.hpp"
#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;
using cdnajit::read_code_object;

namespace {
const char* kSrc = R"(
extern "C" __global__ void meta(const float* a, float* b, int n) {
  __shared__ float t[128];
  t[tid()] = a[tid()];
  sync();
  if (tid() < n) b[bid() * bdim() + tid()] = t[127 - tid()];
})";
}

TEST_CASE("code object: descriptor and metadata of a HIP kernel", "[sim][co]") {
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    auto co = read_code_object(compile_hip(kSrc, arch));
    CHECK(co.arch == arch);
    const cdnajit::KernelInfo* k = co.find("meta");
    REQUIRE(k);
    CHECK(co.find("nope") == nullptr);
    CHECK(k->group_segment_size == 512);
    CHECK(k->kernarg_ptr);
    CHECK(k->wavefront_size == 64);
    CHECK(k->code_size > 0);
    CHECK(k->code_size % 4 == 0);
    CHECK(k->entry_offset + k->code_size <= co.text.size());
    CHECK(k->args.size() >= 3);
    CHECK(k->args[0].address_space == "global");  // clang -O3 emits no .name
    CHECK(k->args[0].value_kind == "global_buffer");
    CHECK(k->args[0].offset == 0);
    CHECK(k->args[2].value_kind == "by_value");
    CHECK(k->args[2].offset == 16);
    CHECK(k->find_arg_kind("hidden_group_size_x") != nullptr);
    CHECK(k->kernarg_size >= 24);
  }
}

TEST_CASE("code object: malformed inputs are rejected with cdnajit::Error", "[sim][co]") {
  auto good = compile_hip(kSrc, Arch::gfx942);
  // Every truncation length, 0 .. size-1.
  size_t not_rejected = 0, first_not_rejected = 0;
  for (size_t n = 0; n < good.size(); ++n) {
    std::span<const uint8_t> s(good.data(), n);
    try {
      read_code_object(s);
      if (not_rejected++ == 0) first_not_rejected = n;
    } catch (const cdnajit::Error&) {
    }
  }
  INFO(good.size() << " truncation lengths; first accepted: " << first_not_rejected);
  CHECK(not_rejected == 0);
  std::vector<uint8_t> junk(4096);
  std::mt19937 g(1);
  for (auto& b : junk) b = uint8_t(g());
  CHECK_THROWS_AS(read_code_object(junk), cdnajit::Error);
  auto wrong_machine = good;
  wrong_machine[18] = 62;  // EM_X86_64
  CHECK_THROWS_WITH(read_code_object(wrong_machine), Catch::Matchers::Contains("EM_AMDGPU"));
}

TEST_CASE("code object: bounded fuzz of mutations never crashes", "[sim][co][fuzz]") {
  auto good = compile_hip(kSrc, Arch::gfx950);
  std::mt19937 g(uint32_t(cdnajit::test::test_seed("code-object mutation fuzz", 1234)));
  int accepted = 0, rejected = 0;
  for (int it = 0; it < 2000; ++it) {
    auto m = good;
    int flips = 1 + int(g() % 8);
    for (int f = 0; f < flips; ++f) {
      size_t pos = g() % m.size();
      switch (g() % 3) {
        case 0: m[pos] ^= uint8_t(1u << (g() % 8)); break;
        case 1: m[pos] = uint8_t(g()); break;
        default: {  // 4-byte field set to an extreme value
          uint32_t v = (g() & 1) ? 0xffffffffu : 0x7ffffff0u;
          if (pos + 4 <= m.size()) std::memcpy(m.data() + pos, &v, 4);
        }
      }
    }
    if (g() % 4 == 0) m.resize(g() % m.size());
    try {
      auto co = read_code_object(m);
      for (const auto& k : co.kernels) REQUIRE(k.entry_offset + k.code_size <= co.text.size());
      ++accepted;
    } catch (const cdnajit::Error&) {
      ++rejected;
    }
  }
  // (Any exception other than cdnajit::Error, or a crash, fails by itself.) Both outcomes
  // must occur, or the mutations are not reaching the reader's checks.
  std::printf("code-object mutation fuzz: 2000 mutants, %d read back, %d rejected with cdnajit::Error\n", accepted,
              rejected);
  CHECK(accepted > 0);
  CHECK(rejected > 0);
}

TEST_CASE("simulator: executing bit-flipped kernel code fails cleanly, never crashes", "[sim][co][fuzz]") {
  const char* src = R"(
extern "C" __global__ void fz(const float* a, float* c, int n) {
  unsigned i = bid() * bdim() + tid();
  float v = a[i];
  for (int k = 0; k < n; ++k) v = v * 1.5f + 0.25f;
  if (i < 64) c[i] = v;
})";
  auto good = compile_hip(src, Arch::gfx942);
  auto co0 = read_code_object(good);
  auto pos = std::search(good.begin(), good.end(), co0.text.begin(), co0.text.end());
  REQUIRE(pos != good.end());
  size_t text_off = size_t(pos - good.begin());
  std::mt19937 g(uint32_t(cdnajit::test::test_seed("executing bit-flipped code", 99)));
  int ok = 0, errors = 0;
  for (int it = 0; it < 300; ++it) {
    auto m = good;
    for (int f = 0; f < 1 + int(g() % 4); ++f) m[text_off + g() % co0.text.size()] ^= uint8_t(1u << (g() % 8));
    try {
      auto co = read_code_object(m);
      cdnajit::sim::Simulator sim(co.arch);
      uint64_t a = sim.memory().alloc(256, "a"), c = sim.memory().alloc(256, "c");
      std::vector<uint8_t> ka(co.kernels.at(0).kernarg_size, 0);
      int n = 3;
      std::memcpy(ka.data(), &a, 8);
      std::memcpy(ka.data() + 8, &c, 8);
      std::memcpy(ka.data() + 16, &n, 4);
      cdnajit::sim::Options o;
      o.instruction_budget = 20000;
      o.threads = 1;
      sim.launch(co, "fz", ka, dims1(1, 64), o);
      ++ok;
    } catch (const cdnajit::Error&) {
      ++errors;
    }
  }
  // (A crash or any exception other than cdnajit::Error fails by itself.)
  std::printf("executing bit-flipped code: 300 mutants, %d ran to completion, %d stopped with cdnajit::Error\n", ok,
              errors);
  CHECK(errors > 0);
  CHECK(ok > 0);
}

TEST_CASE("code object: a metadata integer that does not fit 32 bits is an error, not cut", "[sim][co]") {
  // msgpack uint64 (0xcf) 2^32 + 5 and uint32 (0xce) 7: the 32-bit KernelInfo fields read through
  // as_u32, which names the field instead of keeping the low 32 bits (5).
  const std::vector<uint8_t> big = {0xcf, 0, 0, 0, 1, 0, 0, 0, 5};
  const std::vector<uint8_t> small = {0xce, 0, 0, 0, 7};
  auto v = cdnajit::msgpack::parse(big);
  CHECK(v.as_uint(".vgpr_count") == (uint64_t(1) << 32) + 5);
  try {
    (void)v.as_u32(".vgpr_count");
    FAIL("no error for a 33-bit .vgpr_count");
  } catch (const cdnajit::Error& e) {
    CHECK_THAT(e.what(), Catch::Contains(".vgpr_count") && Catch::Contains("does not fit 32 bits"));
  }
  CHECK(cdnajit::msgpack::parse(small).as_u32(".sgpr_count") == 7u);
}
