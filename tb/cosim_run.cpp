#include "tb/cosim_run.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "base/input_error.hpp"
#include "base/junit_report.hpp"
#include "base/output_file.hpp"
#include "base/progress_line.hpp"
#include "base/readable.hpp"
#include "base/stop_request.hpp"
#include "base/user_paths.hpp"
#include <nlohmann/json.hpp>
#include "config/config.hpp"
#include "tb/common/block_session.hpp"
#include "tb/common/code_coverage.hpp"
#include "tb/common/cycle_time.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/tlb/tlb_driver.hpp"
#include "tb/tlb/tlb_pin_cosim.hpp"
#include "tb/translator/translator_block.hpp"
#include "tb/translator/translator_driver.hpp"
#include "tb/translator/translator_pin_cosim.hpp"

namespace gpumem::tb {

namespace {

bool translator_built_in(const Config& cfg) { return translator_geometry_difference(cfg, rtl_translator_geometry()).empty(); }
bool tlb_built_in(const Config& cfg) {
  for (const RtlTlbGeometry& v : rtl_tlb_variants())
    if (tlb_geometry_difference(cfg, v).empty()) return true;
  return false;
}
std::string tlb_unfit(const Config& cfg) { return cfg.has_mmu() ? "" : tlb_geometry_difference(cfg, rtl_tlb_variants().front()); }

// The blocks `gpumem cosim` runs: a new one is a row here and its traits
// (tb/common/fast_bench.hpp).
struct CosimBlock {
  const char* name;
  const char* config_section;  // named in the error when the config does not suit the block
  std::unique_ptr<CosimSession> (*make)(const Config& cfg, uint64_t seed, bool pin_level, const LoadedRtl* rtl);
  RtlContract (*contract)(const Config& cfg, const CosimOptions& a);
  bool (*built_in)(const Config& cfg);      // a geometry linked into gpumem
  std::string (*unfit)(const Config& cfg);  // why no RTL of the block can run with cfg, or ""
  // What of cfg the block's RTL does not implement, so no run checks it
  // ("task types 0: not checked, scheme ipoly"), or "".
  // `rtl`: the RTL verilated at run time, null for the built-in one.
  std::string (*unchecked)(const Config& cfg, const LoadedRtl* rtl);
};
std::string nothing_unchecked(const Config&, const LoadedRtl*) { return ""; }
std::string translator_unchecked_by(const Config& cfg, const LoadedRtl* rtl) {
  try {
    return translator_unchecked(cfg, TranslatorBlock::geometry(cfg, rtl));
  } catch (const std::invalid_argument&) {
    return "";  // no session runs: making it names the difference
  }
}
// --schemes is checked before anything runs (run_cosim).
RtlContract translator_contract_for(const Config& cfg, const CosimOptions& a) {
  return translator_contract(cfg, a.schemes.empty() ? kAllSchemes : parse_scheme_list(a.schemes));
}
RtlContract tlb_contract_for(const Config& cfg, const CosimOptions&) { return tlb_contract(cfg); }
const CosimBlock kBlocks[] = {
    {TranslatorBlock::kName, "translator", make_cosim_session<TranslatorBlock>, translator_contract_for,
     translator_built_in, translator_unfit, translator_unchecked_by},
    {TlbBlock::kName, "mmu", make_cosim_session<TlbBlock>, tlb_contract_for, tlb_built_in, tlb_unfit, nothing_unchecked},
};

// The RTL verilated at run time for cfg: a user's (--rtl), or the project's
// in a geometry that is not built in. Contract and build problems are input
// errors, one line per port or Verilator message.
std::optional<LoadedRtl> runtime_rtl(const CosimOptions& a, const CosimBlock& block, const Config& cfg) {
  if (a.rtl.empty() && block.built_in(cfg) && a.code_coverage.empty()) return std::nullopt;
  try {
    // The pin-level mode needs the --sc library too; its waves come from a
    // fast-mode re-run, on the --cc one.
    LoadedRtl rtl = load_rtl({block.contract(cfg, a), a.rtl, a.top, !a.code_coverage.empty()},
                             isatty(STDERR_FILENO) ? &std::cerr : nullptr, a.mode == "pin");
    if (a.max_latency) rtl.max_latency = a.max_latency;
    rtl.schemes = a.schemes;
    return rtl;
  } catch (const RtlBuildError& e) {
    // One line each: the problem, then every port (or Verilator message) on its own.
    const std::string where = a.rtl.empty() ? "" : a.rtl.front() + ": ";
    std::string message = e.what();
    for (const std::string& d : e.details) message += "\ngpumem: error: " + where + d;
    throw InputError(a.rtl.empty() ? "" : a.rtl.front(), 0, "", message);
  } catch (const RtlToolError& e) {
    throw InputError("", 0, "", e.what());
  }
}

// A failed run: the scoreboard's first mismatch, an RTL assertion (the run
// stops at the cycle it fired), a protocol violation or a hang (likewise), or
// more than one. The cycle the waves must reach.
uint64_t failure_cycle(const CosimSession& s) {
  if (s.assertion_failed()) return s.cycles();
  if (s.first_mismatch_report()) return s.first_mismatch_cycle();
  if (const auto& v = s.protocol_violation()) return v->cycle;
  return s.cycles();
}

// The run as the one test case of a JUnit XML report: `failure` empty for a
// pass, else failure_text; `seconds` < 0: no time (--no-timing).
void write_junit(OutputFile& file, const char* block, const std::string& name, double seconds, const std::string& failure) {
  JUnitCase c{std::string("cosim.") + block, name, seconds, failure.empty() ? "" : first_divergence(failure), failure, ""};
  std::fputs(junit_report("gpumem cosim", {c}, seconds).c_str(), file.stream());
  file.commit();
}

// What failed, in the words of its report.
std::string failure_text(const CosimSession& s, const char* block, bool count_all, uint64_t seed) {
  std::ostringstream out;
  if (const auto& v = s.protocol_violation())
    out << (v->hang ? "\nHANG (the watchdog stopped the run)\n" : "\nPROTOCOL VIOLATION (stopped there)\n") << v->report();
  if (const auto report = s.first_mismatch_report())
    out << "\nMISMATCH (" << s.mismatches() << (count_all ? " in all" : ", stopped at the first") << ")\n" << *report;
  if (s.assertion_failed())
    out << "\nRTL ASSERTION FAILED (stopped there; Verilator's message above names the assertion)\n"
        << block << " assertion failed: after " << s.transactions() << " transactions, cycle " << s.cycles()
        << " (time " << fast_edge_time(s.cycles()) << " in that message and in the waves), seed " << seed << "\n";
  return out.str();
}

// The block --block names, every flag checked before anything is verilated or run.
const CosimBlock& checked_block(const CosimOptions& a) {
  if (a.mode != "fast" && a.mode != "pin")
    throw InputError("", 0, "--mode", "unknown mode '" + a.mode + "' (fast or pin)");
  if (a.waves_when != "failure" && a.waves_when != "always")
    throw InputError("", 0, "--waves-when", "unknown value '" + a.waves_when + "' (failure or always)");
  if (!a.code_coverage.empty() && a.mode == "pin")
    throw InputError("", 0, "--code-coverage", "fast mode only: the pin-level model keeps no coverage (the same run "
                                               "without --mode pin covers the same RTL, cycle for cycle)");
  const CosimBlock* block = nullptr;
  std::string names;
  for (const CosimBlock& b : kBlocks) {
    if (a.block == b.name) block = &b;
    names += std::string(names.empty() ? "" : " or ") + b.name;
  }
  if (!block) throw InputError("", 0, "--block", "unknown block '" + a.block + "' (" + names + ")");
  if (a.rtl.empty() && !a.top.empty()) throw InputError("", 0, "--top", "needs --rtl (the project's RTL has its own top)");
  if (a.rtl.empty() && a.max_latency)
    throw InputError("", 0, "--max-latency", "needs --rtl (the project's RTL answers in the next cycle)");
  if (a.hang_cycles == 0) throw InputError("", 0, "--hang-cycles", "must be at least 1");
  if (!a.schemes.empty()) {
    if (block != &kBlocks[0]) throw InputError("", 0, "--schemes", "names the translator's schemes; the " + a.block + " has none");
    if (a.rtl.empty() && !a.contract)
      throw InputError("", 0, "--schemes", "needs --rtl or --contract (the project's RTL builds every scheme)");
    try {
      parse_scheme_list(a.schemes);
    } catch (const std::invalid_argument& e) {
      throw InputError("", 0, "--schemes", e.what());
    }
  }
  return *block;
}

// The RTL verilated at run time: its library, parameters, latency and lint.
void print_rtl(std::ostream& out, const LoadedRtl& rtl, bool no_timing) {
  out << "rtl          " << rtl.library;
  if (no_timing) out << "\n";
  else if (rtl.built) out << " (verilated and compiled now, in " << host_seconds(rtl.build_seconds) << ")\n";
  else out << " (reused from the cache)\n";
  for (const std::string& p : rtl.parameters_set) out << "parameter    " << p << "\n";
  if (rtl.parameters_set.empty()) out << "parameter    none set (the module declares none of the contract's)\n";
  if (rtl.max_latency) out << "latency      a response within " << counted(rtl.max_latency, "cycle", "cycles") << " of its request\n";
  else out << "latency      any (the --hang-cycles watchdog bounds the wait)\n";
  for (const std::string& w : rtl.lint) out << "lint         " << w << "\n";
}

// This run's code coverage beside the runs already in the folder, merged, and its report.
void report_code_coverage(std::ostream& out, const CosimOptions& a, const CosimBlock& block, CosimSession& session) {
  create_output_folder(a.code_coverage, "--code-coverage");
  const std::string dat = a.code_coverage + "/" + block.name + "-seed" + std::to_string(a.seed) + ".dat";
  if (!session.write_code_coverage(dat)) throw InputError(dat, 0, "--code-coverage", "cannot write");
  try {
    out << code_coverage_report(merge_code_coverage(a.code_coverage, block.name, code_coverage_runs(a.code_coverage, block.name)));
  } catch (const std::runtime_error& e) {
    throw InputError(a.code_coverage, 0, "--code-coverage", e.what());
  }
}

// The run's summary and coverage for --json (gpumem sweep merges it).
void write_json(OutputFile& file, const CosimOptions& a, const CosimBlock& block, const CosimSession& session, bool ok,
                const std::string& unchecked) {
  nlohmann::ordered_json j;
  j["block"] = block.name;
  j["seed"] = a.seed;
  j["hang_cycles"] = a.hang_cycles;
  j["transactions"] = session.transactions();
  j["cycles"] = session.cycles();
  j["result"] = ok ? "agreement" : "failure";
  j["mismatches"] = session.mismatches();
  j["unchecked"] = unchecked;
  j["coverage"] = nlohmann::ordered_json::parse(coverage_json_text(session.coverage()));
  if (!ok) {  // what gpumem sweep's failure record and --junit give of a failed point
    const std::string failure = failure_text(session, block.name, a.count_all, a.seed);
    j["first_divergence"] = first_divergence(failure);
    j["failure"] = failure;
  }
  std::fputs((j.dump(2) + "\n").c_str(), file.stream());
  file.commit();
}

// Where the waves, layout and replay of a failed (or --waves-when always) run went.
void print_artifacts(std::ostream& out, const MismatchArtifacts& files, bool pin, bool ok) {
  out << "\n";
  if (files.waves.empty())
    out << "waves        none (the re-run ended before the window opened)\n";
  else if (ok)
    out << "waves        " << shown_path(files.waves) << " (the run's last 1000 cycles: --waves-when always)\n";
  else
    out << "waves        " << shown_path(files.waves) << " (the 1000 cycles before the failing edge)\n";
  if (pin && ok)
    out << "             (waves from a fast-mode re-run of the same pins, which "
        << (files.reproduced ? "ends at the same cycle)\n" : "does NOT end at the same cycle: the difference is in the pin-level path)\n");
  else if (pin)
    out << "             (waves from a fast-mode re-run of the same pins, which "
        << (files.reproduced ? "fails at the same cycle)\n"
                             : "does NOT fail there: the difference is in the pin-level path)\n");
  if (!files.view.empty()) out << "layout       " << shown_path(files.view) << " (" << files.layout_note << ")\n";
  out << "replay       " << shown_path(files.replay) << " (bash it, from any folder)\n";
  if (!files.view.empty())
    out << "open         gtkwave " << shown_path(files.view) << "   (the layout, opened on the " << (ok ? "run's last" : "failing")
        << " edge)\n";
}

std::unique_ptr<CosimSession> make_session(const CosimOptions& a, const CosimBlock& block, const Config& cfg, const LoadedRtl* rtl) {
  try {
    return block.make(cfg, a.seed, a.mode == "pin", rtl);
  } catch (const std::invalid_argument& e) {  // the config does not suit the block
    throw InputError(a.config, 0, block.config_section, e.what());
  }
}

// On a terminal, a line rewritten twice a second: a long random run's
// seconds to minutes are otherwise silent.
bool run_with_progress(CosimSession& session, CosimRun& run) {
  std::optional<ProgressLine> progress;
  if (isatty(STDERR_FILENO)) {
    progress.emplace(stderr);
    run.progress = [&progress, total = run.transactions](uint64_t done) {
      if (progress->due()) progress->show(progress_text("transactions", done, total, -1, progress->elapsed()));
    };
  }
  bool ok = false;
  {
    const StopIsChecked checked;  // the bench ends at its next cycle on a signal; elsewhere gpumem exits at once
    ok = session.run_random(run);
  }
  run.progress = nullptr;  // its line goes with this function
  return ok;
}

}  // namespace

int run_cosim(const CosimOptions& a, std::ostream& out) {
  const CosimBlock* block = &checked_block(a);
  const Config cfg = load_config(a.config);
  if (const std::string why = block->unfit(cfg); !why.empty()) throw InputError(a.config, 0, block->config_section, why);
  if (a.contract) {
    out << contract_markdown(block->contract(cfg, a));
    return 0;
  }
  check_output_folder(a.waves, "--waves");  // before the run: a mismatch must not find it unwritable
  if (!a.code_coverage.empty()) check_output_folder(a.code_coverage, "--code-coverage");
  std::optional<OutputFile> json, junit;
  if (!a.json.empty()) json.emplace(a.json, "--json");
  if (!a.junit.empty()) junit.emplace(a.junit, "--junit");
  const bool pin = a.mode == "pin";
  const std::optional<LoadedRtl> rtl = runtime_rtl(a, *block, cfg);
  // A run must not pass what it did not check: say so before it runs, in
  // the summary, and refuse with --require-all.
  const std::string unchecked = block->unchecked(cfg, rtl ? &*rtl : nullptr);
  if (!unchecked.empty() && a.require_all)
    throw InputError(a.config, 0, "--require-all",
                     unchecked + ": the RTL " + block->name + " does not implement it (docs/cosim.md, \"What a run checks\")");
  if (!unchecked.empty())
    out << "unchecked    " << unchecked << " (the RTL " << block->name
        << " does not implement it: those task types run with the schemes the stimulus writes)" << std::endl;
  std::unique_ptr<CosimSession> session = make_session(a, *block, cfg, rtl ? &*rtl : nullptr);

  CosimRun run{a.transactions, !a.count_all, a.hang_cycles, nullptr};
  const auto started = std::chrono::steady_clock::now();  // the run's time, for --junit
  const bool ok = run_with_progress(*session, run);
  const int stopped_by = stop_requested();
  out << "block        " << session->description() << "\nconfig       " << a.config << "\nseed         " << a.seed
      << "\nwatchdog     " << counted(a.hang_cycles, "cycle", "cycles") << " without a handshake while the bench waits (--hang-cycles)\n";
  if (rtl) print_rtl(out, *rtl, a.no_timing);
  session->print_counts(out);
  print_coverage(out, session->coverage(), kReportWidth);
  if (!a.code_coverage.empty() && !stopped_by) report_code_coverage(out, a, *block, *session);
  if (stopped_by) {
    // No JSON and no waves: a part of a run would read as its result, and
    // the waves' re-run would cost what the user just stopped.
    if (!ok) out << failure_text(*session, block->name, a.count_all, a.seed);
    out << "result       interrupted" << std::endl;
    std::cerr << "gpumem: interrupted by " << signal_name(stopped_by) << " after " << session->transactions() << " of "
              << a.transactions << " transactions; the report holds those only"
              << (json ? ", " + a.json + " not written" : "") << (junit ? ", " + a.junit + " not written" : "")
              << "\n";
    return 128 + stopped_by;
  }
  if (json) write_json(*json, a, *block, *session, ok, unchecked);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string test_name = a.config + " seed " + std::to_string(a.seed);
  const auto agreement = [&] {
    if (junit) write_junit(*junit, block->name, test_name, a.no_timing ? -1 : seconds, "");
    out << "result       agreement" << (unchecked.empty() ? "" : " (" + unchecked + ")") << "\n";
    return 0;
  };
  if (ok && a.waves_when != "always") return agreement();

  // The files first and what failed last, so that a terminal shows the
  // report with the coverage above it.
  const uint64_t fail_cycle = ok ? session->cycles() : failure_cycle(*session);
  const std::string failure = ok ? "" : failure_text(*session, block->name, a.count_all, a.seed);
  const ArtifactWriter write = session->artifact_writer(running_program(), a.config, run);
  // One --cc model of a design at a time: two alive deadlock in Verilator
  // 5.006's scope registry. A pin-level bench stays (SystemC cannot elaborate
  // again); its waves come from a fast-mode re-run of the same pins.
  if (!pin) session.reset();
  MismatchArtifacts files;
  try {
    files = write(fail_cycle, a.waves, ok);
  } catch (...) {
    out << failure;  // what failed, whatever became of its files
    throw;
  }
  print_artifacts(out, files, pin, ok);
  if (ok) return agreement();
  if (junit) write_junit(*junit, block->name, test_name, a.no_timing ? -1 : seconds, failure);
  out << failure;
  return 1;
}

}  // namespace gpumem::tb
