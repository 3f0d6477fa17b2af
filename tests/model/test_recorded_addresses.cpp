// The recording's compact form of a step's addresses (sim::affine_addresses, sim::step_addresses):
// every address vector comes back exactly, the affine form is taken exactly when the addresses have
// it (for any stride when every lane has an address, else for strides below 2^57), and it is unique (so comparing stored words compares addresses).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "runtime/sim/record.hpp"

using namespace cdnajit;

namespace {

// Stores `a` as record_step does and reads it back.
std::vector<uint64_t> round_trip(const std::vector<uint64_t>& a, bool& affine) {
  sim::RecordedWave w;
  sim::RecordedStep st;
  st.addr_count = uint8_t(a.size());
  uint64_t words[sim::kAffineWords];
  affine = a.size() == 64 && sim::affine_addresses(a.data(), words);
  st.affine = affine;
  if (affine) w.addrs.assign(words, words + sim::kAffineWords);
  else w.addrs = a;
  sim::StepAddressBuffer buf;
  const std::span<const uint64_t> out = sim::step_addresses(w, st, buf);
  return {out.begin(), out.end()};
}

std::vector<uint64_t> lanes(uint64_t base, uint64_t stride, uint64_t mask) {
  std::vector<uint64_t> a(64);
  for (int l = 0; l < 64; ++l) a[size_t(l)] = (mask >> l) & 1 ? base + uint64_t(l) * stride : sim::kNoAddress;
  return a;
}

}  // namespace

TEST_CASE("Recorded addresses: affine steps are stored as three words and read back exactly", "[model][record]") {
  struct Case {
    const char* what;
    std::vector<uint64_t> a;
    bool affine;
  };
  std::vector<Case> cases = {
      {"coalesced dwords", lanes(0x10000, 4, ~0ull), true},
      {"one address for all lanes", lanes(0x10040, 0, ~0ull), true},
      {"descending", lanes(0x20000, uint64_t(-8), ~0ull), true},
      {"wrapping past 2^64", lanes(~0ull - 100, 4, ~0ull), true},
      {"lane 0 only", lanes(0x30000, 0, 1), true},
      {"lane 37 only", lanes(0x30000, 0, 1ull << 37), true},
      {"no lane", lanes(0, 0, 0), true},
      {"half the lanes, stride 16", lanes(0x40000, 16, 0x00000000ffffffffull), true},
      {"every other lane", lanes(0x50000, 12, 0x5555555555555555ull), true},
      {"lanes 0 and 2 an odd distance apart", {}, false},
      {"one lane off the line", lanes(0x60000, 4, ~0ull), false},
      {"one inactive lane off the line", lanes(0x70000, 4, 0xfffffffffffffff7ull), false},
  };
  cases[9].a = lanes(0, 0, 0);
  cases[9].a[0] = 0x1000;
  cases[9].a[2] = 0x1003;
  cases[10].a[40] += 4;
  cases[11].a[50] = 0x1234;
  for (const Case& c : cases) {
    INFO(c.what);
    bool affine = false;
    CHECK(round_trip(c.a, affine) == c.a);
    CHECK(affine == c.affine);
  }
  // Random vectors: some affine (with random masks and strides), some perturbed.
  std::mt19937_64 rng(26);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t mask = i % 5 == 0 ? ~0ull : rng() & rng();
    std::vector<uint64_t> a = lanes(rng(), i % 3 ? rng() % 512 : rng(), mask);
    const bool perturb = i % 4 == 0 && std::popcount(mask) > 2;
    if (perturb) {
      uint64_t m = mask;
      for (int k = int(rng() % uint64_t(std::popcount(mask))); k > 0; --k) m &= m - 1;
      a[size_t(std::countr_zero(m))] ^= 1ull << (rng() % 40);
    }
    bool affine = false;
    REQUIRE(round_trip(a, affine) == a);
    // A stride below 2^63 / 64 is always found; a larger one may be stored lane by lane (the signed
    // distance of the first two lanes need not divide evenly), which still reads back exactly.
    if (!perturb && i % 3) REQUIRE(affine);
  }
  // Two addresses per lane (DS two-address forms) are stored as they are.
  std::vector<uint64_t> two = lanes(0x100, 4, ~0ull);
  two.insert(two.end(), two.begin(), two.end());
  bool affine = true;
  CHECK(round_trip(two, affine) == two);
  CHECK_FALSE(affine);
}

TEST_CASE("Recorded addresses: the affine form is unique", "[model][record]") {
  // The same addresses always give the same words, whichever lanes carry them; a stride that is
  // ambiguous modulo 2^64 between the first two lanes (lanes 0 and 2, 2 * s = 2 * (s + 2^63)) takes
  // the signed quotient, so equal vectors compare equal word for word.
  std::vector<uint64_t> a = lanes(0x1000, 8, 0x5);  // lanes 0 and 2
  uint64_t w1[sim::kAffineWords], w2[sim::kAffineWords];
  REQUIRE(sim::affine_addresses(a.data(), w1));
  CHECK(w1[0] == 0x1000);
  CHECK(w1[1] == 8);
  CHECK(w1[2] == 0x5);
  std::vector<uint64_t> b = lanes(0x1000, 8 + (1ull << 63), 0x5);  // the same two addresses
  CHECK(b == a);
  REQUIRE(sim::affine_addresses(b.data(), w2));
  CHECK(std::equal(w1, w1 + sim::kAffineWords, w2));
}
