// A Verilated --cc model behind a block's port lists: its pins as values in
// contract order. LinkedRtl drives one directly (the built-in geometries:
// every call inlines, so the fast mode costs what a hand-written driver
// does); rtl_api() wraps the same class in the C table of rtl_abi.h, which
// is what a shared library verilated at run time exports (rtl_library.cpp
// writes a three-line source around it).
//
// A block's ports are its table (port_table.hpp), and
// GPUMEM_RTL_PORTS(TranslatorPorts, GPUMEM_TRANSLATOR_PORTS) makes the
// traits LinkedRtl takes.
#pragma once
#include <array>
#include <cstdint>
#include <memory>

#include "tb/common/initial_values.hpp"
#include "tb/common/port_table.hpp"
#include "tb/common/rtl_abi.h"
#include "verilated.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif
#include "verilated_fst_c.h"

namespace gpumem::tb {

#define GPUMEM_RTL_PORT_SET(port, ...) dut.port = inputs[i++];
#define GPUMEM_RTL_PORT_GET(port, ...) outputs[o++] = static_cast<uint64_t>(dut.port);
#define GPUMEM_RTL_PORT_COUNT(port, ...) +1
// Traits NAME of a port table: its counts, and the copies between the
// Verilated model's fields and arrays of values in contract order.
#define GPUMEM_RTL_PORTS(NAME, TABLE)                                                                   \
  struct NAME {                                                                                         \
    static constexpr unsigned kInputs = 0 TABLE(GPUMEM_RTL_PORT_COUNT, GPUMEM_RTL_PORT_COUNT, GPUMEM_PORT_SKIP); \
    static constexpr unsigned kOutputs = 0 TABLE(GPUMEM_PORT_SKIP, GPUMEM_PORT_SKIP, GPUMEM_RTL_PORT_COUNT);    \
    template <typename Model>                                                                           \
    static void set(Model& dut, const uint64_t* inputs) {                                               \
      unsigned i = 0;                                                                                   \
      TABLE(GPUMEM_RTL_PORT_SET, GPUMEM_RTL_PORT_SET, GPUMEM_PORT_SKIP)                                 \
    }                                                                                                   \
    template <typename Model>                                                                           \
    static void get(const Model& dut, uint64_t* outputs) {                                              \
      unsigned o = 0;                                                                                   \
      TABLE(GPUMEM_PORT_SKIP, GPUMEM_PORT_SKIP, GPUMEM_RTL_PORT_GET)                                    \
    }                                                                                                   \
  };

// One model with its own VerilatedContext.
template <typename Model, typename Ports>
class LinkedRtl {
 public:
  static constexpr unsigned kInputs = Ports::kInputs, kOutputs = Ports::kOutputs;

  // Every flop starts from a value drawn from `seed` (the RTL is verilated
  // with --x-initial unique), so a missing reset shows the same way in every
  // rerun of that seed. `waves`: tracing will be wanted (set before the
  // model exists).
  LinkedRtl(const char* scope, uint64_t seed, bool waves) {
    randomize_initial_values(context_, seed);
    if (waves) context_.traceEverOn(true);
    // A failing RTL assertion must not abort the process: the co-simulation
    // stops there and reports it with the transaction count and the waves.
    context_.fatalOnError(false);
    dut_ = std::make_unique<Model>(&context_, scope);
  }
  ~LinkedRtl() {
    dut_->final();
    if (fst_) fst_->close();
  }
  LinkedRtl(const LinkedRtl&) = delete;
  LinkedRtl& operator=(const LinkedRtl&) = delete;

  uint64_t* inputs() { return inputs_.data(); }
  const uint64_t* outputs() const { return outputs_.data(); }
  // The inputs onto the pins, the context's time set, eval(), outputs read.
  void eval(uint64_t time) {
    Ports::set(*dut_, inputs_.data());
    context_.time(time);
    dut_->eval();
    Ports::get(*dut_, outputs_.data());
  }
  // The rising edge: only clk_i changes (input 0 of every contract), and
  // nothing reads the outputs before the next eval().
  void rise(uint64_t time) {
    inputs_[0] = 1;
    dut_->clk_i = 1;
    context_.time(time);
    dut_->eval();
  }
  bool assertion_failed() const { return context_.gotError(); }
  bool waves_open(const char* path) {
    fst_ = std::make_unique<VerilatedFstC>();
    dut_->trace(fst_.get(), 99);
    fst_->open(path);
    return fst_->isOpen();
  }
  void waves_dump(uint64_t time) { fst_->dump(time); }
  // Only a model verilated with coverage links Verilator's coverage
  // runtime (the makefile of RTL verilated at run time defines
  // VM_COVERAGE 1 with --coverage-line); the others have none to write.
  bool coverage_write(const char* path) {
#if VM_COVERAGE
    context_.coveragep()->write(path);
    return true;
#else
    (void)path;
    return false;
#endif
  }

 private:
  VerilatedContext context_;
  std::unique_ptr<Model> dut_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::array<uint64_t, kInputs> inputs_{};
  std::array<uint64_t, kOutputs> outputs_{};
};

// The C table of rtl_abi.h over LinkedRtl<Model, Ports>.
template <typename Model, typename Ports>
const GpumemRtlApi* rtl_api() {
  using Rtl = LinkedRtl<Model, Ports>;
  static const GpumemRtlApi api{
      GPUMEM_RTL_ABI_VERSION,
      Rtl::kInputs,
      Rtl::kOutputs,
      [](const char* scope, uint64_t seed, int waves) -> void* {
        try {
          return new Rtl(scope, seed, waves != 0);
        } catch (...) {
          return nullptr;
        }
      },
      [](void* model) { delete static_cast<Rtl*>(model); },
      [](void* model, uint64_t time, const uint64_t* inputs, uint64_t* outputs) {
        Rtl& rtl = *static_cast<Rtl*>(model);
        std::copy(inputs, inputs + Rtl::kInputs, rtl.inputs());
        rtl.eval(time);
        std::copy(rtl.outputs(), rtl.outputs() + Rtl::kOutputs, outputs);
      },
      [](void* model, uint64_t time) { static_cast<Rtl*>(model)->rise(time); },
      [](void* model) { return static_cast<Rtl*>(model)->assertion_failed() ? 1 : 0; },
      [](void* model, const char* path) { return static_cast<Rtl*>(model)->waves_open(path) ? 0 : 1; },
      [](void* model, uint64_t time) { static_cast<Rtl*>(model)->waves_dump(time); },
      [](void* model, const char* path) { return static_cast<Rtl*>(model)->coverage_write(path) ? 0 : 1; }};
  return &api;
}

}  // namespace gpumem::tb
