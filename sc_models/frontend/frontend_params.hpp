// What the front end's parts are built with. They know nothing of the config:
// params/frontend_from_config.hpp fills each struct from it (docs/frontend.md,
// "Parameters", and docs/config-reference.md name the keys).
#pragma once
#include <bitset>
#include <cstdint>

#include "base/types.hpp"

namespace gpumem {

// What every request record is checked against (RequestRules; docs/trace-format.md, "Validation and errors").
struct RequestLimits {
  bool virtual_addresses = false;        // an address space: records name a process and a VA, else a task type and a PA
  unsigned address_bits = 40;            // width of those addresses
  unsigned max_request_bytes = 64;       // the largest request: granule, kMaxRequestBytes and smallest page, whichever is least
  uint64_t page_bytes = 4096;            // the smallest page: in a physical trace it carries one task type
  std::bitset<kMaxProcesses> processes;  // the process ids the address space's applications have
  bool has_process(uint64_t p) const { return p < kMaxProcesses && processes.test(p); }
};

// The GPU core model of a per-thread trace: scheduling, coalescing and
// ordering (L1SequenceGenerator), and each SM's issue (SmArrayTlm).
struct FrontendParams {
  unsigned num_sms = 16;
  unsigned blocks_per_sm = 8;     // resident blocks per SM at once
  unsigned warps_per_block = 8;   // unless a kernel gives its own
  unsigned line_bytes = 128;      // only accesses to one line coalesce
  unsigned mshr_entries = 32;     // per SM: no issue while this many requests are outstanding
  unsigned latency_min = 20;      // M of the ordering latency T = M + |N(0, sigma)|, in ticks
  double latency_sigma = 8;
  uint64_t seed = 1;              // of the latency generators
  bool strided_requests = true;   // equally spaced warp instructions go out as one strided request
  uint64_t max_queued = 65536;    // requests ordered but not yet issued, over all SMs, at most
  IssueTiming issue_timing = IssueTiming::kOrdering;
  WarpScheduler scheduler = WarpScheduler::kLrr;  // simulation.timing: at only
  uint64_t max_records_in_memory = 262144;  // resident blocks' records kept in memory; the rest spill to a file
  uint64_t quantum_cycles = 10000;          // the SMs' temporal-decoupling quantum (lt)
  TimingMode timing = TimingMode::kLt;      // at: the SMs issue when the memory's answers let them
  RequestLimits limits;                     // what the trace's records and kernels are checked against
};

// The request trace player (TracePlayer).
struct TracePlayerParams {
  uint64_t quantum_cycles = 10000;  // temporal-decoupling quantum (lt)
  unsigned max_outstanding = 64;    // requests in flight at once
  TimingMode timing = TimingMode::kLt;  // at: each request waits for its answer on nb_transport_bw
};

}  // namespace gpumem
