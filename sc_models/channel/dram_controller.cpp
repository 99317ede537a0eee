#include "channel/dram_controller.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpumem {

DramController::DramController(const DramParams& params)
    : spec_(params.spec),
      t_(params.spec.timing),
      clocks_{params.cycle_ps, params.spec.tck_ps},
      map_(params.spec),
      timing_(params.spec),
      counting_(params.spec.org, params.epoch_cycles, params.cycle_ps, params.spec.tck_ps),
      standby_(params.spec.org, &counting_) {
  banks_.resize(size_t(spec_.org.ranks) * spec_.org.banks());
  ranks_.resize(spec_.org.ranks);
  refresh_interval_ = t_.tREFI / spec_.refreshes_per_round();
  // Ranks refresh in turn, spread evenly over the interval (as the planner of lt).
  for (unsigned r = 0; r < spec_.org.ranks; ++r) ranks_[r].next_refresh = refresh_interval_ * (r + 1) / spec_.org.ranks;
  next_refresh_ = refresh_interval_ ? ranks_[0].next_refresh : kNever;
  pending_.resize(banks_.size());
  bank_queues_.resize(banks_.size());
  queued_banks_.assign((banks_.size() + 63) / 64, 0);
  oldest_.resize(banks_.size());
  has_hit_.resize(banks_.size());
  seen_.resize(banks_.size());
}

void DramController::arrive(uint64_t token, uint64_t arrival, uint64_t local, bool write, std::vector<Done>& done, bool prefetch,
                            uint64_t request) {
  if (arrival < decided_) throw std::logic_error("DRAM controller: a request arrives at a cycle already decided");
  Entry e;
  e.token = token;
  e.request = request;
  e.prefetch = prefetch && !write && spec_.prefetch_below_demand;  // prefetch_priority: equal: a read like any other
  e.seq = seq_++ | (e.prefetch ? kPrefetchRank : 0);
  e.arrival = arrival;
  e.line = local >> map_.offset_bits();
  e.at = map_.decode(local);
  e.bank = uint32_t(bank_index(e.at));
  e.write = write;
  if (!write) {
    const auto holds = [&](const Entry& w) { return w.line == e.line; };
    if (std::any_of(write_queue_.begin(), write_queue_.end(), holds) ||
        std::any_of(waiting_writes_.begin(), waiting_writes_.end(), holds)) {
      ++counting_.total().forwarded_reads;
      done.push_back({token, arrival, arrival, arrival, 1, e.at, RowResult::kForwarded});
      return;
    }
  }
  if (!busy()) next_ = arrival;
  else next_ = std::min(next_, arrival);
  // With room in its queue now (every cycle before the arrival is decided),
  // a request enters at its arrival; a posted write is then answered.
  const bool room = write ? waiting_writes_.empty() && write_queue_room()
                          : waiting_reads_.empty() && read_queue_room();
  if (room) {
    enter(e, arrival, done);
    return;
  }
  (write ? waiting_writes_ : waiting_reads_).push_back(e);
}

bool DramController::refresh_due(const DramAddress& a, uint64_t t) const {
  if (!refresh_interval_) return false;
  const Rank& r = ranks_[a.rank];
  if (t < r.next_refresh) return false;
  if (spec_.refresh == RefreshMode::kAllBank) return true;
  const auto [group, bank] = spec_.refresh_target(r.refresh_bank);
  return a.bank == bank && (spec_.refresh == RefreshMode::kSameBank || a.bank_group == group);
}

void DramController::enter(Entry e, uint64_t t, std::vector<Done>& done) {
  e.accept = t;
  banks_[e.bank].forget();
  if (e.write) {
    write_queue_.push_back(e);
    write_queue_.back().depth = unsigned(writes_in_queue());
    done.push_back({e.token, t, e.arrival, t, write_queue_.back().depth, e.at, RowResult::kPosted});
  } else {
    uint32_t slot = uint32_t(read_slots_.size());
    if (free_slots_.empty()) read_slots_.push_back(e);
    else slot = free_slots_.back(), free_slots_.pop_back(), read_slots_[slot] = e;
    read_queue_.push_back(slot);
    read_slots_[slot].depth = unsigned(spec_.bank_queue ? read_queue_.size() : queued_reads_ - active_reads_ + 1);
    ++queued_reads_, queued_prefetches_ += e.prefetch, schedulable_demands_ += !e.prefetch && !spec_.bank_queue;
    ++pending_[e.bank];
    if (!spec_.bank_queue || bank_queues_[e.bank].size() < spec_.bank_queue) bank_room_ = true;
  }
}

