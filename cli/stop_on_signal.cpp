#include "stop_on_signal.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

#include "base/output_file.hpp"
#include "base/stop_request.hpp"

namespace gpumem::cli {

namespace {

struct sigaction g_old_int, g_old_term;
bool g_terminal = false;  // stderr is one: known before, as isatty is no async-signal-safe call

void say(const char* s) {
  for (size_t left = std::strlen(s); left > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, s, left);
    if (n <= 0) return;
    s += n;
    left -= static_cast<size_t>(n);
  }
}

// Everything here is async-signal-safe: kill, unlink, write, _exit.
[[noreturn]] void exit_now(int sig) {
  kill_child_groups();  // a verilation's tools, which would run on for minutes
  const char* names[32];
  const size_t n = remove_pending_files(names, sizeof names / sizeof names[0]);
  if (g_terminal) say("\n");  // past the ^C the terminal echoed, or a progress line
  say("gpumem: interrupted by ");
  say(signal_name(sig));
  for (size_t i = 0; i < n; ++i) {
    say(i == 0 ? "; not written: " : ", ");
    say(names[i]);
  }
  say("\n");
  _exit(128 + sig);
}

extern "C" void on_signal(int sig) {
  if (stop_is_checked() && !stop_requested()) {
    request_stop(sig);
    // Past the ^C the terminal echoed: what the command prints as it ends
    // starts on a line of its own.
    if (g_terminal) say("\n");
    return;
  }
  exit_now(sig);
}

}  // namespace

StopOnSignal::StopOnSignal() {
  g_terminal = isatty(STDERR_FILENO);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);  // one handler at a time: a stop noted, or one exit
  sigaddset(&sa.sa_mask, SIGTERM);
  // A stop that is only noted returns to the interrupted code: a read of the
  // trace must then go on, not fail with EINTR.
  sa.sa_flags = SA_RESTART;
  // A signal ignored when we started (nohup, a background job of a
  // non-interactive shell) stays ignored, as the shell meant.
  sigaction(SIGINT, nullptr, &g_old_int);
  sigaction(SIGTERM, nullptr, &g_old_term);
  if (g_old_int.sa_handler != SIG_IGN) sigaction(SIGINT, &sa, nullptr);
  if (g_old_term.sa_handler != SIG_IGN) sigaction(SIGTERM, &sa, nullptr);
}

StopOnSignal::~StopOnSignal() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

}  // namespace gpumem::cli
