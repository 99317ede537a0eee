// Windowed channel entropy (CN115422098A [0053]-[0075]): a
// stream of requests in issue order is cut into windows of W consecutive
// requests; a window's entropy over the channels is
//   H = -sum_c p_c log2 p_c = (n log2 n - sum_c n_c log2 n_c) / n
// for n requests in it, n_c of them on channel c. The score is the mean over
// windows; the trailing partial window is dropped unless the stream is
// shorter than W (then it is that partial window's entropy). log2(N) is
// the maximum, for N channels.
//
// Exactness. Every n log2 n term is rounded once to a multiple of 2^-24
// bit (nlog2n_fixed) and summed as an integer, so a score does not depend on
// the order of its additions: `gpumem run`, `gpumem explore`'s fast search
// and its naive loop give the same bits for the same windows, and the
// explorer's predicted entropy is the one the run prints (docs/explorer.md).
// A window's error against the real-valued entropy is below N * 2^-25 / n.
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "metrics/window_series.hpp"

namespace gpumem {

constexpr int kEntropyFractionBits = 24;

// round(n * log2(n) * 2^24); 0 for n = 0 and 1.
int64_t nlog2n_fixed(uint64_t n);

// The mean over `windows` full windows of `window` requests each, from the
// sum over those windows of sum_c nlog2n_fixed(n_c).
double mean_window_entropy(__int128 sum_nlog2n, uint64_t windows, uint64_t window);

class WindowedEntropy {
 public:
  WindowedEntropy(unsigned channels, unsigned window) : hist_(channels, 0), window_(window) {}

  void add(unsigned channel) {
    ++hist_[channel];
    if (++filled_ == window_) close_window();
  }

  double mean() const;
  uint64_t windows() const { return windows_; }
  unsigned window() const { return window_; }
  double maximum() const { return std::log2(static_cast<double>(hist_.size())); }

  // Keep the windows over time too, in at most `max_points` points
  // (window_series.hpp); call before the first add.
  void keep_series(size_t max_points = kSeriesPoints) { series_.emplace(static_cast<unsigned>(hist_.size()), window_, max_points); }
  // The points kept (none without keep_series). Their mean entropies
  // weighted by their window counts average to mean().
  std::vector<SeriesPoint> series() const;

 private:
  int64_t window_sum() const;
  void close_window();

  std::vector<uint64_t> hist_;
  unsigned window_;
  unsigned filled_ = 0;
  uint64_t windows_ = 0;
  __int128 sum_ = 0;
  std::optional<WindowSeries> series_;
};

// Per-address-bit entropy (CN115422098A [0075]): in each window, bit b
// of the address is 1 in k of n requests; its entropy is that of a coin
// with p = k / n. For 0000, 0001, 0011, 0111: 0.811, 1, 0.811, 0 (bits 0 to
// 3). Mean over windows with the same windowing as WindowedEntropy.
class AddressBitEntropy {
 public:
  AddressBitEntropy(unsigned bits, unsigned window) : ones_(bits, 0), sums_(bits, 0), window_(window) {}

  void add(uint64_t address) {
    for (size_t b = 0; b < ones_.size(); ++b) ones_[b] += (address >> b) & 1;
    if (++filled_ == window_) close_window();
  }
  // Bit b's mean entropy over the windows.
  double mean(unsigned bit) const;
  uint64_t windows() const { return windows_; }
  unsigned bits() const { return static_cast<unsigned>(ones_.size()); }

 private:
  void close_window();

  std::vector<uint64_t> ones_;
  std::vector<__int128> sums_;
  unsigned window_;
  unsigned filled_ = 0;
  uint64_t windows_ = 0;
};

}  // namespace gpumem
