// The clock, reset and waves around one fast-mode RTL model: what every
// block's driver drives. The model is a LinkedRtl (rtl_adapter.hpp: the
// built-in geometries, linked in) or a TableRtl (a shared library verilated
// at run time, rtl_library.hpp, behind the C table of rtl_abi.h); both give
// the pins as values in contract order.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tb/common/cycle_time.hpp"
#include "tb/common/rtl_abi.h"
#include "tb/common/wave_window.hpp"

namespace gpumem::tb {

[[noreturn]] void throw_unwritable(const std::string& path);  // the waves file

// Every contract's first two inputs.
inline constexpr unsigned kClkInput = 0, kRstNInput = 1;

// A model behind the C table.
class TableRtl {
 public:
  TableRtl(const GpumemRtlApi& api, const char* scope, uint64_t seed, bool waves);
  ~TableRtl();
  TableRtl(const TableRtl&) = delete;
  TableRtl& operator=(const TableRtl&) = delete;

  uint64_t* inputs() { return inputs_.data(); }
  const uint64_t* outputs() const { return outputs_.data(); }
  void eval(uint64_t time) { api_.eval(model_, time, inputs_.data(), outputs_.data()); }
  void rise(uint64_t time) {
    inputs_[kClkInput] = 1;
    api_.rise(model_, time);
  }
  bool assertion_failed() const { return api_.assertion_failed(model_) != 0; }
  bool waves_open(const char* path) { return api_.waves_open(model_, path) == 0; }
  void waves_dump(uint64_t time) { api_.waves_dump(model_, time); }
  bool coverage_write(const char* path) { return api_.coverage_write(model_, path) == 0; }

 private:
  const GpumemRtlApi& api_;
  void* model_;
  std::vector<uint64_t> inputs_, outputs_;
};

template <typename Rtl>
class RtlHarness {
 public:
  // `model_args`: the model's constructor arguments before its waves flag
  // (LinkedRtl: scope, seed; TableRtl: table, scope, seed).
  template <typename... ModelArgs>
  explicit RtlHarness(const WaveWindow& waves, ModelArgs&&... model_args)
      : waves_(waves), rtl_(std::forward<ModelArgs>(model_args)..., !waves.path.empty()) {
    in(kRstNInput) = 1;
    rtl_.eval(0);
  }

  // The pins in contract order: set inputs before settle(), read outputs after it.
  uint64_t& in(unsigned port) { return rtl_.inputs()[port]; }
  uint64_t out(unsigned port) const { return rtl_.outputs()[port]; }
  uint64_t* inputs() { return rtl_.inputs(); }
  const uint64_t* outputs() const { return rtl_.outputs(); }

  // rst_ni low for two cycles with the inputs as the caller left them
  // (idle), then released with the clock low. As reset_cycles()
  // (verilated_harness.hpp) does for a bare model: the reset's edges are not
  // in the waves and keep the model's time.
  void reset() {
    constexpr unsigned kCycles = 2;
    const uint64_t time = fast_cycle_start(cycles_ + 1);
    in(kRstNInput) = 0;
    for (unsigned i = 0; i < kCycles; ++i) {
      in(kClkInput) = 0;
      rtl_.eval(time);
      in(kClkInput) = 1;
      rtl_.eval(time);
    }
    cycles_ += kCycles;
    in(kClkInput) = 0;
    in(kRstNInput) = 1;
    rtl_.eval(time);
  }
  // The first half of a cycle: the inputs are on the pins, clock low. The
  // model's time is the waves' time (cycle_time.hpp), so its assertion
  // messages name the same instant.
  void settle() {
    in(kClkInput) = 0;
    eval(fast_cycle_start(cycles_ + 1));
  }
  // The inputs on the pins again with the clock low and nothing dumped: a
  // combinational read between cycles (a register's value), not in the waves.
  void peek() {
    in(kClkInput) = 0;
    rtl_.eval(fast_cycle_start(cycles_ + 1));
  }
  // The rising edge that ends the cycle.
  void rise() {
    const uint64_t time = fast_edge_time(cycles_ + 1);
    rtl_.rise(time);
    dump(time);
    ++cycles_;
  }
  uint64_t cycles() const { return cycles_; }
  bool assertion_failed() const { return rtl_.assertion_failed(); }
  bool coverage_write(const std::string& path) { return rtl_.coverage_write(path.c_str()); }

 private:
  void eval(uint64_t time) {
    rtl_.eval(time);
    dump(time);
  }
  void dump(uint64_t time) {
    if (waves_.path.empty() || cycles_ < waves_.from_cycle) return;
    if (!waves_open_) {
      if (!rtl_.waves_open(waves_.path.c_str())) throw_unwritable(waves_.path);
      waves_open_ = true;
    }
    rtl_.waves_dump(time);
  }

  WaveWindow waves_;
  Rtl rtl_;
  bool waves_open_ = false;
  uint64_t cycles_ = 0;
};

}  // namespace gpumem::tb
