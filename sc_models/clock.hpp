// Cycles <-> SystemC time. All model timing is counted in cycles of one clock.
#pragma once
#include <systemc>

namespace gpumem {

class Clock {
 public:
  explicit Clock(double cycle_ns) : period_(cycle_ns, sc_core::SC_NS), period_value_(period_.value()) {}
  const sc_core::sc_time& period() const { return period_; }
  uint64_t cycles(const sc_core::sc_time& t) const { return t.value() / period_value_; }
  sc_core::sc_time time(uint64_t cycles) const { return sc_core::sc_time::from_value(period_value_ * cycles); }

 private:
  sc_core::sc_time period_;
  uint64_t period_value_;
};

}  // namespace gpumem
