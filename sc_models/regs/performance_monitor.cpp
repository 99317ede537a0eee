#include "regs/performance_monitor.hpp"

#include <algorithm>
#include <cmath>

#include "regs/register_map.hpp"

namespace gpumem {

PerformanceMonitor::PerformanceMonitor(unsigned channels, unsigned window)
    : channels_(channels),
      window_(window),
      tasks_(kMaxTaskTypes, Group(channels, window)),
      apps_(kMaxProcesses, Group(channels, window)) {}

void PerformanceMonitor::reset() {
  std::fill(tasks_.begin(), tasks_.end(), Group(channels_, window_));
  std::fill(apps_.begin(), apps_.end(), Group(channels_, window_));
}

PerfReading PerformanceMonitor::Group::reading() const {
  PerfReading r;
  r.requests = requests;
  r.bytes = bytes;
  r.active_cycles = requests ? latest_cycle - earliest_cycle + 1 : 0;
  r.windows = entropy.windows();
  r.mean_window_entropy = entropy.mean();
  return r;
}

std::vector<uint32_t> perf_words(const PerfReading& r) {
  std::vector<uint32_t> w(kPerfFieldCount);
  auto split = [&w](PerfField lo, uint64_t v) {
    w[lo] = static_cast<uint32_t>(v);
    w[lo + 1] = static_cast<uint32_t>(v >> 32);
  };
  split(kPerfRequestsLo, r.requests);
  split(kPerfBytesLo, r.bytes);
  split(kPerfActiveCyclesLo, r.active_cycles);
  w[kPerfWindows] = static_cast<uint32_t>(r.windows);
  w[kPerfEntropy] = static_cast<uint32_t>(std::llround(r.mean_window_entropy * 65536.0));
  return w;
}

}  // namespace gpumem
