#include "metrics/window_series.hpp"

#include <stdexcept>

#include "metrics/window_entropy.hpp"

namespace gpumem {

WindowSeries::WindowSeries(unsigned channels, unsigned window, size_t max_points)
    : channels_(channels), window_(window), max_(max_points) {
  if (max_points < 2) throw std::invalid_argument("WindowSeries: at least two points");
  runs_.reserve(max_points);
}

void WindowSeries::merge_pairs() {
  size_t out = 0;
  for (size_t i = 0; i < runs_.size(); i += 2, ++out) {
    Run r = std::move(runs_[i]);
    if (i + 1 < runs_.size()) {
      const Run& b = runs_[i + 1];
      r.windows += b.windows;
      r.sum += b.sum;
      for (size_t c = 0; c < r.per_channel.size(); ++c) r.per_channel[c] += b.per_channel[c];
    }
    runs_[out] = std::move(r);
  }
  runs_.resize(out);
  span_ *= 2;
}

void WindowSeries::add(int64_t sum_nlog2n, const std::vector<uint64_t>& histogram) {
  if (runs_.empty() || runs_.back().windows == span_) {
    if (runs_.size() == max_) merge_pairs();
    if (runs_.empty() || runs_.back().windows == span_) runs_.push_back({windows_, 0, 0, std::vector<uint64_t>(channels_, 0)});
  }
  Run& r = runs_.back();
  ++r.windows;
  r.sum += sum_nlog2n;
  for (size_t c = 0; c < histogram.size(); ++c) r.per_channel[c] += histogram[c];
  ++windows_;
}

std::vector<SeriesPoint> WindowSeries::points(int64_t partial_sum, const std::vector<uint64_t>* partial, unsigned n) const {
  std::vector<SeriesPoint> out;
  if (runs_.empty()) {
    if (partial && n) out.push_back({0, 1, mean_window_entropy(partial_sum, 1, n), *partial});
    return out;
  }
  out.reserve(runs_.size());
  for (const Run& r : runs_) out.push_back({r.first, r.windows, mean_window_entropy(r.sum, r.windows, window_), r.per_channel});
  return out;
}

}  // namespace gpumem
