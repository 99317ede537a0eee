#include "channel/dram_channel.hpp"

#include <algorithm>

namespace gpumem {

namespace {

// First index whose key is >= v, in a ring sorted by key. The entries a new
// command is checked against are most often the last few, so the search
// gallops back from the end before it halves.
template <typename T, typename Key>
size_t lower_index(const RingBuffer<T>& r, uint64_t v, Key key) {
  const size_t n = r.size();
  if (n == 0 || key(r[n - 1]) < v) return n;
  size_t hi = n - 1, lo = 0, step = 1;  // key(r[hi]) >= v
  for (;;) {
    if (hi < step) {
      if (key(r[0]) >= v) return 0;
      lo = 0;
      break;
    }
    lo = hi - step;
    if (key(r[lo]) < v) break;
    hi = lo;
    step <<= 1;
  }
  while (hi - lo > 1) {  // key(r[lo]) < v <= key(r[hi])
    const size_t mid = (lo + hi) / 2;
    if (key(r[mid]) < v) lo = mid;
    else hi = mid;
  }
  return hi;
}

uint64_t at_least(uint64_t v) { return v; }
uint64_t minus_sat(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

}  // namespace

DramChannel::DramChannel(const DramParams& params)
    : spec_(params.spec),
      t_(params.spec.timing),
      clocks_{params.cycle_ps, params.spec.tck_ps},
      map_(params.spec),
      counting_(params.spec.org, params.epoch_cycles, params.cycle_ps, params.spec.tck_ps),
      standby_(params.spec.org, &counting_) {
  group_shift_ = unsigned(__builtin_ctz(spec_.org.banks_per_group));
  rank_shift_ = group_shift_ + unsigned(__builtin_ctz(spec_.org.bank_groups));
  lookback_ = uint64_t{t_.tFAW} + t_.tRC + t_.tRRD_L + std::max(t_.tCCD_L, t_.tCCD_L_WR) + t_.CWL + t_.CL + 2ull * t_.tBL + t_.tWTR_L +
              t_.tRTRS + t_.tRTP + t_.tWR + t_.tPPD + spec_.refresh_to_other_activate() + spec_.refresh_to_other_refresh();
  banks_.resize(size_t(spec_.org.ranks) * spec_.org.banks());
  ranks_.resize(spec_.org.ranks);
  refresh_interval_ = t_.tREFI / spec_.refreshes_per_round();
  idle_margin_ = uint64_t{t_.tRFC} + t_.tRP + 2 * refresh_interval_ * spec_.refreshes_per_round();
  // Ranks refresh in turn, spread evenly over the interval.
  for (unsigned r = 0; r < spec_.org.ranks; ++r) ranks_[r].next_refresh = refresh_interval_ * (r + 1) / spec_.org.ranks;
  idle_refresh_after_ = refresh_interval_ ? ranks_[0].next_refresh + idle_margin_ : ~uint64_t{0};
  bank_queues_.resize(banks_.size(), RingBuffer<uint64_t>(8));
  write_queue_.reserve(spec_.write_queue);
}

unsigned DramChannel::write_to_read(unsigned same_group) const {
  return t_.CWL + t_.tBL + (same_group ? t_.tWTR_L : t_.tWTR_S);
}

uint64_t DramChannel::command_slot(uint64_t t, bool column) const {
  const RingBuffer<uint64_t>& bus = spec_.dual_command_bus && !column ? row_bus_ : command_bus_;
  size_t i = lower_index(bus, t, [](uint64_t c) { return c; });
  while (i < bus.size() && bus[i] == t) ++t, ++i;
  return t;
}

uint64_t DramChannel::activate_slot(uint64_t t, unsigned rank, unsigned bg) const {
  const RingBuffer<Act>& acts = ranks_[rank].acts;
  const auto cyc = [](const Act& a) { return a.cycle; };
  for (;;) {
    uint64_t u = command_slot(t, false);
    bool moved = false;
    // tRRD: activates of one rank keep their distance, longer within a bank group.
    const unsigned rrd = std::max(t_.tRRD_L, t_.tRRD_S);
    for (size_t i = lower_index(acts, minus_sat(u + 1, rrd), cyc); i < acts.size() && acts[i].cycle < u + rrd; ++i) {
      const uint64_t d = acts[i].bank_group == bg ? t_.tRRD_L : t_.tRRD_S;
      if (acts[i].cycle + d > u && u + d > acts[i].cycle) {
        u = acts[i].cycle + d;
        moved = true;
        break;
      }
    }
    // A bank refresh: none within tRREFD after it (its own banks wait
    // tRFCb), nor within tRRD before it.
    const RingBuffer<Act>& refs = ranks_[rank].refreshes;
    for (size_t i = 0; !moved && i < refs.size(); ++i) {
      const uint64_t f = refs[i].cycle;
      const unsigned before = spec_.activate_to_refresh(refs[i].bank_group == bg || refs[i].bank_group == kEveryGroup);
      if (f < u + before && u < f + spec_.refresh_to_other_activate()) {
        u = f + spec_.refresh_to_other_activate();
        moved = true;
      }
    }
    // tFAW: no window of tFAW cycles holds a fifth activate.
    if (!moved) {
      const size_t lo = lower_index(acts, minus_sat(u + 1, t_.tFAW), cyc);
      const size_t hi = lower_index(acts, u + t_.tFAW, cyc);
      for (size_t j = lo; j + 3 < hi; ++j) {
        const uint64_t first = std::min(acts[j].cycle, u), last = std::max(acts[j + 3].cycle, u);
        if (last - first < t_.tFAW) {
          u = acts[j].cycle + t_.tFAW;
          break;
        }
      }
    }
    if (u == t) return u;
    t = u;
  }
}

uint64_t DramChannel::precharge_slot(uint64_t t, unsigned rank) const {
  if (!t_.tPPD) return command_slot(t, false);
  const RingBuffer<uint64_t>& pres = ranks_[rank].precharges;
  const auto cyc = [](uint64_t c) { return c; };
  for (;;) {
    uint64_t u = command_slot(t, false);
    for (size_t i = lower_index(pres, minus_sat(u + 1, t_.tPPD), cyc); i < pres.size() && pres[i] < u + t_.tPPD; ++i)
      if (pres[i] + t_.tPPD > u && u + t_.tPPD > pres[i]) {
        u = pres[i] + t_.tPPD;
        break;
      }
    if (u == t) return u;
    t = u;
  }
}

uint64_t DramChannel::bank_refresh_slot(uint64_t t, unsigned rank, unsigned bg) const {
  const Rank& r = ranks_[rank];
  const unsigned after_refresh = spec_.refresh_to_other_refresh(), before_activate = spec_.refresh_to_other_activate();
  for (;;) {
    uint64_t u = command_slot(t, false);
    // tRRD after an activate of another bank, tRREFD before one.
    for (size_t i = 0; i < r.acts.size(); ++i) {
      const Act& a = r.acts[i];
      const unsigned after = spec_.activate_to_refresh(a.bank_group == bg || bg == kEveryGroup);
      if (a.cycle < u + before_activate && u < a.cycle + after) u = a.cycle + after;
    }
    // tPBR2PBR between two bank refreshes, either way round.
    for (size_t i = 0; i < r.refreshes.size(); ++i) {
      const uint64_t f = r.refreshes[i].cycle;
      if (f < u + after_refresh && u < f + after_refresh) u = f + after_refresh;
    }
    if (u == t) return u;
    t = u;
  }
}

void DramChannel::add_precharge(uint64_t t, unsigned rank) {
  if (!t_.tPPD) return;
  RingBuffer<uint64_t>& pres = ranks_[rank].precharges;
  pres.insert(lower_index(pres, t, [](uint64_t c) { return c; }), t);
}

uint64_t DramChannel::column_slot(uint64_t t, unsigned rank, unsigned bg, bool write) const {
  const RingBuffer<Column>& cols = ranks_[rank].columns;
  const auto cyc = [](const Column& c) { return c.cycle; };
  const unsigned latency = write ? t_.CWL : t_.CL;
  const unsigned wtr_max = write_to_read(1);
  const unsigned ccd = std::max({t_.tCCD_L, t_.tCCD_S, t_.tCCD_L_WR});
  // Each constraint moves u to the first cycle it allows; the rounds repeat
  // until none moves it. The data bus goes first: it moves u furthest.
  for (;;) {
    uint64_t u = t;
    // The data bus: one burst at a time, tRTRS between ranks and between
    // directions. Bursts are sorted and do not overlap, so one pass walks a
    // booked-up bus to its first gap that fits.
    uint64_t s = u + latency;
    for (size_t i = lower_index(data_bus_, s > t_.tRTRS ? s - t_.tRTRS + 1 : 0, [](const Burst& b) { return b.end; });
         i < data_bus_.size() && data_bus_[i].start < s + t_.tBL + t_.tRTRS; ++i) {
      const Burst& b = data_bus_[i];
      const uint64_t gap = (b.rank == rank && b.write == write) ? 0 : t_.tRTRS;
      if (s < b.end + gap && s + t_.tBL + gap > b.start) s = b.end + gap;
    }
    u = s - latency;
    const uint64_t after_bus = u;
    // tCCD within the rank.
    for (size_t i = lower_index(cols, minus_sat(u + 1, ccd), cyc); i < cols.size() && cols[i].cycle < u + ccd; ++i) {
      const uint64_t d = cols[i].bank_group == bg ? t_.ccd_l(write && cols[i].write) : t_.tCCD_S;
      if (cols[i].cycle + d > u && u + d > cols[i].cycle) u = cols[i].cycle + d;
    }
    // Write to read in the rank: a read waits tWTR after the write's data;
    // a write goes after any read that would then come too soon.
    const uint64_t opposite_end = write ? ranks_[rank].reads_end : ranks_[rank].writes_end;
    const bool in_window = write ? opposite_end > u : opposite_end && opposite_end - 1 + wtr_max > u;
    for (size_t i = in_window ? lower_index(cols, write ? u : minus_sat(u, wtr_max), cyc) : cols.size(); i < cols.size(); ++i) {
      const Column& c = cols[i];
      if (write ? c.cycle >= u + wtr_max : c.cycle > u) break;
      if (c.write == write) continue;
      const uint64_t gap = write_to_read(c.bank_group == bg);
      if (!write && c.cycle <= u && u < c.cycle + gap) u = c.cycle + gap;
      if (write && u <= c.cycle && c.cycle < u + gap) u = c.cycle + 1;
    }
    u = command_slot(u, true);
    if (u == after_bus) return u;  // the bus's own pass left it valid there, and nothing else moved it
    t = u;
  }
}

DramChannel::Plan DramChannel::plan(const DramAddress& at, uint64_t lo, bool write) const {
  const Bank& b = bank(at);
  Plan p;
  p.at = at;
  if (b.open && b.row == at.row) {
    p.row = RowResult::kHit;
    p.column = column_slot(std::max(lo, b.act + t_.rcd(write)), at.rank, at.bank_group, write);
    return p;
  }
  // First ready: the row an older request is about to close, while it fits
  // before that precharge. Not with the closed page policy: there the
  // precharge rides on the older request's column command (RDA, WRA), and
  // the bank takes no other column command after it.
  if (spec_.page_policy == PagePolicy::kOpen && b.prev_open && b.prev_row == at.row && b.prev_hits < spec_.row_hit_cap &&
      lo < b.prev_pre) {
    const uint64_t c = column_slot(std::max(lo, b.prev_act + t_.rcd(write)), at.rank, at.bank_group, write);
    const uint64_t done = write ? c + t_.CWL + t_.tBL + t_.tWR : c + t_.tRTP;
    if (done <= b.prev_pre) {
      p.row = RowResult::kHit;
      p.bypass = true;
      p.column = c;
      return p;
    }
  }
  uint64_t act_lo;
  if (b.open) {
    p.row = RowResult::kConflict;
    p.has_pre = true;
    p.pre = precharge_slot(std::max(lo, b.pre_ready), at.rank);
    act_lo = std::max(p.pre + t_.tRP, b.act_ready);
  } else {
    p.row = RowResult::kMiss;
    act_lo = std::max(lo, b.act_ready);
  }
  p.has_act = true;
  p.act = activate_slot(act_lo, at.rank, at.bank_group);
  p.column = column_slot(p.act + t_.rcd(write), at.rank, at.bank_group, write);
  return p;
}

void DramChannel::add_command(uint64_t t, DramCommandKind kind, const DramAddress& at, uint64_t request, bool auto_pre) {
  const bool column = kind == DramCommandKind::kRead || kind == DramCommandKind::kWrite;
  RingBuffer<uint64_t>& bus = spec_.dual_command_bus && !column ? row_bus_ : command_bus_;
  if (kind != DramCommandKind::kPrecharge || !auto_pre) bus.insert(lower_index(bus, t, [](uint64_t c) { return c; }), t);
  if (recording_) commands_.push_back({t, kind, at.rank, at.bank_group, at.bank, at.row, auto_pre});
  if (trace_) trace_->add({t, kind, at.rank, at.bank_group, at.bank, at.row, auto_pre, column ? at.column : 0, request});
}

void DramChannel::trace_commands(DramCommandSink& sink, unsigned channel) {
  trace_ = std::make_unique<DramCommandOrder>(sink, channel);
}

uint64_t DramChannel::final_before(uint64_t h) const {
  if (!t_.tREFI) return h;
  for (const Rank& r : ranks_) h = std::min(h, r.next_refresh);
  return h;
}

void DramChannel::commit(const Plan& p, bool write, uint64_t request) {
  Bank& b = bank(p.at);
  const size_t bi = bank_index(p.at);
  Rank& r = ranks_[p.at.rank];
  if (p.has_pre) {
    add_command(p.pre, DramCommandKind::kPrecharge, {p.at.rank, p.at.bank_group, p.at.bank, b.row, 0}, request);
    add_precharge(p.pre, p.at.rank);
    standby_.closed(p.pre, p.at.rank);
    counting_.precharge(p.pre, bi);
    b.prev_open = true;
    b.prev_row = b.row;
    b.prev_act = b.act;
    b.prev_pre = p.pre;
    b.prev_hits = 0;
  }
  if (p.has_act) {
    add_command(p.act, DramCommandKind::kActivate, p.at, request);
    standby_.opened(p.act, p.at.rank);
    counting_.activate(p.act, bi);
    b.open = true;
    b.row = p.at.row;
    b.act = p.act;
    b.act_ready = p.act + t_.tRC;
    b.pre_ready = p.act + t_.tRAS;
    r.acts.insert(lower_index(r.acts, p.act, [](const Act& a) { return a.cycle; }), {p.act, p.at.bank_group});
  }
  add_command(p.column, write ? DramCommandKind::kWrite : DramCommandKind::kRead, p.at, request);
  r.columns.insert(lower_index(r.columns, p.column, [](const Column& c) { return c.cycle; }),
                   {p.column, p.at.bank_group, write});
  uint64_t& end = write ? r.writes_end : r.reads_end;
  end = std::max(end, p.column + 1);
  const uint64_t s = p.column + (write ? t_.CWL : t_.CL);
  data_bus_.insert(lower_index(data_bus_, s, [](const Burst& x) { return x.start; }), {s, s + t_.tBL, p.at.rank, write});
  counting_.column(p.column, bi, write, p.row, t_.tBL);
  DramCounters& n = counting_.total();
  n.last_data_cycle = std::max(n.last_data_cycle, s + t_.tBL);
  const uint64_t pre_after = write ? p.column + t_.CWL + t_.tBL + t_.tWR : p.column + t_.tRTP;
  if (p.bypass) {
    ++b.prev_hits;
    return;
  }
  b.pre_ready = std::max(b.pre_ready, pre_after);
  if (spec_.page_policy == PagePolicy::kClosed) {
    // The precharge rides on the column command and takes no command slot.
    const uint64_t pre = b.pre_ready;
    add_command(pre, DramCommandKind::kPrecharge, p.at, request, true);
    standby_.closed(pre, p.at.rank);
    counting_.precharge(pre, bi);
    b.prev_open = true;
    b.prev_row = b.row;
    b.prev_act = b.act;
    b.prev_pre = pre;
    b.prev_hits = 0;
    b.open = false;
    b.act_ready = std::max(b.act_ready, pre + t_.tRP);
  }
}

void DramChannel::refresh(unsigned rank) {
  Rank& r = ranks_[rank];
  const uint64_t due = r.next_refresh;
  const size_t first = size_t(rank) * spec_.org.banks();
  // All-bank: every bank of the rank; per-bank: the next bank in turn; same-bank: the next bank of every group.
  const auto [group, bank] = spec_.refresh_target(r.refresh_bank);
  const DramSpec::RefreshedBanks banks = spec_.refreshed_banks(group, bank);
  uint64_t ref = due;
  for (unsigned j = 0, k = banks.first; j < banks.count; ++j, k += banks.stride) {
    const size_t i = first + k;
    Bank& b = banks_[i];
    if (b.open) {
      const uint64_t pre = precharge_slot(std::max(due, b.pre_ready), rank);
      add_command(pre, DramCommandKind::kPrecharge, {rank, k / spec_.org.banks_per_group, k % spec_.org.banks_per_group, b.row, 0},
                  DramCommand::kNoRequest);
      add_precharge(pre, rank);
      standby_.closed(pre, rank);
      counting_.precharge(pre, i);
      b.open = false;
      b.act_ready = std::max(b.act_ready, pre + t_.tRP);
    }
    ref = std::max(ref, b.act_ready);
  }
  // An all-bank refresh follows every activate planned so far (each
  // precedes its column command, which precedes the due: a plan whose column
  // would pass it refreshes first, send()). A bank's refresh may meet other
  // banks' activates planned past its due (refresh_first): it keeps tRRD
  // after and tRREFD before each (bank_refresh_slot).
  const bool bank_refresh = spec_.refresh != RefreshMode::kAllBank;
  const unsigned refreshed_group = spec_.refresh == RefreshMode::kSameBank ? kEveryGroup : group;
  ref = bank_refresh ? bank_refresh_slot(ref, rank, refreshed_group) : command_slot(ref, false);
  add_command(ref, DramCommandKind::kRefresh, {rank, group, bank, 0, 0}, DramCommand::kNoRequest);
  if (bank_refresh) r.refreshes.insert(lower_index(r.refreshes, ref, [](const Act& a) { return a.cycle; }), Act{ref, refreshed_group});
  for (unsigned j = 0, k = banks.first; j < banks.count; ++j, k += banks.stride) {
    banks_[first + k].act_ready = ref + spec_.refresh_cycles();
    banks_[first + k].prev_open = false;
  }
  r.next_refresh += refresh_interval_;
  r.refresh_bank = (r.refresh_bank + 1) % spec_.refreshes_per_round();
  counting_.refresh(ref, rank);
  standby_.refreshed(ref);
}

bool DramChannel::idle(uint64_t t) const { return read_queue_.empty() && last_column_ <= t; }

uint64_t DramChannel::bank_admission(const DramAddress& at, uint64_t t) {
  if (!spec_.bank_queue) return t;  // one shared queue: no bank's queue to wait for
  RingBuffer<uint64_t>& q = bank_queues_[bank_index(at)];
  while (!q.empty() && q.front() <= t) q.drop_front();
  return q.size() >= spec_.bank_queue ? std::max(t, q[q.size() - spec_.bank_queue]) : t;
}

void DramChannel::skip_idle_refreshes(unsigned rank, uint64_t until) {
  // A rank idle across many intervals: once a whole round of refreshes has
  // closed every bank, the rest only count (each would close nothing and
  // end before `until`), so a long gap in a trace costs no loop per interval.
  // The command trace lists each of them.
  if (!idle_refreshes_to_skip(rank, until) || trace_) return;
  Rank& r = ranks_[rank];
  const uint64_t interval = refresh_interval_, margin = idle_margin_;
  const unsigned round = spec_.refreshes_per_round();
  for (unsigned i = 0; i < round; ++i) refresh(rank);
  const size_t first = size_t(rank) * spec_.org.banks();
  for (size_t i = first; i < first + spec_.org.banks(); ++i)
    if (banks_[i].open || banks_[i].act_ready > r.next_refresh) return;
  if (r.next_refresh + margin >= until) return;
  const uint64_t skip = (until - margin - r.next_refresh) / interval / round * round;
  r.next_refresh += skip * interval;
  counting_.refresh(r.next_refresh - skip * interval, rank, skip, interval);
}

void DramChannel::send(const DramAddress& at, uint64_t lo, bool write, uint64_t request, Plan* out) {
  if (idle_refreshes_to_skip(at.rank, lo)) skip_idle_refreshes(at.rank, lo);
  for (;;) {
    const Plan p = plan(at, lo, write);
    if (t_.tREFI && refresh_first(p, lo)) {
      refresh(at.rank);
      continue;
    }
    commit(p, write, request);
    if (spec_.bank_queue) {  // with one shared queue nothing reads the banks' queues: keeping them would grow without end
      RingBuffer<uint64_t>& q = bank_queues_[bank_index(at)];
      q.insert(lower_index(q, p.column, at_least), p.column);
    }
    last_column_ = std::max(last_column_, p.column);
    if (out) *out = p;
    return;
  }
}

bool DramChannel::refresh_first(const Plan& p, uint64_t lo) const {
  const Rank& r = ranks_[p.at.rank];
  if (p.column < r.next_refresh) return false;
  if (spec_.refresh == RefreshMode::kAllBank || lo >= r.next_refresh + refresh_interval_) return true;
  const auto [group, bank] = spec_.refresh_target(r.refresh_bank);
  return p.at.bank == bank && (spec_.refresh == RefreshMode::kSameBank || p.at.bank_group == group);
}

void DramChannel::drain_writes(uint64_t lo, size_t keep) {
  while (write_queue_.size() > keep) {
    // Row hits first, else the oldest.
    size_t pick = 0;
    for (size_t i = 0; i < write_queue_.size(); ++i) {
      const Bank& b = bank(write_queue_[i].at);
      if (b.open && b.row == write_queue_[i].at.row) {
        pick = i;
        break;
      }
    }
    const Posted w = write_queue_[pick];
    write_queue_.erase(write_queue_.begin() + long(pick));
    --posted_lines_[w.line % kPostedFilter];
    send(w.at, bank_admission(w.at, std::max(lo, w.arrival)), true, w.request, nullptr);
  }
}

void DramChannel::forget_before(uint64_t h) {
  // What lies before the horizon constrains nothing to come; it is dropped in
  // batches, since keeping a little longer changes no result.
  if (h < forgotten_until_ + 64) return;
  forgotten_until_ = h;
  const uint64_t keep_from = minus_sat(h, lookback_);
  for (Rank& r : ranks_) {
    while (!r.acts.empty() && r.acts.front().cycle < keep_from) r.acts.drop_front();
    while (!r.precharges.empty() && r.precharges.front() < keep_from) r.precharges.drop_front();
    while (!r.refreshes.empty() && r.refreshes.front().cycle < keep_from) r.refreshes.drop_front();
    while (!r.columns.empty() && r.columns.front().cycle < keep_from) r.columns.drop_front();
  }
  while (!command_bus_.empty() && command_bus_.front() < h) command_bus_.drop_front();
  while (!row_bus_.empty() && row_bus_.front() < h) row_bus_.drop_front();
  while (!data_bus_.empty() && data_bus_.front().end + t_.tRTRS <= h) data_bus_.drop_front();
}

[[gnu::always_inline]] inline DramChannel::Access DramChannel::plan_access(uint64_t a, uint64_t arrival, uint64_t local, bool write,
                                                                          uint64_t request) {
  const DramAddress at = map_.decode(local);
  const uint64_t line = local >> map_.offset_bits();
  while (!read_queue_.empty() && read_queue_.front() <= a) read_queue_.drop_front();
  if (write) {
    write_queue_.push_back({a, line, at, request});
    ++posted_lines_[line % kPostedFilter];
    if (write_queue_.size() >= spec_.write_high) {
      ++counting_.total().write_drains;
      drain_writes(a, spec_.write_low);
    } else if (idle(a) && write_queue_.size() > spec_.write_low) {
      ++counting_.total().write_drains;  // no read waits: the writes go now
      drain_writes(a, 0);
    }
    return {arrival, arrival, arrival, at, RowResult::kPosted};
  }
  if (posted_lines_[line % kPostedFilter])
    for (auto it = write_queue_.rbegin(); it != write_queue_.rend(); ++it)
      if (it->line == line) {
        ++counting_.total().forwarded_reads;
        return {arrival, arrival, arrival, at, RowResult::kForwarded};
      }
  // A full read queue admits the next read when its oldest read moves to its
  // bank's queue, or, with one shared queue (bank_queue 0), when the first
  // of its reads has its column command.
  uint64_t accept = a;
  if (read_queue_.size() >= spec_.read_queue) accept = read_queue_[read_queue_.size() - spec_.read_queue];
  const uint64_t enter = bank_admission(at, accept);
  Plan p;
  send(at, enter, false, request, &p);
  // A read that moves on at once holds no place any later arrival could find taken.
  const uint64_t leaves = spec_.bank_queue ? enter : p.column;
  if (leaves > a) read_queue_.insert(lower_index(read_queue_, leaves, at_least), leaves);
  const uint64_t first = p.has_pre ? p.pre : p.has_act ? p.act : p.column;
  return {to_model(accept), to_model(first), to_model(p.column + t_.CL + t_.tBL), at, p.row};
}

DramChannel::Access DramChannel::access(uint64_t arrival, uint64_t horizon, uint64_t local, bool write, uint64_t request) {
  const uint64_t a = to_memory(arrival), h = to_memory(horizon);
  if (h > idle_refresh_after_) refresh_idle_ranks(h);
  // Nothing from a rank's next refresh on is forgotten: a refresh is planned
  // when a column command passes it, maybe after the horizon has, and must
  // still see every command it could meet on the command bus.
  const uint64_t final = final_before(h);
  forget_before(final);
  standby_.settled_before(final);
  const Access done = plan_access(a, arrival, local, write, request);
  if (trace_) trace_->release_before(final_before(h));
  return done;
}

void DramChannel::refresh_idle_ranks(uint64_t h) {
  // A rank no access has reached for two refresh rounds is refreshed now,
  // while the command bus still holds what its refreshes must fit between,
  // and the command trace need hold nothing back for long behind it. (A rank
  // that is reached refreshes when its next column command passes the due
  // cycle, in send().)
  idle_refresh_after_ = ~uint64_t{0};
  for (unsigned r = 0; r < ranks_.size(); ++r) {
    if (idle_refreshes_to_skip(r, h)) {
      skip_idle_refreshes(r, h);
      while (ranks_[r].next_refresh + idle_margin_ < h) refresh(r);
    }
    idle_refresh_after_ = std::min(idle_refresh_after_, ranks_[r].next_refresh + idle_margin_);
  }
}

DramChannel::Access DramChannel::read(uint64_t arrival, uint64_t horizon, uint64_t local, uint64_t request) {
  return access(arrival, horizon, local, false, request);
}

DramChannel::Access DramChannel::write(uint64_t arrival, uint64_t horizon, uint64_t local, uint64_t request) {
  return access(arrival, horizon, local, true, request);
}

void DramChannel::drain(uint64_t cycle) {
  const uint64_t end = to_memory(cycle);
  drain_writes(end, 0);
  const uint64_t last = std::max(end, counting_.total().last_data_cycle);
  for (unsigned r = 0; t_.tREFI && r < ranks_.size(); ++r) {
    skip_idle_refreshes(r, last);
    while (ranks_[r].next_refresh <= last) refresh(r);
  }
  if (trace_) trace_->release_all();
  standby_.finish(last, counting_.total());
}

}  // namespace gpumem
