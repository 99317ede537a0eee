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
#include "sources/thread_trace_io.hpp"
#include "sources/trace_reader.hpp"
#include "sources/workload.hpp"
#include "output_paths.hpp"
#include "plot_runner.hpp"
#include "stats/progress.hpp"
#include "stats/report.hpp"
#include "stats/run_statistics.hpp"
#include "stats/stats_json.hpp"
#include "stats/dram_command_csv.hpp"
#include "stats/transaction_log.hpp"
#include "stop_on_signal.hpp"
#include "system/simulation.hpp"
#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

namespace {

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return s;
}

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
  run->add_option("--dram-commands", args.dram_commands,
                  "Write every DRAM command (cycle, channel, rank, bank group, bank, row, column, command, request) as CSV "
                  "to this file (memory.model: dram; docs/memory.md, \"The command trace\")")
      ->check(kPath);
  run->add_option("--profile-store", args.profile_store,
                  "YAML profile store: each application takes its recommended task type from it, and the run records its "
                  "own (docs/explorer.md, \"Profile store\")")->check(kPath);
  run->add_flag("--compare-prefetch", args.compare_prefetch,
                "run --threads with no prefetcher, the stride prefetcher and the BFS prefetcher and print them side by side "
                "(docs/prefetch.md); --stats-json gets the three")
      ->excludes("--txn-log")
      ->excludes("--dram-commands")
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

namespace {

// One `gpumem run`, in the order it goes: the config with the profile
// store applied, the inputs, the allocation, the outputs (opened before the
// run: a bad path must not cost a long simulation; each appears under its
// name only when written whole), the simulation, then what it prints and
// writes. A run that stops early (a bad trace line, a model error, SIGINT or
// SIGTERM) still writes its outputs, whole for what it simulated: the
// transaction log up to the stop, the stats JSON with "complete": false.
class RunSession {
 public:
  explicit RunSession(const RunArgs& a) : a_(a), configured_(load_config(a.config)), cfg_(apply_store()) {}

  int run() {
    if (a_.compare_prefetch) return run_compared(a_, cfg_);
    open_inputs();
    allocate();
    open_outputs();
    add_observers();
    simulate();
    if (store_ && !stopped_by_) record_profiles();
    if (!a_.quiet) print_report();
    warn_if_mostly_faulted();
    if (stopped_by_) return end_interrupted();
    write_outputs(true, "");
    if (store_out_) {
      const std::string text = profile_store_yaml(*store_);
      std::fwrite(text.data(), 1, text.size(), store_out_->stream());
      store_out_->commit();
    }
    return 0;
  }

 private:
  // The profile store: read and checked before anything runs, and applied
  // (each application's recommended task type) to the config the run uses.
  Config apply_store() {
    if (a_.profile_store.empty()) return configured_;
    if (!configured_.has_mmu())
      throw InputError(a_.config, 0, "address_space",
                       "--profile-store keeps applications by name: the config needs address_space.applications");
    store_ = std::filesystem::exists(a_.profile_store) ? read_profile_store(a_.profile_store, configured_)
                                                       : empty_profile_store(configured_);
    return apply_profile_store(configured_, *store_, store_notes_);
  }

  void open_inputs() {
    if (!a_.input.threads.empty()) check_thread_simulation(cfg_);  // before any output is opened
    threads_ = open_thread_input(a_.input);
    source_ = open_request_input(cfg_, a_.input);
    if (!threads_ && !source_ && !cfg_.workload.empty()) source_ = make_workload(cfg_);
    if (!threads_ && !source_) throw InputError(a_.config, 0, "workload", "no --trace or --threads given and the config has no workload");
  }

  // The allocation the driver loads, and the other one (nesting on versus
  // off) for the fragmentation comparison, which may not fit where the run
  // does: that must not stop the run.
  void allocate() {
    if (!cfg_.has_mmu()) return;
    image_ = build_address_space(cfg_, cfg_.address_space.nesting);
    try {
      other_ = build_address_space(cfg_, !cfg_.address_space.nesting);
    } catch (const InputError& e) {
      other_error_ = e.what();
    }
    const Fragmentation* mine = &image_->fragmentation;
    const Fragmentation* theirs = other_ ? &other_->fragmentation : nullptr;
    with_nesting_ = cfg_.address_space.nesting ? mine : theirs;
    without_nesting_ = cfg_.address_space.nesting ? theirs : mine;
  }