void DramController::admit(uint64_t t, std::vector<Done>& done) {
  while (!waiting_writes_.empty() && waiting_writes_.front().arrival <= t && write_queue_room()) {
    enter(waiting_writes_.front(), t, done);
    waiting_writes_.pop_front();
  }
  while (!waiting_reads_.empty() && waiting_reads_.front().arrival <= t && read_queue_room()) {
    enter(waiting_reads_.front(), t, done);
    waiting_reads_.pop_front();
  }
  // Reads move on, oldest first, into their bank's queue as soon as it has
  // room (looked at only when a read that can move came, or room for one).
  // With one shared buffer (bank_queue 0) they all move at once: the bank
  // queues then only sort the buffer by bank, so that a step visits the
  // banks whose requests could have a command, and the buffer's room is
  // the reads queued.
  if (!bank_room_) return;
  bank_room_ = false;
  size_t keep = 0;
  for (size_t i = 0; i < read_queue_.size(); ++i) {
    const Entry& e = read_slots_[read_queue_[i]];
    std::vector<Entry>& q = bank_queues_[e.bank];
    if (!spec_.bank_queue || q.size() < spec_.bank_queue) {
      banks_[e.bank].forget();
      --pending_[e.bank];
      schedulable_demands_ += !e.prefetch && spec_.bank_queue;
      q.push_back(e);
      bank_queue_changed(e.bank);
      free_slots_.push_back(read_queue_[i]);
    } else {
      if (keep != i) read_queue_[keep] = read_queue_[i];
      ++keep;
    }
  }
  read_queue_.resize(keep);
}

void DramController::update_mode(uint64_t t) {
  const bool reads_wait = queued_reads_ > 0 || (!waiting_reads_.empty() && waiting_reads_.front().arrival <= t);
  const size_t writes = writes_in_queue();  // the active buffer's wait beside the queue (Ramulator 2's watermarks)
  if (!write_mode_) {
    // At the high watermark, or whenever no read waits (Ramulator 2's rule):
    // the data bus turns around for a batch, not for every write.
    if (writes >= spec_.write_high || (!reads_wait && writes > 0)) {
      write_mode_ = true;
      ++counting_.total().write_drains;
      for (Bank& b : banks_) b.forget();
    }
  } else if (write_queue_.empty() || (reads_wait && writes <= spec_.write_low)) {
    write_mode_ = false;
    for (Bank& b : banks_) b.forget();
  }
}

void DramController::record(uint64_t t, DramCommandKind kind, const DramAddress& at, uint64_t request, bool auto_pre) {
  if (kind != DramCommandKind::kPrecharge || !auto_pre) timing_.issue(t, kind, at);
  if (kind == DramCommandKind::kActivate) standby_.opened(t, at.rank);
  if (kind == DramCommandKind::kPrecharge) standby_.closed(t, at.rank);
  if (recording_) commands_.push_back({t, kind, at.rank, at.bank_group, at.bank, at.row, auto_pre});
  if (trace_) {
    const bool column = kind == DramCommandKind::kRead || kind == DramCommandKind::kWrite;
    trace_->add({t, kind, at.rank, at.bank_group, at.bank, at.row, auto_pre, column ? at.column : 0, request});
  }
}

void DramController::refresh_done(unsigned rank, uint64_t cycle) {
  Rank& r = ranks_[rank];
  r.next_refresh += refresh_interval_;
  r.refresh_bank = (r.refresh_bank + 1) % spec_.refreshes_per_round();
  next_refresh_ = r.next_refresh;
  for (const Rank& other : ranks_) next_refresh_ = std::min(next_refresh_, other.next_refresh);
  counting_.refresh(cycle, rank);
  standby_.refreshed(cycle);
}

