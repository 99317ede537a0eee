// The --sc model a pin-level bench drives, in one of two forms with the same
// face (`box->port`, `assertion_failed()`, `trace()`):
//   LinkedScModel<Model>  a built-in geometry's Verilated class, linked in,
//                         with a VerilatedContext of its own;
//   LoadedScModel<Shell>  the shell of a library verilated at run time
//                         (rtl_sc_shell.hpp), which owns its context.
// A bench is a template over the box and binds its signals by port name;
// each signal takes its port's type (`Box::Model`'s).
#pragma once
// First: once SystemC is seen, verilated.h uses the global names of
// systemc.h, which verilated_sc.h includes.
#include "verilated_sc.h"

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "tb/common/rtl_library.hpp"
#include "tb/common/rtl_sc_shell.hpp"
#include "tb/common/verilated_harness.hpp"
#include "verilated.h"
#include "verilated_fst_sc.h"

namespace gpumem::tb {

template <typename M>
class LinkedScModel {
 public:
  using Model = M;
  // `waves`: the bench will trace from the SystemC side (set before the model exists).
  LinkedScModel(uint64_t seed, bool waves, const LoadedRtl* rtl = nullptr) {
    if (rtl) throw std::logic_error("a built-in --sc model with a library verilated at run time");
    if (waves) context_->traceEverOn(true);
    randomize_initial_values(*context_, seed);
    context_->fatalOnError(false);  // a failing RTL assertion stops the run (done()) with a report
    // The --sc model takes the thread's context, which a destroyed --cc model
    // (a fast run before this one) leaves pointing at freed memory.
    Verilated::threadContextp(context_.get());
    dut_ = std::make_unique<Model>("dut");
  }
  ~LinkedScModel() {
    dut_->final();
    // The model's scopes unregister through the thread's context: make it
    // ours again (a fast-mode re-run may have come and gone since), and
    // afterwards leave no pointer to it behind.
    Verilated::threadContextp(context_.get());
    dut_.reset();
    Verilated::threadContextp(Verilated::defaultContextp());
  }
  Model* operator->() { return dut_.get(); }
  bool assertion_failed() const { return context_->gotError(); }
  void trace(VerilatedFstSc* fst) { dut_->trace(fst, 99); }

 private:
  std::unique_ptr<VerilatedContext> context_ = std::make_unique<VerilatedContext>();
  std::unique_ptr<Model> dut_;
};

template <typename Shell>
class LoadedScModel {
 public:
  using Model = Shell;
  LoadedScModel(uint64_t seed, bool waves, const LoadedRtl* rtl) {
    if (!rtl || !rtl->sc_create) throw std::logic_error("no pin-level library verilated for this run");
    // The pin-level mode's waves come from a fast-mode re-run; a library's
    // own model is not traced from the SystemC side.
    if (waves) throw std::invalid_argument("SystemC-side waves of RTL verilated at run time");
    dut_.reset(static_cast<Shell*>(static_cast<RtlScShell*>(rtl->sc_create("dut", seed))));
  }
  ~LoadedScModel() { dut_->final(); }
  Shell* operator->() { return dut_.get(); }
  bool assertion_failed() const { return dut_->assertion_failed(); }
  void trace(VerilatedFstSc*) {}

 private:
  std::unique_ptr<Shell> dut_;
};

}  // namespace gpumem::tb
