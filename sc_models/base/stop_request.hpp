// A stop asked for by SIGINT or SIGTERM (docs/reliability.md, "Output
// files"). The CLI's handler (cli/stop_on_signal.*) sets it; the loops that
// can end a run cleanly read it: the SMs' issue loop per request, the
// co-simulation benches per cycle. Kept here, below every library, so that
// the model and the test bench read it without knowing of signals or of
// the CLI.
#pragma once
#include <csignal>

namespace gpumem {

namespace detail {
// sig_atomic_t: the only type a handler may store to and the interrupted
// code then read (C++17 [support.signal]).
extern volatile std::sig_atomic_t stop_signal;
}  // namespace detail

// The signal that asked for the stop, 0 while none has. Inline, one load:
// the SMs' loop and the benches read it per request and per cycle, where a
// call cost 0.7 % of a scale-12 BFS run's instructions (callgrind), the
// load 0.1 %.
inline int stop_requested() { return detail::stop_signal; }

// Async-signal-safe: only stores the signal number.
void request_stop(int signal);
// "SIGINT", "SIGTERM"; async-signal-safe.
const char* signal_name(int signal);

// While one is alive, some loop reads stop_requested() often enough to end
// cleanly at its next step, so a signal handler may only set the flag. With
// none alive, nothing would read it, and the handler exits at once
// (cli/stop_on_signal.cpp); so it does on a second signal. Not nested across
// threads: made and destroyed on the thread that runs the loop.
class StopIsChecked {
 public:
  // kRestarted: a call the signal interrupts goes on (a trace's read).
  // kInterrupted: it fails with EINTR, for a loop that blocks in a wait
  // (gpumem sweep's for its points) and must see the stop at once.
  enum class Waits { kRestarted, kInterrupted };
  explicit StopIsChecked(Waits waits = Waits::kRestarted);
  ~StopIsChecked();
  StopIsChecked(const StopIsChecked&) = delete;
  StopIsChecked& operator=(const StopIsChecked&) = delete;

 private:
  bool interrupts_waits_;
  int restart_flags_[2] = {};  // SIGINT's and SIGTERM's SA_RESTART before
};
bool stop_is_checked();  // async-signal-safe

// In a child just forked to work for its parent (`run --compare-prefetch`'s
// runs): killed when the parent ends, however it ends, and SIGINT and
// SIGTERM at their defaults (unless ignored), so that a stop is the
// parent's to report and its files the parent's to remove.
void die_with_parent(int parent_pid);

// The process group of a child that runs tools of its own (a verilation:
// verilator, make, the compiler), registered while it runs, so that a
// process ending on a signal takes the whole tree with it: the handler
// (cli/stop_on_signal.cpp) calls kill_child_groups, which reaches the
// grandchildren that die_with_parent would leave running. At most
// kMaxChildGroups at once (a verilation's, or gpumem sweep's points).
constexpr int kMaxChildGroups = 1024;
void add_child_group(int pgid);
void remove_child_group(int pgid);
void kill_child_groups();  // SIGKILL to each group; async-signal-safe

}  // namespace gpumem
