// Mean windowed channel entropy (SPEC 6): windows of W consecutive requests,
// H = -sum p_c log2 p_c over channels, averaged over windows. The trailing
// partial window is dropped unless the whole stream is shorter than W.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace gpumem {

class WindowedEntropy {
 public:
  WindowedEntropy(unsigned channels, unsigned window) : hist_(channels, 0), window_(window) {}

  void add(unsigned channel) {
    ++hist_[channel];
    if (++filled_ == window_) close_window();
  }

  double mean() const {
    if (windows_) return sum_ / static_cast<double>(windows_);
    return filled_ ? entropy() : 0.0;  // stream shorter than one window
  }
  uint64_t windows() const { return windows_; }
  double maximum() const { return std::log2(static_cast<double>(hist_.size())); }

 private:
  double entropy() const {
    double h = 0;
    for (uint64_t n : hist_)
      if (n) {
        const double p = static_cast<double>(n) / static_cast<double>(filled_);
        h -= p * std::log2(p);
      }
    return h;
  }
  void close_window() {
    sum_ += entropy();
    ++windows_;
    std::fill(hist_.begin(), hist_.end(), 0);
    filled_ = 0;
  }

  std::vector<uint64_t> hist_;
  unsigned window_;
  unsigned filled_ = 0;
  uint64_t windows_ = 0;
  double sum_ = 0;
};

}  // namespace gpumem
