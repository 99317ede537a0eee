#include "explore_command.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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
#include "frontend/trace_reader.hpp"
#include "frontend/workload.hpp"
#include "output_paths.hpp"
#include "stats/progress.hpp"
#include "stats/run_statistics.hpp"
#include "validators.hpp"

extern char** environ;

namespace gpumem::cli {

namespace {

nlohmann::json candidate_json(const Candidate& c) {
  return {{"name", c.name}, {"mean_window_entropy", c.entropy}, {"makespan_bound", c.makespan}};
}

// The plot script (docs/explorer.md, "Plots"): $GPUMEM_PLOT_SCRIPT, else
// the one in the source tree gpumem was built from.
std::string plot_script() {
  const char* env = std::getenv("GPUMEM_PLOT_SCRIPT");
  return env && *env ? env : GPUMEM_PLOT_SCRIPT;
}

// Runs `args` (args[0] looked up on PATH), its output to /dev/null when
// `quiet`; the exit status, or -1 with errno set when it cannot start.
int spawn(const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  } else {
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);  // our stdout is the report
  }
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err) {
    errno = err;
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Before the search: the Python that will run the plot script, and the
// script. $GPUMEM_PYTHON if set; else the first of python3 on PATH and
// /usr/bin/python3 (Debian's python3-matplotlib installs for that one;
// a python3 of pyenv or a virtual environment on PATH may lack it) that
// imports matplotlib.
std::string plot_python() {
  const std::string script = plot_script();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(script, ec))
    throw InputError("", 0, "--plot", "the plot script " + script +
                                          " is missing (set GPUMEM_PLOT_SCRIPT to scripts/plot_channels.py of a gpumem source tree)");
  const char* env = std::getenv("GPUMEM_PYTHON");
  const std::vector<std::string> tried = env && *env ? std::vector<std::string>{env} : std::vector<std::string>{"python3", "/usr/bin/python3"};
  bool started = false;
  for (const std::string& python : tried) {
    const int status = spawn({python, "-c", "import matplotlib"}, true);
    if (status == 0) return python;
    started = started || status > 0;
  }
  const std::string which = env && *env ? tried[0] + ", from GPUMEM_PYTHON" : "python3 on PATH, /usr/bin/python3";
  if (!started)
    throw InputError("", 0, "--plot", "python3 not found (tried " + which +
                                          "); install python3 and python3-matplotlib (scripts/install-deps.sh)");
  throw InputError("", 0, "--plot", "python3 cannot import matplotlib (tried " + which +
                                        "); install python3-matplotlib (apt-get install python3-matplotlib, or scripts/install-deps.sh)");
}

// The script on `json`, drawing into `png`; a failure on the explorer's
// own JSON is the model's fault.
void run_plot_script(const std::string& python, const std::string& json, const std::string& png) {
  const int status = spawn({python, plot_script(), json, "--output", png}, false);
  if (status != 0)
    throw std::runtime_error("the plot script " + plot_script() + " failed on " + json + " (exit status " +
                             std::to_string(status) + "); its message is above");
}

// A file in the temporary folder holding `text`, removed with the object;
// none for an empty text.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& text) {
    if (text.empty()) return;
    std::string name = (std::filesystem::temp_directory_path() / "gpumem-explore-XXXXXX.json").string();
    const int fd = mkstemps(name.data(), 5);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file " + name + ": " + std::strerror(errno));
    path_ = name;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!ok) {
      std::remove(path_.c_str());
      throw std::runtime_error("cannot write the temporary file " + path_);
    }
  }
  ~TemporaryFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The trace read with a count on the progress line.
class CountingSource : public RequestSource {
 public:
  CountingSource(RequestSource& inner, StageProgress* progress) : inner_(inner), progress_(progress) {}
  bool next(Request& r) override {
    if (!inner_.next(r)) return false;
    if (progress_ && (++read_ & 0xFFFF) == 0) progress_->update("reading the trace", read_, inner_.expected_total());
    return true;
  }
  uint64_t expected_total() const override { return inner_.expected_total(); }

 private:
  RequestSource& inner_;
  StageProgress* progress_;
  uint64_t read_ = 0;
};

}  // namespace

