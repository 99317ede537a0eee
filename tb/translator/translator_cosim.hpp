// Fast co-simulation of the XOR translator: the Verilated RTL clocked from
// C++ (TranslatorDriver) with every response checked by TranslatorScoreboard.
// Directed steps and a seeded random run with register rewrites mid-stream
// and random back-pressure.
#pragma once
#include <cstdint>
#include <string>

#include "config/config.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/translator/translator_driver.hpp"
#include "tb/translator/translator_scoreboard.hpp"
#include "tb/translator/translator_stimulus.hpp"

namespace gpumem::tb {

// "" when the config's translator geometry equals the RTL's elaboration
// parameters, else a message naming both values.
std::string geometry_difference(const Config& cfg, const RtlTranslatorGeometry& rtl);

// After a failing random run: the same run again (the seed makes it
// identical) with FST waves of the `window` cycles before the first mismatch,
// and a replay file holding the command that reproduces the run. Returns the
// paths written. No other TranslatorCosim may be alive: with two Verilated
// models of the same design at once, Verilator 5.006 deadlocks when one is
// destroyed (its scope registry mutex). The re-run is always fast mode; a
// pin-level run (the same pins, cycle for cycle) passes `replay_flags`
// " --mode pin" so that the replay file repeats the run that failed.
// `rtl`: the model verilated at run time the run used (null: the built-in one).
MismatchArtifacts write_mismatch_artifacts(const Config& cfg, const std::string& config_path, uint64_t seed,
                                           const TranslatorRandomRun& run, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window = 1000, const std::string& replay_flags = "",
                                           const LoadedRtl* rtl = nullptr);

class TranslatorCosim {
 public:
  // Throws std::invalid_argument if cfg's geometry differs from the built-in
  // RTL's, or with `rtl` (a model verilated at run time for cfg's geometry,
  // rtl_library.hpp) if cfg places the translator before the MMU. With
  // `waves`, the cycles from waves.from_cycle on are written as FST.
  TranslatorCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves = {}, const LoadedRtl* rtl = nullptr);

  void reset();
  // The same write to the RTL and the model, in one cycle; the model's status.
  RegStatus write_register(uint32_t offset, uint32_t value);
  // One transaction without back-pressure; returns the RTL's response (checked).
  TranslatorResponse request(uint64_t address, unsigned task);
  // Seeded random traffic; true when every response agreed and no RTL
  // assertion failed.
  bool run_random(const TranslatorRandomRun& run);
  // One cycle of arbitrary pin activity, fed to the scoreboard in edge order.
  TranslatorEdge cycle(const TranslatorPins& pins);

  const TranslatorScoreboard& scoreboard() const { return scoreboard_; }
  uint64_t cycles() const { return driver_.cycles(); }
  // An RTL assertion failed; run_random stops there, with or without
  // stop_at_first_mismatch (the RTL's own invariants no longer hold).
  bool assertion_failed() const { return driver_.assertion_failed(); }

 private:
  uint64_t seed_;
  unsigned address_bits_;
  TranslatorDriver driver_;
  TranslatorScoreboard scoreboard_;
};

}  // namespace gpumem::tb
