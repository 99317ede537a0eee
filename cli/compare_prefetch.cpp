#include "cli/compare_prefetch.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iomanip>
#include <stdexcept>

#include "base/input_error.hpp"
#include "base/stop_request.hpp"
#include "sources/thread_trace_io.hpp"
#include "stats/report.hpp"
#include "stats/run_statistics.hpp"
#include "system/simulation.hpp"

namespace gpumem::cli {

namespace {

constexpr PrefetchKind kKinds[] = {PrefetchKind::kNone, PrefetchKind::kStride, PrefetchKind::kBfs};

// One run, in this (child) process: what the comparison needs of it.
nlohmann::json one_run(const Config& cfg, const std::string& threads) {
  auto source = open_thread_trace(threads);
  RunStatistics stats(cfg);
  const SimulationResult r = run_thread_simulation(cfg, *source, {&stats});
  L1Stats l1;
  for (const L1Stats& s : r.l1) l1 += s;
  const nlohmann::json p = prefetch_json(r.prefetch, r.l1, cfg.prefetch.kind);
  return {{"makespan", stats.makespan()},
          {"requests", r.requests},
          {"l1_reads", l1.reads},
          {"l1_misses", l1.misses},
          {"memory_misses", l1.memory_misses()},
          {"l1_miss_rate", l1.miss_rate()},
          {"prefetch", {{"issued", p["issued"]}, {"useful", p["useful"]}, {"late", p["late"]}, {"dropped", p["dropped"]},
                        {"redundant", p["redundant"]}, {"accuracy", p["accuracy"]}, {"unused_evictions", p["unused_evictions"]}}},
          {"wall_seconds", r.wall_seconds}};
}

// Runs one_run in a child and reads its JSON back through a pipe; the
// child's error, if any, comes back the same way.
}  // namespace

nlohmann::json run_threads_in_child(const Config& cfg, const std::string& threads) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("--compare-prefetch: cannot create a pipe");
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("--compare-prefetch: cannot fork");
  if (pid == 0) {
    die_with_parent(parent);
    close(fd[0]);
    std::string text;
    int status = 0;
    try {
      text = one_run(cfg, threads).dump();
    } catch (const std::exception& e) {
      text = nlohmann::json{{"error", e.what()}}.dump();
      status = 1;
    }
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = write(fd[1], text.data() + done, text.size() - done);
      if (n <= 0) _exit(2);
      done += static_cast<size_t>(n);
    }
    _exit(status);
  }
  close(fd[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_object() && j.contains("error")) throw std::runtime_error(j["error"].get<std::string>());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !j.is_object())
    throw std::runtime_error("--compare-prefetch: the " + std::string(prefetch_kind_name(cfg.prefetch.kind)) + " run died");
  return j;
}

nlohmann::json compare_prefetch(const Config& cfg, const std::string& threads) {
  if (!cfg.l1.present)
    throw InputError(cfg.source, 0, "l1", "--compare-prefetch compares prefetchers beside each SM's L1: the config needs an l1 section");
  if (!cfg.prefetch.ranges_given)
    throw InputError(cfg.source, cfg.prefetch.line, "prefetch.ranges",
                     "--compare-prefetch runs the BFS prefetcher too: give the four arrays' ranges (gpumem trace gen bfs prints them)");
  nlohmann::json runs;
  for (PrefetchKind k : kKinds) {
    Config c = cfg;
    c.prefetch.kind = k;
    runs[prefetch_kind_name(k)] = run_threads_in_child(c, threads);
  }
  // Coverage: the share of the no-prefetch run's misses each removed, a
  // miss the prefetch buffer answered counting as removed.
  const double base = runs["none"]["memory_misses"].get<double>();
  for (PrefetchKind k : kKinds) {
    nlohmann::json& r = runs[prefetch_kind_name(k)];
    r["coverage"] = base > 0 ? (base - r["memory_misses"].get<double>()) / base : 0.0;
    const double useful = r["prefetch"]["useful"].get<double>();
    r["prefetch"]["lateness"] = useful > 0 ? r["prefetch"]["late"].get<double>() / useful : 0.0;
  }
  return runs;
}

void print_prefetch_comparison(std::ostream& os, const nlohmann::json& runs) {
  os << "prefetch comparison (docs/prefetch.md)\n" << std::left << std::setw(22) << "" << std::right;
  for (PrefetchKind k : kKinds) os << std::setw(14) << prefetch_kind_name(k);
  os << "\n";
  auto row = [&](const char* name, auto value) {
    os << std::left << std::setw(22) << name << std::right;
    for (PrefetchKind k : kKinds) os << std::setw(14) << value(runs[prefetch_kind_name(k)]);
    os << "\n";
  };
  auto fixed = [](double v, int digits) {
    char b[32];
    std::snprintf(b, sizeof b, "%.*f", digits, v);
    return std::string(b);
  };
  row("makespan (cycles)", [](const nlohmann::json& r) { return std::to_string(r["makespan"].get<uint64_t>()); });
  row("L1 misses", [](const nlohmann::json& r) { return std::to_string(r["l1_misses"].get<uint64_t>()); });
  row("misses to memory", [](const nlohmann::json& r) { return std::to_string(r["memory_misses"].get<uint64_t>()); });
  row("L1 miss rate", [&](const nlohmann::json& r) { return fixed(r["l1_miss_rate"].get<double>(), 4); });
  row("coverage", [&](const nlohmann::json& r) { return fixed(r["coverage"].get<double>(), 4); });
  row("prefetches issued", [](const nlohmann::json& r) { return std::to_string(r["prefetch"]["issued"].get<uint64_t>()); });
  row("useful", [](const nlohmann::json& r) { return std::to_string(r["prefetch"]["useful"].get<uint64_t>()); });
  row("late", [](const nlohmann::json& r) { return std::to_string(r["prefetch"]["late"].get<uint64_t>()); });
  row("dropped", [](const nlohmann::json& r) { return std::to_string(r["prefetch"]["dropped"].get<uint64_t>()); });
  row("accuracy", [&](const nlohmann::json& r) { return fixed(r["prefetch"]["accuracy"].get<double>(), 4); });
  row("lateness", [&](const nlohmann::json& r) { return fixed(r["prefetch"]["lateness"].get<double>(), 4); });
}

}  // namespace gpumem::cli
