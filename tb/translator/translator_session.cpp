#include "tb/translator/translator_session.hpp"

#include "tb/translator/translator_cosim.hpp"
#include "tb/translator/translator_pin_cosim.hpp"

namespace gpumem::tb {

namespace {

// Both benches answer the same calls; the session is written once over them.
template <typename Bench>
class TranslatorSession final : public BenchSession<Bench> {
  using BenchSession<Bench>::bench_;

 public:
  TranslatorSession(const Config& cfg, uint64_t seed, const LoadedRtl* rtl)
      : BenchSession<Bench>(cfg, seed, WaveWindow{}, rtl), cfg_(cfg), seed_(seed), rtl_(rtl) {}

  bool run_random(const CosimRun& run) override {
    bench_.reset();
    return bench_.run_random(random_run(run));
  }
  std::string description() const override {
    return "translator (RTL " + (rtl_ ? rtl_->description() : "rtl/gpumem_xor_translator.sv") + ", " +
           (pin_level() ? "pin-level mode: SystemC clock" : "fast mode") + ")";
  }
  void print_counts(std::ostream& out) const override {
    const auto& writes = scoreboard().coverage().register_write;
    out << "compared     " << scoreboard().compared() << " transactions in " << this->cycles() << " cycles\n"
        << "writes       " << writes[0] << " accepted, " << writes[1]
        << " refused (as the model answers for the RTL port)\n";
  }
  uint64_t transactions() const override { return scoreboard().compared(); }
  bool pin_level() const override { return std::is_same_v<Bench, TranslatorPinCosim>; }
  ArtifactWriter artifact_writer(const std::string& config_path, const CosimRun& run) const override {
    const std::string flags = (pin_level() ? " --mode pin" : "") + (rtl_ ? rtl_->cosim_flags() : "");
    return [cfg = cfg_, seed = seed_, config_path, r = random_run(run), flags, rtl = rtl_](uint64_t fail_cycle,
                                                                                          const std::string& dir) {
      return write_mismatch_artifacts(cfg, config_path, seed, r, fail_cycle, dir, 1000, flags, rtl);
    };
  }
  std::string wave_layout() const override { return "translator.gtkw"; }

 private:
  static TranslatorRandomRun random_run(const CosimRun& run) {
    TranslatorRandomRun r;
    r.transactions = run.transactions;
    r.stop_at_first_mismatch = run.stop_at_first_mismatch;
    r.hang_cycles = run.hang_cycles;
    return r;
  }
  const TranslatorScoreboard& scoreboard() const { return bench_.scoreboard(); }

  Config cfg_;
  uint64_t seed_;
  const LoadedRtl* rtl_;
};

}  // namespace

std::unique_ptr<CosimSession> make_translator_session(const Config& cfg, uint64_t seed, bool pin_level,
                                                      const LoadedRtl* rtl) {
  if (pin_level) return std::make_unique<TranslatorSession<TranslatorPinCosim>>(cfg, seed, rtl);  // rtl: its --sc library
  return std::make_unique<TranslatorSession<TranslatorCosim>>(cfg, seed, rtl);
}

}  // namespace gpumem::tb
