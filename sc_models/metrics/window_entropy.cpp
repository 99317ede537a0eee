#include "metrics/window_entropy.hpp"

#include <algorithm>

namespace gpumem {

namespace {

constexpr double kScale = static_cast<double>(int64_t{1} << kEntropyFractionBits);

// The table covers every window up to 4096 requests; beyond, the same
// formula on the fly.
const std::vector<int64_t>& small_table() {
  static const std::vector<int64_t> t = [] {
    std::vector<int64_t> v(4097, 0);
    for (uint64_t n = 2; n < v.size(); ++n)
      v[n] = std::llround(static_cast<double>(n) * std::log2(static_cast<double>(n)) * kScale);
    return v;
  }();
  return t;
}

// n log2 n in fixed point from the table `t` (small_table()), or computed
// past it. Callers of many values take the table once.
int64_t nlog2n_from(const std::vector<int64_t>& t, uint64_t n) {
  if (n < t.size()) return t[n];
  return std::llround(static_cast<double>(n) * std::log2(static_cast<double>(n)) * kScale);
}

// The mean over windows of (n log2 n - S_w) / n, for windows of n requests,
// as one division of an exact integer: a window on one channel is exactly
// 0, one spread evenly over 2^k channels exactly k.
double mean_entropy(__int128 sum, uint64_t windows, uint64_t n) {
  if (windows == 0 || n == 0) return 0.0;
  const __int128 total = static_cast<__int128>(nlog2n_fixed(n)) * windows - sum;
  return static_cast<double>(total) / kScale / static_cast<double>(n) / static_cast<double>(windows);
}

}  // namespace

int64_t nlog2n_fixed(uint64_t n) { return nlog2n_from(small_table(), n); }

double mean_window_entropy(__int128 sum_nlog2n, uint64_t windows, uint64_t window) {
  return mean_entropy(sum_nlog2n, windows, window);
}

// Called for every window of every counter (three a request in a run): the
// table is looked up once, not once a channel.
int64_t WindowedEntropy::window_sum() const {
  const std::vector<int64_t>& t = small_table();
  int64_t s = 0;
  for (uint64_t n : hist_) s += nlog2n_from(t, n);
  return s;
}

void WindowedEntropy::close_window() {
  const int64_t s = window_sum();
  sum_ += s;
  if (series_) series_->add(s, hist_);
  ++windows_;
  std::fill(hist_.begin(), hist_.end(), 0);
  filled_ = 0;
}

double WindowedEntropy::mean() const {
  if (windows_) return mean_entropy(sum_, windows_, window_);
  return filled_ ? mean_entropy(window_sum(), 1, filled_) : 0.0;  // stream shorter than one window
}

std::vector<SeriesPoint> WindowedEntropy::series() const {
  if (!series_) return {};
  return windows_ ? series_->points() : series_->points(window_sum(), &hist_, filled_);
}

void AddressBitEntropy::close_window() {
  for (size_t b = 0; b < ones_.size(); ++b) {
    sums_[b] += nlog2n_fixed(ones_[b]) + nlog2n_fixed(window_ - ones_[b]);
    ones_[b] = 0;
  }
  ++windows_;
  filled_ = 0;
}

double AddressBitEntropy::mean(unsigned bit) const {
  if (windows_) return mean_entropy(sums_[bit], windows_, window_);
  if (!filled_) return 0.0;
  return mean_entropy(nlog2n_fixed(ones_[bit]) + nlog2n_fixed(filled_ - ones_[bit]), 1, filled_);
}

}  // namespace gpumem
