// Pin-level co-simulation of the nested-page TLB, for debugging: the RTL
// verilated as a SystemC module (--sc) under an sc_clock, wired with
// sc_signals, driven by a stimulus thread and watched by a monitor that
// samples the handshakes at each rising edge and feeds the same TlbScoreboard
// as the fast mode (TlbCosim), in the same edge order. The stimulus is
// TlbStimulus: one seed gives the fast mode's pins, cycle for cycle, so the
// two modes compare the same operations and any difference between them is
// the harness, not the traffic.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "config/config.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/tlb/tlb_driver.hpp"
#include "tb/tlb/tlb_scoreboard.hpp"
#include "tb/tlb/tlb_stimulus.hpp"

namespace gpumem::tb {

// The elaboration parameters of the --sc models, one per variant (verilated
// from the same arguments as the --cc models, so equal to rtl_tlb_variants()).
const std::vector<RtlTlbGeometry>& rtl_tlb_pin_variants();

class TlbPinCosim {
 public:
  // Elaborates the bench with the --sc variant whose geometry equals cfg's
  // MMU. SystemC elaborates once per process: construct one before the
  // process's first sc_start. Throws std::invalid_argument as TlbCosim does.
  // With `waves`, the cycles from waves.from_cycle on are written as FST from
  // the SystemC side.
  // `rtl` must be null: the pin-level mode drives the built-in --sc models only.
  TlbPinCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves = {}, const LoadedRtl* rtl = nullptr);
  ~TlbPinCosim();
  TlbPinCosim(const TlbPinCosim&) = delete;
  TlbPinCosim& operator=(const TlbPinCosim&) = delete;

  // Two more reset cycles before the run, as TlbCosim::reset (the bench
  // resets for two cycles anyway, as TlbCosim's constructor does).
  void reset();
  // Seeded random translations (see TlbCosim::run_random): runs the kernel
  // until the run is done; true when every response agreed. Once per object.
  bool run_random(const TlbRandomRun& run);

  const TlbScoreboard& scoreboard() const;
  uint64_t cycles() const;  // rising edges, reset included (as TlbDriver::cycles)
  // An RTL assertion failed (Verilator printed which); the run stopped there.
  bool assertion_failed() const;
  uint64_t translations() const;  // finished (translated or faulted)
  uint64_t faults() const;
  uint64_t walks() const;
  uint64_t image_switches() const;
  uint64_t resets() const;  // in the middle of traffic
  uint64_t malformed_fills() const;
  const RtlTlbGeometry& variant() const;

  struct Bench;  // tlb_pin_cosim.cpp: the sc_module, one per --sc variant

 private:
  std::unique_ptr<Bench> bench_;
};

}  // namespace gpumem::tb
