// The TLB as the common benches drive it (tb/common/fast_bench.hpp lists
// what a block's traits give): its types, the pins on its ports, the models
// built in (tlb_driver.cpp, --cc; tlb_pin_cosim.cpp, --sc) and its words in
// `gpumem cosim`'s summary.
#pragma once
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "tb/common/fast_bench.hpp"
#include "tb/common/pin_bench.hpp"
#include "tb/common/port_table.hpp"
#include "tb/tlb/tlb_contract.hpp"
#include "tb/tlb/tlb_pins.hpp"
#include "tb/tlb/tlb_scoreboard.hpp"
#include "tb/tlb/tlb_stimulus.hpp"

namespace gpumem::tb {

struct TlbBlock {
  static constexpr const char* kName = "tlb";
  static constexpr const char* kRtlFile = kTlbRtlFile;
  static constexpr bool kResetBeforeRun = false;
  static constexpr bool kStateChecks = false;  // no register port
  using Config = gpumem::Config;
  using Geometry = RtlTlbGeometry;
  using Params = TlbBenchParams;
  using Pins = TlbPins;
  using Edge = TlbEdge;
  using Context = TlbOpContext;
  using Scoreboard = TlbScoreboard;
  using Stimulus = TlbStimulus;
  using RandomRun = TlbRandomRun;
  using Counts = TlbCounts;
  static constexpr unsigned kInputs = static_cast<unsigned>(TlbIn::kCount);
  static constexpr unsigned kOutputs = static_cast<unsigned>(TlbOut::kCount);

  static void drive(const TlbPins& p, uint64_t* inputs);
  static TlbEdge sample(const TlbPins& p, const uint64_t* outputs);

  // The built-in variant whose geometry equals cfg's MMU, or with `rtl` cfg's
  // own; throws std::invalid_argument naming the differences to each
  // variant, or when cfg has no MMU.
  static RtlTlbGeometry geometry(const Config& cfg, const LoadedRtl* rtl);
  static TlbBenchParams params(const Config& cfg, const RtlTlbGeometry& g);
  static TlbScoreboard scoreboard(const TlbBenchParams& p, const RtlTlbGeometry& g, uint64_t seed);
  static std::unique_ptr<FastModel<TlbBlock>> fast_model(const RtlTlbGeometry& g, uint64_t seed,
                                                         const WaveWindow& waves, const LoadedRtl* rtl);
  static std::unique_ptr<PinModule<TlbBlock>> pin_module(const Config& cfg, uint64_t seed, const WaveWindow& waves,
                                                         const LoadedRtl* rtl);
  template <typename Model>
  struct Signals;  // tlb_pin_cosim.cpp: the pin-level bench's signals, from the port table

  // ", 64 entries, 4 ways, tree-PLRU"
  static std::string details(const RtlTlbGeometry& g);
  static void print_counts(std::ostream& out, const TlbScoreboard& sb, const TlbCounts& counts, uint64_t cycles);
  // The GTKWave layout in waves/ for cfg's replacement policy.
  static std::string wave_layout(const Config& cfg);
  static std::vector<std::string> port_names() { return GPUMEM_PORT_NAMES(GPUMEM_TLB_PORTS); }
};

}  // namespace gpumem::tb
