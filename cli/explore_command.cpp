#include "explore_command.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "base/input_error.hpp"
#include "base/output_file.hpp"
#include "config/config.hpp"
#include "explorer/explore.hpp"
#include "frontend/ordered_requests.hpp"
#include "sources/workload.hpp"
#include "output_paths.hpp"
#include "params/frontend_from_config.hpp"
#include "plot_runner.hpp"
#include "stats/progress.hpp"
#include "stats/run_statistics.hpp"
#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

namespace {

nlohmann::json candidate_json(const Candidate& c) {
  return {{"name", c.name}, {"mean_window_entropy", c.entropy}, {"makespan_bound", c.makespan}};
}

// The candidate bits' entropy (TaskExploration::candidate_bits) under the
// task type's table, twelve bits a row.
void print_bit_entropy(const TaskExploration& t) {
  const auto& bits = t.candidate_bits;
  if (bits.empty()) return;
  if (t.bit_windows)
    std::printf("  candidate bit entropy, mean over %llu windows of this task type's requests:\n",
                static_cast<unsigned long long>(t.bit_windows));
  else
    std::printf("  candidate bit entropy, over its %llu requests (fewer than a window):\n",
                static_cast<unsigned long long>(t.requests));
  constexpr size_t kPerRow = 12;
  for (size_t first = 0; first < bits.size(); first += kPerRow) {
    const size_t end = std::min(bits.size(), first + kPerRow);
    std::printf("  %-8s", "bit");
    for (size_t i = first; i < end; ++i) std::printf(" %6u", bits[i].bit);
    std::printf("\n  %-8s", "entropy");
    for (size_t i = first; i < end; ++i) std::printf(" %6.3f", bits[i].entropy);
    std::printf("\n");
  }
}

// The trace read with a count on the progress line.
class CountingSource : public RequestSource {
 public:
  CountingSource(RequestSource& inner, StageProgress* progress) : inner_(inner), progress_(progress) {}
  bool next(Request& r) override {
    if (!inner_.next(r)) return false;
    if (progress_ && (++read_ & 0xFFFF) == 0) {
      const double f = inner_.fraction_read();
      progress_->update(f < 0 ? "reading the trace" : "reading the trace, " + std::to_string(static_cast<int>(100 * f)) + " % of it",
                        read_, inner_.expected_total());
    }
    return true;
  }
  uint64_t expected_total() const override { return inner_.expected_total(); }
  double fraction_read() const override { return inner_.fraction_read(); }

 private:
  RequestSource& inner_;
  StageProgress* progress_;
  uint64_t read_ = 0;
};

// Until --threads named a per-thread trace in every subcommand, explore's
// --threads N counted the search's worker threads: a number that names no
// file is that old use.
const CLI::Validator kNotAWorkerCount(
    [](std::string& s) {
      const bool number = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
      if (!number || std::filesystem::exists(s)) return std::string();
      return "names a per-thread trace, as in run, and " + s + " is no file: the search's worker threads are --jobs " + s;
    },
    "");

}  // namespace

CLI::App* add_explore_command(CLI::App& app, ExploreArgs& args) {
  CLI::App* explore = app.add_subcommand("explore", "Score mappings on a trace and search for the best (docs/explorer.md)");
  set_examples(*explore, {"gpumem explore --config configs/default.yaml --emit-yaml tasks.yaml",
                          "gpumem explore --config configs/default.yaml --plot explore.png"});
  explore->add_option("--config", args.config, "YAML config file")->required()->check(kPath);
  add_trace_input_options(*explore, args.input)->check(kNotAWorkerCount);
  explore->add_option("--window", args.window, "requests per window (default: stats.entropy_window, else memory.max_outstanding)")
      ->check(CLI::Range(1u, 1u << 20));
  explore->add_option("--beam", args.beam, "beam width of the joint XOR search (default 4)")->check(CLI::Range(1u, 64u));
  explore->add_option("--jobs", args.jobs, "worker threads of the search (default 1)")->check(CLI::Range(1u, 64u));
  explore->add_option("--json", args.json, "write the scores and the recommendation as JSON to this file")->check(kPath);
  explore->add_option("--emit-yaml", args.emit_yaml, "write the recommended translator.tasks list to this file")->check(kPath);
  explore->add_option("--plot", args.plot,
                      "draw identity against the recommendation (channel load and entropy over time) into this PNG; "
                      "needs python3 with matplotlib")
      ->check(kPath);
  return explore;
}

namespace {

// Each task type's candidates and candidate bits, printed; the same as the JSON's tasks.
nlohmann::json print_tasks(const Exploration& x) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const TaskExploration& t : x.tasks) {
    std::printf("\ntask type %u (%llu requests)\n  %-12s %22s %14s\n", t.task_type, static_cast<unsigned long long>(t.requests),
                "mapping", "mean window entropy", "makespan bound");
    nlohmann::json ranked = nlohmann::json::array();
    for (const Candidate& c : t.ranked) {
      std::printf("  %-12s %22.6f %14llu\n", c.name.c_str(), c.entropy, static_cast<unsigned long long>(c.makespan));
      ranked.push_back(candidate_json(c));
    }
    print_bit_entropy(t);
    nlohmann::json bits = nlohmann::json::array();
    for (const BitEntropy& b : t.candidate_bits) bits.push_back({{"bit", b.bit}, {"entropy", b.entropy}});
    tasks.push_back({{"task_type", t.task_type},
                     {"requests", t.requests},
                     {"ranked", ranked},
                     {"candidate_bit_entropy", {{"windows", t.bit_windows}, {"bits", bits}}}});
  }
  return tasks;
}

