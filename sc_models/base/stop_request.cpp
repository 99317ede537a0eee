#include "base/stop_request.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <initializer_list>

namespace gpumem {

volatile std::sig_atomic_t detail::stop_signal = 0;

namespace {
volatile std::sig_atomic_t g_checked = 0;
volatile std::sig_atomic_t g_child_groups[kMaxChildGroups] = {};  // 0: a free slot
}  // namespace

void request_stop(int signal) { detail::stop_signal = signal; }
const char* signal_name(int signal) { return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal"; }

namespace {
constexpr int kStopSignals[2] = {SIGINT, SIGTERM};

// The handler now installed for kStopSignals[k], with SA_RESTART as `restart`
// (0 or SA_RESTART); what it was. A signal at its default or ignored keeps it.
int set_restart(int k, int restart) {
  struct sigaction now {};
  sigaction(kStopSignals[k], nullptr, &now);
  if (now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN) return restart;
  const int before = now.sa_flags & SA_RESTART;
  now.sa_flags = (now.sa_flags & ~SA_RESTART) | restart;
  sigaction(kStopSignals[k], &now, nullptr);
  return before;
}
}  // namespace

StopIsChecked::StopIsChecked(Waits waits) : interrupts_waits_(waits == Waits::kInterrupted) {
  g_checked = g_checked + 1;
  if (interrupts_waits_)
    for (int k = 0; k < 2; ++k) restart_flags_[k] = set_restart(k, 0);
}
StopIsChecked::~StopIsChecked() {
  if (interrupts_waits_)
    for (int k = 0; k < 2; ++k) set_restart(k, restart_flags_[k]);
  g_checked = g_checked - 1;
}
bool stop_is_checked() { return g_checked > 0; }

void die_with_parent(int parent_pid) {
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction now {};
    sigaction(sig, nullptr, &now);
    if (now.sa_handler != SIG_IGN) signal(sig, SIG_DFL);
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent_pid) _exit(1);  // the parent ended before the line above
}

void add_child_group(int pgid) {
  for (volatile std::sig_atomic_t& g : g_child_groups)
    if (g == 0) {
      g = pgid;
      return;
    }
}

void remove_child_group(int pgid) {
  for (volatile std::sig_atomic_t& g : g_child_groups)
    if (g == pgid) g = 0;
}

void kill_child_groups() {
  for (volatile std::sig_atomic_t& g : g_child_groups)
    if (g > 0) kill(-g, SIGKILL);
}

}  // namespace gpumem