CLI::App* add_explore_command(CLI::App& app, ExploreArgs& args) {
  CLI::App* explore = app.add_subcommand("explore", "Score mappings on a trace and search for the best (docs/explorer.md)");
  explore->add_option("--config", args.config, "YAML config file")->required()->check(kPath);
  explore->add_option("--trace", args.trace, "CSV request trace (default: the config's built-in workload)")->check(kPath);
  explore->add_option("--window", args.window, "requests per window (default: stats.entropy_window, else memory.max_outstanding)")
      ->check(CLI::Range(1u, 1u << 20));
  explore->add_option("--beam", args.beam, "beam width of the joint XOR search (default 4)")->check(CLI::Range(1u, 64u));
  explore->add_option("--threads", args.threads, "worker threads of the search (default 1)")->check(CLI::Range(1u, 64u));
  explore->add_option("--json", args.json, "write the scores and the recommendation as JSON to this file")->check(kPath);
  explore->add_option("--emit-yaml", args.emit_yaml, "write the recommended translator.tasks list to this file")->check(kPath);
  explore->add_option("--plot", args.plot,
                      "draw identity against the recommendation (channel load and entropy over time) into this PNG; "
                      "needs python3 with matplotlib")
      ->check(kPath);
  return explore;
}

int explore_command(const ExploreArgs& a) {
  const Config cfg = load_config(a.config);
  std::unique_ptr<RequestSource> source;
  if (!a.trace.empty()) source = std::make_unique<CsvTraceReader>(cfg, a.trace);
  else if (!cfg.workload.empty()) source = make_workload(cfg);
  else throw InputError(a.config, 0, "workload", "no --trace given and the config has no workload");
  check_output_paths(a.config, a.trace, {{a.json, "--json"}, {a.emit_yaml, "--emit-yaml"}, {a.plot, "--plot"}});
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
  ExploreOptions options{a.window, a.beam, a.threads, {}};
  if (progress)
    options.progress = [&](const std::string& stage, uint64_t done, uint64_t total) { progress->update(stage, done, total); };
  const Exploration x = explore(cfg, stream, options);
  if (progress) progress->clear();

  std::printf("%zu requests at the translator, windows of %u\n", stream.size(), x.window);
  nlohmann::json tasks = nlohmann::json::array();
  for (const TaskExploration& t : x.tasks) {
    std::printf("\ntask type %u (%llu requests)\n  %-12s %22s %14s\n", t.task_type, static_cast<unsigned long long>(t.requests),
                "mapping", "mean window entropy", "makespan bound");
    nlohmann::json ranked = nlohmann::json::array();
    for (const Candidate& c : t.ranked) {
      std::printf("  %-12s %22.6f %14llu\n", c.name.c_str(), c.entropy, static_cast<unsigned long long>(c.makespan));
      ranked.push_back(candidate_json(c));
    }
    tasks.push_back({{"task_type", t.task_type}, {"requests", t.requests}, {"ranked", ranked}});
  }
  const std::string yaml = tasks_yaml(x.recommended);
  std::printf("\nconfigured   mean window entropy %.6f, makespan bound %llu\n", x.configured.entropy,
              static_cast<unsigned long long>(x.configured.makespan));
  std::printf("recommended  mean window entropy %.6f, makespan bound %llu\n\n%s", x.predicted.entropy,
              static_cast<unsigned long long>(x.predicted.makespan), yaml.c_str());

  if (json_out || plot_out) {
    nlohmann::json series;
    for (const Candidate* c : {&x.identity, &x.configured, &x.predicted})
      series[c == &x.predicted ? "recommended" : c->name] = series_json(c->series, x.window);
    const nlohmann::json j = {{"config", a.config},
                              {"trace", a.trace},
                              {"window", x.window},
                              {"requests", stream.size()},
                              {"tasks", tasks},
                              {"identity", candidate_json(x.identity)},
                              {"configured", candidate_json(x.configured)},
                              {"recommended", candidate_json(x.predicted)},
                              {"recommended_yaml", yaml},
                              {"series", series}};
    const std::string text = j.dump(2) + "\n";
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
