// gpumem: one CLI, subcommands per job. Input errors are caught here, once,
// printed as "file:line: key: message", and turned into exit code 2.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <systemc>
#include <unistd.h>

#include "base/input_error.hpp"
#include "explore_command.hpp"
#include "trace_command.hpp"
#include "output_paths.hpp"
#include "base/input_file.hpp"
#include "base/text.hpp"
#include "base/output_file.hpp"
#include "params/block_params.hpp"
#include "config/config.hpp"
#include "params/profile_store.hpp"
#include "explorer/profile.hpp"
#include "driver/address_space.hpp"
#include "driver/firmware.hpp"
#include "frontend/thread_trace_io.hpp"
#include "frontend/trace_import.hpp"
#include "frontend/trace_reader.hpp"
#include "frontend/workload.hpp"
#include "regs/register_access.hpp"
#include "regs/register_bank.hpp"
#include "regs/register_map.hpp"
#include "regs/rtl_package.hpp"
#include "stats/progress.hpp"
#include "stats/report.hpp"
#include "stats/run_statistics.hpp"
#include "stats/transaction_log.hpp"
#include "system/simulation.hpp"
#include "cli/compare_prefetch.hpp"
#include "plot_runner.hpp"
#include "tb/cosim_command.hpp"
#include "stop_on_signal.hpp"
#include "validators.hpp"

