#include "cosim_command.hpp"

#include <memory>
#include <stdexcept>

#include "config.hpp"
#include "input_error.hpp"
#include "translator_cosim.hpp"

namespace gpumem::tb {

namespace {

int run_translator(const Config& cfg, const CosimOptions& a, std::ostream& out) {
  std::unique_ptr<TranslatorCosim> cosim;
  try {
    cosim = std::make_unique<TranslatorCosim>(cfg, a.seed);
  } catch (const std::invalid_argument& e) {  // the RTL was verilated for another geometry
    throw InputError(a.config, 0, "translator", e.what());
  }
  cosim->reset();
  RandomRun run;
  run.transactions = a.transactions;
  run.stop_at_first_mismatch = !a.count_all;
  const bool ok = cosim->run_random(run);
  const TranslatorScoreboard& sb = cosim->scoreboard();
  out << "block        translator (RTL rtl/gpumem_xor_translator.sv, fast mode)\n"
      << "config       " << a.config << "\nseed         " << a.seed << "\ncompared     " << sb.compared()
      << " transactions in " << cosim->cycles() << " cycles\n"
      << "writes       " << sb.writes_accepted << " accepted, " << sb.writes_rejected << " rejected by the model\n"
      << "coverage     scheme none " << sb.per_scheme[0] << ", xor " << sb.per_scheme[1] << ", prime "
      << sb.per_scheme[2] << ", interleave off " << sb.with_interleave_disabled << "\n";
  std::string unhit;
  for (unsigned s = 0; s < 3; ++s)
    if (!sb.per_scheme[s]) unhit += std::string(" scheme ") + scheme_name(static_cast<Scheme>(s));
  for (unsigned t = 0; t < kMaxTaskTypes; ++t)
    if (!sb.per_task[t]) unhit += " task " + std::to_string(t);
  if (!sb.with_interleave_disabled) unhit += " interleave-off";
  out << "unhit bins  " << (unhit.empty() ? " none" : unhit) << "\n";
  if (!ok) {
    uint64_t fail_cycle = cosim->cycles();
    if (sb.mismatches()) {
      out << "\nMISMATCH (" << sb.mismatches() << (a.count_all ? " in all" : ", stopped at the first") << ")\n"
          << sb.first_mismatch()->report() << std::endl;
      fail_cycle = sb.first_mismatch()->cycle;
    }
    if (cosim->assertion_failed()) {
      fail_cycle = cosim->cycles();
      out << "\nRTL ASSERTION FAILED (stopped there; Verilator's message above names the assertion)\n"
          << "translator assertion failed: after " << sb.compared() << " transactions, cycle " << fail_cycle
          << " (time " << 2 * fail_cycle - 1 << " in that message and in the waves), seed " << a.seed << "\n";
    }
    cosim.reset();  // one Verilated model at a time: two alive deadlock in Verilator 5.006's scope registry
    const MismatchArtifacts files = write_mismatch_artifacts(cfg, a.config, a.seed, run, fail_cycle, a.waves);
    out << "waves        " << files.waves << " (the 1000 cycles before the mismatch; layout waves/translator.gtkw)\n"
        << "replay       " << files.replay << "\n";
    return 1;
  }
  out << "result       agreement\n";
  return 0;
}

}  // namespace

int run_cosim(const CosimOptions& a, std::ostream& out) {
  const Config cfg = load_config(a.config);
  if (a.block == "translator") return run_translator(cfg, a, out);
  if (a.block == "tlb") throw InputError("", 0, "--block", "the nested-page TLB's RTL is not built yet; --block translator is");
  throw InputError("", 0, "--block", "unknown block '" + a.block + "' (translator or tlb)");
}

}  // namespace gpumem::tb
