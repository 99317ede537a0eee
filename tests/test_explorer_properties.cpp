// The explorer's fast search against the naive loop (RapidCheck, shrunk to
// a minimal stream on failure): for every XOR control vector of one channel
// bit, the same score to the last bit, on strided, clustered and random
// streams, windows longer and shorter than the stream, with and without
// deduplication of groups, in one thread or several, and whole windows handed
// over with a count as gpumem explore hands its repeated windows over.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "explorer/xor_search.hpp"

namespace gpumem::test {
namespace {

// Threads, held groups and batches of any size: none may change a score.
ChannelBitSearchOptions any_options(unsigned window) {
  ChannelBitSearchOptions o;
  o.threads = *rc::gen::inRange(1u, 4u);
  o.held_requests = *rc::gen::element<size_t>(0, 1, 5, 40, size_t{1} << 21);
  o.batch_requests = *rc::gen::inRange<size_t>(1, 4 * size_t{window} + 1);
  RC_LOG() << o.threads << " threads, " << o.held_requests << " held requests, batches of " << o.batch_requests << "\n";
  return o;
}

// Every vector's score the same to the last bit.
void expect_same_scores(const std::vector<double>& fast, const std::vector<double>& expected) {
  RC_ASSERT(fast.size() == expected.size());
  for (size_t a = 0; a < fast.size(); ++a) {
    if (fast[a] != expected[a]) RC_LOG() << "vector " << a << ": fast " << fast[a] << " expected " << expected[a] << "\n";
    RC_ASSERT(fast[a] == expected[a]);
  }
}

void expect_naive_scores(const std::vector<uint32_t>& chans, const std::vector<uint32_t>& patterns, unsigned channels,
                         unsigned bit, unsigned k, unsigned window, const ChannelBitSearchOptions& options) {
  ChannelBitSearch search(channels, bit, k, window, options);
  for (size_t r = 0; r < chans.size(); ++r) search.add(chans[r], patterns[r]);
  expect_same_scores(search.scores(), channel_bit_scores_naive(chans, patterns, channels, bit, k, window));
}

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
  expect_naive_scores(chans, patterns, channels, bit, k, window, any_options(window));
}

// Windows that repeat, each time with every pattern XOR one constant, with
// channel bit j flipped on every request or not, and rotated: their groups
// have the same canonical form, so the deduplication merges them; a few
// distinct groups held at a time, so it flushes mid-stream too.
RC_GTEST_PROP(ExplorerProperties, RepeatedWindowsScoreAsTheNaiveLoop, ()) {
  const unsigned m = *rc::gen::inRange(1u, 5u);
  const unsigned channels = 1u << m;
  const unsigned bit = *rc::gen::inRange(0u, m);
  const unsigned k = *rc::gen::inRange(1u, 9u);
  const unsigned window = *rc::gen::element(2u, 3u, 8u, 16u, 33u, 64u);
  const uint32_t kmask = (1u << k) - 1;
  const unsigned templates = *rc::gen::inRange(1u, 4u);
  std::vector<std::vector<uint32_t>> tchans(templates), tpatterns(templates);
  for (unsigned t = 0; t < templates; ++t)
    for (unsigned r = 0; r < window; ++r) {
      tchans[t].push_back(*rc::gen::inRange(0u, channels));
      tpatterns[t].push_back(*rc::gen::inRange(0u, kmask + 1));
    }
  const unsigned repeats = *rc::gen::inRange(0u, 24u);
  std::vector<uint32_t> chans, patterns;
  for (unsigned w = 0; w < repeats; ++w) {
    const unsigned t = *rc::gen::inRange(0u, templates);
    const uint32_t flip = *rc::gen::inRange(0u, kmask + 1);
    const uint32_t channel_flip = *rc::gen::arbitrary<bool>() ? 1u << bit : 0u;
    const unsigned rotate = *rc::gen::inRange(0u, window);
    for (unsigned r = 0; r < window; ++r) {
      const unsigned i = (r + rotate) % window;
      chans.push_back(tchans[t][i] ^ channel_flip);
      patterns.push_back(tpatterns[t][i] ^ flip);
    }
  }
  const unsigned tail = *rc::gen::inRange(0u, window);  // the dropped partial window, or the whole of a short stream
  for (unsigned r = 0; r < tail; ++r) {
    chans.push_back(*rc::gen::inRange(0u, channels));
    patterns.push_back(*rc::gen::inRange(0u, kmask + 1));
  }
  RC_LOG() << channels << " channels, bit " << bit << ", K " << k << ", window " << window << ", " << repeats
           << " windows of " << templates << " kinds\n";
  expect_naive_scores(chans, patterns, channels, bit, k, window, any_options(window));
}

// Whole windows handed over with a count (ChannelBitSearch::add_window), each
// with every channel XOR one constant and every pattern XOR another: they
// score as the stream with each window repeated, untransformed, that many
// times. gpumem explore hands a stream over so, its repeated windows once.
RC_GTEST_PROP(ExplorerProperties, CountedWindowsScoreAsTheWindowsRepeated, ()) {
  const unsigned m = *rc::gen::inRange(1u, 5u);
  const unsigned channels = 1u << m;
  const unsigned bit = *rc::gen::inRange(0u, m);
  const unsigned k = *rc::gen::inRange(1u, 9u);
  const unsigned window = *rc::gen::element(1u, 2u, 3u, 8u, 16u, 33u, 64u);
  const uint32_t kmask = (1u << k) - 1;
  const ChannelBitSearchOptions options = any_options(window);
  ChannelBitSearch search(channels, bit, k, window, options);
  std::vector<uint32_t> chans, patterns;  // the stream the search is told about
  const unsigned windows = *rc::gen::inRange(0u, 12u);
  std::vector<uint32_t> c, p;
  for (unsigned w = 0; w < windows; ++w) {
    if (w == 0 || *rc::gen::inRange(0, 3) != 0) {  // else the last window again: its groups held twice
      c.resize(window);
      p.resize(window);
      for (unsigned r = 0; r < window; ++r) {
        c[r] = *rc::gen::inRange(0u, channels);
        p[r] = *rc::gen::inRange(0u, kmask + 1);
      }
    }
    if (*rc::gen::inRange(0, 3) == 0) {  // one request at a time
      for (unsigned r = 0; r < window; ++r) search.add(c[r], p[r]);
      chans.insert(chans.end(), c.begin(), c.end());
      patterns.insert(patterns.end(), p.begin(), p.end());
      continue;
    }
    const uint64_t count = *rc::gen::inRange<uint64_t>(1, 5);
    for (uint64_t i = 0; i < count; ++i) {
      chans.insert(chans.end(), c.begin(), c.end());
      patterns.insert(patterns.end(), p.begin(), p.end());
    }
    const uint32_t channel_flip = *rc::gen::inRange(0u, channels);
    const uint32_t flip = *rc::gen::inRange(0u, kmask + 1);
    for (unsigned r = 0; r < window; ++r) {
      c[r] ^= channel_flip;
      p[r] ^= flip;
    }
    search.add_window(c.data(), p.data(), count);
  }
  const unsigned tail = *rc::gen::inRange(0u, window);  // the dropped partial window, or the whole of a short stream
  for (unsigned r = 0; r < tail; ++r) {
    chans.push_back(*rc::gen::inRange(0u, channels));
    patterns.push_back(*rc::gen::inRange(0u, kmask + 1));
    search.add(chans.back(), patterns.back());
  }
  RC_LOG() << channels << " channels, bit " << bit << ", K " << k << ", window " << window << ", " << windows
           << " windows\n";
  expect_same_scores(search.scores(), channel_bit_scores_naive(chans, patterns, channels, bit, k, window));
}

// Every window's count times 2^m: the same scores to the bit (the mean
// entropy's sums and window count scale alike, by a power of two). Counts
// up to 2^42 take each way the spectrum is summed: 64-bit partial sums
// folded into the 128-bit spectrum before they could overflow, often or
// rarely, and terms too large for them added at 128 bits.
RC_GTEST_PROP(ExplorerProperties, ScoresDoNotChangeWhenEveryCountIsScaled, ()) {
  const unsigned m = *rc::gen::inRange(1u, 5u);
  const unsigned channels = 1u << m;
  const unsigned bit = *rc::gen::inRange(0u, m);
  const unsigned k = *rc::gen::inRange(1u, 9u);
  const unsigned window = *rc::gen::element(2u, 8u, 33u, 64u, 200u);
  const unsigned scale = *rc::gen::element(1u, 10u, 20u, 28u, 34u, 40u);
  const uint32_t kmask = (1u << k) - 1;
  ChannelBitSearch once(channels, bit, k, window, any_options(window));
  ChannelBitSearch scaled(channels, bit, k, window, any_options(window));
  const unsigned windows = *rc::gen::inRange(1u, 40u);
  std::vector<uint32_t> c(window), p(window);
  for (unsigned w = 0; w < windows; ++w) {
    for (unsigned r = 0; r < window; ++r) {
      c[r] = *rc::gen::inRange(0u, channels);
      p[r] = *rc::gen::inRange(0u, kmask + 1);
    }
    const uint64_t count = *rc::gen::inRange<uint64_t>(1, 5);
    once.add_window(c.data(), p.data(), count);
    scaled.add_window(c.data(), p.data(), count << scale);
  }
  RC_LOG() << channels << " channels, bit " << bit << ", K " << k << ", window " << window << ", " << windows
           << " windows, counts times 2^" << scale << "\n";
  expect_same_scores(scaled.scores(), once.scores());
}

}  // namespace
}  // namespace gpumem::test
