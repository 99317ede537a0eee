// Elaborates player + memory system for a config and runs to the end of the
// request stream. SystemC elaborates once per process: call this once.
#pragma once
#include <vector>

#include "completion.hpp"
#include "config.hpp"
#include "request.hpp"

namespace gpumem {

struct SimulationResult {
  uint64_t requests = 0;
  double wall_seconds = 0;
};

// Rethrows what stopped the run early (InputError from a trace, or
// std::runtime_error for an error response from the model).
SimulationResult run_simulation(const Config& cfg, RequestSource& source, const std::vector<CompletionObserver*>& observers);

}  // namespace gpumem