namespace {

constexpr int kExitInputError = 2;
constexpr int kExitModelError = 3;

struct RunArgs {
  std::string config;
  std::string trace;
  std::string threads;
  std::string trace_format = "csv";
  std::string threads_format = "gpumem";
  gpumem::ImportOptions import;
  std::string stats_json;
  std::string txn_log;
  std::string profile_store;
  bool compare_prefetch = false;
  std::string plot;
  bool quiet = false;
};

// One line per application the profile store now records.
void print_profiles(std::ostream& os, const std::string& path, const std::vector<gpumem::ApplicationProfile>& profiles) {
  os << "\nprofile store       " << path << "  (docs/explorer.md, \"Profile store\")\n"
     << "application       task  requests  density  entropy  configured  predicted  verdict   next run\n";
  for (const gpumem::ApplicationProfile& p : profiles) {
    os << std::left << std::setw(18) << p.name << std::right << std::setw(4) << p.task_type << std::setw(10)
       << p.measured.requests << std::fixed << std::setprecision(3) << std::setw(9) << p.measured.density() << std::setw(9)
       << p.measured.mean_window_entropy << std::setw(12) << p.configured_entropy << std::setw(11) << p.predicted_entropy
       << "  " << std::left << std::setw(10) << gpumem::verdict_name(p.verdict) << std::right
       << (p.mapping ? "{" + gpumem::task_mapping_yaml(*p.mapping) + "}" : "its configured mapping") << "\n";
  }
}

gpumem::FrontendReport frontend_report(const gpumem::Config& cfg, const gpumem::SimulationResult& r) {
  return {r.sequence, r.sms, r.warps, r.strided, cfg.frontend.strided_requests, r.memory_init_bytes, r.queued_max,
          r.queue_limit_holds};
}

int run_command(const RunArgs& a) {
  const gpumem::Config configured = gpumem::load_config(a.config);
  // The profile store: read and checked before anything runs, and applied
  // (each application's recommended task type) to the config the run uses.
  std::optional<gpumem::ProfileStore> store;
  std::vector<std::string> store_notes;
  if (!a.profile_store.empty()) {
    if (!configured.has_mmu())
      throw gpumem::InputError(a.config, 0, "address_space",
                               "--profile-store keeps applications by name: the config needs address_space.applications");
    store = std::filesystem::exists(a.profile_store) ? gpumem::read_profile_store(a.profile_store, configured)
                                                     : gpumem::empty_profile_store(configured);
  }
  const gpumem::Config cfg = store ? gpumem::apply_profile_store(configured, *store, store_notes) : configured;
  if (a.compare_prefetch) {
    if (a.threads.empty()) throw gpumem::InputError("", 0, "--compare-prefetch", "needs --threads: the prefetchers sit beside the SMs' L1s");
    gpumem::cli::check_output_paths(a.config, a.threads, {{a.stats_json, "--stats-json"}, {a.plot, "--plot"}});
    std::optional<gpumem::OutputFile> out, plot_out;
    std::string python;  // found before the runs: a missing matplotlib must not cost them
    if (!a.plot.empty()) {
      python = gpumem::cli::plot_python();
      plot_out.emplace(a.plot, "--plot");
    }
    if (!a.stats_json.empty()) out.emplace(a.stats_json, "--stats-json");
    const nlohmann::json runs = gpumem::cli::compare_prefetch(cfg, a.threads);
    const std::string text = nlohmann::json{{"config", a.config}, {"trace", a.threads}, {"compare_prefetch", runs}}.dump(2) + "\n";
    if (out) {
      std::fwrite(text.data(), 1, text.size(), out->stream());
      out->commit();
    }
    if (plot_out) {
      const gpumem::cli::TemporaryFile scratch(text);
      gpumem::cli::run_plot_script(python, scratch.path(), gpumem::partial_path(a.plot));
      plot_out->commit();
    }
    if (!a.quiet) gpumem::cli::print_prefetch_comparison(std::cout, runs);
    return 0;
  }
  std::unique_ptr<gpumem::RequestSource> source;
  std::unique_ptr<gpumem::ThreadTraceSource> threads;
  if (!a.threads.empty())
    threads = a.threads_format == "accel-sim" ? gpumem::open_accel_sim_trace(a.threads, a.import) : gpumem::open_thread_trace(a.threads);
  else if (!a.trace.empty() && a.trace_format != "csv")
    source = gpumem::open_imported_trace(cfg, *gpumem::import_format_from_name(a.trace_format), a.trace, a.import);
  else if (!a.trace.empty()) source = std::make_unique<gpumem::CsvTraceReader>(cfg, a.trace);
  else if (!cfg.workload.empty()) source = gpumem::make_workload(cfg);
  else throw gpumem::InputError(a.config, 0, "workload", "no --trace or --threads given and the config has no workload");
  const std::string& trace_path = threads ? a.threads : a.trace;

  // The allocation the driver loads, and the other one (nesting on versus
  // off) for the fragmentation comparison.
  std::optional<gpumem::AddressSpaceImage> image, other;
  std::string other_error;  // the comparison may not fit where the run does; that must not stop the run
  if (cfg.has_mmu()) {
    image = gpumem::build_address_space(cfg, cfg.address_space.nesting);
    try {
      other = gpumem::build_address_space(cfg, !cfg.address_space.nesting);
    } catch (const gpumem::InputError& e) {
      other_error = e.what();
    }
  }
  const gpumem::Fragmentation* with_nesting = nullptr;
  const gpumem::Fragmentation* without_nesting = nullptr;
  if (image) {
    const gpumem::Fragmentation* mine = &image->fragmentation;
    const gpumem::Fragmentation* theirs = other ? &other->fragmentation : nullptr;
    with_nesting = cfg.address_space.nesting ? mine : theirs;
    without_nesting = cfg.address_space.nesting ? theirs : mine;
  }
  auto fragmentation = [&](const gpumem::Fragmentation* f) {
    return f ? gpumem::fragmentation_json(*f) : nlohmann::json{{"error", other_error}};
  };

  // Outputs are opened before the run (a bad path must not cost a long
  // simulation) and appear under their names only when written whole.
  gpumem::cli::check_output_paths(a.config, trace_path,
                                  {{a.stats_json, "--stats-json"}, {a.txn_log, "--txn-log"}, {a.profile_store, "--profile-store"}});
  std::optional<gpumem::OutputFile> json_out, store_out;
  if (!a.stats_json.empty()) json_out.emplace(a.stats_json, "--stats-json");
  // Rewritten only after a whole run: an interrupted or failed one leaves it as it was.
  if (store) store_out.emplace(a.profile_store, "--profile-store");

  gpumem::RunStatistics stats(cfg);
  std::vector<gpumem::CompletionObserver*> observers{&stats};
  std::unique_ptr<gpumem::TransactionLog> log;
  if (!a.txn_log.empty()) {
    log = std::make_unique<gpumem::TransactionLog>(a.txn_log);
    observers.push_back(log.get());
  }
  std::optional<gpumem::ApplicationStreams> streams;
  if (store) observers.push_back(&streams.emplace(cfg));
  std::unique_ptr<gpumem::ProgressReporter> progress;
  if (!a.quiet && isatty(STDERR_FILENO)) {
    progress = std::make_unique<gpumem::ProgressReporter>(stderr, source ? source->expected_total() : 0);
    observers.push_back(progress.get());
  }

  // A run that stops early (a bad trace line, a model error, SIGINT or
  // SIGTERM) still writes its outputs, whole for what it simulated: the
  // transaction log up to the stop, the stats JSON with "complete": false.
  gpumem::SimulationResult r;
  std::vector<gpumem::ApplicationProfile> profiles;  // recorded by this run
  auto write_outputs = [&](bool complete, const std::string& error) {
    if (json_out) {
      nlohmann::json j = stats.to_json();
      if (j.contains("applications") && !r.application_performance.empty())
        for (size_t i = 0; i < cfg.address_space.applications.size(); ++i) {
          const auto& app = cfg.address_space.applications[i];
          const gpumem::PerfReading& m = r.application_performance[app.process];
          nlohmann::json& out = j["applications"][i];
          out["performance"] = {{"requests", m.requests},       {"bytes", m.bytes},
                                {"active_cycles", m.active_cycles}, {"windows", m.windows},
                                {"mean_window_entropy", m.mean_window_entropy}, {"bandwidth", m.bandwidth()},
                                {"density", m.density()}};
          if (app.selected_task_type) out["selected_task_type"] = *app.selected_task_type;
          for (const gpumem::ApplicationProfile& p : profiles)
            if (p.name == app.name)
              out["profile"] = {{"verdict", gpumem::verdict_name(p.verdict)},
                                {"configured_entropy", p.configured_entropy},
                                {"predicted_entropy", p.predicted_entropy},
                                {"mapping", p.mapping ? gpumem::task_mapping_yaml(*p.mapping) : std::string()}};
        }
      j["config"] = a.config;
      j["trace"] = trace_path;
      if (threads) j["frontend"] = gpumem::frontend_json(frontend_report(cfg, r));
      if (!r.l1.empty()) j["l1"] = gpumem::l1_json(r.l1);
      if (!r.l1.empty()) j["prefetch"] = gpumem::prefetch_json(r.prefetch, r.l1, cfg.prefetch.kind);
      if (!r.channel_accesses.empty())
        for (size_t c = 0; c < r.channel_accesses.size(); ++c) j["channels"][c]["accesses"] = r.channel_accesses[c];
      if (r.mmu) j["mmu"] = gpumem::mmu_json(*r.mmu);
      if (image) {
        j["fault_records"] = gpumem::faults_json(r.faults);
        j["address_space"] = {{"nesting", cfg.address_space.nesting},
                              {"with_nesting", fragmentation(with_nesting)},
                              {"without_nesting", fragmentation(without_nesting)}};
      }
      j["complete"] = complete;
      if (!complete) j["error"] = error;
      const std::string text = j.dump(2) + "\n";
      std::fwrite(text.data(), 1, text.size(), json_out->stream());
      json_out->commit();
    }
    if (log) log->commit();
  };
  int stopped_by = 0;
  {
    gpumem::cli::StopOnSignal stop;
    try {
      if (threads) {
        gpumem::cli::StoppableThreadSource stoppable(*threads);
        r = gpumem::run_thread_simulation(cfg, stoppable, observers, image ? &*image : nullptr, &r);
      } else {
        gpumem::cli::StoppableSource stoppable(*source);
        r = gpumem::run_simulation(cfg, stoppable, observers, image ? &*image : nullptr, &r);
      }
    } catch (const std::exception& e) {
      progress.reset();
      write_outputs(false, e.what());
      throw;
    }
    stopped_by = gpumem::cli::StopOnSignal::received();
  }
  progress.reset();

  if (store && !stopped_by) {
    for (const auto& app : configured.address_space.applications) {
      const gpumem::PerfReading& m = r.application_performance[app.process];
      if (m.requests == 0) continue;  // nothing measured: the record stays as it was
      const unsigned ran_with = gpumem::registers_from_config(cfg).effective_task(app.process, app.task_type);
      profiles.push_back(gpumem::recommend(configured, app, m, ran_with, streams->addresses(app.process), store->find(app.name)));
      store->record(profiles.back());
    }
  }

  if (!a.quiet) {
    std::cout << "config              " << a.config << (cfg.description.empty() ? "" : "  (" + cfg.description + ")") << "\n"
              << "workload            " << (trace_path.empty() ? "built-in" : trace_path) << "\n";
    for (const std::string& note : store_notes) std::cout << note << "\n";
    stats.print(std::cout);
    if (threads) gpumem::print_frontend(std::cout, frontend_report(cfg, r));
    if (!r.l1.empty()) gpumem::print_l1(std::cout, r.l1);
    if (!r.l1.empty() && cfg.prefetch.kind != gpumem::PrefetchKind::kNone) gpumem::print_prefetch(std::cout, r.prefetch, r.l1, cfg.prefetch.kind);
    if (r.mmu) gpumem::print_mmu(std::cout, *r.mmu);
    gpumem::print_faults(std::cout, r.faults, 10);
    if (image) gpumem::print_fragmentation(std::cout, with_nesting, without_nesting);
    if (store && !stopped_by) print_profiles(std::cout, a.profile_store, profiles);
    if (!other_error.empty()) std::cout << "(the allocation " << (cfg.address_space.nesting ? "without" : "with")
                                        << " nesting does not fit: " << other_error << ")\n";
    std::cout << "\nsimulated " << r.requests << " requests in " << r.wall_seconds << " s ("
              << (r.wall_seconds > 0 ? r.requests / r.wall_seconds / 1e6 : 0.0) << " M requests/s)\n";
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
    const std::string what = std::string("interrupted by ") + (stopped_by == SIGINT ? "SIGINT" : "SIGTERM") +
                             " after " + std::to_string(r.requests) + " requests";
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
    const std::string text = gpumem::profile_store_yaml(*store);
    std::fwrite(text.data(), 1, text.size(), store_out->stream());
    store_out->commit();
  }
  return 0;
}

struct RegsArgs {
  std::string config;
  std::string script;
  std::vector<std::string> accesses;
  bool reset_state = false;
};

// Register accesses on the bank of a config, as the driver's firmware left
// it (or at reset): the script's lines first, then the command line's.
int regs_command(const RegsArgs& a) {
  const gpumem::Config cfg = gpumem::load_config(a.config);
  std::vector<gpumem::RegisterAccess> accesses;
  if (!a.script.empty()) accesses = gpumem::read_register_script(*gpumem::open_input_file(a.script, "register script"), a.script);
  for (const std::string& text : a.accesses) accesses.push_back(gpumem::parse_register_access(text));

  gpumem::RegisterBank bank(gpumem::register_params(cfg));
  if (!a.reset_state) {
    std::optional<gpumem::AddressSpaceImage> image;
    if (cfg.has_mmu()) image = gpumem::build_address_space(cfg, cfg.address_space.nesting);
    gpumem::program_registers(cfg, image ? &*image : nullptr, [&](uint32_t offset, uint32_t value) {
      return bank.write(offset, 4, value) == gpumem::RegStatus::kOk;
    });
  }
  for (const gpumem::RegisterAccess& access : accesses) gpumem::perform_register_access(bank, access, std::cout);
  return 0;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  using gpumem::cli::kPath;
  using gpumem::cli::kUnsigned;
  CLI::App app{"gpumem: SystemC/TLM-2.0 golden model of a GPU memory front end"};
  app.require_subcommand(1);

  RunArgs run_args;
  CLI::App* run = app.add_subcommand("run", "Run a workload through the model and report channel statistics");
  run->add_option("--config", run_args.config, "YAML config file")->required()->check(kPath);
  CLI::Option* trace_opt =
      run->add_option("--trace", run_args.trace, "CSV request trace (default: the config's built-in workload)")->check(kPath);
  run->add_option("--threads", run_args.threads,
                  "per-thread GPU trace (CSV or binary): scheduled, coalesced and ordered per SM, one initiator per SM "
                  "(docs/frontend.md)")
      ->check(kPath)
      ->excludes(trace_opt);
  std::vector<std::string> trace_formats{"csv"};
  for (const char* f : {"dramsim3", "ramulator-dram", "ramulator-cpu", "ramulator2-ldst", "ramulator2-rw"}) trace_formats.push_back(f);
  run->add_option("--trace-format", run_args.trace_format,
                  "form of --trace: csv (gpumem's), or another simulator's (docs/trace-format.md, \"Imported traces\")")
      ->check(CLI::IsMember(trace_formats))
      ->needs(trace_opt);
  run->add_option("--threads-format", run_args.threads_format, "form of --threads: gpumem (CSV or binary) or accel-sim")
      ->check(CLI::IsMember({"gpumem", "accel-sim"}));
  run->add_option("--trace-process", run_args.import.process,
                  "imported traces: the process of every request (its task type without an address space)")
      ->check(CLI::Range(0u, gpumem::kMaxProcesses - 1));
  run->add_option("--request-bytes", run_args.import.request_bytes, "imported DRAM-level traces: bytes of every request (default 64)")
      ->check(CLI::Range(1u, gpumem::kMaxRequestBytes));
  run->add_option("--address-vector-bits", run_args.import.address_vector_bits,
                  "ramulator2-rw: bit width of each level of its address vectors, in order")
      ->delimiter(',')
      ->check(CLI::Range(0u, 64u));
  run->add_option("--stats-json", run_args.stats_json, "Write statistics as JSON to this file")->check(kPath);
  run->add_option("--txn-log", run_args.txn_log, "Write one CSV line per transaction to this file")->check(kPath);
  run->add_option("--profile-store", run_args.profile_store,
                  "YAML profile store: each application takes its recommended task type from it, and the run records its "
                  "own (docs/explorer.md, \"Profile store\")")->check(kPath);
  run->add_flag("--compare-prefetch", run_args.compare_prefetch,
                "run --threads with no prefetcher, the stride prefetcher and the BFS prefetcher and print them side by side "
                "(docs/prefetch.md); --stats-json gets the three")
      ->excludes("--txn-log")
      ->excludes("--profile-store");
  run->add_option("--plot", run_args.plot,
                  "with --compare-prefetch: draw the three side by side into this PNG (needs python3 with matplotlib)")
      ->check(kPath)
      ->needs("--compare-prefetch");
  run->add_flag("--quiet", run_args.quiet, "Print nothing on success but warnings (on stderr)");

  std::string regmap_format = "markdown";
  CLI::App* regmap = app.add_subcommand("regmap", "Print the register map (one source of truth)");
  regmap->add_option("--format", regmap_format, "markdown (the register map) or sv (the RTL package gpumem_pkg)")->check(CLI::IsMember({"markdown", "sv"}));

  gpumem::tb::CosimOptions cosim_args;
  CLI::App* cosim = app.add_subcommand("cosim", "Co-simulate an RTL block against the golden model");
  cosim->add_option("--config", cosim_args.config, "YAML config file")->required()->check(kPath);
  cosim->add_option("--block", cosim_args.block, "translator or tlb")
      ->check(CLI::IsMember({"translator", "tlb"}));
  cosim->add_option("--transactions", cosim_args.transactions, "random transactions: requests (translator) or translations (tlb); default 1000000")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  cosim->add_option("--seed", cosim_args.seed, "random seed (default 1)")->check(kUnsigned);
  cosim->add_flag("--count-all", cosim_args.count_all, "count every mismatch instead of stopping at the first");
  cosim->add_option("--hang-cycles", cosim_args.hang_cycles,
                    "watchdog: stop with a hang report after this many cycles without a handshake while the bench "
                    "waits on the RTL (default " + std::to_string(gpumem::tb::kDefaultHangCycles) + ")")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  cosim->add_option("--waves", cosim_args.waves, "folder for the FST and replay files of a mismatch (default waves)")->check(kPath);
  cosim->add_option("--rtl", cosim_args.rtl,
                    "your RTL of the block's port contract (docs/cosim.md), verilated for the config; repeat for more files")
      ->check(CLI::ExistingFile);
  cosim->add_option("--top", cosim_args.top, "the top module of --rtl (default gpumem_xor_translator or gpumem_nested_tlb)");
  cosim->add_option("--max-latency", cosim_args.max_latency,
                    "with --rtl: cycles from a request to its response before the protocol checker calls it late "
                    "(default: no bound but --hang-cycles)")
      ->check(CLI::Range(1u, 1u << 20));
  cosim->add_flag("--require-all", cosim_args.require_all,
                  "refuse (exit 2) a config whose mappings the RTL cannot check (a task type on matrix or a baseline)");
  cosim->add_flag("--contract", cosim_args.contract,
                  "print the block's port contract at the config's geometry (Markdown) and stop");
  cosim->add_option("--mode", cosim_args.mode, "fast (Verilated model clocked from C++) or pin (SystemC-clocked pins)")
      ->check(CLI::IsMember({"fast", "pin"}));

  RegsArgs regs_args;
  CLI::App* regs = app.add_subcommand("regs", "Read and write the register bank of a config (docs/register-map.md)");
  regs->add_option("--config", regs_args.config, "YAML config file")->required()->check(kPath);
  regs->add_option("--script", regs_args.script, "file of register accesses, one per line ('#' comments), run first")->check(kPath);
  regs->add_option("access", regs_args.accesses, "NAME to read, NAME=VALUE to write; NAME: CTRL, TASK_SCHEME[3], XOR_VECTOR[1][0] or an offset (0x0044)");
  regs->add_flag("--reset-state", regs_args.reset_state, "start from the reset values, not from the config's firmware writes");

  gpumem::cli::ExploreArgs explore_args;
  CLI::App* explore = gpumem::cli::add_explore_command(app, explore_args);

  gpumem::cli::TraceArgs trace_args;
  CLI::App* trace = gpumem::cli::add_trace_command(app, trace_args);

  std::string check_config;
  CLI::App* check = app.add_subcommand("check-config", "Validate a config file (and its address-space allocation) and exit");
  check->add_option("config", check_config, "YAML config file")->required()->check(kPath);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // One line, like every other input error (docs/errors.md): CLI11's own
    // form adds a second line and no "gpumem: error:".
    std::string command = "gpumem";
    for (const CLI::App* level = &app; !level->get_subcommands().empty();) {  // down to the innermost: gpumem trace order
      level = level->get_subcommands().front();
      command += " " + level->get_name();
    }
    std::cerr << "gpumem: error: " << e.what() << " (" << command << " --help)\n";
    return kExitInputError;
  }

  try {
    if (*run) return run_command(run_args);
    if (*cosim) return gpumem::tb::run_cosim(cosim_args, std::cout);
    if (*regs) return regs_command(regs_args);
    if (*explore) return gpumem::cli::explore_command(explore_args);
    if (*trace) return gpumem::cli::trace_command(trace_args);
    if (*regmap) {
      std::cout << (regmap_format == "sv" ? gpumem::systemverilog_package() : gpumem::register_map_markdown());
      return 0;
    }
    if (*check) {
      const gpumem::Config cfg = gpumem::load_config(check_config);
      if (cfg.has_mmu()) gpumem::build_address_space(cfg, cfg.address_space.nesting);  // allocation errors too
      std::cout << check_config << ": ok\n";
      return 0;
    }
  } catch (const gpumem::InputError& e) {
    std::cerr << "gpumem: error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << "gpumem: model error: " << e.what() << "\n";
    return kExitModelError;
  }
  return 0;
}
