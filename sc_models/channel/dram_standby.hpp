// The IDD model's background state of each rank (docs/memory.md, "Energy"):
// active standby while a bank of it is open, precharge standby while every
// bank is closed. The models tell it when a bank opens (its activate) and
// closes (its precharge, or the one riding on a closed page's column
// command, at the cycle it begins) as they decide them, not in cycle order
// (lt plans ahead), and up to which cycle nothing more will come. Each
// opening and closing waits in its rank's CycleChanges until the counting
// passes it: a few instructions and no sorting. With epochs (DramCounting),
// each epoch's counters get its cycles and each rank's active ones.
#pragma once
#include <cstdint>
#include <vector>

#include "base/cycle_changes.hpp"
#include "base/dram_spec.hpp"
#include "channel/dram_counters.hpp"

namespace gpumem {

class DramStandby {
 public:
  // `epochs`: where each epoch's standby goes, if its epochs are on (may be null).
  DramStandby(const DramOrganization& org, DramCounting* epochs);

  void opened(uint64_t cycle, unsigned rank) { change(cycle, rank, +1); }
  void closed(uint64_t cycle, unsigned rank) { change(cycle, rank, -1); }
  // A refresh at `cycle`: the count runs to it at least, as to an opening or closing.
  void refreshed(uint64_t cycle) {
    if (cycle > latest_) latest_ = cycle;
  }
  // No opening or closing before `cycle` is still to come.
  void settled_before(uint64_t cycle) {
    // Counted a few words of the rings at a time: counting later changes nothing.
    if (cycle >= counted_ + kCountEvery) count_before(cycle);
  }
  // Counts every rank's cycles up to memory cycle `end` (or the last
  // opening or closing, if later) into `counters` (cycles, each rank's
  // active_cycles): call once, after the last of them.
  void finish(uint64_t end, DramCounters& counters);

  uint64_t cycles() const { return counted_; }  // counted, from 0
  uint64_t active_cycles(unsigned rank) const { return ranks_[rank].active; }

 private:
  static constexpr uint64_t kCountEvery = 256;  // cycles

  struct Rank {
    CycleChanges changes;  // banks opened less banks closed, per cycle from counted_ on
    int64_t open = 0;      // banks open at cycle counted_
    uint64_t active = 0;
  };
  void change(uint64_t cycle, unsigned rank, int delta) {  // inline: a few per access
    ranks_[rank].changes.add(cycle, delta);                 // one before counted_ throws there
    if (cycle > latest_) latest_ = cycle;
  }
  void count_before(uint64_t cycle);
  void close_epoch();  // counted_ reached the end of epoch epoch_ (or the run's end)

  std::vector<Rank> ranks_;
  uint64_t counted_ = 0;  // cycles before this are counted
  uint64_t latest_ = 0;   // the latest cycle a change was given for
  DramCounting* epochs_;  // null: no epochs
  size_t epoch_ = 0;      // the epoch counted_ lies in
  uint64_t epoch_end_ = ~uint64_t{0};   // its end: the next one's first cycle
  std::vector<uint64_t> epoch_active_;  // per rank, active cycles before the epoch
};

}  // namespace gpumem