bool DramController::refresh_step(uint64_t t) {
  for (unsigned rk = 0; rk < ranks_.size(); ++rk) {
    Rank& r = ranks_[rk];
    if (t < r.next_refresh) {
      soonest(r.next_refresh);
      continue;
    }
    // Due: close the banks it refreshes, each as soon as it may, then refresh.
    const size_t first = size_t(rk) * spec_.org.banks();
    const auto [group, bank] = spec_.refresh_target(r.refresh_bank);
    const DramSpec::RefreshedBanks banks = spec_.refreshed_banks(group, bank);
    bool open = false;
    for (unsigned j = 0, k = banks.first; j < banks.count; ++j, k += banks.stride) {
      const size_t i = first + k;
      if (!banks_[i].open) continue;
      open = true;
      const DramAddress at{rk, k / spec_.org.banks_per_group, k % spec_.org.banks_per_group, banks_[i].row, 0};
      const uint64_t e = timing_.earliest(DramCommandKind::kPrecharge, at);
      if (e > t) {
        soonest(e);
        continue;
      }
      record(t, DramCommandKind::kPrecharge, at, DramCommand::kNoRequest);
      counting_.precharge(t, i);
      banks_[i].open = false;
      banks_[i].forget();
      return true;
    }
    if (open) continue;
    const DramAddress at{rk, group, bank, 0, 0};
    const uint64_t e = timing_.earliest(DramCommandKind::kRefresh, at);
    if (e > t) {
      soonest(e);
      continue;
    }
    record(t, DramCommandKind::kRefresh, at, DramCommand::kNoRequest);
    refresh_done(rk, t);
    return true;
  }
  return false;
}

void DramController::idle_refreshes(uint64_t until) {
  if (!refresh_interval_) return;
  for (;;) {
    // The rank whose refresh falls first, so commands join the history in cycle order.
    unsigned rk = 0;
    for (unsigned i = 1; i < ranks_.size(); ++i)
      if (ranks_[i].next_refresh < ranks_[rk].next_refresh) rk = i;
    Rank& r = ranks_[rk];
    if (r.next_refresh >= until) return;
    const size_t first = size_t(rk) * spec_.org.banks();
    const auto [group, bank] = spec_.refresh_target(r.refresh_bank);
    const DramSpec::RefreshedBanks banks = spec_.refreshed_banks(group, bank);
    // Its open banks close in the order they may, each as soon as it may.
    for (;;) {
      size_t pick = banks_.size();
      uint64_t when = kNever;
      DramAddress pick_at;
      for (unsigned j = 0, k = banks.first; j < banks.count; ++j, k += banks.stride) {
        const size_t i = first + k;
        if (!banks_[i].open) continue;
        const DramAddress at{rk, k / spec_.org.banks_per_group, k % spec_.org.banks_per_group, banks_[i].row, 0};
        const uint64_t e = std::max(r.next_refresh, timing_.earliest(DramCommandKind::kPrecharge, at));
        if (e < when) when = e, pick = i, pick_at = at;
      }
      if (pick == banks_.size()) break;
      record(when, DramCommandKind::kPrecharge, pick_at, DramCommand::kNoRequest);
      counting_.precharge(when, pick);
      banks_[pick].open = false;
      banks_[pick].forget();
    }
    const DramAddress at{rk, group, bank, 0, 0};
    const uint64_t ref = std::max(r.next_refresh, timing_.earliest(DramCommandKind::kRefresh, at));
    record(ref, DramCommandKind::kRefresh, at, DramCommand::kNoRequest);
    refresh_done(rk, ref);
  }
}

void DramController::survey(const std::vector<Entry>& q, bool started_only, uint64_t t) {
  for (const Entry& e : q) {
    if ((started_only && !e.started) || e.arrival > t) continue;
    const uint32_t bi = e.bank;
    const Bank& b = banks_[bi];
    if (seen_[bi] != generation_) {
      seen_[bi] = generation_;
      oldest_[bi] = &e;
      has_hit_[bi] = 0;
    } else if (e.seq < oldest_[bi]->seq) {
      oldest_[bi] = &e;
    }
    if (b.open && b.row == e.at.row) has_hit_[bi] |= (e.prefetch ? 2 : 1) | (e.started ? 4 : 0);
  }
}

