// Rank statistics of the model report (tools/rank_stats), against hand-computed values.
#include <catch2/catch.hpp>

#include "jit/isa/error.hpp"
#include "tools/rank_stats.hpp"

using namespace cdnajit::report;

TEST_CASE("rank stats: ties share their average rank", "[model][rank]") {
  const auto r = ranks({3, 1, 2, 2});
  REQUIRE(r == std::vector<double>{4, 1, 2.5, 2.5});
}

TEST_CASE("rank stats: Spearman of hand-counted orders", "[model][rank]") {
  CHECK(spearman({1, 2, 3, 4, 5}, {10, 20, 30, 40, 50}) == Approx(1));
  CHECK(spearman({1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}) == Approx(-1));
  // d = (1, 1, 1, 1, 0): 1 - 6 * 4 / (5 * 24) = 0.8
  CHECK(spearman({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}) == Approx(0.8));
  CHECK(median_abs_error({1, 2, 4}, {1.1, 1.8, 4.0}) == Approx(0.1));
}

TEST_CASE("rank stats: every order of a cluster, others at their measured ranks", "[model][rank]") {
  // Cluster rows 0..2, row 3 fixed at rank 4: Spearman = 1 - sum(d^2) / 10 over the 6 orders
  // of the first three ranks: 1, 0.8, 0.8 (one adjacent swap), 0.4, 0.4 (rotations), 0.2 (1 <-> 3).
  const std::vector<double> measured{1, 2, 3, 10};
  const auto all = cluster_orders(measured, {0, 1, 2}, 0.75);
  CHECK(all.orders == 6);
  CHECK(all.reaching == 3);
  CHECK(all.mean_spearman == Approx(0.6));
  CHECK(all.best_spearman == Approx(1));
  // Row 0 kept after row 1: ranks (2,1,3) 0.8, (3,1,2) 0.4, (3,2,1) 0.2.
  const auto kept = cluster_orders(measured, {0, 1, 2}, 0.75, {{0, 1}});
  CHECK(kept.orders == 3);
  CHECK(kept.reaching == 1);
  CHECK(kept.mean_spearman == Approx((0.8 + 0.4 + 0.2) / 3));
}

TEST_CASE("rank stats: a cluster with a foreign row inside its range is refused", "[model][rank]") {
  REQUIRE_THROWS_AS(cluster_orders({1, 2, 3, 10}, {0, 2}, 0.9), cdnajit::Error);
  REQUIRE_THROWS_AS(cluster_orders({1, 2}, {0, 5}, 0.9), cdnajit::Error);
}

TEST_CASE("rank stats: pairs measured at least 10% apart must keep their order", "[model][rank]") {
  // Measured 1.00, 1.05, 1.20, 2.00: pairs >= 10% apart are (0,2), (0,3), (1,2), (1,3), (2,3);
  // (0,1) is 5% apart and not counted.
  const std::vector<double> measured{1.00, 1.05, 1.20, 2.00};
  const auto all_right = ordered_pairs(measured, {5, 4, 6, 9}, 1.10);  // 0 and 1 swapped: not a counted pair
  CHECK(all_right.pairs == 5);
  CHECK(all_right.right == 5);
  CHECK(all_right.wrong.empty());
  const auto one_wrong = ordered_pairs(measured, {5, 7, 6, 9}, 1.10);  // row 1 modelled slower than row 2
  CHECK(one_wrong.pairs == 5);
  CHECK(one_wrong.right == 4);
  REQUIRE(one_wrong.wrong.size() == 1);
  CHECK(one_wrong.wrong[0] == std::pair<size_t, size_t>{1, 2});
  const auto tie = ordered_pairs(measured, {5, 5, 6, 6}, 1.10);  // a tie is not an order: (2,3) is wrong
  CHECK(tie.right == 4);
  REQUIRE_THROWS_AS(ordered_pairs({1, 2}, {1}, 1.1), cdnajit::Error);
}
