// The sc_module of a block's pin-level bench (pin_bench.hpp): an sc_clock,
// a signal per port of the block's table (GPUMEM_PIN_SIGNALS), the --sc
// model, the stimulus thread and the monitor. Included by the blocks'
// pin-level .cpp files only, after their Verilated --sc headers.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <type_traits>

#include "payload/run_kernel.hpp"
#include "tb/common/cycle_time.hpp"
#include "tb/common/pin_bench.hpp"
#include "tb/common/port_table.hpp"
#include "tb/common/sc_model.hpp"
#include "verilated_fst_sc.h"

namespace gpumem::tb {

// Each signal takes its port's type: a built-in model's (bool, uint32_t,
// uint64_t by width: a port's differs between geometries) or a run-time
// shell's (uint64_t).
template <typename Port>
using SignalFor = sc_core::sc_signal<typename std::remove_reference_t<Port>::data_type>;

#define GPUMEM_PIN_SIGNAL(port, ...) ::gpumem::tb::SignalFor<decltype(Model::port)> port{#port};
#define GPUMEM_PIN_BIND(port, ...) dut.port(port);
#define GPUMEM_PIN_WRITE(port, ...) port.write(static_cast<std::decay_t<decltype(port.read())>>(inputs[i++]));
#define GPUMEM_PIN_READ(port, ...) outputs[o++] = static_cast<uint64_t>(port.read());
// BLOCK::Signals<Model>: a signal per port of the table but the clock, bound
// to the model by name; inputs written and outputs read as values in
// contract order (the clock is input 0, bound straight to the sc_clock).
#define GPUMEM_PIN_SIGNALS(BLOCK, TABLE)                                        \
  template <typename Model>                                                     \
  struct BLOCK::Signals {                                                       \
    TABLE(GPUMEM_PORT_SKIP, GPUMEM_PIN_SIGNAL, GPUMEM_PIN_SIGNAL)               \
    template <typename Dut>                                                     \
    void bind(Dut& dut) {                                                       \
      TABLE(GPUMEM_PORT_SKIP, GPUMEM_PIN_BIND, GPUMEM_PIN_BIND)                 \
    }                                                                           \
    void write(const uint64_t* inputs) {                                        \
      unsigned i = 1;                                                           \
      TABLE(GPUMEM_PORT_SKIP, GPUMEM_PIN_WRITE, GPUMEM_PORT_SKIP)               \
    }                                                                           \
    void read(uint64_t* outputs) const {                                        \
      unsigned o = 0;                                                           \
      TABLE(GPUMEM_PORT_SKIP, GPUMEM_PORT_SKIP, GPUMEM_PIN_READ)                \
    }                                                                           \
  };

// The sc_module over `Box`, a LinkedScModel or a LoadedScModel (sc_model.hpp).
template <typename Block, typename Box>
struct PinModuleOf final : sc_core::sc_module, PinModule<Block> {
  using Model = typename Box::Model;
  using Pins = typename Block::Pins;
  SC_HAS_PROCESS(PinModuleOf);

  PinModuleOf(sc_core::sc_module_name name, const typename Block::Config& c, uint64_t s,
              const typename Block::Geometry& g, const WaveWindow& w, const LoadedRtl* rtl)
      : sc_module(name), PinModule<Block>(c, s, g), dut(s, !w.path.empty(), rtl), waves(w) {
    dut->clk_i(clk);
    signals.bind(*dut.operator->());
    if (!waves.path.empty()) fst = new VerilatedFstSc;  // registers with the kernel: made while elaborating
    SC_THREAD(stimulate);
    SC_METHOD(monitor);
    sensitive << clk.posedge_event();
    dont_initialize();
  }
  ~PinModuleOf() override {
    if (fst) fst->close();
  }

  // The model joins its trace file before the kernel's first dump (with
  // nothing open yet, a dump writes nothing).
  void start_of_simulation() override {
    if (fst) dut.trace(fst);
  }
  bool assertion_failed() const override { return dut.assertion_failed(); }
  void run_kernel() override { gpumem::run_kernel(); }

