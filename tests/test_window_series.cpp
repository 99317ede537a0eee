// The windows over time (sc_models/metrics/window_series.hpp): a bounded
// number of points, each a run of consecutive windows whose mean entropy is
// WindowedEntropy's own figure for those windows, and which together give
// back the run's mean window entropy and its requests per channel.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

#include "metrics/window_entropy.hpp"

namespace gpumem {
namespace {

// The mean over points weighted by their window counts.
double weighted_mean(const std::vector<SeriesPoint>& points) {
  double sum = 0, windows = 0;
  for (const SeriesPoint& p : points) sum += p.entropy * static_cast<double>(p.windows), windows += static_cast<double>(p.windows);
  return windows ? sum / windows : 0.0;
}

TEST(WindowSeries, NoneUnlessAsked) {
  WindowedEntropy e(4, 4);
  for (unsigned c = 0; c < 16; ++c) e.add(c % 4);
  EXPECT_TRUE(e.series().empty());
}

// Ten windows into four points: full, the points merge pairwise (spans 1,
// 2, 4); the last point holds what is left.
TEST(WindowSeries, NeighboursMergeWhenFull) {
  WindowedEntropy e(4, 4);
  e.keep_series(4);
  for (unsigned w = 0; w < 10; ++w)
    for (unsigned i = 0; i < 4; ++i) e.add(w < 5 ? i : 0);  // five windows at 2 bits, five at 0
  e.add(1);  // the trailing partial window: not in the score, not in the series
  const auto points = e.series();
  ASSERT_EQ(points.size(), 3u);
  const uint64_t first[] = {0, 4, 8}, windows[] = {4, 4, 2};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(points[i].first_window, first[i]);
    EXPECT_EQ(points[i].windows, windows[i]);
  }
  EXPECT_EQ(points[0].entropy, 2.0);
  EXPECT_EQ(points[1].entropy, 0.5);  // one window at 2 bits, three at 0
  EXPECT_EQ(points[2].entropy, 0.0);
  EXPECT_EQ(points[0].per_channel, (std::vector<uint64_t>{4, 4, 4, 4}));
  EXPECT_EQ(points[1].per_channel, (std::vector<uint64_t>{13, 1, 1, 1}));
  EXPECT_EQ(points[2].per_channel, (std::vector<uint64_t>{8, 0, 0, 0}));
  EXPECT_DOUBLE_EQ(weighted_mean(points), e.mean());
}

TEST(WindowSeries, StreamShorterThanAWindowIsOnePoint) {
  WindowedEntropy e(4, 64);
  e.keep_series();
  for (unsigned c : {0u, 0u, 0u, 1u}) e.add(c);
  const auto points = e.series();
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].windows, 1u);
  EXPECT_EQ(points[0].entropy, e.mean());  // 0.811 bits, the partial window's
  EXPECT_EQ(points[0].per_channel, (std::vector<uint64_t>{3, 1, 0, 0}));
}

// A long random stream: at most kSeriesPoints points, every window in one
// of them, each point's entropy WindowedEntropy's own mean over its windows
// (to the last bit), and the weighted mean the run's.
TEST(WindowSeries, PointsSumToTheRun) {
  const unsigned channels = 16, window = 32;
  const uint64_t windows = 300'001;
  std::mt19937_64 rng(12);
  std::vector<uint16_t> stream(windows * window + 7);  // and a partial window
  for (auto& c : stream) c = static_cast<uint16_t>(rng() % (1 + rng() % channels));
  WindowedEntropy e(channels, window);
  e.keep_series();
  for (uint16_t c : stream) e.add(c);
  const auto points = e.series();
  ASSERT_LE(points.size(), kSeriesPoints);
  EXPECT_GE(points.size(), kSeriesPoints / 2);
  EXPECT_NEAR(weighted_mean(points), e.mean(), 1e-12);

  uint64_t next = 0;
  std::vector<uint64_t> per_channel(channels, 0);
  for (const SeriesPoint& p : points) {
    ASSERT_EQ(p.first_window, next) << "points are consecutive runs of windows";
    WindowedEntropy alone(channels, window);
    for (uint64_t i = p.first_window * window; i < (p.first_window + p.windows) * window; ++i) alone.add(stream[i]);
    EXPECT_EQ(p.entropy, alone.mean()) << "point at window " << p.first_window;
    for (unsigned c = 0; c < channels; ++c) per_channel[c] += p.per_channel[c];
    next += p.windows;
  }
  EXPECT_EQ(next, e.windows());
  std::vector<uint64_t> want(channels, 0);
  for (uint64_t i = 0; i < windows * window; ++i) ++want[stream[i]];
  EXPECT_EQ(per_channel, want);
  for (size_t i = 0; i + 1 < points.size(); ++i) EXPECT_EQ(points[i].windows, points[0].windows) << "equal spans but the last";
}

}  // namespace
}  // namespace gpumem
