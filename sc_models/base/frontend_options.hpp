// The GPU core model of a per-thread trace (docs/frontend.md): what the
// config's frontend section gives (these are its defaults) and the front
// end's scheduling, coalescing, ordering and SMs are built with.
#pragma once
#include <cstdint>

#include "base/types.hpp"

namespace gpumem {

struct FrontendOptions {
  unsigned num_sms = 16;
  unsigned blocks_per_sm = 8;     // resident blocks per SM at once
  unsigned warps_per_block = 8;   // unless a kernel gives its own
  unsigned line_bytes = 128;      // cache line: only accesses to one line coalesce
  unsigned mshr_entries = 32;     // per SM: no issue while this many requests are outstanding
  unsigned latency_min = 20;      // M of the ordering latency T = M + |N(0, sigma)|, in ticks
  double latency_sigma = 8;
  uint64_t seed = 1;              // of the latency generators
  bool strided_requests = true;   // equally spaced warp instructions go out as one strided request (CN104199782B)
  uint64_t max_queued = 65536;    // gpumem run: requests ordered but not yet issued, over all SMs, at most
  IssueTiming issue_timing = IssueTiming::kOrdering;
  WarpScheduler scheduler = WarpScheduler::kLrr;  // simulation.timing: at only
  uint64_t max_records_in_memory = 262144;  // resident blocks' per-thread records kept in memory; the rest spill to a file
};

}  // namespace gpumem
