// The IDD model's background state of each rank (docs/memory.md, "Energy"):
// active standby while a bank of it is open, precharge standby while every
// bank is closed. The models tell it when a bank opens (its activate) and
// closes (its precharge, or the one riding on a closed page's column
// command, at the cycle it begins) as they decide them, not in cycle order
// (lt plans ahead), and up to which cycle nothing more will come. Each
// opening and closing costs a few instructions and no sorting: they wait as
// counts in a ring of cycles, counted when the ring is full (up to the cycle
// the model last vouched for) and at the end. The ring grows to the
// furthest change decided ahead, up to a bound; one further still (a caller
// that vouches for nothing, a rank idle for ages) waits in a heap. With
// epochs (DramCounting), each epoch's counters get its cycles and each
// rank's active ones.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include "base/dram_spec.hpp"
#include "channel/dram_counters.hpp"

namespace gpumem {

class DramStandby {
 public:
  // `epochs`: where each epoch's standby goes, if its epochs are on (may be null).
  DramStandby(const DramOrganization& org, DramCounting* epochs);

  void opened(uint64_t cycle, unsigned rank) { change(cycle, rank, +1); }
  void closed(uint64_t cycle, unsigned rank) { change(cycle, rank, -1); }
  // No opening or closing before `cycle` is still to come.
  void settled_before(uint64_t cycle) { settled_ = cycle; }
  // Counts every rank's cycles up to memory cycle `end` (or the last
  // opening or closing, if later) into `counters` (cycles, each rank's
  // active_cycles): call once, after the last of them.
  void finish(uint64_t end, DramCounters& counters);

  uint64_t cycles() const { return counted_; }  // counted, from 0
  uint64_t active_cycles(unsigned rank) const { return ranks_[rank].active; }

 private:
  struct Rank {
    int64_t open = 0;  // banks open at cycle counted_
    uint64_t active = 0;
  };
  struct Far {
    uint64_t cycle;
    unsigned rank;
    int delta;
    bool operator>(const Far& o) const { return cycle > o.cycle; }
  };
  void change(uint64_t cycle, unsigned rank, int delta) {  // inline: a few per access
    if (cycle - counted_ > mask_) return change_far(cycle, rank, delta);
    const uint64_t slot = cycle & mask_;
    changes_[slot * n_ + rank] += delta;
    marked_[slot >> 6] |= uint64_t{1} << (slot & 63);
    if (cycle > ring_latest_) ring_latest_ = cycle;
  }
  void change_far(uint64_t cycle, unsigned rank, int delta);  // beyond the ring: count what is settled, grow, or hold it apart
  void count_before(uint64_t cycle);
  void count_ring_before(uint64_t cycle);      // no held change falls before `cycle`
  void count_one_rank_before(uint64_t cycle);  // the same with one rank: most of the work
  void grow(uint64_t reach);                   // room for the cycles counted_ to reach
  void accrue_to(uint64_t cycle);              // no change from counted_ to `cycle`
  void close_epoch();                          // counted_ reached the end of epoch epoch_ (or the run's end)

  std::vector<Rank> ranks_;
  size_t n_;               // ranks
  uint64_t counted_ = 0;   // cycles before this are counted
  uint64_t settled_ = 0;   // no change before this is still to come
  uint64_t ring_latest_ = 0;  // the latest cycle a change in the ring was given for
  uint64_t latest_ = 0;       // and one held apart
  uint64_t mask_;          // the ring's size - 1: cycle c's changes sit at slot c & mask_
  std::vector<int32_t> changes_;  // per slot, per rank: banks opened less banks closed
  std::vector<uint64_t> marked_;  // a bit per slot holding a change
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
  DramCounting* epochs_;           // null: no epochs
  size_t epoch_ = 0;               // the epoch counted_ lies in
  uint64_t epoch_end_ = ~uint64_t{0};  // its end: the next one's first cycle
  std::vector<uint64_t> epoch_active_;  // per rank, active cycles before the epoch
};

}  // namespace gpumem
