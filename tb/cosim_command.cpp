#include "tb/cosim_command.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <stdexcept>

#include "base/input_error.hpp"
#include "config/config.hpp"
#include "tb/tlb/tlb_cosim.hpp"
#include "tb/tlb/tlb_pin_cosim.hpp"
#include "tb/translator/translator_cosim.hpp"
#include "tb/translator/translator_pin_cosim.hpp"

namespace gpumem::tb {

namespace {

int agreement(std::ostream& out) {
  out << "result       agreement\n";
  return 0;
}

// A failed run: the scoreboard's first mismatch, an RTL assertion (the run
// stops at the cycle it fired), or both. Returns the cycle the waves must reach.
template <typename Mismatch>
uint64_t print_failure(std::ostream& out, const char* block, uint64_t mismatches, const std::optional<Mismatch>& first,
                       bool count_all, bool assertion, uint64_t transactions, uint64_t cycles, uint64_t seed) {
  uint64_t fail_cycle = cycles;
  if (first) {
    out << "\nMISMATCH (" << mismatches << (count_all ? " in all" : ", stopped at the first") << ")\n"
        << first->report() << std::endl;
    fail_cycle = first->cycle;
  }
  if (assertion) {
    fail_cycle = cycles;
    out << "\nRTL ASSERTION FAILED (stopped there; Verilator's message above names the assertion)\n"
        << block << " assertion failed: after " << transactions << " transactions, cycle " << fail_cycle << " (time "
        << 2 * fail_cycle - 1 << " in that message and in the waves), seed " << seed << "\n";
  }
  return fail_cycle;
}

int print_artifacts(std::ostream& out, const MismatchArtifacts& files, const std::string& layout) {
  out << "waves        " << files.waves << " (the 1000 cycles before the mismatch; layout waves/" << layout << ")\n"
      << "replay       " << files.replay << "\n";
  if (!files.view.empty()) out << "open         gtkwave " << files.view << "   (the layout, opened on the failing edge)\n";
  return 1;
}

// Coverage bins printed a group a line, each bin named with its count; the
// unhit ones are listed by name at the end.
class CoverageBins {
 public:
  using Bins = std::vector<std::pair<std::string, uint64_t>>;
  explicit CoverageBins(std::ostream& out) : out_(out) {}
  void group(const std::string& name, const Bins& bins) {
    out_ << "coverage     " << name << ":";
    for (const auto& [bin, n] : bins) {
      out_ << " " << bin << " " << n;
      if (!n) unhit_ += " " + name + ":" + bin;
    }
    out_ << "\n";
  }
  // Bins 0..n-1 of a counter array, named by their index.
  template <typename Counts>
  void indexed(const std::string& name, const Counts& counts) {
    Bins bins;
    for (size_t i = 0; i < counts.size(); ++i) bins.emplace_back(std::to_string(i), counts[i]);
    group(name, bins);
  }
  void finish() { out_ << "unhit bins  " << (unhit_.empty() ? " none" : unhit_) << "\n"; }

