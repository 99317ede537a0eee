// simulation.timing: at: where the blocks that act at cycles of their own
// choosing (the SMs' issues, the L1s' line fills and the answers they take,
// the MMU's walks) act, one action after another in a fixed order: by
// cycle, then by the actor's rank, then by the actor's key for it (a
// request's number), then in the order asked. Two actors acting in one
// cycle from processes of their own, or one actor called back by two
// channels in one cycle, would act in the order the kernel ran those
// processes; here they act in this order, and a run does not depend on
// the kernel's process order (docs/memory.md, "Deciding at command time").
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <queue>
#include <systemc>
#include <vector>

#include "payload/clock.hpp"

namespace gpumem {

class EventCalendar : public sc_core::sc_module {
 public:
  using Action = std::function<void()>;

  EventCalendar(sc_core::sc_module_name name, const Clock& clock) : sc_module(name), clock_(clock) {
    SC_HAS_PROCESS(EventCalendar);
    SC_METHOD(run);
    sensitive << wake_;
    dont_initialize();
  }

  uint64_t now() const { return clock_.cycles(sc_core::sc_time_stamp()); }

  // `action` at model cycle `cycle` (not before now), after the actions of
  // lower rank, and of the same rank with a lower key, at that cycle. An
  // action may ask for more, at its own cycle too.
  void at(uint64_t cycle, unsigned rank, uint64_t key, Action action) {
    const uint64_t n = now();
    if (cycle < n) cycle = n;
    queue_.push({cycle, rank, key, seq_++, std::move(action)});
    if (!armed_ || cycle < armed_at_) arm(cycle, n);
  }

  // The first exception an action threw; the calendar stops there.
  std::exception_ptr failure() const { return failure_; }

 private:
  struct Entry {
    uint64_t cycle;
    unsigned rank;
    uint64_t key, seq;
    Action action;
    bool operator>(const Entry& o) const {
      if (cycle != o.cycle) return cycle > o.cycle;
      if (rank != o.rank) return rank > o.rank;
      return key != o.key ? key > o.key : seq > o.seq;
    }
  };

  void arm(uint64_t cycle, uint64_t n) {
    armed_ = true;
    armed_at_ = cycle;
    wake_.cancel();
    if (cycle == n && running_) return;  // run() takes it before it returns
    wake_.notify(cycle == n ? sc_core::SC_ZERO_TIME : clock_.time(cycle) - sc_core::sc_time_stamp());
  }

  void run() {
    if (failure_) return;
    const uint64_t n = now();
    armed_ = false;
    running_ = true;
    while (!queue_.empty() && queue_.top().cycle <= n) {
      Action a = std::move(const_cast<Entry&>(queue_.top()).action);
      queue_.pop();
      try {
        a();
      } catch (...) {
        failure_ = std::current_exception();
        running_ = false;
        return;
      }
    }
    running_ = false;
    armed_ = false;  // an action's at() for now was taken above: nothing is armed
    if (!queue_.empty()) arm(queue_.top().cycle, n);
  }

  const Clock& clock_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue_;
  uint64_t seq_ = 0;
  sc_core::sc_event wake_;
  bool armed_ = false, running_ = false;
  uint64_t armed_at_ = 0;
  std::exception_ptr failure_;
};

}  // namespace gpumem
