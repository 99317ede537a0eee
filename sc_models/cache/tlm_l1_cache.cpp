#include "cache/tlm_l1_cache.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "payload/strided.hpp"
#include "prefetch/stride_prefetcher.hpp"

namespace gpumem {

namespace {

L1Params buffer_geometry(const L1UnitParams& p) {
  L1Params b = p.l1;
  b.size_bytes = uint64_t{p.buffer_lines} * p.l1.line_bytes;
  b.ways = p.buffer_lines;  // fully associative
  return b;
}

}  // namespace

L1CacheTlm::L1CacheTlm(sc_core::sc_module_name name, const L1UnitParams& params, const Clock& clock)
    : sc_module(name), target("target"), memory("memory"), cache_(params.l1), clock_(clock), hit_latency_(params.l1.hit_latency),
      line_(params.l1.line_bytes), queue_(params.queue_entries) {
  queue_entries_ = params.queue_entries;
  target.register_b_transport(this, &L1CacheTlm::b_transport);
  target.register_transport_dbg(this, &L1CacheTlm::transport_dbg);
  switch (params.kind) {
    case PrefetchKind::kNone: break;
    case PrefetchKind::kStride:
      prefetcher_ = std::make_unique<StridePrefetcher>(params.stride, params.l1.line_bytes, params.page_bytes);
      break;
    case PrefetchKind::kBfs: {
      auto bfs = std::make_unique<BfsPrefetcher>(AddressClassifier{}, params.l1.line_bytes, params.edge_window);
      bfs_ = bfs.get();
      prefetcher_ = std::move(bfs);
      break;
    }
  }
  if (prefetcher_ && params.fill == PrefetchFill::kBuffer) buffer_.emplace(buffer_geometry(params));
  allocate_ = params.l1.allocate;
}

void L1CacheTlm::use_calendar(EventCalendar& calendar, unsigned rank) {
  calendar_ = &calendar;
  rank_ = rank;
  target.register_nb_transport_fw(this, &L1CacheTlm::nb_transport_fw);
  memory.register_nb_transport_bw(this, &L1CacheTlm::nb_transport_bw);
}

void L1CacheTlm::kernel_start() {
  // Fills still under way (prefetches; with allocate: fill, lines whose
  // data is not in yet) carry the last kernel's data: they place nothing,
  // and the new kernel's reads of their lines miss.
  for (const auto& kf : filling_) kf.second->current = false;
  filling_.clear();
  cache_.invalidate_all();
  if (buffer_) buffer_->invalidate_all();
  if (bfs_) bfs_->clear();
}

void L1CacheTlm::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  RequestExtension* ext = trans.get_extension<RequestExtension>();
  if (!ext) throw std::logic_error("L1 cache: a request without its RequestExtension");
  const uint64_t now = ext->how.cycle;
  const unsigned space = ext->info.process;
  const sc_core::sc_time at_issue = delay;
  if (StridedExtension* strided = trans.get_extension<StridedExtension>()) {
    // Past the L1 (docs/cache.md); a strided write still updates the lines it has.
    memory->b_transport(trans, delay);
    ++cache_.stats().bypasses;
    ext->how.l1 = L1Result::kBypass;
    for (unsigned i = 0; i < strided->shape.count; ++i) strided->element[i].l1 = L1Result::kBypass;
    if (trans.is_write() && trans.is_response_ok())
      for (unsigned i = 0; i < strided->shape.count; ++i) {
        const unsigned size = strided->shape.element_size;
        const uint64_t a = strided->shape.element_address(i);
        cache_.update(space, a, trans.get_data_ptr() + i * size, nullptr, size, now);
        if (buffer_) buffer_->update(space, a, trans.get_data_ptr() + i * size, nullptr, size, now);
      }
    // The prefetch unit watches strided reads too: a warp reading consecutive
    // worklist items across a line boundary is one (docs/prefetch.md).
    if (!trans.is_write() && trans.is_response_ok() && prefetcher_) {
      DemandRead d = demand_read(*ext, now, strided->shape.base, strided->shape.stride * strided->shape.count, trans.get_data_ptr());
      observe(d, *ext, at_issue);
    }
    return;
  }
  if (trans.is_write()) {
    // The path below rewrites the payload's address (PA, mapped, channel-local):
    // the line is the address the SM sent (docs/architecture.md, "Who rewrites a payload").
    const uint64_t address = trans.get_address();
    memory->b_transport(trans, delay);
    if (!trans.is_response_ok()) {
      ext->how.l1 = L1Result::kWriteMiss;
      ++cache_.stats().writes;
      return;
    }
    const bool hit = cache_.write(space, address, trans.get_data_ptr(), trans.get_byte_enable_ptr(), trans.get_data_length(), now);
    // A prefetched line waiting in the buffer must not go stale either.
    if (buffer_) buffer_->write(space, address, trans.get_data_ptr(), trans.get_byte_enable_ptr(), trans.get_data_length(), now);
    ext->how.l1 = hit ? L1Result::kWriteHit : L1Result::kWriteMiss;
    return;
  }
  const uint64_t address = trans.get_address();
  read(trans, *ext, delay);
  if (!prefetcher_ || !trans.is_response_ok()) return;
  observe(demand_read(*ext, now, address, trans.get_data_length(), trans.get_data_ptr()), *ext, at_issue);
}

