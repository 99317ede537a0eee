#include "channel/dram_standby.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpumem {

namespace {
constexpr uint64_t kFirstRing = 1024;    // cycles; a power of two, at least 64
constexpr uint64_t kLargestRing = 1u << 16;  // beyond, changes wait in the heap
}  // namespace

DramStandby::DramStandby(const DramOrganization& org, DramCounting* epochs)
    : ranks_(org.ranks),
      n_(org.ranks),
      mask_(kFirstRing - 1),
      changes_(kFirstRing * org.ranks),
      marked_(kFirstRing / 64),
      epochs_(epochs && epochs->epochs_on() ? epochs : nullptr),
      epoch_active_(org.ranks) {
  if (epochs_) epoch_end_ = epochs_->epoch_start(1);
}

void DramStandby::change_far(uint64_t cycle, unsigned rank, int delta) {
  if (cycle < counted_)
    throw std::logic_error("DRAM standby: a bank changed at cycle " + std::to_string(cycle) + ", already counted to " +
                           std::to_string(counted_));
  count_before(std::min(settled_, cycle));
  if (cycle - counted_ > mask_ && cycle - counted_ < kLargestRing) grow(cycle);
  if (cycle - counted_ <= mask_) return change(cycle, rank, delta);
  far_.push({cycle, rank, delta});
  latest_ = std::max(latest_, cycle);
}

void DramStandby::grow(uint64_t reach) {
  uint64_t size = mask_ + 1;
  while (reach - counted_ >= size) size *= 2;
  std::vector<int32_t> changes(size * n_);
  std::vector<uint64_t> marked(size / 64);
  for (uint64_t c = counted_; c <= counted_ + mask_ && c <= ring_latest_; ++c) {
    const uint64_t from = c & mask_, to = c & (size - 1);
    if (!(marked_[from >> 6] >> (from & 63) & 1)) continue;
    std::copy_n(&changes_[from * n_], n_, &changes[to * n_]);
    marked[to >> 6] |= uint64_t{1} << (to & 63);
  }
  changes_.swap(changes);
  marked_.swap(marked);
  mask_ = size - 1;
}

void DramStandby::accrue_to(uint64_t cycle) {
  for (Rank& r : ranks_)
    if (r.open > 0) r.active += cycle - counted_;
  counted_ = cycle;
}

void DramStandby::count_before(uint64_t cycle) {
  while (counted_ < cycle) {
    const uint64_t next_far = far_.empty() ? cycle : std::min(cycle, far_.top().cycle);
    count_ring_before(std::min(next_far, epoch_end_));
    while (!far_.empty() && far_.top().cycle == counted_) {
      ranks_[far_.top().rank].open += far_.top().delta;
      far_.pop();
    }
    while (counted_ == epoch_end_) {  // an epoch may hold no memory cycle at all
      close_epoch();
      epoch_end_ = epochs_->epoch_start(++epoch_ + 1);
    }
  }
}

void DramStandby::close_epoch() {
  DramCounters& e = epochs_->epoch(epoch_);
  e.cycles = counted_ - e.first_cycle;
  for (size_t r = 0; r < n_; ++r) {
    e.ranks[r].active_cycles = ranks_[r].active - epoch_active_[r];
    epoch_active_[r] = ranks_[r].active;
  }
}

void DramStandby::count_ring_before(uint64_t cycle) {
  if (n_ == 1) return count_one_rank_before(cycle);
  // A word of marks (64 cycles) at a time: between two changes every rank
  // keeps its count of open banks.
  while (counted_ < cycle) {
    if (counted_ > ring_latest_) return accrue_to(cycle);  // the ring holds nothing more
    const uint64_t slot = counted_ & mask_, first = counted_;
    const unsigned bit = unsigned(slot & 63);
    const uint64_t span = std::min<uint64_t>(64 - bit, cycle - counted_);
    uint64_t marks = marked_[slot >> 6] >> bit;
    if (span < 64) marks &= (uint64_t{1} << span) - 1;
    marked_[slot >> 6] &= ~(marks << bit);
    for (; marks; marks &= marks - 1) {
      const unsigned k = unsigned(__builtin_ctzll(marks));
      accrue_to(first + k);
      int32_t* at = &changes_[(slot + k) * n_];
      for (size_t r = 0; r < n_; ++r) {
        ranks_[r].open += at[r];
        at[r] = 0;
      }
    }
    accrue_to(first + span);
  }
}

// count_ring_before with one rank (HBM2's and GDDR6's channels, one-rank
// DDR4), its figures in registers.
void DramStandby::count_one_rank_before(uint64_t cycle) {
  Rank& rank = ranks_[0];
  int64_t open = rank.open;
  uint64_t active = rank.active, at = counted_;
  while (at < cycle) {
    if (at > ring_latest_) {  // the ring holds nothing more
      if (open > 0) active += cycle - at;
      at = cycle;
      break;
    }
    const uint64_t slot = at & mask_;
    const unsigned bit = unsigned(slot & 63);
    const uint64_t span = std::min<uint64_t>(64 - bit, cycle - at);
    uint64_t marks = marked_[slot >> 6] >> bit;
    if (span < 64) marks &= (uint64_t{1} << span) - 1;
    marked_[slot >> 6] &= ~(marks << bit);
    uint64_t from = 0;  // within the span, counted up to here
    for (; marks; marks &= marks - 1) {
      const unsigned k = unsigned(__builtin_ctzll(marks));
      if (open > 0) active += k - from;
      from = k;
      open += changes_[slot + k];
      changes_[slot + k] = 0;
    }
    if (open > 0) active += span - from;
    at += span;
  }
  rank.open = open;
  rank.active = active;
  counted_ = at;
}

void DramStandby::finish(uint64_t end, DramCounters& counters) {
  count_before(std::max({end, latest_, ring_latest_}));
  if (epochs_ && (epoch_ == 0 || counted_ > epochs_->epoch_start(epoch_))) close_epoch();  // the last, perhaps part of an epoch
  counters.cycles = counted_;
  for (size_t r = 0; r < n_; ++r) counters.ranks[r].active_cycles = ranks_[r].active;
}

}  // namespace gpumem
