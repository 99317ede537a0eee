// The one definition of windowed channel entropy and per-address-bit
// entropy (sc_models/metrics/window_entropy.hpp): hand-worked windows,
// CN115422098A's example, and order independence of the exact sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "metrics/window_entropy.hpp"

namespace gpumem {
namespace {

// Exact in fixed point: the figures below are within one window's rounding
// (N * 2^-25 / n bits) of the real-valued entropy.
constexpr double kRounding = 1e-7;

TEST(WindowedEntropy, UniformWindowReachesLog2N) {
  WindowedEntropy e(8, 8);
  for (unsigned c = 0; c < 8; ++c) e.add(c);
  EXPECT_NEAR(e.mean(), 3.0, kRounding);
  EXPECT_DOUBLE_EQ(e.maximum(), 3.0);
  EXPECT_EQ(e.windows(), 1u);
}

TEST(WindowedEntropy, OneChannelIsZero) {
  WindowedEntropy e(8, 4);
  for (int i = 0; i < 12; ++i) e.add(3);
  EXPECT_EQ(e.mean(), 0.0);
  EXPECT_EQ(e.windows(), 3u);
}

TEST(WindowedEntropy, MeanOverWindowsAndTrailingPartialWindowDropped) {
  WindowedEntropy e(4, 4);
  for (unsigned c : {0u, 1u, 2u, 3u}) e.add(c);  // H = 2
  for (unsigned c : {0u, 0u, 1u, 1u}) e.add(c);  // H = 1
  e.add(2);                                      // partial: dropped
  EXPECT_NEAR(e.mean(), 1.5, kRounding);
  EXPECT_EQ(e.windows(), 2u);
}

TEST(WindowedEntropy, StreamShorterThanWindowScoresThePartialWindow) {
  WindowedEntropy e(4, 64);
  for (unsigned c : {0u, 0u, 0u, 1u}) e.add(c);  // p = 3/4, 1/4: 0.811 bits (CN115422098A [0075])
  EXPECT_NEAR(e.mean(), 0.8112781244591328, kRounding);
  EXPECT_EQ(e.windows(), 0u);
}

// A hand-worked window of 6 over 4 channels: counts 3, 2, 1, 0.
TEST(WindowedEntropy, HandWorkedWindow) {
  WindowedEntropy e(4, 6);
  for (unsigned c : {0u, 1u, 0u, 2u, 1u, 0u}) e.add(c);
  const double want = -(0.5 * std::log2(0.5) + (1.0 / 3) * std::log2(1.0 / 3) + (1.0 / 6) * std::log2(1.0 / 6));
  EXPECT_NEAR(e.mean(), want, kRounding);  // 1.459 bits
}

// The same windows in any order give the same bits: the sums are integers.
TEST(WindowedEntropy, TheScoreDoesNotDependOnTheOrderOfWindows) {
  std::mt19937_64 rng(5);
  std::vector<std::vector<unsigned>> windows(500, std::vector<unsigned>(64));
  for (auto& w : windows)
    for (auto& c : w) c = static_cast<unsigned>(rng() % (1 + rng() % 16));
  auto score = [&] {
    WindowedEntropy e(16, 64);
    for (const auto& w : windows)
      for (unsigned c : w) e.add(c);
    return e.mean();
  };
  const double first = score();
  std::shuffle(windows.begin(), windows.end(), rng);
  EXPECT_EQ(score(), first);
  std::reverse(windows.begin(), windows.end());
  EXPECT_EQ(score(), first);
}

TEST(AddressBitEntropy, SeedZeroParagraph75) {
  AddressBitEntropy e(4, 4);
  for (uint64_t a : {0b0000u, 0b0001u, 0b0011u, 0b0111u}) e.add(a);
  EXPECT_EQ(e.windows(), 1u);
  EXPECT_NEAR(e.mean(0), 0.8112781244591328, kRounding);
  EXPECT_NEAR(e.mean(1), 1.0, kRounding);
  EXPECT_NEAR(e.mean(2), 0.8112781244591328, kRounding);
  EXPECT_EQ(e.mean(3), 0.0);
}

TEST(AddressBitEntropy, MeanOverWindowsWithTheSameWindowing) {
  AddressBitEntropy e(2, 2);
  for (uint64_t a : {0u, 1u, 3u, 3u, 2u}) e.add(a);  // windows {0,1}, {3,3}; 2 dropped
  EXPECT_EQ(e.windows(), 2u);
  EXPECT_NEAR(e.mean(0), 0.5, kRounding);  // {0, 1}: 1 bit; {3, 3}: 0
  EXPECT_EQ(e.mean(1), 0.0);               // 0 in both windows
}

}  // namespace
}  // namespace gpumem
