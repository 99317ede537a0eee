#include "tb/common/rtl_model.hpp"

#include <stdexcept>
#include <string>

#include "tb/common/cycle_time.hpp"

namespace gpumem::tb {

RtlHarness::RtlHarness(const GpumemRtlApi& api, const char* scope, uint64_t seed, const WaveWindow& waves)
    : api_(api), waves_(waves), inputs_(api.inputs, 0), outputs_(api.outputs, 0) {
  if (api.abi_version != GPUMEM_RTL_ABI_VERSION)
    throw std::runtime_error("RTL model built for interface version " + std::to_string(api.abi_version) +
                             ", this gpumem speaks " + std::to_string(GPUMEM_RTL_ABI_VERSION));
  model_ = api_.create(scope, seed, waves_.path.empty() ? 0 : 1);
  if (!model_) throw std::runtime_error(std::string("could not create the ") + scope + " RTL model");
  inputs_[kRstNInput] = 1;
  api_.eval(model_, 0, inputs_.data(), outputs_.data());
}

RtlHarness::~RtlHarness() { api_.destroy(model_); }

void RtlHarness::eval(uint64_t time) {
  api_.eval(model_, time, inputs_.data(), outputs_.data());
  dump(time);
}

void RtlHarness::dump(uint64_t time) {
  if (waves_.path.empty() || cycles_ < waves_.from_cycle) return;
  if (!waves_open_) {
    if (api_.waves_open(model_, waves_.path.c_str()) != 0)
      throw std::runtime_error("cannot write the waves file " + waves_.path);
    waves_open_ = true;
  }
  api_.waves_dump(model_, time);
}

// As reset_cycles() (verilated_harness.hpp) does for a bare model: the
// reset's edges are not in the waves and keep the model's time.
void RtlHarness::reset() {
  constexpr unsigned kCycles = 2;
  const uint64_t time = fast_cycle_start(cycles_ + 1);
  inputs_[kRstNInput] = 0;
  for (unsigned i = 0; i < kCycles; ++i) {
    inputs_[kClkInput] = 0;
    api_.eval(model_, time, inputs_.data(), outputs_.data());
    inputs_[kClkInput] = 1;
    api_.eval(model_, time, inputs_.data(), outputs_.data());
  }
  cycles_ += kCycles;
  inputs_[kClkInput] = 0;
  inputs_[kRstNInput] = 1;
  api_.eval(model_, time, inputs_.data(), outputs_.data());
}

void RtlHarness::settle() {
  inputs_[kClkInput] = 0;
  eval(fast_cycle_start(cycles_ + 1));
}

void RtlHarness::rise() {
  inputs_[kClkInput] = 1;
  eval(fast_edge_time(cycles_ + 1));
  ++cycles_;
}

}  // namespace gpumem::tb
