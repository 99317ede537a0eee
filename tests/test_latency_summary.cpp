// LatencySummary, a channel's read latencies in one epoch: count, mean and
// max exact, percentiles exact below 16 cycles and within 1/16 above.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "metrics/latency_summary.hpp"

namespace gpumem {
namespace {

TEST(LatencySummary, IsExactBelowSixteenCycles) {
  LatencySummary s;
  for (uint64_t v : {3, 3, 5, 9, 15}) s.add(v);
  EXPECT_EQ(s.count(), 5u);
  EXPECT_DOUBLE_EQ(s.mean(), 35.0 / 5);
  EXPECT_EQ(s.max(), 15u);
  EXPECT_EQ(s.percentile(0.2), 3u);
  EXPECT_EQ(s.percentile(0.5), 5u);
  EXPECT_EQ(s.percentile(0.8), 9u);
  EXPECT_EQ(s.percentile(1.0), 15u);
  EXPECT_EQ(LatencySummary{}.percentile(0.5), 0u);
}

TEST(LatencySummary, PercentilesLieWithinASixteenthBelowTheExactOnes) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> v;
  LatencySummary s;
  for (int i = 0; i < 5000; ++i) {
    const uint64_t x = 16 + rng() % (uint64_t{1} << (4 + rng() % 16));
    v.push_back(x);
    s.add(x);
  }
  std::sort(v.begin(), v.end());
  for (double q : {0.5, 0.95, 0.99}) {
    const uint64_t exact = v[size_t(std::ceil(q * double(v.size()))) - 1], got = s.percentile(q);
    EXPECT_LE(got, exact) << q;
    EXPECT_GE(double(got), double(exact) * 15 / 16) << q;
  }
  EXPECT_EQ(s.max(), v.back());
  EXPECT_LE(s.percentile(1.0), v.back());
  EXPECT_GE(double(s.percentile(1.0)), double(v.back()) * 15 / 16);
}

}  // namespace
}  // namespace gpumem