inline void DramController::survey_bank(const std::vector<Entry>& q, uint32_t bi, bool started_only, uint64_t t) {
  // survey() of one bank's queue, the bank's state looked up once.
  const Bank& b = banks_[bi];
  const bool surveyed = seen_[bi] == generation_;  // the write queue's requests of this bank came first
  const Entry* oldest = surveyed ? oldest_[bi] : nullptr;
  uint8_t hit = surveyed ? has_hit_[bi] : 0;
  for (const Entry& e : q) {
    if ((started_only && !e.started) || e.arrival > t) continue;
    if (!oldest || e.seq < oldest->seq) oldest = &e;
    if (b.open && b.row == e.at.row) hit |= (e.prefetch ? 2 : 1) | (e.started ? 4 : 0);
  }
  if (!oldest) return;
  seen_[bi] = generation_;
  oldest_[bi] = oldest;
  has_hit_[bi] = hit;
}

inline void DramController::consider(std::vector<Entry>& q, bool started_only, uint64_t t, Choice& row_cmd, Choice& column_cmd) {
  // Oldest first: the first ready column command and the first ready row
  // command. A bank's commands never become possible earlier than when last
  // asked, as long as what it needs stays the same (the not_before caches).
  for (size_t i = 0; i < q.size(); ++i) {
    const Entry& e = q[i];
    if (started_only && !e.started) continue;
    if (e.arrival > t) {  // in its queue ahead of its arrival (the caller decided only up to now): nothing for it before then
      soonest(e.arrival);
      continue;
    }
    const uint32_t bi = e.bank;
    Bank& b = banks_[bi];
    if (t >= next_refresh_ && refresh_due(e.at, t)) {  // its rank (or bank) is being refreshed
      undecided_ = true;
      continue;
    }
    if (b.open && b.row == e.at.row) {
      if (column_cmd.before(e)) {
        undecided_ = true;
        continue;
      }
      uint64_t& not_before = b.column_not_before[e.write];
      if (not_before > t) {
        soonest(not_before);
        continue;
      }
      const DramCommandKind k = e.write ? DramCommandKind::kWrite : DramCommandKind::kRead;
      const uint64_t when = timing_.earliest(k, e.at);
      if (when > t) {
        not_before = when;
        soonest(when);
        continue;
      }
      undecided_ = true;
      column_cmd = {k, &q, i, e.seq, e.active};
      continue;
    }
    // A row command: only for the bank's oldest request, so a bank serves
    // its requests in order apart from the hits that overtake (row_commands:
    // any: for whichever request comes first here, that is the oldest whose
    // command is legal).
    if (oldest_[bi] != &e && !spec_.row_commands_any) continue;
    // A prefetch opens or closes no row while a demand read the scheduler
    // could serve is queued.
    if (e.prefetch && schedulable_demands_ > 0) {
      undecided_ = true;  // it may go as soon as the demand reads have
      continue;
    }
    if (row_cmd.queue && row_cmd.seq < e.seq) {
      undecided_ = true;
      continue;
    }
    DramCommandKind k = DramCommandKind::kActivate;
    if (b.open) {
      // The row stays open while younger requests hit it, until row_hit_cap
      // of them have gone past this one.
      // (A demand request's precharge is held for demand hits only.)
      // (row_commands: any: held only for a request the row was opened for.)
      if (spec_.row_commands_any ? (has_hit_[bi] & 4) != 0 : (has_hit_[bi] & (e.prefetch ? 3 : 1)) && b.bypassed < spec_.row_hit_cap)
        continue;
      k = DramCommandKind::kPrecharge;
    }
    if (b.row_not_before > t) {
      soonest(b.row_not_before);
      continue;
    }
    const uint64_t when = timing_.earliest(k, e.at);
    if (when > t) {
      b.row_not_before = when;
      soonest(when);
      continue;
    }
    // No row opened that the refresh would close before its column command.
    undecided_ = true;
    const uint64_t column = t + (k == DramCommandKind::kPrecharge ? t_.tRP : 0) + t_.rcd(e.write);
    if (column >= next_refresh_ && refresh_due(e.at, column)) continue;
    row_cmd = {k, &q, i, e.seq};
  }
}

