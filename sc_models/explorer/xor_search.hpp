// Exhaustive search of one channel bit's XOR control vector (CN115422098A
// [0053]-[0075]): every one of the 2^K vectors a over the K
// candidate bits is scored exactly, as the mean window entropy the stream
// would have with channel bit j flipped by parity(a & x), x being a
// request's candidate-bit pattern and every other channel bit as given.
//
// How, in one pass over the stream (docs/explorer.md, "The search"): a
// window's entropy is a sum over groups of requests that share every other
// channel bit, and a group's term depends on a only through a's parities
// with the differences of the group's patterns. Those span a subspace V of
// dimension d < the group's size, so the term's Walsh spectrum over all 2^K
// vectors lies in V: 2^d coefficients, computed with two transforms of size
// 2^d and added into one spectrum of the whole stream. One inverse
// transform of size 2^K at the end gives every vector's score. The cost per
// window is about W * 2^d, not 2^K; integer arithmetic throughout, so the
// scores are exact.
//
// Streams repeat groups (strided ones window after window), so each group
// is first reduced to a canonical form that has the same term, and each
// distinct form is transformed once, weighted by how often it came. Worker
// threads each take whole windows and keep a spectrum of their own; the
// spectra are summed at the end, so the scores are the same bits whatever
// the thread count.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpumem {

struct ChannelBitSearchOptions {
  // Worker threads. 1: everything in the caller's thread, no thread started;
  // the caller chooses, since it knows what else shares the cores.
  unsigned threads = 1;
  // Requests the distinct groups held for deduplication may add up to before
  // they are transformed and forgotten (per thread; 4 bytes each plus the
  // table). 0: no deduplication, each group transformed as it comes.
  size_t held_requests = size_t{1} << 21;
  // Requests handed to a worker at once (rounded down to whole windows, at
  // least one); with threads > 1 only.
  size_t batch_requests = size_t{1} << 16;
};

class ChannelBitSearch {
 public:
  // `channels` a power of two, `bit` the channel-index bit searched, k <= 24
  // candidate bits, windows of `window` requests. Memory: a 2^K spectrum of
  // 16-byte integers per thread (24 bytes up to K = 20: a 64-bit sum beside
  // it), the held groups, and a few batches.
  ChannelBitSearch(unsigned channels, unsigned bit, unsigned k, unsigned window, ChannelBitSearchOptions options = {});
  ~ChannelBitSearch();
  ChannelBitSearch(const ChannelBitSearch&) = delete;
  ChannelBitSearch& operator=(const ChannelBitSearch&) = delete;

  // A request on `channel` (bit `bit` as it is without the vector) whose
  // candidate bits read `pattern` (bit i: candidate bit p_i).
  void add(uint32_t channel, uint32_t pattern);
  // A whole window of requests at once, as `count` windows of the stream
  // (windows that are the same up to one XOR on every channel and one on
  // every pattern score alike for every vector: docs/explorer.md, "The
  // search"). Only between windows of add().
  void add_window(const uint32_t* channels, const uint32_t* patterns, uint64_t count);

  // After the stream: the mean window entropy for every vector, exactly as
  // WindowedEntropy scores the mapped stream.
  std::vector<double> scores();
  uint64_t windows() const { return windows_; }

 private:
  // A request as the search keeps it: the other channel bits name its
  // group; `entry` is pattern << 1 | channel bit j.
  struct Request {
    uint32_t group, entry;
  };
  class Accumulator;
  class Pool;
  // Whole windows, and how many times each counts.
  struct Batch {
    std::vector<Request> requests;
    std::vector<uint64_t> counts;  // per window
  };
  void window_closed(uint64_t count);
  void hand_over(size_t windows);

  unsigned bit_, k_, window_;
  uint32_t pattern_mask_;
  size_t batch_;  // requests taken at once: whole windows
  Batch pending_;  // whole windows not yet taken, then the open window
  unsigned open_ = 0;  // requests in the open window
  uint64_t windows_ = 0;
  std::vector<int64_t> nlog2n_;  // nlog2n_fixed(0 .. window), read by every thread
  std::vector<std::unique_ptr<Accumulator>> accumulators_;  // one per thread
  std::unique_ptr<Pool> pool_;  // with threads > 1
};

// The same scores by brute force: the stream mapped with each vector in turn
// and scored by WindowedEntropy. For tests and the benchmark's naive side.
std::vector<double> channel_bit_scores_naive(const std::vector<uint32_t>& channels, const std::vector<uint32_t>& patterns,
                                             unsigned channel_count, unsigned bit, unsigned k, unsigned window);

}  // namespace gpumem
