// What every fast-mode driver needs around a Verilated --cc model: its own
// VerilatedContext, the clock and reset, and FST waves of a window of cycles.
// Header-only so it can be instantiated with each block's Verilated class.
#pragma once
#include <cstdint>
#include <memory>

#include "tb/common/cycle_time.hpp"
#include "tb/common/initial_values.hpp"
#include "tb/common/wave_window.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"

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

template <typename Model>
class VerilatedHarness {
 public:
  VerilatedHarness(const WaveWindow& waves, const char* scope, uint64_t seed) : waves_(waves) {
    randomize_initial_values(context_, seed);
    if (!waves_.path.empty()) context_.traceEverOn(true);  // before the model exists
    // A failing RTL assertion must not abort the process: the co-simulation
    // stops there and reports it with the transaction count and the waves.
    context_.fatalOnError(false);
    dut_ = std::make_unique<Model>(&context_, scope);
    dut_->clk_i = 0;
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~VerilatedHarness() {
    dut_->final();
    if (fst_) fst_->close();
  }
  VerilatedHarness(const VerilatedHarness&) = delete;
  VerilatedHarness& operator=(const VerilatedHarness&) = delete;

  Model& dut() { return *dut_; }
  uint64_t cycles() const { return cycles_; }
  // An RTL assertion has failed (Verilator printed which, at the waves' time).
  bool assertion_failed() const { return context_.gotError(); }

  // rst_ni low for two cycles; the caller has set every input idle.
  void reset() { cycles_ += reset_cycles(*dut_); }
  // The first half of a cycle: the inputs are on the pins, clock low.
  // Verilator's time is the waves' time (cycle_time.hpp), so its assertion
  // messages name the same instant.
  void settle() {
    dut_->clk_i = 0;
    context_.time(fast_cycle_start(cycles_ + 1));
    dut_->eval();
    dump(fast_cycle_start(cycles_ + 1));
  }
  // The rising edge that ends the cycle.
  void rise() {
    dut_->clk_i = 1;
    context_.time(fast_edge_time(cycles_ + 1));
    dut_->eval();
    dump(fast_edge_time(cycles_ + 1));
    ++cycles_;
  }

 private:
  void dump(uint64_t time) {
    if (waves_.path.empty() || cycles_ < waves_.from_cycle) return;
    if (!fst_) {
      fst_ = std::make_unique<VerilatedFstC>();
      dut_->trace(fst_.get(), 99);
      fst_->open(waves_.path.c_str());
    }
    fst_->dump(time);
  }

  VerilatedContext context_;
  WaveWindow waves_;
  std::unique_ptr<Model> dut_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t cycles_ = 0;
};

}  // namespace gpumem::tb
