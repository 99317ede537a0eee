#include "tb/tlb/tlb_session.hpp"

#include "tb/tlb/tlb_cosim.hpp"
#include "tb/tlb/tlb_pin_cosim.hpp"

namespace gpumem::tb {

namespace {

// Both benches answer the same calls; the session is written once over them.
template <typename Bench>
class TlbSession final : public BenchSession<Bench> {
  using BenchSession<Bench>::bench_;

 public:
  TlbSession(const Config& cfg, uint64_t seed, const LoadedRtl* rtl)
      : BenchSession<Bench>(cfg, seed, WaveWindow{}, rtl), cfg_(cfg), seed_(seed), rtl_(rtl) {}

  bool run_random(const CosimRun& run) override { return bench_.run_random(random_run(run)); }
  std::string description() const override {
    const RtlTlbGeometry& g = bench_.variant();
    return "tlb (RTL " + (rtl_ ? rtl_->description() : "rtl/gpumem_nested_tlb.sv") + ", " + std::to_string(g.entries) + " entries, " +
           std::to_string(g.ways) + " ways, " + (g.plru ? "tree-PLRU" : "LRU") + ", " +
           (pin_level() ? "pin-level mode: SystemC clock" : "fast mode") + ")";
  }
  void print_counts(std::ostream& out) const override {
    const TlbScoreboard& sb = bench_.scoreboard();
    out << "translations " << bench_.translations() << " (" << bench_.faults() << " faulted), " << bench_.walks()
        << " walks, " << sb.compared() << " operations compared in " << this->cycles() << " cycles\n"
        << "flushes      " << sb.flushes() << " (" << sb.coverage().flush[0] << " with an operation in flight, "
        << bench_.image_switches() << " with a page-table switch); " << sb.coverage().back_pressure[0]
        << " cycles of back-pressure\n"
        << "resets       " << bench_.resets() << " in the middle of traffic (" << sb.discarded()
        << " operations discarded); " << bench_.malformed_fills() << " malformed leaves filled\n";
  }
  uint64_t transactions() const override { return bench_.translations(); }
  bool pin_level() const override { return std::is_same_v<Bench, TlbPinCosim>; }
  ArtifactWriter artifact_writer(const std::string& config_path, const CosimRun& run) const override {
    const std::string flags = (pin_level() ? " --mode pin" : "") + (rtl_ ? rtl_->cosim_flags() : "");
    return [cfg = cfg_, seed = seed_, config_path, r = random_run(run), flags, rtl = rtl_](uint64_t fail_cycle,
                                                                                          const std::string& dir) {
      return write_tlb_mismatch_artifacts(cfg, config_path, seed, r, fail_cycle, dir, 1000, flags, rtl);
    };
  }
  std::string wave_layout() const override { return tlb_wave_layout(cfg_); }

 private:
  static TlbRandomRun random_run(const CosimRun& run) {
    TlbRandomRun r;
    r.translations = run.transactions;
    r.stop_at_first_mismatch = run.stop_at_first_mismatch;
    r.hang_cycles = run.hang_cycles;
    return r;
  }

  Config cfg_;
  uint64_t seed_;
  const LoadedRtl* rtl_;
};

}  // namespace

std::unique_ptr<CosimSession> make_tlb_session(const Config& cfg, uint64_t seed, bool pin_level, const LoadedRtl* rtl) {
  if (pin_level) return std::make_unique<TlbSession<TlbPinCosim>>(cfg, seed, rtl);
  return std::make_unique<TlbSession<TlbCosim>>(cfg, seed, rtl);
}

}  // namespace gpumem::tb
