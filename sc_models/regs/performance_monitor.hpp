// The on-chip performance counters of CN115422098A [0098]: per task
// type and per application (process), the requests and bytes that reached a
// channel, the cycles from the earliest to the latest of them, and the mean
// window entropy of their channels (windows of W consecutive requests of
// that group, the definition of metrics/window_entropy.hpp). The register
// bank reads them into PERF_TASK and PERF_APP on a snapshot; the profile
// store reads them after a run. docs/register-map.md, "Performance counters".
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/types.hpp"
#include "metrics/window_entropy.hpp"

namespace gpumem {

struct PerfReading {
  uint64_t requests = 0;
  uint64_t bytes = 0;
  uint64_t active_cycles = 0;  // latest arrival's cycle - earliest's + 1; 0 with no request
  uint64_t windows = 0;        // full windows closed
  double mean_window_entropy = 0;

  // Bytes and requests per cycle of the active span: bandwidth and request density.
  double bandwidth() const { return active_cycles ? double(bytes) / double(active_cycles) : 0.0; }
  double density() const { return active_cycles ? double(requests) / double(active_cycles) : 0.0; }
};

class PerformanceMonitor {
 public:
  PerformanceMonitor(unsigned channels, unsigned window);

  // A request of task type `task` from process `process` reached `channel` at `cycle`.
  void count(unsigned task, unsigned process, unsigned channel, unsigned bytes, uint64_t cycle) {
    tasks_[task].count(channel, bytes, cycle);
    apps_[process].count(channel, bytes, cycle);
  }
  // Every group back to no requests, windows in progress dropped.
  void reset();

  PerfReading task(unsigned t) const { return tasks_[t].reading(); }
  PerfReading application(unsigned process) const { return apps_[process].reading(); }
  unsigned window() const { return window_; }

 private:
  struct Group {
    Group(unsigned channels, unsigned window) : entropy(channels, window) {}
    // Arrivals come in issue order, not cycle order: a request that walks
    // the page tables reaches the router after a later one that hit the TLB.
    void count(unsigned channel, unsigned bytes_moved, uint64_t cycle) {
      earliest_cycle = requests == 0 ? cycle : std::min(earliest_cycle, cycle);
      latest_cycle = requests == 0 ? cycle : std::max(latest_cycle, cycle);
      ++requests;
      bytes += bytes_moved;
      entropy.add(channel);
    }
    PerfReading reading() const;

    uint64_t requests = 0, bytes = 0, earliest_cycle = 0, latest_cycle = 0;
    WindowedEntropy entropy;
  };

  unsigned channels_, window_;
  std::vector<Group> tasks_;  // kMaxTaskTypes
  std::vector<Group> apps_;   // kMaxProcesses
};

// A reading as the eight words of a PERF_TASK or PERF_APP row (PerfField order).
std::vector<uint32_t> perf_words(const PerfReading& r);

}  // namespace gpumem
