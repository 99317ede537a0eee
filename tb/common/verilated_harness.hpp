// The reset of a bare Verilated --cc model, for the benchmark's floors (the
// drivers reset through RtlHarness, rtl_model.hpp, the same way), and the
// flops' random initial values for the pin-level models.
#pragma once

#include "tb/common/initial_values.hpp"
#include "verilated.h"

namespace gpumem::tb {

// Holds rst_ni low for two clock cycles and leaves the clock low with reset
// released; the caller has set every input idle. Returns the cycles it took.
// Also what the benchmark's bare loops use, so the floor resets the same way.
template <typename Model>
unsigned reset_cycles(Model& dut) {
  constexpr unsigned kCycles = 2;
  dut.rst_ni = 0;
  for (unsigned i = 0; i < kCycles; ++i) {
    dut.clk_i = 0;
    dut.eval();
    dut.clk_i = 1;
    dut.eval();
  }
  dut.clk_i = 0;
  dut.rst_ni = 1;
  dut.eval();
  return kCycles;
}

}  // namespace gpumem::tb
