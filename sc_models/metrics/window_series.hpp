// The windows of a WindowedEntropy over time, in a bounded number of
// points (docs/explorer.md, "Series"): each point is a run of consecutive
// windows with their mean entropy and their requests per channel. A run
// has millions of windows; the series keeps at most `max_points` points by
// merging neighbours pairwise whenever it fills, so every point but the
// last spans the same power-of-two number of windows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpumem {

// What `gpumem run --stats-json` and `gpumem explore --json` keep.
constexpr size_t kSeriesPoints = 1000;

struct SeriesPoint {
  uint64_t first_window = 0;  // index of its first window in the stream
  uint64_t windows = 0;       // consecutive windows it spans
  double entropy = 0;         // mean of their entropies, as WindowedEntropy scores each
  std::vector<uint64_t> per_channel;  // their requests on each channel
};

class WindowSeries {
 public:
  // max_points >= 2.
  WindowSeries(unsigned channels, unsigned window, size_t max_points);

  // One closed window: its sum over channels of nlog2n_fixed(n_c), and its histogram.
  void add(int64_t sum_nlog2n, const std::vector<uint64_t>& histogram);

  // The points so far. `partial_*`: a stream shorter than one window has no
  // closed window; its one point is then that partial window (n requests),
  // as WindowedEntropy::mean() scores it.
  std::vector<SeriesPoint> points(int64_t partial_sum = 0, const std::vector<uint64_t>* partial = nullptr, unsigned n = 0) const;
  size_t max_points() const { return max_; }

 private:
  struct Run {
    uint64_t first = 0, windows = 0;
    __int128 sum = 0;
    std::vector<uint64_t> per_channel;
  };
  void merge_pairs();

  unsigned channels_, window_;
  size_t max_;
  uint64_t span_ = 1;  // windows a full point spans
  uint64_t windows_ = 0;
  std::vector<Run> runs_;
};

}  // namespace gpumem
