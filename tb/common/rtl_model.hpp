// One fast-mode RTL model behind the rtl_abi.h table, and the clock, reset
// and waves around it: what every block's driver drives, whether the model
// is linked into gpumem or was verilated at run time (rtl_library.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "tb/common/rtl_abi.h"
#include "tb/common/wave_window.hpp"

namespace gpumem::tb {

// Every contract's first two inputs.
inline constexpr unsigned kClkInput = 0, kRstNInput = 1;

class RtlHarness {
 public:
  // `scope` names the model's top in the waves ("translator", "tlb").
  RtlHarness(const GpumemRtlApi& api, const char* scope, uint64_t seed, const WaveWindow& waves);
  ~RtlHarness();
  RtlHarness(const RtlHarness&) = delete;
  RtlHarness& operator=(const RtlHarness&) = delete;

  // The pins in contract order: set inputs before settle(), read outputs after it.
  uint64_t& in(unsigned port) { return inputs_[port]; }
  uint64_t out(unsigned port) const { return outputs_[port]; }

  // rst_ni low for two cycles with the inputs as the caller left them
  // (idle), then released with the clock low.
  void reset();
  // The first half of a cycle: the inputs are on the pins, clock low. The
  // model's time is the waves' time (cycle_time.hpp), so its assertion
  // messages name the same instant.
  void settle();
  // The rising edge that ends the cycle.
  void rise();
  uint64_t cycles() const { return cycles_; }
  bool assertion_failed() const { return api_.assertion_failed(model_) != 0; }

 private:
  void eval(uint64_t time);
  void dump(uint64_t time);
  const GpumemRtlApi& api_;
  void* model_;
  WaveWindow waves_;
  bool waves_open_ = false;
  std::vector<uint64_t> inputs_, outputs_;
  uint64_t cycles_ = 0;
};

}  // namespace gpumem::tb
