// How a run keeps time: what the config's simulation section gives (these
// are its defaults) and every block that keeps time is built with.
#pragma once
#include <cmath>
#include <cstdint>

#include "base/types.hpp"

namespace gpumem {

struct SimulationOptions {
  double cycle_ns = 1.0;            // the model's cycle
  uint64_t quantum_cycles = 10000;  // temporal-decoupling quantum (lt)
  TimingMode timing = TimingMode::kLt;
  uint64_t cycle_ps() const { return static_cast<uint64_t>(std::llround(cycle_ns * 1000.0)); }
};

}  // namespace gpumem
