// The explorer's fast search against the naive loop (RapidCheck, shrunk to
// a minimal stream on failure): for every XOR control vector of one channel
// bit, the same score to the last bit, on strided, clustered and random
// streams, windows longer and shorter than the stream.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "explorer/xor_search.hpp"

namespace gpumem::test {
namespace {

RC_GTEST_PROP(ExplorerProperties, FastSearchEqualsTheNaiveLoopForEveryVector, ()) {
  const unsigned m = *rc::gen::inRange(1u, 5u);  // 2 to 16 channels
  const unsigned channels = 1u << m;
  const unsigned bit = *rc::gen::inRange(0u, m);
  const unsigned k = *rc::gen::inRange(1u, 9u);
  const unsigned window = *rc::gen::element(1u, 2u, 3u, 4u, 7u, 8u, 16u, 33u, 64u);
  const uint32_t kmask = (1u << k) - 1;
  // Streams of three kinds, mixed: a stride through the patterns (few
  // subspaces), a few patterns repeated (clusters), any pattern.
  const auto kind = *rc::gen::inRange(0, 3);
  const size_t length = *rc::gen::inRange<size_t>(0, 300);
  const uint32_t stride = *rc::gen::inRange(1u, 8u);
  std::vector<uint32_t> chans(length), patterns(length);
  for (size_t r = 0; r < length; ++r) {
    chans[r] = *rc::gen::inRange(0u, channels);
    patterns[r] = kind == 0   ? static_cast<uint32_t>(r * stride) & kmask
                  : kind == 1 ? *rc::gen::element(0u, 1u, 5u, 12u) & kmask
                              : *rc::gen::inRange(0u, kmask + 1);
  }
  RC_LOG() << channels << " channels, bit " << bit << ", K " << k << ", window " << window << ", " << length << " requests\n";

  ChannelBitSearch search(channels, bit, k, window);
  for (size_t r = 0; r < length; ++r) search.add(chans[r], patterns[r]);
  const std::vector<double> fast = search.scores();
  const std::vector<double> naive = channel_bit_scores_naive(chans, patterns, channels, bit, k, window);
  RC_ASSERT(fast.size() == naive.size());
  for (size_t a = 0; a < fast.size(); ++a) {
    if (fast[a] != naive[a]) RC_LOG() << "vector " << a << ": fast " << fast[a] << " naive " << naive[a] << "\n";
    RC_ASSERT(fast[a] == naive[a]);
  }
}

}  // namespace
}  // namespace gpumem::test
