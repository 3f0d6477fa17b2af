// The fused dot2 rule: the exact value of a0*b0 + a1*b1 + c rounded once to f32,
// including sums that a double cannot hold exactly.
#include <catch2/catch.hpp>

#include <cmath>

#include "runtime/sim/dot2.hpp"

using cdnajit::sim::dot2_fused;

TEST_CASE("dot2_fused rounds the exact three-term sum once", "[sim][dot2]") {
  // A double sum would lose the small product entirely (2^60 + 2^-60 - 2^60 = 0 in f64).
  float big = std::ldexp(1.0f, 30), tiny = std::ldexp(1.0f, -30);
  CHECK(dot2_fused(big, big, tiny, tiny, -std::ldexp(1.0f, 60)) == std::ldexp(1.0f, -60));
  // Ties to even at f32 precision: 1 + 2^-24 is halfway between 1 and 1 + 2^-23.
  float half_ulp = std::ldexp(1.0f, -24);
  CHECK(dot2_fused(1.0f, 1.0f, half_ulp, 1.0f, 0.0f) == 1.0f);
  // ... and a further tiny term, below double precision relative to the sum, breaks the tie upward.
  CHECK(dot2_fused(1.0f, 1.0f, half_ulp, 1.0f, std::ldexp(1.0f, -80)) == std::nextafter(1.0f, 2.0f));
  // Ordinary values: same as one rounding of the double sum.
  CHECK(dot2_fused(1.5f, 2.0f, -0.25f, 4.0f, 0.125f) == 2.125f);
  // Exact cancellation gives +0; non-finite inputs propagate.
  CHECK(std::signbit(dot2_fused(1.0f, 1.0f, -1.0f, 1.0f, 0.0f)) == false);
  CHECK(std::isnan(dot2_fused(NAN, 1.0f, 1.0f, 1.0f, 0.0f)));
  CHECK(std::isinf(dot2_fused(INFINITY, 1.0f, 1.0f, 1.0f, 0.0f)));
}
