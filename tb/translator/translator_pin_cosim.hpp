// Pin-level co-simulation of the XOR translator, for debugging: the RTL
// verilated as a SystemC module (--sc) under an sc_clock, wired with
// sc_signals, driven by a stimulus thread and watched by a monitor that
// samples the handshakes at each rising edge and feeds the same
// TranslatorScoreboard as the fast mode (TranslatorCosim), in the same edge
// order. The stimulus is TranslatorStimulus: one seed gives the fast mode's pins,
// cycle for cycle, so the two modes compare the same transactions and any
// difference between them is the harness, not the traffic.
#pragma once
#include <cstdint>
#include <memory>

#include "config/config.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/translator/translator_driver.hpp"
#include "tb/translator/translator_scoreboard.hpp"
#include "tb/translator/translator_stimulus.hpp"

namespace gpumem::tb {

// The elaboration parameters of the --sc model (verilated from the same
// arguments as the --cc model, so equal to rtl_translator_geometry()).
RtlTranslatorGeometry rtl_translator_pin_geometry();

class TranslatorPinCosim {
 public:
  // Elaborates the bench. SystemC elaborates once per process: construct one
  // before the process's first sc_start. Throws std::invalid_argument if
  // cfg's geometry differs from the RTL's. With `waves`, the cycles from
  // waves.from_cycle on are written as FST from the SystemC side.
  // `rtl` must be null: the pin-level mode drives the built-in --sc models only.
  TranslatorPinCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves = {}, const LoadedRtl* rtl = nullptr);
  ~TranslatorPinCosim();
  TranslatorPinCosim(const TranslatorPinCosim&) = delete;
  TranslatorPinCosim& operator=(const TranslatorPinCosim&) = delete;

  // Two more reset cycles before the run, as TranslatorCosim::reset (the
  // bench resets for two cycles anyway), so cycle numbers match fast mode's.
  void reset();
  // Seeded random traffic (see TranslatorCosim::run_random): runs the kernel
  // until the run is done; true when every response agreed. Once per object.
  bool run_random(const TranslatorRandomRun& run);

  const TranslatorScoreboard& scoreboard() const;
  uint64_t cycles() const;  // rising edges, reset included (as TranslatorDriver::cycles)
  // An RTL assertion failed (Verilator printed which); the run stopped there.
  bool assertion_failed() const;

  struct Bench;  // translator_pin_cosim.cpp: what every form of the sc_module shares

 private:
  std::unique_ptr<Bench> bench_;
};

}  // namespace gpumem::tb
