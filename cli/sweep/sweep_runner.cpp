#include "sweep/sweep_runner.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/child_process.hpp"
#include "base/input_file.hpp"
#include "base/output_file.hpp"

namespace gpumem::sweep {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_stop(int signal) { g_stop = signal; }

// SIGINT and SIGTERM stop the sweep: no new point starts, the running ones
// are killed and their folders removed. The points run in process groups of
// their own, so a Ctrl-C at the terminal reaches only the sweep.
class StopSignals {
 public:
  StopSignals() {
    g_stop = 0;
    struct sigaction a {};
    a.sa_handler = on_stop;
    sigemptyset(&a.sa_mask);
    sigaction(SIGINT, &a, &old_int_);
    sigaction(SIGTERM, &a, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// The last n lines of a text, trailing newlines dropped.
std::string last_lines(const std::string& text, size_t n) {
  const size_t end = text.find_last_not_of('\n') + 1;  // 0 when there is no line
  size_t at = end;  // after the loop: the newline before the first line kept, or npos / 0 for the whole text
  for (size_t k = 0; k < n && at != std::string::npos && at > 0; ++k) at = text.rfind('\n', at - 1);
  const size_t from = at == std::string::npos ? 0 : at + (at < end && text[at] == '\n' ? 1 : 0);
  return text.substr(from, end - from);
}

const char* json_flag(const std::string& command) {
  if (command == "explore" || command == "cosim") return "--json";
  return "--stats-json";  // run, compare-prefetch
}

struct Running {
  size_t point;  // index into the points given
  unsigned attempt;
  std::string folder;  // the partial folder
};

}  // namespace

std::string point_folder(const SweepSpec& spec, const Point& p) { return spec.output + "/points/" + p.hash; }
std::string failure_file(const SweepSpec& spec, const Point& p) { return spec.output + "/failed/" + p.hash + ".json"; }
bool point_is_whole(const SweepSpec& spec, const Point& p) { return fs::is_regular_file(point_folder(spec, p) + "/point.json"); }

std::vector<std::string> point_arguments(const SweepSpec& spec, const Point& p) {
  std::vector<std::string> a;
  if (spec.command == "compare-prefetch") a = {"run", "--compare-prefetch"};
  else a = {spec.command};
  a.insert(a.end(), {"--config", "config.yaml"});
  if (!p.trace.empty()) a.insert(a.end(), {"--trace", p.trace});
  if (!p.seed.empty()) a.insert(a.end(), {"--seed", p.seed});
  if (spec.command == "cosim") a.insert(a.end(), {"--waves", "waves"});
  if (const char* flag = json_flag(spec.command)) a.insert(a.end(), {flag, "stats.json"});
  if (spec.command != "explore") a.push_back("--no-timing");  // explore prints no host time
  a.insert(a.end(), p.flags.begin(), p.flags.end());
  return a;
}

RunSummary run_points(const SweepSpec& spec, const std::vector<Point>& points, const RunOptions& o) {
  RunSummary summary;
  create_output_folder(spec.output + "/points", "output");
  create_output_folder(spec.output + "/failed", "output");
  std::deque<std::pair<size_t, unsigned>> queue;  // (point, attempt)
  for (size_t k = 0; k < points.size(); ++k) {
    if (o.resume && point_is_whole(spec, points[k])) {
      ++summary.skipped;
      continue;
    }
    queue.emplace_back(k, 1);
  }
  const size_t total = queue.size();
  StopSignals signals;
  std::map<pid_t, Running> running;
  const auto t0 = Clock::now();
  size_t finished = 0;

  auto show = [&] {
    if (!o.progress) return;
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    const double rate = s > 0 ? finished / s : 0;
    std::ostringstream line;
    line << "\rsweep  " << finished << "/" << total << " points, " << summary.failed << " failed" << std::fixed
         << std::setprecision(2);
    if (rate > 0) line << ", " << rate << " points/s, ETA " << static_cast<long>((total - finished) / rate) << " s";
    line << "   ";
    *o.progress << line.str() << std::flush;
  };

  auto start = [&](size_t k, unsigned attempt) {
    const Point& p = points[k];
    const std::string folder = point_folder(spec, p) + ".partial-" + std::to_string(getpid()) + "-" + std::to_string(attempt);
    fs::remove_all(folder);
    fs::create_directories(folder);
    write_output_file(folder + "/config.yaml", "output", p.config_yaml);
    std::vector<std::string> argv{o.gpumem};
    for (const std::string& a : point_arguments(spec, p)) argv.push_back(a);
    ChildSetup setup;
    setup.in = "/dev/null";
    setup.out = fs::absolute(folder + "/log.txt").string();
    setup.err = fs::absolute(folder + "/stderr.txt").string();
    setup.folder = folder;
    setup.own_group = setup.default_signals = true;  // the sweep stops its points itself
    const pid_t pid = start_child(argv, setup);
    if (pid < 0) throw std::runtime_error(std::string("cannot start a point: ") + std::strerror(errno));
    running[pid] = {k, attempt, folder};
  };

  auto finish = [&](const Running& r, int status) {
    const Point& p = points[r.point];
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (g_stop) {  // a point that ends after the stop may have been cut short
      fs::remove_all(r.folder);
      return;
    }
    if (ok) {
      nlohmann::json j;
      j["index"] = p.index;
      j["hash"] = p.hash;
      j["command"] = spec.command;
      nlohmann::json axes = nlohmann::json::object();
      for (size_t a = 0; a < spec.axes.size(); ++a) axes[spec.axes[a].key] = spec.axes[a].values[p.choice[a]];
      j["axes"] = axes;
      j["arguments"] = point_arguments(spec, p);
      write_output_file(r.folder + "/point.json", "output", j.dump(2) + "\n");
      const std::string final_folder = point_folder(spec, p);
      if (fs::exists(final_folder)) {  // a rerun without --resume replaces the point whole
        const std::string old = final_folder + ".old-" + std::to_string(getpid());
        fs::rename(final_folder, old);
        fs::rename(r.folder, final_folder);
        fs::remove_all(old);
      } else {
        fs::rename(r.folder, final_folder);
      }
      fs::remove(failure_file(spec, p));
      ++summary.ran;
      ++finished;
      return;
    }
    // What the point left: either may be missing (a command that did not start writes neither).
    const auto left = [&](const std::string& name) {
      const std::string f = r.folder + "/" + name;
      return fs::exists(f) ? read_input_file(f, name) : std::string();
    };
    const std::string err = last_lines(left("stderr.txt"), 5);
    const std::string exit = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                               : "killed by signal " + std::to_string(WTERMSIG(status));
    // A cosim point's JSON says what diverged (gpumem cosim --json).
    std::string divergence, failure;
    try {
      const nlohmann::json stats = nlohmann::json::parse(left("stats.json"));
      divergence = stats.value("first_divergence", std::string());
      failure = stats.value("failure", std::string());
    } catch (const nlohmann::json::exception&) {  // no JSON: the command failed before writing it
    }
    fs::remove_all(r.folder);
    if (r.attempt <= o.retries) {
      queue.emplace_back(r.point, r.attempt + 1);
      return;
    }
    nlohmann::json j;
    j["index"] = p.index;
    j["hash"] = p.hash;
    j["label"] = p.label;
    j["status"] = exit;
    j["attempts"] = r.attempt;
    j["stderr"] = err;
    if (!divergence.empty()) {
      j["first_divergence"] = divergence;
      j["failure"] = failure;
    }
    write_output_file(failure_file(spec, p), "output", j.dump(2) + "\n");
    ++summary.failed;
    ++finished;
    const std::string why = !divergence.empty() ? divergence : last_lines(err, 1);
    summary.failures.push_back("point " + std::to_string(p.index) + " (" + p.label + "): " + exit + (why.empty() ? "" : ": " + why));
  };

  show();
  while ((!queue.empty() || !running.empty())) {
    while (!g_stop && !queue.empty() && running.size() < std::max(1u, o.jobs)) {
      const auto [k, attempt] = queue.front();
      queue.pop_front();
      start(k, attempt);
    }
    if (g_stop) {
      for (const auto& [pid, r] : running) kill(-pid, SIGKILL);
      queue.clear();
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Running r = it->second;
    running.erase(it);
    finish(r, status);
    show();
  }
  if (o.progress) *o.progress << "\n";
  summary.interrupted = g_stop != 0;
  return summary;
}

}  // namespace gpumem::sweep
