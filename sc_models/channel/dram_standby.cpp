#include "channel/dram_standby.hpp"

#include <algorithm>

namespace gpumem {

DramStandby::DramStandby(const DramOrganization& org, DramCounting* epochs)
    : ranks_(org.ranks), epochs_(epochs && epochs->epochs_on() ? epochs : nullptr), epoch_active_(org.ranks) {
  if (epochs_) epoch_end_ = epochs_->epoch_start(1);
}

void DramStandby::count_before(uint64_t cycle) {
  while (counted_ < cycle) {
    const uint64_t end = std::min(cycle, epoch_end_);
    for (Rank& rank : ranks_) {  // in registers: most of the work
      uint64_t at = counted_, active = rank.active;
      int64_t open = rank.open;
      rank.changes.visit_before(end, [&](uint64_t c, int64_t banks) {
        if (open > 0) active += c - at;
        at = c;
        open += banks;
      });
      if (open > 0) active += end - at;
      rank.open = open;
      rank.active = active;
    }
    counted_ = end;
    while (counted_ == epoch_end_) {  // an epoch may hold no memory cycle at all
      close_epoch();
      epoch_end_ = epochs_->epoch_start(++epoch_ + 1);
    }
  }
}

void DramStandby::close_epoch() {
  DramCounters& e = epochs_->epoch(epoch_);
  e.cycles = counted_ - e.first_cycle;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    e.ranks[r].active_cycles = ranks_[r].active - epoch_active_[r];
    epoch_active_[r] = ranks_[r].active;
  }
}

void DramStandby::finish(uint64_t end, DramCounters& counters) {
  count_before(std::max(end, latest_));
  if (epochs_ && (epoch_ == 0 || counted_ > epochs_->epoch_start(epoch_))) close_epoch();  // the last, perhaps part of an epoch
  counters.cycles = counted_;
  for (size_t r = 0; r < ranks_.size(); ++r) counters.ranks[r].active_cycles = ranks_[r].active;
}

}  // namespace gpumem
