// Random initial flop values from a run's seed, for every Verilated model a
// bench makes (linked, pin-level, or in a library verilated at run time: it
// needs nothing but verilated.h).
#pragma once
#include <cstdint>

#include "verilated.h"

namespace gpumem::tb {

// Verilator's seed for the random initial values of a run's flops (the RTL is
// verilated with --x-initial unique): from the run's seed, never 0 (which
// Verilator takes as "pick one at random").
inline int verilator_seed(uint64_t seed) { return static_cast<int>(seed % 0x7FFFFFFEu) + 1; }

// Every flop starts from a value drawn from `seed` (+verilator+rand+reset+2),
// so a missing reset shows the same way in every rerun of that seed. Call
// before the model exists.
inline void randomize_initial_values(VerilatedContext& context, uint64_t seed) {
  context.randReset(2);
  context.randSeed(verilator_seed(seed));
}

}  // namespace gpumem::tb
