// Exhaustive search of one channel bit's XOR control vector (SPEC 6; seed
// 000, paragraphs 0053-0075): every one of the 2^K vectors a over the K
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
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpumem {

class ChannelBitSearch {
 public:
  // `channels` a power of two, `bit` the channel-index bit searched, k <= 24
  // candidate bits, windows of `window` requests. Memory: the 2^K spectrum
  // and one window.
  ChannelBitSearch(unsigned channels, unsigned bit, unsigned k, unsigned window);

  // A request on `channel` (bit `bit` as it is without the vector) whose
  // candidate bits read `pattern` (bit i: candidate bit p_i).
  void add(uint32_t channel, uint32_t pattern);

  // After the stream: the mean window entropy for every vector, exactly as
  // WindowedEntropy scores the mapped stream.
  std::vector<double> scores();
  uint64_t windows() const { return windows_; }

 private:
  struct Request {
    uint32_t group, pattern;
    bool bit;
  };
  void close_window(unsigned n);
  void add_group(const Request* group, unsigned n);

  unsigned channels_, bit_, k_, window_;
  std::vector<Request> open_;
  uint64_t windows_ = 0;
  // [u]: 2^K times the Walsh spectrum of the sum over windows of
  // sum_c n_c log2 n_c (fixed point) as a function of the vector.
  std::vector<__int128> spectrum_;
  // Scratch, sized once.
  std::vector<uint32_t> basis_;
  std::vector<int64_t> h_, g_;
};

// The same scores by brute force: the stream mapped with each vector in turn
// and scored by WindowedEntropy. For tests and the benchmark's naive side.
std::vector<double> channel_bit_scores_naive(const std::vector<uint32_t>& channels, const std::vector<uint32_t>& patterns,
                                             unsigned channel_count, unsigned bit, unsigned k, unsigned window);

}  // namespace gpumem