  void drive(const Pins& p) {
    driven = p;
    uint64_t inputs[Block::kInputs] = {};
    Block::drive(p, inputs);
    signals.write(inputs);
  }

  // Drives on the falling edge, as the fast mode drives with the clock low;
  // what its pins did at the rising edge reaches the stimulus through the
  // monitor, after the scoreboard has seen it, so the next pins read the
  // scoreboard's model as the fast mode's do.
  void stimulate() {
    Pins idle = idle_pins<Block>();
    idle.reset = true;
    drive(idle);
    for (unsigned i = 0; i < this->reset_cycles; ++i) wait(clk.posedge_event());
    wait(clk.negedge_event());
    idle.reset = false;
    drive(idle);
    this->traffic = true;
    while (!run_over(*this->stimulus, this->scoreboard, this->run, dut)) {
      drive(this->stimulus->next());
      wait(clk.negedge_event());
      // After a refused access, the block's register state read back with
      // the clock low, a register a delta apart (fast_bench.hpp's peek).
      if constexpr (Block::kStateChecks)
        if (this->scoreboard.state_check_due()) this->scoreboard.check_state([this](const Pins& p) { return peek(p); }, this->cycles);
      if (this->progress && (this->cycles & 0x3FFF) == 0) this->progress(this->stimulus->counts().transactions);
    }
    sc_core::sc_pause();
  }

  // The pins put on and, once the deltas they start are over (the signals'
  // update, the model's evaluation; a run-time model's shell copies in and
  // out around it), what the block answers combinationally.
  typename Block::Edge peek(const Pins& p) {
    drive(p);
    do wait(sc_core::SC_ZERO_TIME);
    while (sc_core::sc_pending_activity_at_current_time());
    uint64_t outputs[Block::kOutputs] = {};
    signals.read(outputs);
    return Block::sample(p, outputs);
  }

  // At the rising edge, in the delta the clock changes: every signal still
  // holds its value from before the edge (the model's new outputs land a
  // delta later), which is what the handshakes are defined on. The inputs
  // are the pins driven at the falling edge before; the operation's context
  // is the stimulus's (the pins do not carry it).
  void monitor() {
    const uint64_t cycle = ++this->cycles;
    if (sc_core::sc_time_stamp() != sc_core::sc_time(static_cast<double>(pin_edge_time_ns(cycle)), sc_core::SC_NS))
      throw std::logic_error("pin-level bench: edge " + std::to_string(cycle) + " at " +
                             sc_core::sc_time_stamp().to_string() + ", not where cycle_time.hpp puts it");
    if (fst && !fst->isOpen() && cycle >= waves.from_cycle) fst->open(waves.path.c_str());
    if (driven.reset && !this->traffic) return;
    uint64_t outputs[Block::kOutputs] = {};
    signals.read(outputs);
    const typename Block::Edge e = Block::sample(driven, outputs);
    this->scoreboard.edge(driven, e, this->stimulus->context(), cycle);
    if (!this->scoreboard.protocol_violation()) this->stimulus->observe(e);
  }

  // Low until the first rising edge at 5 ns: the stimulus drives while the
  // clock is low.
  sc_core::sc_clock clk{"clk", sc_core::sc_time(kPinClockPeriodNs, sc_core::SC_NS), 0.5,
                        sc_core::sc_time(kPinClockPeriodNs / 2, sc_core::SC_NS), true};
  typename Block::template Signals<Model> signals;
  Box dut;
  VerilatedFstSc* fst = nullptr;  // owned by the kernel once made (it keeps every trace file)
  WaveWindow waves;
  Pins driven;  // on the input signals since the last falling edge
};

// The bench `NAME_pin_bench` of a block over `Box`.
template <typename Block, typename Box>
std::unique_ptr<PinModule<Block>> make_pin_module(const typename Block::Config& cfg, uint64_t seed,
                                                  const typename Block::Geometry& g, const WaveWindow& waves,
                                                  const LoadedRtl* rtl) {
  const std::string name = std::string(Block::kName) + "_pin_bench";
  return std::make_unique<PinModuleOf<Block, Box>>(name.c_str(), cfg, seed, g, waves, rtl);
}

}  // namespace gpumem::tb
