// The accesses a channel holds, for its queue figures (the stats JSON's
// mean_queue_depth and max_queue_depth): each from the cycle it arrives
// until its access finishes, waiting or in service (a posted write, which
// leaves as it is acknowledged, is in for no cycle; memory.latency_cycles,
// a pipeline behind the channel, is not in it). Walk reads and a strided
// request's accesses are accesses like any other. The mean is their time
// average (residence cycles over the run's span), the max their most at
// any cycle, so the mean is never above the max.
#pragma once
#include <algorithm>
#include <cstdint>

#include "base/cycle_changes.hpp"

namespace gpumem {

struct ChannelQueueFigures {
  uint64_t residence_cycles = 0;  // sum over its accesses of (finish - arrival)
  unsigned max_depth = 0;         // the most accesses in the channel at once
};

class ChannelQueue {
 public:
  // An access whose finish is known as it arrives (lt, and a simple channel
  // in at); `horizon`: no later access arrives before it.
  void arrive(uint64_t arrival, uint64_t finish, uint64_t horizon) {
    if (horizon >= changes_.bound() + kCountEvery) settle(horizon);
    const uint64_t from = std::max(arrival, changes_.bound()), to = std::max(finish, from);
    changes_.add(from, +1);
    changes_.add(to, -1);
    residence_ += to - arrival;
  }
  // simulation.timing: at on a DRAM: an access the controller answers
  // later, in the queue until then; `horizon` as above.
  void arrive(uint64_t arrival, uint64_t horizon) {
    // Counted a few words of the ring at a time: a change may come at any
    // cycle from the last count's bound on, so counting later changes nothing.
    if (horizon >= changes_.bound() + kCountEvery) settle(horizon);
    changes_.add(std::max(arrival, changes_.bound()), +1);
  }
  // The access that arrived at `arrival` finishes at `finish`. Both are no
  // earlier than the horizon of any arrival before (at: the controller
  // answers at or after now); one that were would count from the horizon.
  void answer(uint64_t arrival, uint64_t finish) {
    finish = std::max(std::max(finish, arrival), changes_.bound());
    changes_.add(finish, -1);
    residence_ += finish - arrival;
  }

  ChannelQueueFigures figures() const {
    ChannelQueue rest = *this;
    rest.settle(~uint64_t{0});
    return {residence_, unsigned(rest.most_)};
  }

 private:
  static constexpr uint64_t kCountEvery = 256;  // cycles

  // The arrivals and finishes before the horizon, in cycle order, into the
  // count in the channel: no later access changes it before then.
  void settle(uint64_t horizon) {
    changes_.visit_before(horizon, [this](uint64_t, int64_t delta) {
      in_channel_ += delta;
      most_ = std::max(most_, in_channel_);
    });
  }

  CycleChanges changes_;    // arrivals (+1) and finishes (-1) from the horizon on
  int64_t in_channel_ = 0;  // at the horizon
  int64_t most_ = 0;        // in the channel at once, before the horizon
  uint64_t residence_ = 0;
};

}  // namespace gpumem
