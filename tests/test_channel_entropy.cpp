#include <gtest/gtest.h>

#include "stats/channel_entropy.hpp"

namespace gpumem {
namespace {

TEST(WindowedEntropy, UniformWindowReachesLog2N) {
  WindowedEntropy e(8, 8);
  for (unsigned c = 0; c < 8; ++c) e.add(c);
  EXPECT_DOUBLE_EQ(e.mean(), 3.0);
  EXPECT_DOUBLE_EQ(e.maximum(), 3.0);
  EXPECT_EQ(e.windows(), 1u);
}

TEST(WindowedEntropy, OneChannelIsZero) {
  WindowedEntropy e(8, 4);
  for (int i = 0; i < 12; ++i) e.add(3);
  EXPECT_DOUBLE_EQ(e.mean(), 0.0);
  EXPECT_EQ(e.windows(), 3u);
}

TEST(WindowedEntropy, MeanOverWindowsAndTrailingPartialWindowDropped) {
  WindowedEntropy e(4, 4);
  for (unsigned c : {0u, 1u, 2u, 3u}) e.add(c);  // H = 2
  for (unsigned c : {0u, 0u, 1u, 1u}) e.add(c);  // H = 1
  e.add(2);                                      // partial: dropped
  EXPECT_DOUBLE_EQ(e.mean(), 1.5);
  EXPECT_EQ(e.windows(), 2u);
}

TEST(WindowedEntropy, StreamShorterThanWindowScoresThePartialWindow) {
  WindowedEntropy e(4, 64);
  for (unsigned c : {0u, 0u, 0u, 1u}) e.add(c);  // p = 3/4, 1/4: 0.811 bits (seed 000, para 0075)
  EXPECT_NEAR(e.mean(), 0.811278, 1e-6);
  EXPECT_EQ(e.windows(), 0u);
}

}  // namespace
}  // namespace gpumem
