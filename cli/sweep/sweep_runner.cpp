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
#include "base/stop_request.hpp"

namespace gpumem::sweep {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

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

namespace {

// A point that ran: its point.json beside its outputs, and its folder where
// points live (a rerun without --resume replaces the point whole).
void commit_point(const SweepSpec& spec, const Point& p, const std::string& partial) {
  nlohmann::json j;
  j["index"] = p.index;
  j["hash"] = p.hash;
  j["command"] = spec.command;
  nlohmann::json axes = nlohmann::json::object();
  for (size_t a = 0; a < spec.axes.size(); ++a) axes[spec.axes[a].key] = spec.axes[a].values[p.choice[a]];
  j["axes"] = axes;
  j["arguments"] = point_arguments(spec, p);
  write_output_file(partial + "/point.json", "output", j.dump(2) + "\n");
  const std::string final_folder = point_folder(spec, p);
  if (fs::exists(final_folder)) {
    const std::string old = final_folder + ".old-" + std::to_string(getpid());
    fs::rename(final_folder, old);
    fs::rename(partial, final_folder);
    fs::remove_all(old);
  } else {
    fs::rename(partial, final_folder);
  }
  fs::remove(failure_file(spec, p));
}

// What a point that failed left, read before its folder goes.
struct PointFailure {
  std::string exit;        // "exit 3", "killed by signal 9"
  std::string err;         // the last lines of its stderr
  std::string divergence;  // a cosim point's first divergence (gpumem cosim --json), and its failure
  std::string failure;
};

PointFailure failure_of(const std::string& partial, int status) {
  // Either file may be missing (a command that did not start writes neither).
  const auto left = [&](const std::string& name) {
    const std::string f = partial + "/" + name;
    return fs::exists(f) ? read_input_file(f, name) : std::string();
  };
  PointFailure f;
  f.err = last_lines(left("stderr.txt"), 5);
  f.exit = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status)) : "killed by signal " + std::to_string(WTERMSIG(status));
  try {
    const nlohmann::json stats = nlohmann::json::parse(left("stats.json"));
    f.divergence = stats.value("first_divergence", std::string());
    f.failure = stats.value("failure", std::string());
  } catch (const nlohmann::json::exception&) {  // no JSON: the command failed before writing it
  }
  return f;
}

// A point that failed for good: its file under failed/; the summary's line.
std::string record_failure(const SweepSpec& spec, const Point& p, const PointFailure& f, unsigned attempts) {
  nlohmann::json j;
  j["index"] = p.index;
  j["hash"] = p.hash;
  j["label"] = p.label;
  j["status"] = f.exit;
  j["attempts"] = attempts;
  j["stderr"] = f.err;
  if (!f.divergence.empty()) {
    j["first_divergence"] = f.divergence;
    j["failure"] = f.failure;
  }
  write_output_file(failure_file(spec, p), "output", j.dump(2) + "\n");
  const std::string why = !f.divergence.empty() ? f.divergence : last_lines(f.err, 1);
  return "point " + std::to_string(p.index) + " (" + p.label + "): " + f.exit + (why.empty() ? "" : ": " + why);
}

// The points running, each gpumem in a partial folder of its own and a
// process group of its own (so a Ctrl-C at the terminal reaches only the
// sweep, which stops them itself).
class PointProcesses {
 public:
  PointProcesses(const SweepSpec& spec, const std::string& gpumem) : spec_(spec), gpumem_(gpumem) {}

  size_t size() const { return running_.size(); }
  bool empty() const { return running_.empty(); }

  void start(const Point& p, size_t k, unsigned attempt) {
    const std::string folder = point_folder(spec_, p) + ".partial-" + std::to_string(getpid()) + "-" + std::to_string(attempt);
    fs::remove_all(folder);
    fs::create_directories(folder);
    write_output_file(folder + "/config.yaml", "output", p.config_yaml);
    std::vector<std::string> argv{gpumem_};
    for (const std::string& a : point_arguments(spec_, p)) argv.push_back(a);
    ChildSetup setup;
    setup.in = "/dev/null";
    setup.out = fs::absolute(folder + "/log.txt").string();
    setup.err = fs::absolute(folder + "/stderr.txt").string();
    setup.folder = folder;
    // A group of its own, so that a Ctrl-C at the terminal reaches only the
    // sweep; killed whole if gpumem ends on a second signal.
    setup.own_group = setup.default_signals = setup.killed_with_gpumem = true;
    const pid_t pid = start_child(argv, setup);
    if (pid < 0) throw std::runtime_error(std::string("cannot start a point: ") + std::strerror(errno));
    running_[pid] = {k, attempt, folder};
  }

  void kill_all() {
    for (const auto& [pid, r] : running_) kill(-pid, SIGKILL);
  }

  // Waits for one of them to end: false when a signal came first (or none
  // is left to wait for), else true with it and its waitpid() status.
  bool wait_one(Running& r, int& status) {
    for (;;) {
      const pid_t pid = waitpid(-1, &status, 0);
      if (pid < 0) return false;
      const auto it = running_.find(pid);
      if (it == running_.end()) continue;
      remove_child_group(pid);  // start_child added it: its pgid may be reused now
      r = it->second;
      running_.erase(it);
      return true;
    }
  }

 private:
  const SweepSpec& spec_;
  const std::string& gpumem_;
  std::map<pid_t, Running> running_;
};

}  // namespace

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
  // SIGINT and SIGTERM stop the sweep: no new point starts, the running ones
  // are killed and their folders removed; a wait for a point ends at the
  // signal. A second signal ends gpumem at once (cli/stop_on_signal.cpp).
  const StopIsChecked checked(StopIsChecked::Waits::kInterrupted);
  PointProcesses running(spec, o.gpumem);
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

  auto finish = [&](const Running& r, int status) {
    const Point& p = points[r.point];
    if (stop_requested()) {  // a point that ends after the stop may have been cut short
      fs::remove_all(r.folder);
      return;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      commit_point(spec, p, r.folder);
      ++summary.ran;
      ++finished;
      return;
    }
    const PointFailure f = failure_of(r.folder, status);
    fs::remove_all(r.folder);
    if (r.attempt <= o.retries) {
      queue.emplace_back(r.point, r.attempt + 1);
      return;
    }
    summary.failures.push_back(record_failure(spec, p, f, r.attempt));
    ++summary.failed;
    ++finished;
  };

  show();
  while (!queue.empty() || !running.empty()) {
    while (!stop_requested() && !queue.empty() && running.size() < std::max(1u, o.jobs)) {
      const auto [k, attempt] = queue.front();
      queue.pop_front();
      running.start(points[k], k, attempt);
    }
    if (stop_requested()) {
      running.kill_all();
      queue.clear();
    }
    Running r;
    int status = 0;
    if (!running.wait_one(r, status)) {
      if (errno == EINTR) continue;
      break;
    }
    finish(r, status);
    show();
  }
  if (o.progress) *o.progress << "\n";
  summary.interrupted = stop_requested() != 0;
  return summary;
}

}  // namespace gpumem::sweep