void DramController::issue(const Choice& c, uint64_t t, std::vector<Done>& done) {
  Entry& e = (*c.queue)[c.index];
  const uint32_t bi = e.bank;
  Bank& b = banks_[bi];
  if (!e.started) {
    e.started = true;
    started_writes_ += e.write;
    e.start = t;
    e.row = c.kind == DramCommandKind::kPrecharge ? RowResult::kConflict
            : c.kind == DramCommandKind::kActivate ? RowResult::kMiss
                                                    : RowResult::kHit;
  }
  switch (c.kind) {
    case DramCommandKind::kPrecharge:
      record(t, c.kind, {e.at.rank, e.at.bank_group, e.at.bank, b.row, 0}, e.request);
      counting_.precharge(t, bi);
      b.open = false;
      b.forget();
      return;
    case DramCommandKind::kActivate:
      if (spec_.active_buffer && !e.active && active_reads_ + active_writes_ < spec_.active_buffer) {
        e.active = true;
        ++(e.write ? active_writes_ : active_reads_);
        bank_room_ = true;
      }
      record(t, c.kind, e.at, e.request);
      counting_.activate(t, bi);
      b.open = true;
      b.row = e.at.row;
      b.bypassed = 0;
      b.forget();
      return;
    default: break;
  }
  const bool write = c.kind == DramCommandKind::kWrite;
  record(t, c.kind, e.at, e.request);
  if (oldest_[bi] != &e) ++b.bypassed;  // an older request of the bank waits for another row
  counting_.column(t, bi, write, e.row, t_.tBL);
  const uint64_t end = t + (write ? t_.CWL : t_.CL) + t_.tBL;
  DramCounters& n = counting_.total();
  n.last_data_cycle = std::max(n.last_data_cycle, end);
  if (!write) done.push_back({e.token, e.accept, e.start, end, e.depth, e.at, e.row});
  if (spec_.page_policy == PagePolicy::kClosed) {
    // The precharge rides on the column command and takes no command slot.
    const uint64_t pre = timing_.auto_precharge(e.at);
    standby_.closed(pre, e.at.rank);
    if (recording_) commands_.push_back({pre, DramCommandKind::kPrecharge, e.at.rank, e.at.bank_group, e.at.bank, e.at.row, true});
    if (trace_) trace_->add({pre, DramCommandKind::kPrecharge, e.at.rank, e.at.bank_group, e.at.bank, e.at.row, true, 0, e.request});
    counting_.precharge(pre, bi);
    b.open = false;
  }
  b.forget();
  if (!write) --queued_reads_, room_in_bank(bi), queued_prefetches_ -= e.prefetch, schedulable_demands_ -= !e.prefetch;
  else --started_writes_;
  if (e.active) --(write ? active_writes_ : active_reads_);
  c.queue->erase(c.queue->begin() + long(c.index));
  if (!bank_queues_.empty() && c.queue >= bank_queues_.data() && c.queue < bank_queues_.data() + bank_queues_.size())
    bank_queue_changed(static_cast<uint32_t>(c.queue - bank_queues_.data()));
}

void DramController::drop_stale_prefetches(uint64_t t, std::vector<Done>& done) {
  const uint64_t bound = spec_.prefetch_drop_cycles;
  // Whether e is dropped now (and answered so), else when it will be.
  const auto dropped = [&](const Entry& e) {
    if (!e.prefetch || e.started) return false;
    if (e.accept + bound > t) {
      soonest(e.accept + bound);
      return false;
    }
    done.push_back({e.token, e.accept, e.accept, t, e.depth, e.at, RowResult::kDropped});
    ++counting_.total().dropped_prefetches;
    --queued_reads_, --queued_prefetches_;
    banks_[e.bank].forget();
    return true;
  };
  size_t keep = 0;
  for (size_t i = 0; i < read_queue_.size(); ++i) {
    const Entry& e = read_slots_[read_queue_[i]];
    if (dropped(e)) {
      --pending_[e.bank];
      free_slots_.push_back(read_queue_[i]);
      continue;
    }
    read_queue_[keep++] = read_queue_[i];
  }
  read_queue_.resize(keep);
  for (uint32_t bi = 0; bi < bank_queues_.size(); ++bi) {
    std::vector<Entry>& q = bank_queues_[bi];
    keep = 0;
    for (size_t i = 0; i < q.size(); ++i) {
      if (dropped(q[i])) {
        room_in_bank(bi);
        continue;
      }
      if (keep != i) q[keep] = q[i];
      ++keep;
    }
    q.resize(keep);
    bank_queue_changed(bi);
  }
}

