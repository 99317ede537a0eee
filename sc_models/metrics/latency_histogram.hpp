// Latencies of a run in memory that does not grow with its length: exact
// counts up to kExactLimit cycles, and above it buckets of 1/16 of a power of
// two, so p50/p95/p99 are exact below the limit and within 6.25 % above it.
#pragma once
#include <cstdint>
#include <vector>

namespace gpumem {

class LatencyHistogram {
 public:
  static constexpr uint64_t kExactLimit = 4096;

  void add(uint64_t cycles);
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? double(sum_) / double(count_) : 0.0; }
  uint64_t max() const { return max_; }
  // The smallest latency at or below which a share `q` (0..1] of the
  // samples lie; a bucket above the exact range answers with its lower bound.
  uint64_t percentile(double q) const;

  struct Bin {
    uint64_t lo, hi;  // [lo, hi) cycles
    uint64_t count;
  };
  // Non-empty bins, four per power of two (and one per cycle below 8):
  // a plot's histogram, small whatever the run.
  std::vector<Bin> bins() const;

 private:
  static unsigned wide_bucket(uint64_t v);        // v >= kExactLimit
  static uint64_t wide_bucket_low(unsigned b);
  std::vector<uint64_t> exact_;  // grown to the largest latency seen below the limit
  std::vector<uint64_t> wide_;
  uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

}  // namespace gpumem
