// Fast co-simulation of the nested-page TLB: the Verilated RTL clocked from
// C++ (TlbDriver) with every response checked by TlbScoreboard. Directed
// operations, and the seeded random run of TlbStimulus (tlb_stimulus.hpp:
// the test bench plays the rest of the MMU).
#pragma once
#include <cstdint>
#include <string>

#include "config/config.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/tlb/tlb_driver.hpp"
#include "tb/tlb/tlb_scoreboard.hpp"
#include "tb/tlb/tlb_stimulus.hpp"

namespace gpumem::tb {

// "" when the config's MMU geometry equals the RTL's elaboration parameters,
// else a message naming both values.
std::string tlb_geometry_difference(const Config& cfg, const RtlTlbGeometry& rtl);

class TlbCosim {
 public:
  // Picks the verilated variant whose geometry equals cfg's MMU; throws
  // std::invalid_argument naming the differences to each variant if none
  // does, or if the config has no MMU. With `waves`, the cycles from waves.from_cycle on are written as FST.
  // With `rtl` (a model verilated at run time for cfg's MMU, rtl_library.hpp)
  // no variant is needed; the config must still have an MMU.
  TlbCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves = {}, const LoadedRtl* rtl = nullptr);

  void reset();
  // Directed operations, one at a time without back-pressure; the RTL's
  // response (checked by the scoreboard).
  TlbResponse lookup(uint64_t va);
  TlbResponse fill(uint64_t va, const Pte& leaf);
  void flush();
  // One cycle of arbitrary pin activity, fed to the scoreboard in edge order.
  TlbEdge cycle(const TlbPins& pins, const TlbOpContext& context = {});

  // Seeded random translations (TlbStimulus); true when every response agreed.
  bool run_random(const TlbRandomRun& run);

  const TlbScoreboard& scoreboard() const { return scoreboard_; }
  uint64_t cycles() const { return driver_.cycles(); }
  uint64_t translations() const { return translations_; }  // finished (translated or faulted)
  uint64_t faults() const { return faults_; }
  uint64_t walks() const { return walks_; }
  uint64_t image_switches() const { return image_switches_; }
  uint64_t resets() const { return resets_; }  // in the middle of traffic
  uint64_t malformed_fills() const { return malformed_fills_; }
  const RtlTlbGeometry& variant() const { return variant_; }
  // An RTL assertion failed; run_random stops at that cycle.
  bool assertion_failed() const { return driver_.assertion_failed(); }

 private:
  uint64_t seed_;
  Config cfg_;
  RtlTlbGeometry variant_;
  TlbDriver driver_;
  TlbScoreboard scoreboard_;
  uint64_t translations_ = 0, faults_ = 0, walks_ = 0, image_switches_ = 0, resets_ = 0, malformed_fills_ = 0;
};

// The verilated variant whose geometry equals cfg's MMU; throws
// std::invalid_argument naming the differences to each variant otherwise.
const RtlTlbGeometry& matching_tlb_variant(const Config& cfg);
// The GTKWave layout in waves/ for cfg's replacement policy.
std::string tlb_wave_layout(const Config& cfg);
// cfg's MMU geometry as the TLB RTL's parameters: what a model verilated at
// run time for cfg has (variant "runtime").
RtlTlbGeometry tlb_geometry_of_config(const Config& cfg);

// After a failing random run: the same run again in fast mode with FST waves
// of the `window` cycles before the first mismatch, and a replay file. No
// other TlbCosim may be alive (Verilator 5.006, see translator_cosim.hpp). A
// pin-level run (the same pins, cycle for cycle) passes `replay_flags`
// " --mode pin" so that the replay file repeats the run that failed.
MismatchArtifacts write_tlb_mismatch_artifacts(const Config& cfg, const std::string& config_path, uint64_t seed,
                                               const TlbRandomRun& run, uint64_t fail_cycle, const std::string& dir,
                                               uint64_t window = 1000, const std::string& replay_flags = "",
                                               const LoadedRtl* rtl = nullptr);

}  // namespace gpumem::tb
