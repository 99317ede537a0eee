// What the front end's parts are built with. They know nothing of the config:
// params/frontend_from_config.hpp fills each struct from it (docs/frontend.md,
// "Parameters", and docs/config-reference.md name the keys).
#pragma once
#include <cstdint>

#include "base/frontend_options.hpp"
#include "base/memory_options.hpp"
#include "base/simulation_options.hpp"
#include "base/types.hpp"
#include "sources/request_limits.hpp"

namespace gpumem {


// The GPU core model of a per-thread trace: scheduling, coalescing and
// ordering (L1SequenceGenerator), and each SM's issue (SmArrayTlm).
struct FrontendParams : FrontendOptions {  // the frontend section's (base/frontend_options.hpp)
  uint64_t quantum_cycles = SimulationOptions{}.quantum_cycles;  // the SMs' temporal-decoupling quantum (lt)
  TimingMode timing = SimulationOptions{}.timing;  // at: the SMs issue when the memory's answers let them
  RequestLimits limits;                     // what the trace's records and kernels are checked against
};

// The request trace player (TracePlayer).
struct TracePlayerParams {
  uint64_t quantum_cycles = SimulationOptions{}.quantum_cycles;  // temporal-decoupling quantum (lt)
  unsigned max_outstanding = MemoryOptions{}.max_outstanding;    // requests in flight at once
  TimingMode timing = SimulationOptions{}.timing;  // at: each request waits for its answer on nb_transport_bw
};

}  // namespace gpumem