DemandRead L1CacheTlm::demand_read(const RequestExtension& ext, uint64_t now, uint64_t address, uint64_t size, const uint8_t* data) const {
  DemandRead d;
  d.warp = ext.info.warp;
  d.pc = ext.info.pc;
  d.address = address;
  d.size = static_cast<unsigned>(size);
  d.data = data;
  d.issue_cycle = now;
  d.completion_cycle = ext.how.cycle;
  return d;
}

void L1CacheTlm::observe(const DemandRead& d, const RequestExtension& ext, const sc_core::sc_time& at_issue) {
  refresh_classifier();
  prefetcher_->on_demand_read(d, pending_);
  prefetch(ext.info, d.issue_cycle, at_issue);
}

// A demand read's look-up: the L1, then the prefetch buffer, whose line
// moves into the L1 (for the L1's figures a miss and a fill) and answers as
// a hit or a merge would. In at a buffer line still on its way stays there
// (it is found as the fill it is), and the L1 places it without an MSHR.
L1Cache::Lookup L1CacheTlm::look_up(unsigned space, uint64_t address, uint64_t now, bool at) {
  L1Cache::Lookup found = cache_.read(space, address, now);
  if (found.result != L1Result::kMiss || !buffer_) return found;
  const L1Cache::Lookup in_buffer = buffer_->read(space, address, now);
  if (in_buffer.result == L1Result::kMiss || (at && in_buffer.ready == L1Cache::kPendingReady)) return found;
  const uint8_t* line = buffer_->line_data(in_buffer);
  return moved_from_buffer(in_buffer, at ? cache_.place(space, address, in_buffer.ready, line, /*prefetch=*/true)
                                         : cache_.fill(space, address, now, in_buffer.ready, line, /*prefetch=*/true));
}

// A buffer line a demand read found, now placed in the L1 at `f`: out of
// the buffer, and the lookup of its new place.
L1Cache::Lookup L1CacheTlm::moved_from_buffer(const L1Cache::Lookup& in_buffer, const L1Cache::Fill& f) {
  buffer_->drop(in_buffer);
  ++cache_.stats().buffer_hits;
  L1Cache::Lookup at = in_buffer;
  at.set = f.set;
  at.way = f.way;
  cache_.mark_used(at);
  return at;
}

// A commit of the classifier's registers takes effect from the next read on.
void L1CacheTlm::refresh_classifier() {
  if (bfs_ && classifier_regs_ && classifier_regs_->commits != classifier_commits_seen_) {
    classifier_commits_seen_ = classifier_regs_->commits;
    std::array<ArrayRange, kGraphArrays> ranges{};
    if (classifier_regs_->enabled)
      for (unsigned k = 0; k < kGraphArrays; ++k) ranges[k] = {classifier_regs_->ranges[k].first, classifier_regs_->ranges[k].second};
    bfs_->set_classifier(AddressClassifier(ranges));
  }
}

void L1CacheTlm::count_use(const L1Cache::Lookup& at, uint64_t now) {
  if (!at.prefetched) return;
  ++prefetch_stats_.useful;
  prefetch_stats_.late += at.ready > now;
}