  void open_outputs() {
    check_output_paths(a_.config, a_.input.path(),
                       {{a_.stats_json, "--stats-json"},
                        {a_.txn_log, "--txn-log"},
                        {a_.dram_commands, "--dram-commands"},
                        {a_.profile_store, "--profile-store"}});
    if (!a_.dram_commands.empty() && cfg_.memory.model != MemoryModel::kDram)
      throw InputError("", 0, "--dram-commands",
                       "the config's channels are simple (memory.model: simple) and issue no DRAM commands; set memory.model: "
                       "dram");
    if (!a_.stats_json.empty()) json_out_.emplace(a_.stats_json, "--stats-json");
    // Rewritten only after a whole run: an interrupted or failed one leaves it as it was.
    if (store_) store_out_.emplace(a_.profile_store, "--profile-store");
    if (!a_.txn_log.empty()) log_ = std::make_unique<TransactionLog>(a_.txn_log, cfg_.memory.model == MemoryModel::kDram);
    if (!a_.dram_commands.empty()) dram_commands_ = std::make_unique<DramCommandCsv>(a_.dram_commands, cfg_.memory.dram.refresh);
  }

  void add_observers() {
    observers_.push_back(&stats_);
    if (log_) observers_.push_back(log_.get());
    if (store_) observers_.push_back(&streams_.emplace(cfg_));
    if (a_.quiet || !isatty(STDERR_FILENO)) return;
    std::function<double()> fraction;
    if (source_) fraction = [&s = *source_] { return s.fraction_read(); };
    else if (threads_) fraction = [&t = *threads_] { return t.fraction_read(); };
    progress_ = std::make_unique<ProgressReporter>(stderr, source_ ? source_->expected_total() : 0, std::move(fraction),
                                                   threads_ != nullptr);
    observers_.push_back(progress_.get());
  }

  // An error ends it with the outputs written for what it simulated, and
  // says after the error what they hold.
  void simulate() {
    // Only while the simulation runs does a loop look for a stop; before it
    // and after it a signal exits at once (cli/stop_on_signal.hpp).
    {
      const StopIsChecked checked;
      try {
        if (threads_) {
          StoppableThreadSource stoppable(*threads_);
          r_ = run_thread_simulation(cfg_, stoppable, observers_, image_ ? &*image_ : nullptr, &r_, dram_commands_.get());
        } else {
          StoppableSource stoppable(*source_);
          r_ = run_simulation(cfg_, stoppable, observers_, image_ ? &*image_ : nullptr, &r_, dram_commands_.get());
        }
      } catch (const InputError& e) {
        progress_.reset();
        write_outputs(false, e.what());
        throw InputError(e.file(), e.line(), e.column(), e.key(), e.message() + partial_outputs());
      } catch (const std::exception& e) {
        progress_.reset();
        write_outputs(false, e.what());
        throw std::runtime_error(e.what() + partial_outputs());
      }
      stopped_by_ = stop_requested();
    }
    progress_.reset();
  }

  void record_profiles() {
    for (const auto& app : configured_.address_space.applications) {
      const PerfReading& m = r_.application_performance[app.process];
      if (m.requests == 0) continue;  // nothing measured: the record stays as it was
      const unsigned ran_with = registers_from_config(cfg_).effective_task(app.process, app.task_type);
      profiles_.push_back(recommend(configured_, app, m, ran_with, streams_->addresses(app.process), store_->find(app.name)));
      store_->record(profiles_.back());
    }
  }

  void print_report() const {
    const std::string& trace_path = a_.input.path();
    std::cout << "config              " << a_.config << (cfg_.description.empty() ? "" : "  (" + cfg_.description + ")") << "\n"
              << "workload            " << (trace_path.empty() ? "built-in" : trace_path) << "\n";
    for (const std::string& note : store_notes_) std::cout << note << "\n";
    stats_.print(std::cout, r_.channel_queues);
    if (cfg_.memory.model == MemoryModel::kDram) print_dram(std::cout, dram_json(cfg_, stats_, r_.dram));
    if (threads_) print_frontend(std::cout, frontend_report(cfg_, r_));
    if (!r_.l1.empty()) print_l1(std::cout, r_.l1);
    if (!r_.l1.empty() && cfg_.prefetch.kind != PrefetchKind::kNone) print_prefetch(std::cout, r_.prefetch, r_.l1, cfg_.prefetch.kind);
    if (r_.mmu) print_mmu(std::cout, *r_.mmu);
    print_faults(std::cout, r_.faults, 10);
    if (image_) print_fragmentation(std::cout, with_nesting_, without_nesting_);
    if (store_ && !stopped_by_) print_profiles(std::cout, a_.profile_store, profiles_);
    if (!other_error_.empty()) std::cout << "(the allocation " << (cfg_.address_space.nesting ? "without" : "with")
                                         << " nesting does not fit: " << other_error_ << ")\n";
    if (a_.no_timing)
      std::cout << "\nsimulated " << r_.requests << " requests\n";
    else
      std::cout << "\nsimulated " << r_.requests << " requests in " << host_seconds(r_.wall_seconds) << " ("
                << millions_per_second(double(r_.requests), r_.wall_seconds, "requests") << ")\n";
  }

