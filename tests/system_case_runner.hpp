// Runs one SystemCase through the whole model in a child process: SystemC
// elaborates once per process, and a property needs a fresh model per case.
// The child runs run_thread_simulation with the DataOracle watching the SMs'
// completions and writes one line back; the parent never elaborates.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <sstream>
#include <string>

#include "base/input_error.hpp"
#include "config/config.hpp"
#include "sources/thread_trace_io.hpp"
#include "system/simulation.hpp"
#include "system_case.hpp"

namespace gpumem::test {

struct CaseOutcome {
  bool ran = false;       // the child finished and reported
  std::string error;      // why not, or the model's exception
  uint64_t requests = 0, reads = 0, faulted = 0, strict_bytes = 0, racy_bytes = 0, mismatches = 0;
  std::string first_mismatch;
};

namespace detail {

inline void child_run(const SystemCase& c, int out) {
  std::string line;
  try {
    const Config cfg = parse_config(c.config, "case.yaml");
    DataOracle oracle(cfg.l1.present, cfg.simulation.timing == TimingMode::kAt);
    {
      // The memory-init items, as the driver will load them.
      std::istringstream in(c.trace);
      auto pre = read_thread_trace(in, "case.csv");
      MemoryInit init;
      KernelInfo kernel;
      ThreadRecord record;
      for (auto item = pre->next(init, kernel, record); item != ThreadTraceSource::Item::kEnd; item = pre->next(init, kernel, record))
        if (item == ThreadTraceSource::Item::kMemoryInit) oracle.init(init.address, init.bytes);
    }
    std::istringstream in(c.trace);
    auto source = read_thread_trace(in, "case.csv");
    run_thread_simulation(cfg, *source, {&oracle});
    oracle.finish();
    std::ostringstream o;
    o << "ok " << oracle.requests() << " " << oracle.reads() << " " << oracle.faulted() << " " << oracle.strict_bytes() << " "
      << oracle.racy_bytes() << " " << oracle.mismatches() << " " << oracle.first_mismatch();
    line = o.str();
  } catch (const InputError& e) {
    line = std::string("input-error ") + e.what();
  } catch (const std::exception& e) {
    line = std::string("model-error ") + e.what();
  }
  line += "\n";
  for (size_t done = 0; done < line.size();) {
    const ssize_t n = write(out, line.data() + done, line.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
}

}  // namespace detail

// `at_child_end`, when given, runs in the child after its report (the fuzz
// target copies the child's coverage counters out there).
inline CaseOutcome run_system_case(const SystemCase& c, unsigned timeout_seconds = 120, void (*at_child_end)() = nullptr) {
  CaseOutcome r;
  int fds[2];
  if (pipe(fds) != 0) {
    r.error = "pipe failed";
    return r;
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    r.error = "fork failed";
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    alarm(timeout_seconds);  // a hang ends the child, and the parent says so
    detail::child_run(c, fds[1]);
    if (at_child_end) at_child_end();
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[512];
  // A signal to the parent (libFuzzer's timer) interrupts read and waitpid: retry.
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n > 0) text.append(buf, static_cast<size_t>(n));
    else if (errno != EINTR) break;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFSIGNALED(status)) {
    r.error = WTERMSIG(status) == SIGALRM ? "the run hung (" + std::to_string(timeout_seconds) + " s)"
                                          : "the run died of signal " + std::to_string(WTERMSIG(status));
    return r;
  }
  std::istringstream in(text);
  std::string kind;
  in >> kind;
  if (kind != "ok") {
    r.error = text.empty() ? "no report from the run" : text;
    return r;
  }
  in >> r.requests >> r.reads >> r.faulted >> r.strict_bytes >> r.racy_bytes >> r.mismatches;
  std::getline(in >> std::ws, r.first_mismatch);
  r.ran = true;
  return r;
}

}  // namespace gpumem::test
