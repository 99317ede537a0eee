// Cycle numbers and wave times: the one rule both modes follow, so that a
// report's cycle finds its edge in any waves.
//
// Cycle c is the c-th rising edge since reset began (reset edges included),
// the edge that ends it. Scoreboards, reports, cycles() and the summaries of
// both modes count so.
#pragma once
#include <cstdint>

namespace gpumem::tb {

// Fast mode (the --cc model clocked from C++), in the FST's time units: the
// inputs of cycle c settle with the clock low at 2c - 2, its edge is at 2c - 1.
constexpr uint64_t fast_cycle_start(uint64_t c) { return c ? 2 * c - 2 : 0; }
constexpr uint64_t fast_edge_time(uint64_t c) { return c ? 2 * c - 1 : 0; }

// Pin-level mode: an sc_clock of this period whose first rising edge is half
// a period in; the stimulus drives on the falling edge that starts a cycle.
// The edge of cycle c is at (10c - 5) ns.
constexpr uint64_t kPinClockPeriodNs = 10;
constexpr uint64_t pin_edge_time_ns(uint64_t c) { return kPinClockPeriodNs * c - kPinClockPeriodNs / 2; }

}  // namespace gpumem::tb
