#include "channel/dram_counters.hpp"

#include <algorithm>

namespace gpumem {

namespace {

void count_column(DramCounters& n, size_t bank, bool write, RowResult row, unsigned burst_cycles) {
  DramBankCounters& b = n.banks[bank];
  (write ? b.writes : b.reads) += 1;
  (row == RowResult::kHit ? b.row_hits : row == RowResult::kMiss ? b.row_misses : b.row_conflicts) += 1;
  n.data_bus_cycles += burst_cycles;
}

}  // namespace

DramCounting::DramCounting(const DramOrganization& org, uint64_t epoch_cycles, uint64_t cycle_ps, uint64_t tck_ps)
    : epoch_cycles_(epoch_cycles), cycle_ps_(cycle_ps), tck_ps_(tck_ps) {
  empty_.banks.resize(size_t(org.ranks) * org.banks());
  empty_.ranks.resize(org.ranks);
  total_ = empty_;
}

size_t DramCounting::epoch_of(uint64_t memory_cycle) const {
  // Memory cycle m is at or after the first memory edge of model cycle e x N exactly when m x tCK >= e x N x cycle.
  return size_t(memory_cycle * tck_ps_ / (epoch_cycles_ * cycle_ps_));
}

uint64_t DramCounting::epoch_start(size_t e) const {
  const uint64_t ps = uint64_t(e) * epoch_cycles_ * cycle_ps_;
  return (ps + tck_ps_ - 1) / tck_ps_;
}

DramCounters& DramCounting::epoch(size_t e) {
  while (total_.epochs.size() <= e) {
    total_.epochs.push_back(empty_);
    total_.epochs.back().first_cycle = epoch_start(total_.epochs.size() - 1);
  }
  return total_.epochs[e];
}

void DramCounting::column(uint64_t cycle, size_t bank, bool write, RowResult row, unsigned burst_cycles) {
  count_column(total_, bank, write, row, burst_cycles);
  if (epochs_on()) count_column(at(cycle), bank, write, row, burst_cycles);
}

void DramCounting::activate(uint64_t cycle, size_t bank) {
  ++total_.banks[bank].activates;
  if (epochs_on()) ++at(cycle).banks[bank].activates;
}

void DramCounting::precharge(uint64_t cycle, size_t bank) {
  ++total_.banks[bank].precharges;
  if (epochs_on()) ++at(cycle).banks[bank].precharges;
}

void DramCounting::refresh(uint64_t cycle, unsigned rank, uint64_t count, uint64_t interval) {
  total_.refreshes += count;
  total_.ranks[rank].refreshes += count;
  if (!epochs_on()) return;
  // An idle rank's refreshes, counted without planning each, by the epoch each falls in.
  for (uint64_t done = 0; done < count;) {
    const uint64_t c = cycle + done * interval;
    const size_t e = epoch_of(c);
    const uint64_t next = epoch_start(e + 1);
    const uint64_t here = interval ? std::min(count - done, (next - c + interval - 1) / interval) : count - done;
    DramCounters& n = epoch(e);
    n.refreshes += here;
    n.ranks[rank].refreshes += here;
    done += here;
  }
}

}  // namespace gpumem
