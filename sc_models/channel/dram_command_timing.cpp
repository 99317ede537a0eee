#include "channel/dram_command_timing.hpp"

#include <algorithm>

namespace gpumem {

DramCommandTiming::DramCommandTiming(const DramSpec& spec) : spec_(spec), t_(spec.timing) {
  banks_.resize(size_t(spec_.org.ranks) * spec_.org.banks());
  ranks_.resize(spec_.org.ranks);
  for (Rank& r : ranks_) {
    r.act.assign(spec_.org.bank_groups, 0);
    r.read.assign(spec_.org.bank_groups, 0);
    r.write.assign(spec_.org.bank_groups, 0);
    r.refresh.assign(spec_.org.bank_groups, 0);
  }
}

uint64_t DramCommandTiming::command_bus(bool column) const {
  return spec_.dual_command_bus && !column ? next_row_command_ : next_command_;
}

uint64_t DramCommandTiming::earliest(DramCommandKind kind, const DramAddress& at) const {
  const Bank& b = banks_[bank_index(at)];
  const Rank& r = ranks_[at.rank];
  switch (kind) {
    case DramCommandKind::kActivate: {
      uint64_t t = std::max({b.act, r.act[at.bank_group], command_bus(false)});
      if (r.acts == 4) t = std::max(t, r.faw[0] + t_.tFAW);  // a fifth activate waits for the first to leave the window
      return t;
    }
    case DramCommandKind::kPrecharge: return std::max({b.pre, r.pre, command_bus(false)});
    case DramCommandKind::kRead:
    case DramCommandKind::kWrite: {
      const bool write = kind == DramCommandKind::kWrite;
      uint64_t t = std::max({write ? b.write : b.read, write ? r.write[at.bank_group] : r.read[at.bank_group], command_bus(true)});
      if (any_burst_) {
        // The burst starts after the last one ends, tRTRS later between ranks or directions.
        const uint64_t gap = (burst_rank_ == at.rank && burst_write_ == write) ? 0 : t_.tRTRS;
        const unsigned latency = write ? t_.CWL : t_.CL;
        if (burst_end_ + gap > t + latency) t = burst_end_ + gap - latency;
      }
      return t;
    }
    case DramCommandKind::kRefresh: {
      uint64_t t = command_bus(false);
      const size_t first = size_t(at.rank) * spec_.org.banks();
      const DramSpec::RefreshedBanks banks = spec_.refreshed_banks(at.bank_group, at.bank);
      for (unsigned j = 0, k = banks.first; j < banks.count; ++j, k += banks.stride) {
        t = std::max(t, banks_[first + k].act);
        t = std::max(t, r.refresh[k / spec_.org.banks_per_group]);
      }
      return t;
    }
  }
  return 0;
}

void DramCommandTiming::issue(uint64_t cycle, DramCommandKind kind, const DramAddress& at) {
  Bank& b = banks_[bank_index(at)];
  Rank& r = ranks_[at.rank];
  const bool column = kind == DramCommandKind::kRead || kind == DramCommandKind::kWrite;
  at_least(spec_.dual_command_bus && !column ? next_row_command_ : next_command_, cycle + 1);
  const unsigned groups = spec_.org.bank_groups;
  switch (kind) {
    case DramCommandKind::kActivate:
      at_least(b.act, cycle + t_.tRC);
      at_least(b.pre, cycle + t_.tRAS);
      at_least(b.read, cycle + t_.rcd(false));
      at_least(b.write, cycle + t_.rcd(true));
      for (unsigned g = 0; g < groups; ++g) at_least(r.act[g], cycle + (g == at.bank_group ? t_.tRRD_L : t_.tRRD_S));
      if (spec_.refresh != RefreshMode::kAllBank)
        for (unsigned g = 0; g < groups; ++g) at_least(r.refresh[g], cycle + spec_.activate_to_refresh(g == at.bank_group));
      if (r.acts == 4) std::rotate(r.faw.begin(), r.faw.begin() + 1, r.faw.end());
      else ++r.acts;
      r.faw[r.acts - 1] = cycle;
      break;
    case DramCommandKind::kPrecharge:
      at_least(b.act, cycle + t_.tRP);
      at_least(r.pre, cycle + t_.tPPD);  // an auto-precharge (auto_precharge()) is no command: tPPD spaces explicit ones
      break;
    case DramCommandKind::kRead:
    case DramCommandKind::kWrite: {
      const bool write = kind == DramCommandKind::kWrite;
      at_least(b.pre, write ? cycle + t_.CWL + t_.tBL + t_.tWR : cycle + t_.tRTP);
      for (unsigned g = 0; g < groups; ++g) {
        const bool same = g == at.bank_group;
        at_least(r.read[g], cycle + (same ? t_.tCCD_L : t_.tCCD_S));
        at_least(r.write[g], cycle + (same ? t_.ccd_l(write) : t_.tCCD_S));
        // A read waits tWTR after the write's data; a write's data follows the read's.
        if (write) at_least(r.read[g], cycle + t_.CWL + t_.tBL + (same ? t_.tWTR_L : t_.tWTR_S));
      }
      const uint64_t start = cycle + (write ? t_.CWL : t_.CL);
      burst_end_ = start + t_.tBL;
      burst_rank_ = at.rank;
      burst_write_ = write;
      any_burst_ = true;
      break;
    }
    case DramCommandKind::kRefresh: {
      const size_t first = size_t(at.rank) * spec_.org.banks();
      const DramSpec::RefreshedBanks banks = spec_.refreshed_banks(at.bank_group, at.bank);
      for (unsigned j = 0, k = banks.first; j < banks.count; ++j, k += banks.stride)
        at_least(banks_[first + k].act, cycle + spec_.refresh_cycles());
      if (const unsigned d = spec_.refresh_to_other_activate())  // tRREFD: the rank's other banks
        for (unsigned g = 0; g < groups; ++g) at_least(r.act[g], cycle + d);
      if (const unsigned d = spec_.refresh_to_other_refresh())  // tPBR2PBR: their refreshes
        for (unsigned g = 0; g < groups; ++g) at_least(r.refresh[g], cycle + d);
      break;
    }
  }
}

uint64_t DramCommandTiming::auto_precharge(const DramAddress& at) {
  Bank& b = banks_[bank_index(at)];
  const uint64_t pre = b.pre;
  at_least(b.act, pre + t_.tRP);
  return pre;
}

}  // namespace gpumem
