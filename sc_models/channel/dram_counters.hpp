// What a DRAM channel counts (the stats JSON's dram.channels[]), for the
// whole run and, with stats.epoch_cycles, per epoch of the run
// (docs/memory.md, "Statistics over time"). Both timing modes count through
// DramCounting, which files each command under the epoch of its own cycle:
// lt plans commands ahead of the simulated time, so the epoch a request
// was handed over in is not the one its commands fall in.
#pragma once
#include <cstdint>
#include <vector>

#include "base/dram_spec.hpp"

namespace gpumem {

struct DramBankCounters {
  uint64_t reads = 0, writes = 0;
  uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
  uint64_t activates = 0, precharges = 0;
};

struct DramRankCounters {
  uint64_t refreshes = 0;
  uint64_t active_cycles = 0;  // with a bank open (active standby); the rest of `cycles` every bank closed
};

struct DramCounters {
  std::vector<DramBankCounters> banks;  // rank-major, then bank group, then bank
  std::vector<DramRankCounters> ranks;
  uint64_t first_cycle = 0;  // memory cycle counting begins: the run's 0, an epoch's first
  uint64_t cycles = 0;       // memory cycles counted from first_cycle (the run's: to its end, or the last command's if later): what the ranks' standby covers
  uint64_t refreshes = 0;
  uint64_t forwarded_reads = 0;
  uint64_t dropped_prefetches = 0;  // simulation.timing: at: past memory.dram.prefetch_drop_cycles
  uint64_t write_drains = 0;        // times the write queue reached its high watermark
  uint64_t data_bus_cycles = 0;     // memory cycles the data bus carried data
  uint64_t last_data_cycle = 0;     // memory cycle the last burst ended
  // stats.epoch_cycles: the commands, standby and data of each epoch, in
  // order (an epoch's own `epochs` empty; its forwarded reads, drains and
  // drops are not split).
  std::vector<DramCounters> epochs;
};

// Counts commands into a channel's counters and, with epochs on, into the
// epoch of each command's cycle. Epoch e holds the memory cycles from the
// first at or after model cycle e x epoch_cycles.
class DramCounting {
 public:
  // epoch_cycles: model cycles (0: no epochs); cycle_ps and tck_ps: the model's and the memory's clocks.
  DramCounting(const DramOrganization& org, uint64_t epoch_cycles, uint64_t cycle_ps, uint64_t tck_ps);

  DramCounters& total() { return total_; }
  const DramCounters& total() const { return total_; }

  void column(uint64_t cycle, size_t bank, bool write, RowResult row, unsigned burst_cycles);
  void activate(uint64_t cycle, size_t bank);
  void precharge(uint64_t cycle, size_t bank);
  // `count` refreshes of `rank`, the first at `cycle`, then one every `interval`.
  void refresh(uint64_t cycle, unsigned rank, uint64_t count = 1, uint64_t interval = 0);

  bool epochs_on() const { return epoch_cycles_ != 0; }
  size_t epoch_of(uint64_t memory_cycle) const;
  uint64_t epoch_start(size_t e) const;  // its first memory cycle
  DramCounters& epoch(size_t e);         // made on first use, with every epoch before it

 private:
  DramCounters& at(uint64_t cycle) { return epoch(epoch_of(cycle)); }
  DramCounters empty_;  // an epoch's shape: every bank and rank at zero
  DramCounters total_;
  uint64_t epoch_cycles_, cycle_ps_, tck_ps_;
};

}  // namespace gpumem
