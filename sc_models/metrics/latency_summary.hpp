// A latency distribution small enough to keep one per channel and epoch
// (stats.epoch_cycles): count, mean and max exact; percentiles from bins
// exact below 16 cycles and 16 to a power of two above (within 1/16).
// LatencyHistogram is the whole run's, exact to 4096 cycles.
#pragma once
#include <cstdint>
#include <vector>

namespace gpumem {

class LatencySummary {
 public:
  void add(uint64_t cycles);
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? double(sum_) / double(count_) : 0.0; }
  uint64_t max() const { return max_; }
  // The smallest latency at or below which a share `q` (0..1] of the
  // samples lie; a bin of more than one cycle answers with its lower bound.
  uint64_t percentile(double q) const;

 private:
  static unsigned bin(uint64_t v);
  static uint64_t bin_low(unsigned b);
  std::vector<uint32_t> bins_;  // grown to the largest bin seen
  uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

}  // namespace gpumem
