// Every run of the SystemC kernel goes through here, so that
// AddressSanitizer's picture of the stack is set right after each
// (base/sanitizer.hpp says why); a layout test holds that no other
// sc_start() is written.
#pragma once
#include <systemc>

#include "base/sanitizer.hpp"

namespace gpumem {

// sc_start() to the end of the simulation, or for `duration`.
inline void run_kernel() {
  sc_core::sc_start();
  sanitizer_back_on_main_stack();
}
inline void run_kernel(const sc_core::sc_time& duration) {
  sc_core::sc_start(duration);
  sanitizer_back_on_main_stack();
}

}  // namespace gpumem
