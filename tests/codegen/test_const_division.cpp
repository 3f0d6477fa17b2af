// The constant-division multiplier (codegen/const_division.hpp) the generators emit: the
// quotient mulhi(n, multiplier) >> shift is checked against n / d on the host for every
// divisor up to 4096 and the divisors of the shapes' strides, at the values where a wrong
// multiplier fails first (multiples of d and their neighbours, the top of the range).
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <vector>

#include "codegen/const_division.hpp"

namespace {

uint32_t quotient(uint32_t n, const cdnajit::codegen::DivisionMagic& m) {
  return uint32_t((uint64_t(n) * m.multiplier) >> 32) >> m.shift;
}

}  // namespace

TEST_CASE("division_magic gives n / d for every n < 2^31", "[codegen][division]") {
  using cdnajit::codegen::division_magic;
  using cdnajit::codegen::division_needs_magic;
  std::vector<uint32_t> divisors;
  for (uint32_t d = 3; d <= 4096; ++d) divisors.push_back(d);
  for (uint32_t d : {45u * 80u, 61u * 45u * 80u, 169u, 13u * 13u * 256u, 0x7fffffffu, 0x40000001u, 0x80000001u, 0xffffffffu})
    divisors.push_back(d);
  size_t checked = 0;
  for (uint32_t d : divisors) {
    if (!division_needs_magic(d)) continue;
    auto m = division_magic(d);
    std::vector<uint32_t> ns = {0, 1, d - 1, 0x7fffffffu, 0x7ffffffeu};
    for (uint64_t q : {uint64_t(1), uint64_t(2), uint64_t(0x7fffffffu / d), uint64_t(0x7fffffffu / d) - 1})
      for (int64_t delta : {-1, 0, 1}) {
        int64_t n = int64_t(q * d) + delta;
        if (n >= 0 && n < (int64_t(1) << 31)) ns.push_back(uint32_t(n));
      }
    for (uint32_t n = 0; n < (1u << 31) - 65521u * 4096u; n += 65521u * 4096u / 8) ns.push_back(n);
    for (uint32_t n : ns) {
      INFO("d = " << d << ", n = " << n << ", multiplier " << m.multiplier << ", shift " << m.shift);
      REQUIRE(quotient(n, m) == n / d);
      ++checked;
    }
  }
  CHECK(checked > 40000);
  // No multiply for 1 and powers of two (the generators shift instead): asking is an error.
  CHECK_FALSE(division_needs_magic(1));
  CHECK_FALSE(division_needs_magic(64));
  CHECK(division_needs_magic(3));
  CHECK_THROWS_WITH(division_magic(0), Catch::Contains("neither 0, 1 nor a power of two"));
  CHECK_THROWS_WITH(division_magic(1), Catch::Contains("neither 0, 1 nor a power of two"));
  CHECK_THROWS_WITH(division_magic(1u << 20), Catch::Contains("neither 0, 1 nor a power of two"));
}
