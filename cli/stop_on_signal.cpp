#include "stop_on_signal.hpp"

#include <csignal>

namespace gpumem::cli {

namespace {

volatile std::sig_atomic_t g_received = 0;
struct sigaction g_old_int, g_old_term;

extern "C" void on_signal(int sig) { g_received = sig; }

}  // namespace

StopOnSignal::StopOnSignal() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
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

int StopOnSignal::received() { return g_received; }

}  // namespace gpumem::cli
