#include "metrics/latency_summary.hpp"

#include <algorithm>
#include <cmath>

namespace gpumem {

unsigned LatencySummary::bin(uint64_t v) {
  if (v < 16) return unsigned(v);
  const unsigned octave = 63u - unsigned(__builtin_clzll(v));  // >= 4
  return 16 + (octave - 4) * 16 + unsigned((v >> (octave - 4)) & 15);
}

uint64_t LatencySummary::bin_low(unsigned b) {
  if (b < 16) return b;
  const unsigned octave = (b - 16) / 16 + 4, step = (b - 16) % 16;
  return (uint64_t{16} + step) << (octave - 4);
}

void LatencySummary::add(uint64_t cycles) {
  const unsigned b = bin(cycles);
  if (b >= bins_.size()) bins_.resize(b + 1);
  ++bins_[b];
  ++count_;
  sum_ += cycles;
  max_ = std::max(max_, cycles);
}

uint64_t LatencySummary::percentile(double q) const {
  if (!count_) return 0;
  const uint64_t want = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(count_))));
  uint64_t seen = 0;
  for (unsigned b = 0; b < bins_.size(); ++b) {
    seen += bins_[b];
    if (seen >= want) return std::min(bin_low(b), max_);
  }
  return max_;
}

}  // namespace gpumem