void L1CacheTlm::read(tlm::tlm_generic_payload& trans, RequestExtension& ext, sc_core::sc_time& delay) {
  How& how = ext.how;
  const uint64_t now = how.cycle;
  const uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  const unsigned space = ext.info.process;
  L1Cache::Lookup at = look_up(space, address, now, /*at=*/false);
  if (at.result != L1Result::kMiss) {
    // The L1 answers: after its hit latency, and not before the line is there.
    count_use(at, now);
    const uint64_t done = std::max(now + hit_latency_, at.ready);
    advance(how, delay, clock_.span(done - now));
    cache_.copy_out(at, address, trans.get_data_ptr(), length);
    how.l1 = at.result;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  // A line fill, once the tags have been looked at and an MSHR is free.
  const uint64_t line = cache_.line_of(address);
  const uint64_t out = cache_.mshr_free(now, now + hit_latency_);
  RequestExtension& fe = fill_.ext;
  fe.info = ext.info;
  fe.how = how;
  fe.how.cycle = now;
  sc_core::sc_time fill_delay = delay;
  advance(fe.how, fill_delay, clock_.span(out - now));
  set_up(fill_.trans, tlm::TLM_READ_COMMAND, line, line_.data(), cache_.line_bytes());
  memory->b_transport(fill_.trans, fill_delay);
  delay = fill_delay;
  // The demand's how is its fill's, at its own bytes of the line.
  const uint64_t offset = address - line;
  how = fe.how;
  how.l1 = L1Result::kMiss;
  if (!fill_.trans.is_response_ok()) {
    trans.set_response_status(fill_.trans.get_response_status());
    return;
  }
  how.physical_address += offset;
  how.mapped_address += offset;
  how.local_address += offset;
  if (how.mmu) how.virtual_address += offset;
  cache_.fill(space, address, now, how.cycle, line_.data());
  std::memcpy(trans.get_data_ptr(), line_.data() + offset, length);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void L1CacheTlm::prefetch(const RequestInfo& demand, uint64_t now, const sc_core::sc_time& at_issue) {
  const unsigned space = demand.process;
  L1Cache& into = buffer_ ? *buffer_ : cache_;
  queue_.retire(now);
  PrefetchStats& st = prefetch_stats_;
  // Prefetches the lines of earlier ones trigger are appended: first in, first out.
  for (size_t i = 0; i < pending_.size(); ++i) {
    const PrefetchRequest p = pending_[i];
    ++st.generated;
    if (cache_.holds(space, p.address) || (buffer_ && buffer_->holds(space, p.address))) {
      ++st.redundant;
      continue;
    }
    if (!queue_.has_room(p.cycle)) {
      ++st.dropped;
      continue;
    }
    RequestExtension& pe = prefetch_.ext;
    pe.info = demand;
    pe.info.origin = Origin::kPrefetch;
    pe.how = How{};
    pe.how.cycle = now;
    pe.how.task_type = demand.task_type;
    sc_core::sc_time d = at_issue;
    advance(pe.how, d, clock_.span(p.cycle - now));
    set_up(prefetch_.trans, tlm::TLM_READ_COMMAND, p.address, line_.data(), cache_.line_bytes());
    memory->b_transport(prefetch_.trans, d);
    ++st.issued;
    ++st.issued_by_array[static_cast<unsigned>(p.array)];
    const uint64_t back = pe.how.cycle;
    queue_.hold(p.cycle, back);
    if (!prefetch_.trans.is_response_ok()) {
      ++st.faulted;
      continue;
    }
    into.fill(space, p.address, now, back, line_.data(), /*prefetch=*/true);
    prefetcher_->on_prefetch_fill(p, p.address, line_.data(), back, pending_);
  }
  pending_.clear();
}

// ---------------------------------------------------------------- at

namespace {
// An error response; a request whose answer is still to come (incomplete)
// has moved its data at its channel already.
bool refused(const tlm::tlm_generic_payload& t) { return t.get_response_status() < tlm::TLM_INCOMPLETE_RESPONSE; }
}  // namespace

tlm::tlm_sync_enum L1CacheTlm::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  RequestExtension* ext = trans.get_extension<RequestExtension>();
  if (!ext) throw std::logic_error("L1 cache: a request without its RequestExtension");
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP: the SMs take every answer at once
  const uint64_t now = ext->how.cycle;
  const unsigned space = ext->info.process;
  if (StridedExtension* strided = trans.get_extension<StridedExtension>()) {
    // Past the L1, as in lt; a strided write updates the lines it finds, at its issue.
    ++cache_.stats().bypasses;
    ext->how.l1 = L1Result::kBypass;
    for (unsigned i = 0; i < strided->shape.count; ++i) strided->element[i].l1 = L1Result::kBypass;
    const tlm::tlm_sync_enum r = memory->nb_transport_fw(trans, phase, delay);
    if (trans.is_write() && !refused(trans))
      for (unsigned i = 0; i < strided->shape.count; ++i) {
        const unsigned size = strided->shape.element_size;
        const uint64_t a = strided->shape.element_address(i);
        cache_.update(space, a, trans.get_data_ptr() + i * size, nullptr, size, now);
        if (buffer_) buffer_->update(space, a, trans.get_data_ptr() + i * size, nullptr, size, now);
        if (FillSlot* f = filling(space, a))
          std::memcpy(f->line.data() + (a - cache_.line_of(a)), trans.get_data_ptr() + i * size, size);
      }
    return r;
  }
  if (trans.is_write()) {
    const uint64_t address = trans.get_address();  // the path below rewrites it
    const tlm::tlm_sync_enum r = memory->nb_transport_fw(trans, phase, delay);
    ++cache_.stats().writes;
    if (refused(trans)) {
      ext->how.l1 = L1Result::kWriteMiss;
      return r;
    }
    --cache_.stats().writes;  // write() counts it
    const bool hit = cache_.write(space, address, trans.get_data_ptr(), trans.get_byte_enable_ptr(), trans.get_data_length(), now);
    // A prefetched line waiting in the buffer must not go stale either.
    if (buffer_) buffer_->write(space, address, trans.get_data_ptr(), trans.get_byte_enable_ptr(), trans.get_data_length(), now);
    // A line whose fill is out takes the write too: it is placed from there
    // (allocate: fill), and a read merging after its line was evicted reads there.
    if (FillSlot* f = filling(space, address)) {
      const unsigned char* be = trans.get_byte_enable_ptr();
      const unsigned be_len = trans.get_byte_enable_length() ? trans.get_byte_enable_length() : trans.get_data_length();
      for (unsigned i = 0; i < trans.get_data_length(); ++i)
        if (!be || be[i % be_len] == TLM_BYTE_ENABLED) f->line[address - cache_.line_of(address) + i] = trans.get_data_ptr()[i];
    }
    ext->how.l1 = hit ? L1Result::kWriteHit : L1Result::kWriteMiss;
    return r;
  }
  return read_at(trans, *ext, phase, delay);
}

L1CacheTlm::FillSlot* L1CacheTlm::filling(unsigned space, uint64_t address) {
  const auto it = filling_.find(key(space, cache_.line_of(address)));
  return it == filling_.end() ? nullptr : it->second;
}

tlm::tlm_sync_enum L1CacheTlm::read_at(tlm::tlm_generic_payload& trans, RequestExtension& ext, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) {
  How& how = ext.how;
  const uint64_t now = how.cycle;
  const uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  const unsigned space = ext.info.process;
  L1Cache::Lookup at = look_up(space, address, now, /*at=*/true);
  if (at.result != L1Result::kMiss && at.ready != L1Cache::kPendingReady) {
    // The L1 answers now: after its hit latency, and not before the line is there.
    count_use(at, now);
    const uint64_t done = std::max(now + hit_latency_, at.ready);
    cache_.copy_out(at, address, trans.get_data_ptr(), length);
    how.l1 = at.result;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    delay += clock_.time(done - now);
    how.cycle = done;
    if (prefetcher_) observe_at(trans, done);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
  }
  FillSlot* f = filling(space, address);
  if (at.result == L1Result::kMiss && f) cache_.count_merge_not_miss();  // the line is in its MSHR (allocate: fill, or a prefetch)
  if (f) return merge_into_fill(trans, how, at, *f, phase, delay);
  return start_fill(trans, ext, phase);
}

// Its data now, its answer with the fill's.
tlm::tlm_sync_enum L1CacheTlm::merge_into_fill(tlm::tlm_generic_payload& trans, How& how, const L1Cache::Lookup& at, FillSlot& f,
                                               tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  const uint64_t now = how.cycle;
  const uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  if (at.result == L1Result::kMiss) std::memcpy(trans.get_data_ptr(), f.line.data() + (address - cache_.line_of(address)), length);
  else cache_.copy_out(at, address, trans.get_data_ptr(), length);
  if (at.result != L1Result::kMiss) count_use(at, now);  // a prefetched line placed at its send: useful, and late
  else if (f.prefetch && !f.used) {
    ++prefetch_stats_.useful;
    ++prefetch_stats_.late;
  }
  f.used = true;
  how.l1 = L1Result::kMerge;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (f.answered) {
    // The fill's answer came before its data: this read is answered now, with the data.
    const uint64_t done = std::max(now + hit_latency_, f.finish);
    delay += clock_.time(done - now);
    how.cycle = done;
    if (prefetcher_) observe_at(trans, done);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
  }
  f.waiters.push_back({&trans, now});
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

// The line's data as the memory holds it now (the requests issued before
// this one have moved theirs), and a fill for its timing.
tlm::tlm_sync_enum L1CacheTlm::start_fill(tlm::tlm_generic_payload& trans, RequestExtension& ext, tlm::tlm_phase& phase) {
  How& how = ext.how;
  const uint64_t now = how.cycle;
  const uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  const unsigned space = ext.info.process;
  FillSlot& fill = fills_.take();
  fill.line.resize(cache_.line_bytes());
  fill.scratch.resize(cache_.line_bytes());
  const uint64_t line = cache_.line_of(address);
  fill.space = space;
  fill.address = address;
  fill.seq = fill_seq_++;
  fill.prefetch = false;
  fill.used = true;
  fill.answered = false;
  fill.current = true;
  fill.waiters.clear();
  fill.waiters.push_back({&trans, now});
  RequestExtension& fe = fill.payload.ext;
  fe.info = ext.info;
  fe.info.timing_only = true;  // its line was read at the miss
  fe.how = how;
  set_up(fill.payload.trans, tlm::TLM_READ_COMMAND, line, fill.line.data(), cache_.line_bytes());
  // A line that does not translate reads nothing here; its fill faults, and so does the miss.
  if (memory->transport_dbg(fill.payload.trans) != cache_.line_bytes()) std::fill(fill.line.begin(), fill.line.end(), 0);
  set_up(fill.payload.trans, tlm::TLM_READ_COMMAND, line, fill.scratch.data(), cache_.line_bytes());
  if (allocate_ == L1Allocate::kOnMiss) cache_.place(space, address, L1Cache::kPendingReady, fill.line.data());
  filling_[key(space, line)] = &fill;
  std::memcpy(trans.get_data_ptr(), fill.line.data() + (address - line), length);
  how.l1 = L1Result::kMiss;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  // Out after the tag look-up, once an MSHR is free: one released by then,
  // or the first to be (the fills whose answers have not come hold theirs).
  const uint64_t want = now + hit_latency_;
  while (!releases_.empty() && releases_.top() <= want) releases_.pop();
  if (fills_unanswered_ + releases_.size() < cache_.mshrs()) {
    fill.out = want;
  } else if (!releases_.empty()) {
    fill.out = releases_.top();
    releases_.pop();
    cache_.count_mshr_stall(fill.out - want);
  } else {
    fill.out = want;  // until an answer frees an MSHR
    mshr_wait_.push_back(&fill);
    ++fills_unanswered_;
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  ++fills_unanswered_;
  if (fill.out == now) send_fill(fill);
  else calendar_->at(fill.out, rank_, fill.seq, [this, &fill] { send_fill(fill); });
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void L1CacheTlm::send_fill(FillSlot& f) {
  How& how = f.payload.ext.how;
  how.cycle = f.out;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (memory->nb_transport_fw(f.payload.trans, phase, delay) == tlm::TLM_COMPLETED) fill_answered(f);
}

tlm::tlm_sync_enum L1CacheTlm::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  if (FillSlot* f = fills_.find(trans)) {
    // Taken in the calendar, by fill: two fills answered in one cycle are
    // taken in the same order whatever order their channels answered in.
    calendar_->at(now_cycle(), rank_, f->seq, [this, f] { fill_answered(*f); });
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  // A write's or a strided request's answer; the prefetch unit sees a
  // strided read's data too, in the calendar by request (not in the order channels answered).
  if (prefetcher_ && trans.is_read() && trans.get_extension<StridedExtension>() && trans.is_response_ok()) {
    const uint64_t done = trans.get_extension<RequestExtension>()->how.cycle;
    calendar_->at(now_cycle(), rank_, kStridedKey | trans.get_extension<RequestExtension>()->info.id,
                  [this, &trans, done] { observe_at(trans, done); });
  }
  return target->nb_transport_bw(trans, phase, delay);
}

void L1CacheTlm::fill_answered(FillSlot& f) {
  const How& fh = f.payload.ext.how;
  const uint64_t finish = fh.cycle;
  const uint64_t line = cache_.line_of(f.address);
  const bool ok = f.payload.trans.is_response_ok();
  if (f.prefetch) {
    // Its prefetch queue entry is free at its completion.
    --prefetches_unanswered_;
    prefetch_releases_.push(finish);
    if (!ok) ++prefetch_stats_.faulted;
  } else if (--fills_unanswered_, !mshr_wait_.empty()) {
    // Its MSHR is free at its completion: to the oldest miss waiting, or kept until then.
    FillSlot& next = *mshr_wait_.front();
    mshr_wait_.pop_front();
    const uint64_t out = std::max(finish, next.out);
    cache_.count_mshr_stall(out - next.out);
    next.out = out;  // counted among the unanswered since its miss
    calendar_->at(out, rank_, next.seq, [this, &next] { send_fill(next); });
  } else {
    releases_.push(finish);
  }
  for (size_t i = 0; i < f.waiters.size(); ++i) {
    tlm::tlm_generic_payload& t = *f.waiters[i].trans;
    How& how = t.get_extension<RequestExtension>()->how;
    if (!ok) {
      // The reads merged into a fill that faulted fault with it (in lt, no read merges into a line never placed).
      t.set_response_status(f.payload.trans.get_response_status());
      how.fault = fh.fault;
    }
    uint64_t done = std::max(f.waiters[i].issue + hit_latency_, finish);
    if (i == 0 && !f.prefetch) {
      // The miss's how is its fill's, at its own bytes of the line.
      const uint64_t offset = f.address - line;
      how = fh;
      how.l1 = L1Result::kMiss;
      how.physical_address += offset;
      how.mapped_address += offset;
      how.local_address += offset;
      if (how.mmu) how.virtual_address += offset;
      done = finish;
    }
    answer(t, done);
    if (prefetcher_ && ok) observe_at(t, done);
  }
  if (f.prefetch && ok && f.current) {
    // The line's data may ask for more (BFS: the vertices of a worklist line).
    prefetcher_->on_prefetch_fill(f.request, line, f.line.data(), finish, pending_);
    schedule_prefetches(f.payload.ext.info);
  }
  // The line goes in when its data is back, not when the memory answered
  // (a channel answers when it knows the completion, often at once): until
  // then it evicts nothing, and a read of it merges.
  if (ok && finish > now_cycle()) {
    f.answered = true;
    f.finish = finish;
    calendar_->at(finish, rank_, f.seq, [this, &f] { fill_in(f); });
  } else {
    fill_in(f);
  }
}

void L1CacheTlm::fill_in(FillSlot& f) {
  const How& fh = f.payload.ext.how;
  if (!f.current) {
    fills_.give(f);
    return;
  }
  filling_.erase(key(f.space, cache_.line_of(f.address)));
  const bool ok = f.payload.trans.is_response_ok();
  L1Cache& into = f.prefetch && buffer_ ? *buffer_ : cache_;
  if (ok && allocate_ == L1Allocate::kOnMiss) into.set_ready(f.space, f.address, fh.cycle);
  else if (ok) into.place(f.space, f.address, fh.cycle, f.line.data(), f.prefetch && !f.used);
  else if (allocate_ == L1Allocate::kOnMiss) into.drop_pending(f.space, f.address);  // as lt, a faulted fill places nothing
  fills_.give(f);
}

// The prefetch unit sees a demand read answered at `done` (its data is in the payload since its issue).
void L1CacheTlm::observe_at(tlm::tlm_generic_payload& trans, uint64_t done) {
  const RequestExtension& ext = *trans.get_extension<RequestExtension>();
  DemandRead d;
  if (const StridedExtension* sx = trans.get_extension<StridedExtension>())
    d = demand_read(ext, ext.info.issue_cycle, sx->shape.base, sx->shape.stride * sx->shape.count, trans.get_data_ptr());
  else
    d = demand_read(ext, ext.info.issue_cycle, trans.get_address(), trans.get_data_length(), trans.get_data_ptr());
  d.completion_cycle = done;
  refresh_classifier();
  prefetcher_->on_demand_read(d, pending_);
  schedule_prefetches(ext.info);
}

// The prefetches the unit asked for go out at the cycle their trigger's data was back.
void L1CacheTlm::schedule_prefetches(const RequestInfo& demand) {
  for (const PrefetchRequest& p : pending_) {
    const uint64_t k = kPrefetchKey | prefetch_seq_++;
    calendar_->at(p.cycle, rank_, k, [this, p, demand] { send_prefetch(p, demand); });
  }
  pending_.clear();
}

void L1CacheTlm::send_prefetch(const PrefetchRequest& p, const RequestInfo& demand) {
  const unsigned space = demand.process;
  PrefetchStats& st = prefetch_stats_;
  ++st.generated;
  if (cache_.holds(space, p.address) || (buffer_ && buffer_->holds(space, p.address)) || filling(space, p.address)) {
    ++st.redundant;
    return;
  }
  const uint64_t now = calendar_->now();
  while (!prefetch_releases_.empty() && prefetch_releases_.top() <= now) prefetch_releases_.pop();
  if (prefetches_unanswered_ + prefetch_releases_.size() >= queue_entries_) {
    ++st.dropped;
    return;
  }
  FillSlot& f = fills_.take();
  f.line.resize(cache_.line_bytes());
  f.scratch.resize(cache_.line_bytes());
  const uint64_t line = cache_.line_of(p.address);
  f.space = space;
  f.address = p.address;
  f.seq = fill_seq_++;
  f.prefetch = true;
  f.used = false;
  f.answered = false;
  f.current = true;
  f.request = p;
  f.waiters.clear();
  f.out = now;
  RequestExtension& pe = f.payload.ext;
  pe.info = demand;
  pe.info.origin = Origin::kPrefetch;
  pe.info.timing_only = true;  // its line is read now
  pe.how = How{};
  pe.how.cycle = now;
  pe.how.task_type = demand.task_type;
  set_up(f.payload.trans, tlm::TLM_READ_COMMAND, line, f.line.data(), cache_.line_bytes());
  if (memory->transport_dbg(f.payload.trans) != cache_.line_bytes()) std::fill(f.line.begin(), f.line.end(), 0);
  set_up(f.payload.trans, tlm::TLM_READ_COMMAND, line, f.scratch.data(), cache_.line_bytes());
  L1Cache& into = buffer_ ? *buffer_ : cache_;
  if (allocate_ == L1Allocate::kOnMiss) into.place(space, p.address, L1Cache::kPendingReady, f.line.data(), /*prefetch=*/true);
  filling_[key(space, line)] = &f;
  ++st.issued;
  ++st.issued_by_array[static_cast<unsigned>(p.array)];
  ++prefetches_unanswered_;
  send_fill(f);
}

void L1CacheTlm::answer(tlm::tlm_generic_payload& trans, uint64_t cycle) {
  How& how = trans.get_extension<RequestExtension>()->how;
  how.cycle = cycle;
  const uint64_t now = now_cycle();
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = cycle > now ? clock_.time(cycle - now) : sc_core::SC_ZERO_TIME;
  target->nb_transport_bw(trans, phase, delay);
}

}  // namespace gpumem
