#include "run_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

#include "base/input_error.hpp"
#include "base/output_file.hpp"
#include "base/readable.hpp"
#include "cli/compare_prefetch.hpp"
#include "params/block_params.hpp"
#include "params/frontend_from_config.hpp"
#include "config/config.hpp"
#include "params/profile_store.hpp"
#include "driver/address_space.hpp"
#include "explorer/profile.hpp"
#include "frontend/thread_trace_io.hpp"
#include "frontend/trace_reader.hpp"
#include "frontend/workload.hpp"
#include "output_paths.hpp"
#include "plot_runner.hpp"
#include "stats/progress.hpp"
#include "stats/report.hpp"
#include "stats/run_statistics.hpp"
#include "stats/stats_json.hpp"
#include "stats/transaction_log.hpp"
#include "stop_on_signal.hpp"
#include "system/simulation.hpp"
#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

namespace {

// One line per application the profile store now records.
void print_profiles(std::ostream& os, const std::string& path, const std::vector<ApplicationProfile>& profiles) {
  os << "\nprofile store       " << path << "  (docs/explorer.md, \"Profile store\")\n"
     << "application       task  requests  density  entropy  configured  predicted  verdict   next run\n";
  for (const ApplicationProfile& p : profiles) {
    os << std::left << std::setw(18) << p.name << std::right << std::setw(4) << p.task_type << std::setw(10)
       << p.measured.requests << std::fixed << std::setprecision(3) << std::setw(9) << p.measured.density() << std::setw(9)
       << p.measured.mean_window_entropy << std::setw(12) << p.configured_entropy << std::setw(11) << p.predicted_entropy
       << "  " << std::left << std::setw(10) << verdict_name(p.verdict) << std::right
       << (p.mapping ? "{" + task_mapping_yaml(*p.mapping) + "}" : "its configured mapping") << "\n";
  }
}

// The requests the outputs hold, as they count them (the stats JSON's
// `requests`, the transaction log's lines: each element of a strided request
// is one), and the SMs' count beside it when that differs.
struct RequestCount {
  uint64_t observed = 0, issued = 0;
  bool by_sms = false;  // --threads: the SMs issued them
  std::string text() const { return std::to_string(observed) + " requests"; }
  std::string sms() const {
    if (!by_sms || observed == issued) return "";
    return ", each element of a strided request counted as one (" + std::to_string(issued) + " as the SMs issued them)";
  }
};

FrontendReport frontend_report(const Config& cfg, const SimulationResult& r) {
  return {r.sequence, r.sms, r.warps, r.strided, cfg.frontend.strided_requests, r.memory_init_bytes, r.queued_max,
          r.queue_limit_holds};
}

// --compare-prefetch: the three runs in place of one.
int run_compared(const RunArgs& a, const Config& cfg) {
  if (a.input.threads.empty()) throw InputError("", 0, "--compare-prefetch", "needs --threads: the prefetchers sit beside the SMs' L1s");
  check_output_paths(a.config, a.input.threads, {{a.stats_json, "--stats-json"}, {a.plot, "--plot"}});
  std::optional<OutputFile> out, plot_out;
  std::string python;  // found before the runs: a missing matplotlib must not cost them
  if (!a.plot.empty()) {
    python = plot_python();
    plot_out.emplace(a.plot, "--plot");
  }
  if (!a.stats_json.empty()) out.emplace(a.stats_json, "--stats-json");
  nlohmann::json runs = compare_prefetch(cfg, a.input.threads);
  if (a.no_timing)
    for (auto& [kind, r] : runs.items()) r.erase("wall_seconds");
  const std::string text = nlohmann::json{{"config", a.config}, {"trace", a.input.threads}, {"compare_prefetch", runs}}.dump(2) + "\n";
  if (out) {
    std::fwrite(text.data(), 1, text.size(), out->stream());
    out->commit();
  }
  if (plot_out) {
    const TemporaryFile scratch(text);
    run_plot_script(python, scratch.path(), partial_path(a.plot));
    plot_out->commit();
  }
  if (!a.quiet) print_prefetch_comparison(std::cout, runs);
  return 0;
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunArgs& args) {
  CLI::App* run = app.add_subcommand("run", "Run a workload through the model and report channel statistics");
  set_examples(*run, {"gpumem run --config configs/default.yaml --stats-json stats.json --txn-log txn.csv",
                      "gpumem run --config configs/default.yaml --trace configs/examples/three-apps.csv",
                      "gpumem run --config configs/examples/bfs.yaml --threads bfs.bin --stats-json bfs.json",
                      "gpumem run --config configs/examples/bfs-prefetch.yaml --threads bfs16.bin --compare-prefetch --plot prefetch.png"});
  run->add_option("--config", args.config, "YAML config file")->required()->check(kPath);
  add_trace_input_options(*run, args.input);
  run->add_option("--stats-json", args.stats_json, "Write statistics as JSON to this file")->check(kPath);
  run->add_option("--txn-log", args.txn_log, "Write one CSV line per transaction to this file")->check(kPath);
  run->add_option("--profile-store", args.profile_store,
                  "YAML profile store: each application takes its recommended task type from it, and the run records its "
                  "own (docs/explorer.md, \"Profile store\")")->check(kPath);
  run->add_flag("--compare-prefetch", args.compare_prefetch,
                "run --threads with no prefetcher, the stride prefetcher and the BFS prefetcher and print them side by side "
                "(docs/prefetch.md); --stats-json gets the three")
      ->excludes("--txn-log")
      ->excludes("--profile-store");
  run->add_option("--plot", args.plot,
                  "with --compare-prefetch: draw the three side by side into this PNG (needs python3 with matplotlib)")
      ->check(kPath)
      ->needs("--compare-prefetch");
  run->add_flag("--quiet", args.quiet, "Print nothing on success but warnings (on stderr)");
  run->add_flag("--no-timing", args.no_timing,
                "Leave out the host's time (the report's last line, --compare-prefetch's wall_seconds): two runs' outputs "
                "then compare byte for byte (gpumem sweep passes it)");
  return run;
}

int run_command(const RunArgs& a) {
  const Config configured = load_config(a.config);
  // The profile store: read and checked before anything runs, and applied
  // (each application's recommended task type) to the config the run uses.
  std::optional<ProfileStore> store;
  std::vector<std::string> store_notes;
  if (!a.profile_store.empty()) {
    if (!configured.has_mmu())
      throw InputError(a.config, 0, "address_space",
                       "--profile-store keeps applications by name: the config needs address_space.applications");
    store = std::filesystem::exists(a.profile_store) ? read_profile_store(a.profile_store, configured)
                                                     : empty_profile_store(configured);
  }
  const Config cfg = store ? apply_profile_store(configured, *store, store_notes) : configured;
  if (a.compare_prefetch) return run_compared(a, cfg);
  if (!a.input.threads.empty()) check_thread_simulation(cfg);  // before any output is opened
  std::unique_ptr<ThreadTraceSource> threads = open_thread_input(a.input);
  std::unique_ptr<RequestSource> source = open_request_input(cfg, a.input);
  if (!threads && !source && !cfg.workload.empty()) source = make_workload(cfg);
  if (!threads && !source) throw InputError(a.config, 0, "workload", "no --trace or --threads given and the config has no workload");
  const std::string& trace_path = a.input.path();

  // The allocation the driver loads, and the other one (nesting on versus
  // off) for the fragmentation comparison.
  std::optional<AddressSpaceImage> image, other;
  std::string other_error;  // the comparison may not fit where the run does; that must not stop the run
  if (cfg.has_mmu()) {
    image = build_address_space(cfg, cfg.address_space.nesting);
    try {
      other = build_address_space(cfg, !cfg.address_space.nesting);
    } catch (const InputError& e) {
      other_error = e.what();
    }
  }
  const Fragmentation* with_nesting = nullptr;
  const Fragmentation* without_nesting = nullptr;
  if (image) {
    const Fragmentation* mine = &image->fragmentation;
    const Fragmentation* theirs = other ? &other->fragmentation : nullptr;
    with_nesting = cfg.address_space.nesting ? mine : theirs;
    without_nesting = cfg.address_space.nesting ? theirs : mine;
  }
  const AllocationComparison allocations{cfg.address_space.nesting, with_nesting, without_nesting, other_error};

  // Outputs are opened before the run (a bad path must not cost a long
  // simulation) and appear under their names only when written whole.
  check_output_paths(a.config, trace_path,
                     {{a.stats_json, "--stats-json"}, {a.txn_log, "--txn-log"}, {a.profile_store, "--profile-store"}});
  std::optional<OutputFile> json_out, store_out;
  if (!a.stats_json.empty()) json_out.emplace(a.stats_json, "--stats-json");
  // Rewritten only after a whole run: an interrupted or failed one leaves it as it was.
  if (store) store_out.emplace(a.profile_store, "--profile-store");

  RunStatistics stats(cfg);
  std::vector<CompletionObserver*> observers{&stats};
  std::unique_ptr<TransactionLog> log;
  if (!a.txn_log.empty()) {
    log = std::make_unique<TransactionLog>(a.txn_log, cfg.memory.model == MemoryModel::kDram);
    observers.push_back(log.get());
  }
  std::optional<ApplicationStreams> streams;
  if (store) observers.push_back(&streams.emplace(cfg));
  std::unique_ptr<ProgressReporter> progress;
  if (!a.quiet && isatty(STDERR_FILENO)) {
    std::function<double()> fraction;
    if (source) fraction = [&s = *source] { return s.fraction_read(); };
    else if (threads) fraction = [&t = *threads] { return t.fraction_read(); };
    progress = std::make_unique<ProgressReporter>(stderr, source ? source->expected_total() : 0, std::move(fraction),
                                                  threads != nullptr);
    observers.push_back(progress.get());
  }

  // A run that stops early (a bad trace line, a model error, SIGINT or
  // SIGTERM) still writes its outputs, whole for what it simulated: the
  // transaction log up to the stop, the stats JSON with "complete": false.
  SimulationResult r;
  std::vector<ApplicationProfile> profiles;  // recorded by this run
  auto write_outputs = [&](bool complete, const std::string& error) {
    if (json_out) {
      const FrontendReport frontend = frontend_report(cfg, r);
      const RunReport report{a.config,   trace_path, r.channel_accesses,  r.dram,         r.application_performance,
                             r.mmu,      r.faults,   r.l1,                         r.prefetch,
                             threads ? &frontend : nullptr, image ? &allocations : nullptr, profiles};
      const std::string text = stats_json(cfg, stats, report, complete, error).dump(2) + "\n";
      std::fwrite(text.data(), 1, text.size(), json_out->stream());
      json_out->commit();
    }
    if (log) log->commit();
  };
  auto count = [&] { return RequestCount{stats.requests(), r.requests, threads != nullptr}; };
  // A run stopped by an error: what its outputs hold, said after the error.
  auto partial_outputs = [&]() -> std::string {
    std::vector<std::string> holders;
    if (json_out) holders.push_back(a.stats_json + " (\"complete\": false)");
    if (log) holders.push_back(a.txn_log);
    if (holders.empty()) return "";
    std::string s = "; " + holders[0];
    if (holders.size() > 1) s += " and " + holders[1];
    const RequestCount n = count();
    return s + (holders.size() > 1 ? " hold" : " holds") + " the " + n.text() + " simulated before it" + n.sms();
  };
  int stopped_by = 0;
  {
    // Only while the simulation runs does a loop look for a stop; before it
    // and after it a signal exits at once (cli/stop_on_signal.hpp).
    const StopIsChecked checked;
    try {
      if (threads) {
        StoppableThreadSource stoppable(*threads);
        r = run_thread_simulation(cfg, stoppable, observers, image ? &*image : nullptr, &r);
      } else {
        StoppableSource stoppable(*source);
        r = run_simulation(cfg, stoppable, observers, image ? &*image : nullptr, &r);
      }
    } catch (const InputError& e) {
      progress.reset();
      write_outputs(false, e.what());
      throw InputError(e.file(), e.line(), e.column(), e.key(), e.message() + partial_outputs());
    } catch (const std::exception& e) {
      progress.reset();
      write_outputs(false, e.what());
      throw std::runtime_error(e.what() + partial_outputs());
    }
    stopped_by = stop_requested();
  }
  progress.reset();

  if (store && !stopped_by) {
    for (const auto& app : configured.address_space.applications) {
      const PerfReading& m = r.application_performance[app.process];
      if (m.requests == 0) continue;  // nothing measured: the record stays as it was
      const unsigned ran_with = registers_from_config(cfg).effective_task(app.process, app.task_type);
      profiles.push_back(recommend(configured, app, m, ran_with, streams->addresses(app.process), store->find(app.name)));
      store->record(profiles.back());
    }
  }

  if (!a.quiet) {
    std::cout << "config              " << a.config << (cfg.description.empty() ? "" : "  (" + cfg.description + ")") << "\n"
              << "workload            " << (trace_path.empty() ? "built-in" : trace_path) << "\n";
    for (const std::string& note : store_notes) std::cout << note << "\n";
    stats.print(std::cout);
    if (cfg.memory.model == MemoryModel::kDram) print_dram(std::cout, dram_json(cfg, stats, r.dram));
    if (threads) print_frontend(std::cout, frontend_report(cfg, r));
    if (!r.l1.empty()) print_l1(std::cout, r.l1);
    if (!r.l1.empty() && cfg.prefetch.kind != PrefetchKind::kNone) print_prefetch(std::cout, r.prefetch, r.l1, cfg.prefetch.kind);
    if (r.mmu) print_mmu(std::cout, *r.mmu);
    print_faults(std::cout, r.faults, 10);
    if (image) print_fragmentation(std::cout, with_nesting, without_nesting);
    if (store && !stopped_by) print_profiles(std::cout, a.profile_store, profiles);
    if (!other_error.empty()) std::cout << "(the allocation " << (cfg.address_space.nesting ? "without" : "with")
                                        << " nesting does not fit: " << other_error << ")\n";
    if (a.no_timing)
      std::cout << "\nsimulated " << r.requests << " requests\n";
    else
      std::cout << "\nsimulated " << r.requests << " requests in " << host_seconds(r.wall_seconds) << " ("
                << millions_per_second(double(r.requests), r.wall_seconds, "requests") << ")\n";
  }
  // Exit 0 and a report hide a run that mostly faulted, which is nearly
  // always a trace of physical addresses read as VAs through the page tables.
  if (!stopped_by && stats.faults() * 2 > stats.requests())
    std::cerr << "gpumem: warning: " << stats.faults() << " of " << stats.requests()
              << " requests faulted: with an address_space a trace's addresses are virtual, and the page tables do not map"
                 " these; a trace of physical addresses (another simulator's, such as DRAMsim3's or Ramulator's) runs on a"
                 " config without address_space, such as configs/examples/physical-addresses.yaml (docs/trace-format.md,"
                 " \"Imported traces\")\n";
  if (stopped_by) {
    const RequestCount n = count();
    const std::string what = std::string("interrupted by ") + signal_name(stopped_by) + " after " + n.text() + n.sms();
    write_outputs(false, what);
    std::vector<std::string> holders;
    if (!a.quiet) holders.push_back("the report");
    if (json_out) holders.push_back(a.stats_json + " (\"complete\": false)");
    if (log) holders.push_back(a.txn_log);
    std::cerr << "gpumem: " << what;
    for (size_t i = 0; i < holders.size(); ++i)
      std::cerr << (i == 0 ? "; " : i + 1 == holders.size() ? " and " : ", ") << holders[i];
    if (!holders.empty()) std::cerr << (holders.size() == 1 ? " holds" : " hold") << " those requests only";
    std::cerr << "\n";
    return 128 + stopped_by;
  }
  write_outputs(true, "");
  if (store_out) {
    const std::string text = profile_store_yaml(*store);
    std::fwrite(text.data(), 1, text.size(), store_out->stream());
    store_out->commit();
  }
  return 0;
}

}  // namespace gpumem::cli
