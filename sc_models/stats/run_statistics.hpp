// Statistics of a run, accumulated from completions: per-channel load,
// makespan, windowed channel entropy, per-task counts and, with an
// address space, per-application channel counts and TLB results.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "channel/channel_queue.hpp"
#include "config/config.hpp"
#include "payload/completion.hpp"
#include "metrics/latency_histogram.hpp"
#include "metrics/latency_summary.hpp"
#include "metrics/window_entropy.hpp"

namespace gpumem {

class RunStatistics : public CompletionObserver {
 public:
  explicit RunStatistics(const Config& cfg);
  void on_completion(const Completion& c) override;

  uint64_t requests() const { return requests_; }
  uint64_t faults() const { return faults_; }
  uint64_t makespan() const { return requests_ ? last_completion_ - first_issue_ : 0; }
  double mean_window_entropy() const { return entropy_.mean(); }
  // memory.model: dram: reads from entering the channel's read queue to their data (with memory.latency_cycles).
  const LatencyHistogram& read_latency() const { return read_latency_; }
  uint64_t channel_reads(size_t c) const { return channels_[c].dram_reads; }
  double channel_mean_read_latency(size_t c) const {
    return channels_[c].dram_reads ? double(channels_[c].dram_read_cycles) / double(channels_[c].dram_reads) : 0.0;
  }
  // stats.epoch_cycles: a channel's read latencies by the epoch of their last data.
  const std::vector<LatencySummary>& channel_epoch_read_latency(size_t c) const { return channels_[c].epoch_latency; }

  nlohmann::json to_json() const;
  // The channels' queues are theirs (ChannelQueue: walk reads and strided
  // accesses included), measured over this run's span.
  double mean_queue_depth(const ChannelQueueFigures& q) const;
  void print(std::ostream& os, const std::vector<ChannelQueueFigures>& queues) const;

 private:
  struct ChannelStats {
    uint64_t requests = 0;
    uint64_t bytes = 0;
    uint64_t dram_reads = 0, dram_read_cycles = 0;
    std::vector<LatencySummary> epoch_latency;
  };
  struct TaskStats {
    uint64_t requests = 0, reads = 0, writes = 0, bytes = 0;
    std::vector<uint64_t> per_channel;
  };
  struct ProcessStats {
    uint64_t requests = 0, reads = 0, writes = 0, faults = 0;
    uint64_t hits_small = 0, hits_large = 0, misses = 0, nested = 0, walk_reads = 0;
    std::vector<uint64_t> per_channel;
  };

  const Config& cfg_;
  unsigned service_cycles_;
  std::vector<ProcessStats> processes_;  // with an address space, by process id
  uint64_t faults_ = 0;
  std::vector<ChannelStats> channels_;
  std::vector<TaskStats> tasks_;
  WindowedEntropy entropy_;
  LatencyHistogram read_latency_;
  uint64_t requests_ = 0;
  uint64_t first_issue_ = ~uint64_t{0};
  uint64_t last_completion_ = 0;
};

// The "series" object of `gpumem run --stats-json` and `gpumem explore
// --json` (docs/explorer.md, "Series"): the windows of `window` requests
// over time, in at most kSeriesPoints points.
nlohmann::json series_json(const std::vector<SeriesPoint>& points, unsigned window);

}  // namespace gpumem