 private:
  std::ostream& out_;
  std::string unhit_;
};

void print_summary(const TranslatorScoreboard& sb, uint64_t cycles, const CosimOptions& a, std::ostream& out) {
  out << "block        translator (RTL rtl/gpumem_xor_translator.sv, "
      << (a.mode == "pin" ? "pin-level mode: SystemC clock" : "fast mode") << ")\n"
      << "config       " << a.config << "\nseed         " << a.seed << "\ncompared     " << sb.compared()
      << " transactions in " << cycles << " cycles\n"
      << "writes       " << sb.writes_accepted << " accepted, " << sb.writes_refused << " refused (as the model answers for the RTL port)\n";
  CoverageBins coverage(out);
  coverage.group("scheme", {{"none", sb.per_scheme[0]}, {"xor", sb.per_scheme[1]}, {"prime", sb.per_scheme[2]}});
  coverage.indexed("task type", sb.per_task);
  coverage.group("interleave", {{"off", sb.with_interleave_disabled}});
  coverage.finish();
}

int run_translator(const Config& cfg, const CosimOptions& a, std::ostream& out) {
  const bool pin = a.mode == "pin";
  std::unique_ptr<TranslatorCosim> fast;
  std::unique_ptr<TranslatorPinCosim> pin_level;
  try {
    if (pin)
      pin_level = std::make_unique<TranslatorPinCosim>(cfg, a.seed);
    else
      fast = std::make_unique<TranslatorCosim>(cfg, a.seed);
  } catch (const std::invalid_argument& e) {  // the RTL was verilated for another geometry
    throw InputError(a.config, 0, "translator", e.what());
  }
  RandomRun run;
  run.transactions = a.transactions;
  run.stop_at_first_mismatch = !a.count_all;
  bool ok;
  if (pin) {
    pin_level->reset();
    ok = pin_level->run_random(run);
  } else {
    fast->reset();
    ok = fast->run_random(run);
  }
  const TranslatorScoreboard& sb = pin ? pin_level->scoreboard() : fast->scoreboard();
  print_summary(sb, pin ? pin_level->cycles() : fast->cycles(), a, out);
  if (ok) return agreement(out);
  const uint64_t fail_cycle =
      print_failure(out, "translator", sb.mismatches(), sb.first_mismatch(), a.count_all,
                    pin ? pin_level->assertion_failed() : fast->assertion_failed(), sb.compared(),
                    pin ? pin_level->cycles() : fast->cycles(), a.seed);
  // One --cc model at a time: two alive deadlock in Verilator 5.006's scope
  // registry. The pin-level bench stays (SystemC cannot elaborate again);
  // its waves come from a fast-mode re-run of the same pins.
  fast.reset();
  const MismatchArtifacts files =
      write_mismatch_artifacts(cfg, a.config, a.seed, run, fail_cycle, a.waves, 1000, pin ? " --mode pin" : "");
  if (pin)
    out << "             (waves from a fast-mode re-run of the same pins, which "
        << (files.reproduced ? "fails at the same cycle)\n"
                             : "does NOT fail there: the difference is in the pin-level path)\n");
  return print_artifacts(out, files, "translator.gtkw");
}

// The counters both TLB modes report.
struct TlbRunCounts {
  RtlTlbGeometry variant;
  uint64_t translations, faults, walks, image_switches, cycles;
};

void print_tlb_summary(const TlbScoreboard& sb, const TlbRunCounts& c, const CosimOptions& a, std::ostream& out) {
  const RtlTlbGeometry& g = c.variant;
  out << "block        tlb (RTL rtl/gpumem_nested_tlb.sv, " << g.entries << " entries, " << g.ways << " ways, "
      << (g.plru ? "tree-PLRU" : "LRU") << ", " << (a.mode == "pin" ? "pin-level mode: SystemC clock" : "fast mode")
      << ")\n"
      << "config       " << a.config << "\nseed         " << a.seed << "\ntranslations " << c.translations << " ("
      << c.faults << " faulted), " << c.walks << " walks, " << sb.compared() << " operations compared in " << c.cycles
      << " cycles\n"
      << "flushes      " << sb.flushes << " (" << sb.flushes_in_flight << " with an operation in flight, "
      << c.image_switches << " with a page-table switch); " << sb.stalled_cycles << " cycles of back-pressure\n";

  CoverageBins coverage(out);
  const auto& r = sb.per_result;
  coverage.group("lookup", {{"hit_small", r[0]}, {"hit_large", r[1]}, {"nested", r[2]}, {"miss", r[3]}});
  coverage.group("fill", {{"small", sb.fills_by_size[0]}, {"large", sb.fills_by_size[1]}});
  const auto& f = sb.large_by_flag;
  coverage.group("large-entry flag", {{"0000", f[0]}, {"0001", f[1]}, {"0010", f[2]}, {"0100", f[3]}, {"1000", f[4]}});
  coverage.group("flagged large page", {{"outside", sb.large_flagged_outside}, {"inside", sb.large_flagged_inside}});
  coverage.indexed("hit task type", sb.hits_by_task);
  coverage.indexed("evicted way", sb.evictions_by_way);
  coverage.group("flush", {{"in-flight", sb.flushes_in_flight}});
  coverage.group("back-pressure", {{"stalled", sb.stalled_cycles}});
  coverage.finish();
}

int run_tlb(const Config& cfg, const CosimOptions& a, std::ostream& out) {
  const bool pin = a.mode == "pin";
  std::unique_ptr<TlbCosim> fast;
  std::unique_ptr<TlbPinCosim> pin_level;
  try {
    if (pin)
      pin_level = std::make_unique<TlbPinCosim>(cfg, a.seed);
    else
      fast = std::make_unique<TlbCosim>(cfg, a.seed);
  } catch (const std::invalid_argument& e) {  // the RTL was verilated for another geometry
    throw InputError(a.config, 0, "mmu", e.what());
  }
  TlbRandomRun run;
  run.translations = a.transactions;
  run.stop_at_first_mismatch = !a.count_all;
  const bool ok = pin ? pin_level->run_random(run) : fast->run_random(run);
  const TlbScoreboard& sb = pin ? pin_level->scoreboard() : fast->scoreboard();
  const TlbRunCounts counts =
      pin ? TlbRunCounts{pin_level->variant(), pin_level->translations(), pin_level->faults(), pin_level->walks(),
                         pin_level->image_switches(), pin_level->cycles()}
          : TlbRunCounts{fast->variant(), fast->translations(), fast->faults(), fast->walks(), fast->image_switches(),
                         fast->cycles()};
  print_tlb_summary(sb, counts, a, out);
  if (ok) return agreement(out);
  const uint64_t fail_cycle =
      print_failure(out, "tlb", sb.mismatches(), sb.first_mismatch(), a.count_all,
                    pin ? pin_level->assertion_failed() : fast->assertion_failed(),
                    counts.translations, counts.cycles, a.seed);
  fast.reset();  // one Verilated model of a design at a time (see run_translator)
  const MismatchArtifacts files =
      write_tlb_mismatch_artifacts(cfg, a.config, a.seed, run, fail_cycle, a.waves, 1000, pin ? " --mode pin" : "");
  if (pin)
    out << "             (waves from a fast-mode re-run of the same pins, which "
        << (files.reproduced ? "fails at the same cycle)\n"
                             : "does NOT fail there: the difference is in the pin-level path)\n");
  return print_artifacts(out, files, tlb_wave_layout(cfg));
}

}  // namespace

int run_cosim(const CosimOptions& a, std::ostream& out) {
  if (a.mode != "fast" && a.mode != "pin")
    throw InputError("", 0, "--mode", "unknown mode '" + a.mode + "' (fast or pin)");
  const Config cfg = load_config(a.config);
  if (a.block == "translator") return run_translator(cfg, a, out);
  if (a.block == "tlb") return run_tlb(cfg, a, out);
  throw InputError("", 0, "--block", "unknown block '" + a.block + "' (translator or tlb)");
}

}  // namespace gpumem::tb
