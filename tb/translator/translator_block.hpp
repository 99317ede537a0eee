// The XOR translator as the common benches drive it (tb/common/fast_bench.hpp
// lists what a block's traits give): its types, the pins on its ports, the
// models built in (translator_driver.cpp, --cc; translator_pin_cosim.cpp,
// --sc) and its words in `gpumem cosim`'s summary.
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
#include "tb/translator/translator_contract.hpp"
#include "tb/translator/translator_pins.hpp"
#include "tb/translator/translator_scoreboard.hpp"
#include "tb/translator/translator_stimulus.hpp"

namespace gpumem::tb {

struct TranslatorCounts {
  uint64_t transactions = 0;  // compared
  TranslatorCounts& operator+=(const TranslatorCounts& o) {
    transactions += o.transactions;
    return *this;
  }
};

// TranslatorStimulus as the benches run it: done when the run's
// transactions are compared, told each edge's acceptance, and offering again
// as many requests as resets have discarded (the scoreboard's count).
class TranslatorBenchStimulus {
 public:
  TranslatorBenchStimulus(const TranslatorBenchParams& p, uint64_t seed, const TranslatorRandomRun& run,
                          const TranslatorScoreboard& scoreboard, uint64_t /*first_id: requests carry none*/)
      : pins_(seed, p, scoreboard.geometry(), run), scoreboard_(scoreboard), first_(scoreboard.compared()),
        target_(first_ + run.transactions) {}
  bool done() const { return scoreboard_.compared() >= target_; }
  const TranslatorPins& next() { return pins_.next(accepted_, scoreboard_.discarded()); }
  TranslatorOpContext context() const { return {}; }
  void observe(const TranslatorEdge& e) { accepted_ = e.req_accepted; }
  TranslatorCounts counts() const { return {scoreboard_.compared() - first_}; }

 private:
  TranslatorStimulus pins_;
  const TranslatorScoreboard& scoreboard_;
  uint64_t first_, target_;
  bool accepted_ = false;  // the request driven in the cycle before was taken at its edge
};

struct TranslatorBlock {
  static constexpr const char* kName = "translator";
  static constexpr const char* kRtlFile = kTranslatorRtlFile;
  // The translator's session has always reset once more before its run:
  // its cycle numbers and replay files count those cycles.
  static constexpr bool kResetBeforeRun = true;
  // After every refused register write the bench reads every register the
  // RTL holds (reg_rdata_o) and the scoreboard compares them with the model's.
  static constexpr bool kStateChecks = true;
  using Config = gpumem::Config;
  using Geometry = RtlTranslatorGeometry;
  using Params = TranslatorBenchParams;
  using Pins = TranslatorPins;
  using Edge = TranslatorEdge;
  using Context = TranslatorOpContext;
  using Scoreboard = TranslatorScoreboard;
  using Stimulus = TranslatorBenchStimulus;
  using RandomRun = TranslatorRandomRun;
  using Counts = TranslatorCounts;
  static constexpr unsigned kInputs = static_cast<unsigned>(TranslatorIn::kCount);
  static constexpr unsigned kOutputs = static_cast<unsigned>(TranslatorOut::kCount);

  static void drive(const TranslatorPins& p, uint64_t* inputs);
  static TranslatorEdge sample(const TranslatorPins& p, const uint64_t* outputs);

  // The built-in geometry when it equals cfg's, or with `rtl` cfg's own
  // (with the matrix scheme when the module declares MATRIX); throws
  // std::invalid_argument naming the differences, or why no RTL translator
  // runs cfg (translator_unfit).
  static RtlTranslatorGeometry geometry(const Config& cfg, const LoadedRtl* rtl);
  static TranslatorBenchParams params(const Config& cfg, const RtlTranslatorGeometry& g) {
    return translator_bench_params(cfg, g);
  }
  static TranslatorScoreboard scoreboard(const TranslatorBenchParams& p, const RtlTranslatorGeometry& g, uint64_t seed) {
    return TranslatorScoreboard(p, g, seed);
  }
  static std::unique_ptr<FastModel<TranslatorBlock>> fast_model(const RtlTranslatorGeometry& g, uint64_t seed,
                                                                const WaveWindow& waves, const LoadedRtl* rtl);
  static std::unique_ptr<PinModule<TranslatorBlock>> pin_module(const Config& cfg, uint64_t seed,
                                                                 const WaveWindow& waves, const LoadedRtl* rtl);
  template <typename Model>
  struct Signals;  // translator_pin_cosim.cpp: the pin-level bench's signals, from the port table

  static std::string details(const RtlTranslatorGeometry&) { return ""; }
  static void print_counts(std::ostream& out, const TranslatorScoreboard& sb, const TranslatorCounts& counts,
                           uint64_t cycles);
  static std::string wave_layout(const Config&) { return "translator.gtkw"; }
  static std::vector<std::string> port_names() { return GPUMEM_PORT_NAMES(GPUMEM_TRANSLATOR_PORTS); }
};

}  // namespace gpumem::tb
