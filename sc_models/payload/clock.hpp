// Cycles <-> SystemC time. All model timing is counted in cycles of one clock.
#pragma once
#include <systemc>

#include "payload/how.hpp"

namespace gpumem {

class Clock {
 public:
  explicit Clock(double cycle_ns)
      : period_(cycle_ns, sc_core::SC_NS), period_value_(period_.value()), inverse_(1.0 / static_cast<double>(period_value_)) {}
  const sc_core::sc_time& period() const { return period_; }

  // Whole cycles in t. A 64-bit divide per transaction costs more than the
  // rest of a channel access, so: reciprocal estimate, then exact correction.
  uint64_t cycles(const sc_core::sc_time& t) const {
    const uint64_t v = t.value();
    uint64_t c = static_cast<uint64_t>(static_cast<double>(v) * inverse_);
    while (c * period_value_ > v) --c;
    while ((c + 1) * period_value_ <= v) ++c;
    return c;
  }
  // Inline multiply (from_value is an out-of-line call); exact below 2^53 ps (about 2.5 simulated hours).
  sc_core::sc_time time(uint64_t cycles) const { return period_ * static_cast<double>(cycles); }
  // A span a block adds on every request: its time computed once, up front.
  struct Span {
    uint64_t cycles;
    sc_core::sc_time time;
  };
  Span span(uint64_t cycles) const { return {cycles, time(cycles)}; }

 private:
  sc_core::sc_time period_;
  uint64_t period_value_;
  double inverse_;
};

// The one way a block adds time to a request: the cycles to its How and
// their kernel time to the b_transport delay together, so How::cycle always
// equals now + delay in cycles.
inline void advance(How& how, sc_core::sc_time& delay, const Clock::Span& span) {
  how.cycle += span.cycles;
  delay += span.time;
}

}  // namespace gpumem