  // Exit 0 and a report hide a run that mostly faulted, which is nearly
  // always a trace of physical addresses read as VAs through the page tables.
  void warn_if_mostly_faulted() const {
    if (stopped_by_ || stats_.faults() * 2 <= stats_.requests()) return;
    std::cerr << "gpumem: warning: " << stats_.faults() << " of " << stats_.requests()
              << " requests faulted: with an address_space a trace's addresses are virtual, and the page tables do not map"
                 " these; a trace of physical addresses (another simulator's, such as DRAMsim3's or Ramulator's) runs on a"
                 " config without address_space, such as configs/examples/physical-addresses.yaml (docs/trace-format.md,"
                 " \"Imported traces\")\n";
  }

  int end_interrupted() {
    const RequestCount n = count();
    const std::string what = std::string("interrupted by ") + signal_name(stopped_by_) + " after " + n.text() + n.sms();
    write_outputs(false, what);
    std::vector<std::string> holders;
    if (!a_.quiet) holders.push_back("the report");
    if (json_out_) holders.push_back(a_.stats_json + " (\"complete\": false)");
    if (log_) holders.push_back(a_.txn_log);
    if (dram_commands_) holders.push_back(a_.dram_commands);
    std::cerr << "gpumem: " << what;
    if (!holders.empty()) std::cerr << "; " << listed(holders) << (holders.size() == 1 ? " holds" : " hold") << " those requests only";
    std::cerr << "\n";
    return 128 + stopped_by_;
  }

  void write_outputs(bool complete, const std::string& error) {
    if (json_out_) {
      const FrontendReport frontend = frontend_report(cfg_, r_);
      const AllocationComparison allocations{cfg_.address_space.nesting, with_nesting_, without_nesting_, other_error_};
      const RunReport report{a_.config, a_.input.path(), r_.channel_accesses, r_.channel_queues, r_.dram,
                             r_.application_performance, r_.mmu, r_.faults, r_.l1, r_.prefetch,
                             threads_ ? &frontend : nullptr, image_ ? &allocations : nullptr, profiles_};
      const std::string text = stats_json(cfg_, stats_, report, complete, error).dump(2) + "\n";
      std::fwrite(text.data(), 1, text.size(), json_out_->stream());
      json_out_->commit();
    }
    if (log_) log_->commit();
    if (dram_commands_) dram_commands_->commit();
  }

  RequestCount count() const { return RequestCount{stats_.requests(), r_.requests, threads_ != nullptr}; }

  // A run stopped by an error: what its outputs hold, said after the error.
  std::string partial_outputs() const {
    std::vector<std::string> holders;
    if (json_out_) holders.push_back(a_.stats_json + " (\"complete\": false)");
    if (log_) holders.push_back(a_.txn_log);
    if (dram_commands_) holders.push_back(a_.dram_commands);
    if (holders.empty()) return "";
    const RequestCount n = count();
    return "; " + listed(holders) + (holders.size() > 1 ? " hold" : " holds") + " the " + n.text() + " simulated before it" + n.sms();
  }

  const RunArgs& a_;
  const Config configured_;
  std::optional<ProfileStore> store_;
  std::vector<std::string> store_notes_;
  const Config cfg_;  // configured_ with the store applied
  std::unique_ptr<ThreadTraceSource> threads_;
  std::unique_ptr<RequestSource> source_;
  std::optional<AddressSpaceImage> image_, other_;
  std::string other_error_;
  const Fragmentation* with_nesting_ = nullptr;
  const Fragmentation* without_nesting_ = nullptr;
  std::optional<OutputFile> json_out_, store_out_;
  RunStatistics stats_{cfg_};
  std::unique_ptr<TransactionLog> log_;
  std::unique_ptr<DramCommandCsv> dram_commands_;
  std::optional<ApplicationStreams> streams_;
  std::unique_ptr<ProgressReporter> progress_;
  std::vector<CompletionObserver*> observers_;
  SimulationResult r_;
  std::vector<ApplicationProfile> profiles_;  // recorded by this run
  int stopped_by_ = 0;
};

}  // namespace

int run_command(const RunArgs& a) { return RunSession(a).run(); }

}  // namespace gpumem::cli