bool DramController::step(uint64_t t, std::vector<Done>& done) {
  soonest_ = kNever;
  admit(t, done);
  if (queued_prefetches_ && spec_.prefetch_drop_cycles) drop_stale_prefetches(t, done);
  update_mode(t);
  const bool dual = spec_.dual_command_bus;
  bool row_used = t >= next_refresh_ ? refresh_step(t) : (soonest(next_refresh_), false);
  if (row_used && !dual) return true;
  // The mode's requests, and those of the other mode already started (a
  // row opened or closed for them), so that turning to writes does not
  // close the rows reads were given (Ramulator 2's active buffer).
  ++generation_;
  const bool writes = write_mode_;
  Choice row_cmd, column_cmd;
  // Reading, the write queue takes part only with writes already started.
  const bool write_queue_takes_part = writes || started_writes_ > 0;
  if (write_queue_takes_part) survey(write_queue_, !writes, t);
  // Only the banks whose queue holds a read, in bank order.
  for (size_t word = 0; word < queued_banks_.size(); ++word) {
    for (uint64_t bits = queued_banks_[word]; bits; bits &= bits - 1) {
      const size_t bi = word * 64 + static_cast<size_t>(__builtin_ctzll(bits));
      std::vector<Entry>& q = bank_queues_[bi];
      // A bank whose commands all lie later than t, as far as nothing about
      // it has changed, is skipped (unless the write queue has some of its
      // requests this step).
      Bank& b = banks_[bi];
      if (b.idle_until > t && seen_[bi] != generation_ && !visit_every_bank_) {
        soonest(b.idle_until);
        continue;
      }
      survey_bank(q, uint32_t(bi), writes, t);
      const uint64_t before = soonest_;
      soonest_ = kNever;
      undecided_ = false;
      consider(q, writes, t, row_cmd, column_cmd);
      if (!undecided_ && soonest_ != kNever) b.idle_until = soonest_;
      soonest_ = std::min(before, soonest_);
    }
  }
  if (write_queue_takes_part) consider(write_queue_, !writes, t, row_cmd, column_cmd);
  if (row_used) row_cmd.queue = nullptr;
  // Two commands of one bank never go in one cycle: a precharge with a
  // column command would close the row under it.
  const bool one_bank = row_cmd.queue && column_cmd.queue &&
                        (*row_cmd.queue)[row_cmd.index].bank == (*column_cmd.queue)[column_cmd.index].bank;
  if ((!dual || one_bank) && row_cmd.queue && column_cmd.queue) {
    // One command bus, or one bank: the older request's command (a column
    // command of the active buffer's first, as Ramulator 2's controller
    // serves that buffer before the others).
    if (!column_cmd.active && row_cmd.seq < column_cmd.seq) column_cmd.queue = nullptr;
    else row_cmd.queue = nullptr;
  }
  bool issued = row_used;
  if (row_cmd.queue) {
    issue(row_cmd, t, done);
    issued = true;
  }
  if (column_cmd.queue) {
    issue(column_cmd, t, done);
    issued = true;
  }
  return issued;
}

void DramController::run_until(uint64_t until, std::vector<Done>& done) {
  decide_until(until, done);
  // No arrival comes before `until` from now on, and what is decided from
  // now on falls at or after it (a closed page's precharge is held already).
  standby_.settled_before(until);
  if (trace_) trace_->release_before(until);
}

void DramController::decide_until(uint64_t until, std::vector<Done>& done) {
  if (!busy()) {
    idle_refreshes(until);
    return;
  }
  while (busy() && next_ < until) {
    const uint64_t t = next_;
    decided_ = t + 1;
    if (step(t, done)) {
      next_ = t + 1;
      continue;
    }
    // Nothing could issue: the next cycle anything could, or the next arrival's.
    uint64_t next = soonest_;
    if (!waiting_reads_.empty() && read_queue_room()) next = std::min(next, waiting_reads_.front().arrival);
    if (!waiting_writes_.empty() && write_queue_room()) next = std::min(next, waiting_writes_.front().arrival);
    if (next == kNever) throw std::logic_error("DRAM controller: requests queued but no command can ever issue");
    next_ = std::max(t + 1, next);
  }
  if (!busy()) idle_refreshes(until);
}

void DramController::drain(uint64_t cycle, std::vector<Done>& done) {
  while (busy()) decide_until(next_ + 1, done);
  const uint64_t last = std::max(cycle, counting_.total().last_data_cycle);
  idle_refreshes(last + 1);
  if (trace_) trace_->release_all();
  standby_.finish(last, counting_.total());
}

}  // namespace gpumem
