#include "metrics/latency_histogram.hpp"

#include <cmath>

#include "base/bits.hpp"

namespace gpumem {

namespace {
constexpr unsigned kSubBuckets = 16;
constexpr unsigned kExactBits = 12;  // log2(kExactLimit)

unsigned floor_log2(uint64_t v) { return 63u - unsigned(__builtin_clzll(v)); }
}  // namespace

unsigned LatencyHistogram::wide_bucket(uint64_t v) {
  const unsigned e = floor_log2(v);
  const unsigned sub = unsigned((v >> (e - 4)) & (kSubBuckets - 1));
  return (e - kExactBits) * kSubBuckets + sub;
}

uint64_t LatencyHistogram::wide_bucket_low(unsigned b) {
  const unsigned e = b / kSubBuckets + kExactBits, sub = b % kSubBuckets;
  return (uint64_t{1} << e) + (uint64_t{sub} << (e - 4));
}

void LatencyHistogram::add(uint64_t v) {
  ++count_;
  sum_ += v;
  if (v > max_) max_ = v;
  if (v < kExactLimit) {
    if (v >= exact_.size()) exact_.resize(v + 1, 0);
    ++exact_[v];
    return;
  }
  const unsigned b = wide_bucket(v);
  if (b >= wide_.size()) wide_.resize(b + 1, 0);
  ++wide_[b];
}

uint64_t LatencyHistogram::percentile(double q) const {
  if (!count_) return 0;
  const auto rank = static_cast<uint64_t>(std::ceil(q * double(count_)));
  const uint64_t want = rank ? rank : 1;
  uint64_t seen = 0;
  for (uint64_t v = 0; v < exact_.size(); ++v)
    if ((seen += exact_[v]) >= want) return v;
  for (unsigned b = 0; b < wide_.size(); ++b)
    if ((seen += wide_[b]) >= want) return wide_bucket_low(b);
  return max_;
}

std::vector<LatencyHistogram::Bin> LatencyHistogram::bins() const {
  // Bin edges: 0..7 one cycle each, then 4 per power of two.
  const auto bin_of = [](uint64_t v) -> uint64_t {
    if (v < 8) return v;
    const unsigned e = floor_log2(v);
    return 8 + (e - 3) * 4 + ((v >> (e - 2)) & 3);
  };
  const auto low_of = [](uint64_t b) -> uint64_t {
    if (b < 8) return b;
    const uint64_t e = (b - 8) / 4 + 3, sub = (b - 8) % 4;
    return (uint64_t{1} << e) + (sub << (e - 2));
  };
  std::vector<uint64_t> counts;
  const auto put = [&](uint64_t v, uint64_t n) {
    if (!n) return;
    const uint64_t b = bin_of(v);
    if (b >= counts.size()) counts.resize(b + 1, 0);
    counts[b] += n;
  };
  for (uint64_t v = 0; v < exact_.size(); ++v) put(v, exact_[v]);
  // A wide bucket is a sixteenth of a power of two: it lies inside one bin.
  for (unsigned b = 0; b < wide_.size(); ++b) put(wide_bucket_low(b), wide_[b]);
  std::vector<Bin> out;
  for (uint64_t b = 0; b < counts.size(); ++b)
    if (counts[b]) out.push_back({low_of(b), low_of(b + 1), counts[b]});
  return out;
}

}  // namespace gpumem