// What --json writes (and --plot draws).
nlohmann::json exploration_json(const ExploreArgs& a, const Exploration& x, size_t requests, const nlohmann::json& tasks,
                                const std::string& yaml) {
  nlohmann::json series;
  for (const Candidate* c : {&x.identity, &x.configured, &x.predicted})
    series[c == &x.predicted ? "recommended" : c->name] = series_json(c->series, x.window);
  return {{"config", a.config},
          {"trace", a.input.path()},
          {"window", x.window},
          {"makespan_bound", {{"cycles_per_access", x.makespan.cycles_per_access()}, {"assumes", x.makespan.assumes}}},
          {"requests", requests},
          {"tasks", tasks},
          {"identity", candidate_json(x.identity)},
          {"configured", candidate_json(x.configured)},
          {"recommended", candidate_json(x.predicted)},
          {"recommended_yaml", yaml},
          {"series", series}};
}

}  // namespace

int explore_command(const ExploreArgs& a) {
  const Config cfg = load_config(a.config);
  const std::unique_ptr<ThreadTraceSource> threads = open_thread_input(a.input);
  std::unique_ptr<RequestSource> source = open_request_input(cfg, a.input);
  if (threads) source = std::make_unique<OrderedRequests>(frontend_params(cfg), *threads);
  else if (!source && !cfg.workload.empty()) source = make_workload(cfg);
  if (!source) throw InputError(a.config, 0, "workload", "no --trace or --threads given and the config has no workload");
  check_output_paths(a.config, a.input.path(), {{a.json, "--json"}, {a.emit_yaml, "--emit-yaml"}, {a.plot, "--plot"}});
  std::optional<OutputFile> json_out, yaml_out, plot_out;  // opened first: a bad path must not cost a search
  if (!a.json.empty()) json_out.emplace(a.json, "--json");
  if (!a.emit_yaml.empty()) yaml_out.emplace(a.emit_yaml, "--emit-yaml");
  std::string python;  // as is the plot's Python
  if (!a.plot.empty()) {
    python = plot_python();
    plot_out.emplace(a.plot, "--plot");
  }

  std::optional<StageProgress> progress;  // on a terminal only
  if (isatty(STDERR_FILENO)) progress.emplace(stderr);
  CountingSource counted(*source, progress ? &*progress : nullptr);
  const std::vector<TranslatorInput> stream = translator_inputs(cfg, counted);
  ExploreOptions options{a.window, a.beam, a.jobs, {}};
  if (progress)
    options.progress = [&](const std::string& stage, uint64_t done, uint64_t total) { progress->update(stage, done, total); };
  const Exploration x = explore(cfg, stream, options);
  if (progress) progress->clear();

  if (threads)
    std::printf("%s: per-thread trace, ordered by the front end on %u SMs with its drawn latencies%s\n", a.input.threads.c_str(),
                cfg.frontend.num_sms, cfg.l1.present ? "; every request the SMs issue, the L1s' hits too" : "");
  std::printf("%zu requests at the translator, windows of %u\n", stream.size(), x.window);
  std::printf("makespan bound: %s\n", x.makespan.assumes.c_str());
  const nlohmann::json tasks = print_tasks(x);
  const std::string yaml = tasks_yaml(x.recommended);
  std::printf("\nconfigured   mean window entropy %.6f, makespan bound %llu\n", x.configured.entropy,
              static_cast<unsigned long long>(x.configured.makespan));
  std::printf("recommended  mean window entropy %.6f, makespan bound %llu\n\n%s", x.predicted.entropy,
              static_cast<unsigned long long>(x.predicted.makespan), yaml.c_str());

  if (json_out || plot_out) {
    const std::string text = exploration_json(a, x, stream.size(), tasks, yaml).dump(2) + "\n";
    if (json_out) {
      std::fwrite(text.data(), 1, text.size(), json_out->stream());
      json_out->commit();
    }
    if (plot_out) {
      const TemporaryFile scratch(json_out ? "" : text);  // --plot without --json: the JSON the script reads
      run_plot_script(python, json_out ? a.json : scratch.path(), partial_path(a.plot));
      plot_out->commit();
    }
  }
  if (yaml_out) {
    char head[200];
    std::snprintf(head, sizeof head, "# gpumem explore: predicted mean window entropy %.17g (windows of %u)\n# paste under translator:\n",
                  x.predicted.entropy, x.window);
    const std::string text = head + yaml;
    std::fwrite(text.data(), 1, text.size(), yaml_out->stream());
    yaml_out->commit();
  }
  return 0;
}

}  // namespace gpumem::cli
