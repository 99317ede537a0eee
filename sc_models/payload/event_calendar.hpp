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

#include "base/earliest_tree.hpp"
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
    uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<uint32_t>(actions_.size());
      actions_.push_back(std::move(action));
    } else {
      slot = free_.back();
      free_.pop_back();
      actions_[slot] = std::move(action);
    }
    queue_.push({cycle, seq_++, key, rank, slot});
    if (!armed_ || cycle < armed_at_) arm(cycle, n);
  }

  // A waker: an actor that acts at the earliest cycle it was woken for,
  // once, however often it is woken before then (a DRAM channel's
  // controller, woken at each arrival). Wakers act after every action at()
  // gave their cycle, in the order they were added. They keep one cycle
  // each in a tree of minima, not an entry a wake in the heap: a channel
  // is woken earlier again and again, and the entries it left behind made
  // the heap deep. Added before the simulation starts.
  unsigned add_waker(Action action) {
    wakers_.push_back(std::move(action));
    EarliestTree grown(wakers_.size());
    for (size_t w = 0; w + 1 < wakers_.size(); ++w) grown.set(w, waker_tree_.key(w));
    waker_tree_ = std::move(grown);
    return static_cast<unsigned>(wakers_.size() - 1);
  }
  // `waker` acts at model cycle `cycle` (not before now), unless it acts earlier already.
  void wake(unsigned waker, uint64_t cycle) {
    // Due as early already (the common case: every arrival wakes its
    // channel): no need to read the kernel's time.
    if (waker_tree_.key(waker) <= cycle) return;
    const uint64_t n = now();
    if (cycle < n) cycle = n;
    if (waker_tree_.key(waker) <= cycle) return;
    waker_tree_.set(waker, cycle);
    if (!armed_ || cycle < armed_at_) arm(cycle, n);
  }

  // The first exception an action threw; the calendar stops there.
  std::exception_ptr failure() const { return failure_; }

 private:
  // The heap holds the order only; the actions wait in a pool of their own
  // (actions_, free_), so that reordering the heap moves no std::function:
  // moving them took a fifth of the calendar's time.
  struct Entry {
    uint64_t cycle, seq, key;
    uint32_t rank, slot;
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
    for (;;) {
      const uint64_t action_at = queue_.empty() ? EarliestTree::kNever : queue_.top().cycle;
      const EarliestTree::Found waker = waker_tree_.earliest(0);
      if (std::min(action_at, waker.at) > n) break;
      try {
        if (action_at <= waker.at) {  // at() first, then the wakers
          const uint32_t slot = queue_.top().slot;
          queue_.pop();
          Action a = std::move(actions_[slot]);
          free_.push_back(slot);
          a();
        } else {
          waker_tree_.set(waker.slot, EarliestTree::kNever);
          wakers_[waker.slot]();
        }
      } catch (...) {
        failure_ = std::current_exception();
        running_ = false;
        return;
      }
    }
    running_ = false;
    armed_ = false;  // an action's at() for now was taken above: nothing is armed
    const uint64_t next = std::min(queue_.empty() ? EarliestTree::kNever : queue_.top().cycle, waker_tree_.earliest(0).at);
    if (next != EarliestTree::kNever) arm(next, n);
  }

  const Clock& clock_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue_;
  std::vector<Action> actions_;  // by slot
  std::vector<uint32_t> free_;   // slots free in actions_
  std::vector<Action> wakers_;
  EarliestTree waker_tree_{0};   // each waker's next cycle (kNever: none)
  uint64_t seq_ = 0;
  sc_core::sc_event wake_;
  bool armed_ = false, running_ = false;
  uint64_t armed_at_ = 0;
  std::exception_ptr failure_;
};

}  // namespace gpumem
