// What a run of a per-thread trace measures per SM and per warp
// (frontend/sm_array.hpp fills them; the report and the stats JSON show them).
#pragma once
#include <cstdint>

namespace gpumem {

struct SmRunStats {
  uint64_t requests = 0, reads = 0, writes = 0, bytes = 0, faults = 0;
  uint64_t thread_accesses = 0;  // per-thread records behind its requests
  uint64_t latency_sum = 0, latency_max = 0;  // completion - issue
  uint64_t first_issue = ~uint64_t{0}, last_completion = 0;
  // Cycles its requests waited for a free MSHR and for the data of their
  // warp's dependent request, counted from the later of the request's slot
  // and the cycle after the SM's previous issue.
  uint64_t mshr_wait_cycles = 0, dependency_wait_cycles = 0;
};

// Strided requests of a run (CN104199782B) and the messages they took: one per
// channel each touched, against one per element or one per line request
// (what coalescing made of the same warp instructions).
struct StridedRunStats {
  uint64_t requests = 0, elements = 0, line_requests = 0;
  uint64_t messages = 0;  // router to channel
  uint64_t accesses = 0;  // channel accesses: one per interleave granule a message's elements fall in
  int64_t saved_against_elements() const { return static_cast<int64_t>(elements) - static_cast<int64_t>(messages); }
  int64_t saved_against_lines() const { return static_cast<int64_t>(line_requests) - static_cast<int64_t>(messages); }
};

// Warps of a run, each counted once: the spread of their request counts and
// mean latencies.
struct WarpRunSummary {
  uint64_t warps = 0;
  uint64_t requests_min = 0, requests_max = 0, requests_total = 0;
  double mean_latency_min = 0, mean_latency_max = 0, mean_latency_mean = 0;
};

}  // namespace gpumem
