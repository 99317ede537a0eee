// TLM shell of the MMU: looks the VA up in the TLB, walks the page tables in
// simulated memory through its walker socket on a miss or a nested-region hit
// (each level one timed memory read), and passes the request on with its
// physical address. A fault ends the request with TLM_ADDRESS_ERROR_RESPONSE
// and a fault record.
//
// Approximately timed (simulation.timing: at): a request's translation is
// worked out when it arrives, in arrival order, as in lt (the TLB's
// contents are lt's); its walk's page-table reads then go out one after
// another as requests of their own, each when the one before has been
// answered and walk_level_cycles have passed, and the request goes on (or
// is answered with its fault) when the last has. The entry a walk fills is
// in the TLB from its arrival, but a request that hits it before the walk
// is over waits for the walk's end, as a TLB's miss entry holds the hits
// under it. The PTE values the walk used were read at arrival by debug
// transport: page tables do not change while a run goes on
// (docs/page-tables.md).
#pragma once
#include <algorithm>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "mmu/mmu.hpp"
#include "payload/answer_order.hpp"
#include "payload/clock.hpp"
#include "payload/event_calendar.hpp"
#include "payload/payload_extensions.hpp"
#include "payload/strided.hpp"

namespace gpumem {

class MmuTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MmuTlm> target;
  tlm_utils::simple_initiator_socket<MmuTlm> downstream;  // translated requests
  tlm_utils::simple_initiator_socket<MmuTlm> walker;      // page-table reads, physical

  MmuTlm(sc_core::sc_module_name name, const MmuParams& params, const MmuRegisters& regs, const Clock& clock)
      : sc_module(name),
        target("target"),
        downstream("downstream"),
        walker("walker"),
        model_(params, regs),
        clock_(clock),
        hit_(clock.span(params.tlb_hit_cycles)),
        walk_level_(clock.span(params.walk_level_cycles)),
        hit_cycles_(params.tlb_hit_cycles),
        walk_level_cycles_(params.walk_level_cycles),
        sets_task_(params.sets_task_type) {
    target.register_b_transport(this, &MmuTlm::b_transport);
    target.register_transport_dbg(this, &MmuTlm::transport_dbg);
    walk_.set_extension(&walk_ext_);
    walk_ext_.info.origin = Origin::kPageTable;
    read_pte_ = [this](uint64_t pa) { return read_pte(pa, *walk_delay_, *walk_cycle_); };  // built once, not per request
    record_pte_ = [this](uint64_t pa) {
      recording_->push_back(pa);
      return debug_pte(pa);
    };
  }

  // simulation.timing: at: the calendar its walks act in, at this rank.
  void use_calendar(EventCalendar& calendar, unsigned rank) {
    calendar_ = &calendar;
    rank_ = rank;
    filling_.assign(size_t{model_.tlb().sets()} * model_.tlb().ways(), nullptr);
    target.register_nb_transport_fw(this, &MmuTlm::nb_transport_fw);
    downstream.register_nb_transport_bw(this, &MmuTlm::nb_transport_bw);
    walker.register_nb_transport_bw(this, &MmuTlm::walker_bw);
  }
  ~MmuTlm() override {
    walk_.clear_extension<RequestExtension>();  // a member: the payload must not free it
  }

  Mmu& model() { return model_; }
  const MmuStats& stats() const { return model_.stats(); }
  const std::vector<FaultRecord>& faults() const { return model_.faults(); }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    RequestExtension* ext = request_of(trans);
    if (!ext) return;
    RequestInfo& info = ext->info;
    How& how = ext->how;
    advance(how, delay, hit_);
    walk_delay_ = &delay;
    walk_cycle_ = &how.cycle;
    walk_issue_cycle_ = info.issue_cycle;
    walk_ext_.info.id = info.id;  // the walk's reads serve this request (the DRAM's command trace names it)
    if (translate_payload(trans, *ext, read_pte_)) downstream->b_transport(trans, delay);
  }

  // The payload's address, or each element's of a strided one, translated;
  // false on a fault (the payload says which).
  bool translate_payload(tlm::tlm_generic_payload& trans, RequestExtension& ext, const ReadPte& read) {
    RequestInfo& info = ext.info;
    How& how = ext.how;
    if (StridedExtension* sx = trans.get_extension<StridedExtension>()) {
      // Each element translates as a request would; the TLB is looked up for
      // all of them in the one hit time, walks follow one another.
      for (unsigned i = 0; i < sx->shape.count; ++i) {
        How& e = sx->element[i];
        if (!translate(info, how.cycle, sx->address[i], trans.is_write(), e, read)) {
          for (unsigned j = 0; j < sx->shape.count; ++j) sx->element[j].fault = e.fault;  // none of them is served
          const uint64_t cycle = how.cycle;
          how = e;
          how.cycle = cycle;
          trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
          return false;
        }
        sx->address[i] = e.physical_address;
      }
      // The request's own How stays its cycle: the router copies element 0's in.
    } else {
      if (!translate(info, how.cycle, trans.get_address(), trans.is_write(), how, read)) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return false;
      }
      if (sets_task_) info.task_type = how.task_type;
      trans.set_address(how.physical_address);
    }
    return true;
  }

  // ---- simulation.timing: at
  struct Walk {  // a request from its arrival until it goes on
    RequestPayload payload;  // its page-table read in flight
    uint64_t value = 0;
    tlm::tlm_generic_payload* trans = nullptr;
    std::vector<uint64_t> reads;  // the PTEs' PAs, in the order the walks read them
    size_t next = 0;
    bool translated = false;
    uint64_t key = 0, start = 0;
    std::vector<Walk*> waits_for;  // walks in flight whose entries this request's translation hit
    uint64_t ready = 0;            // the latest end of those done so far
    std::vector<Walk*> waiters;    // requests that hit the entry this walk fills before it was over
    bool walked = false;           // its own page-table reads are done
    std::vector<size_t> fills;     // the entries it fills (set * ways + way)
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase != tlm::BEGIN_REQ) return downstream->nb_transport_fw(trans, phase, delay);
    RequestExtension* ext = request_of(trans);
    if (!ext) return tlm::TLM_COMPLETED;
    Walk& w = walks_.take();
    w.trans = &trans;
    w.reads.clear();
    w.next = 0;
    w.key = walk_seq_++;
    ext->how.cycle += hit_cycles_;
    w.start = ext->how.cycle;
    recording_ = &w.reads;
    w.translated = translate_payload(trans, *ext, record_pte_);
    w.waits_for.clear();
    w.waiters.clear();
    w.ready = w.start;
    w.walked = w.reads.empty();
    w.fills.clear();
    auto entry_of = [&](const How& h) {
      if (!h.mmu) return;
      const size_t e = size_t{h.tlb_set} * model_.tlb().ways() + h.tlb_way;
      if (h.filled) w.fills.push_back(e);
      else if (h.walk_reads == 0 && (h.tlb == TlbResult::kHitSmall || h.tlb == TlbResult::kHitLarge))
        if (Walk* f = filling_[e]; f && std::find(w.waits_for.begin(), w.waits_for.end(), f) == w.waits_for.end()) {
          w.waits_for.push_back(f);
          f->waiters.push_back(&w);
        }
    };
    StridedExtension* sx = w.translated ? trans.get_extension<StridedExtension>() : nullptr;
    if (sx) for (unsigned i = 0; i < sx->shape.count; ++i) entry_of(sx->element[i]);
    else entry_of(ext->how);
    if (!w.walked) for (size_t e : w.fills) filling_[e] = &w;
    if (!w.walked) calendar_->at(w.start, rank_, w.key, [this, &w] { read_next(w); });
    else if (w.waits_for.empty()) go_on(w, w.start);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }

  void read_next(Walk& w) {
    RequestExtension& ext = *w.trans->get_extension<RequestExtension>();
    set_up(w.payload.trans, tlm::TLM_READ_COMMAND, w.reads[w.next], &w.value, kPteBytes);
    RequestExtension& r = w.payload.ext;
    r.info = RequestInfo{};
    r.info.origin = Origin::kPageTable;
    r.info.issue_cycle = ext.info.issue_cycle;
    r.info.id = ext.info.id;  // the walk's reads serve this request (the DRAM's command trace names it)
    r.info.timing_only = true;  // the walk read its PTEs at the request's arrival
    r.how = How{};
    r.how.cycle = calendar_->now();
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (walker->nb_transport_fw(w.payload.trans, phase, delay) == tlm::TLM_COMPLETED) read_answered(w);
  }

  tlm::tlm_sync_enum walker_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    Walk& w = walks_.of(trans);
    calendar_->at(calendar_->now(), rank_, w.key, [this, &w] { read_answered(w); });  // in request order, whoever answered first
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }

  // A page-table read is back: the next level after walk_level_cycles, or the request goes on.
  void read_answered(Walk& w) {
    if (!w.payload.trans.is_response_ok())
      throw std::runtime_error("page-table read at PA " + std::to_string(w.reads[w.next]) + ": " + w.payload.trans.get_response_string());
    const uint64_t next = w.payload.ext.how.cycle + walk_level_cycles_;
    if (++w.next < w.reads.size()) calendar_->at(next, rank_, w.key, [this, &w] { read_next(w); });
    else calendar_->at(next, rank_, w.key, [this, &w, next] { walk_over(w, next); });
  }

  // The walk's last level is done at `cycle`: the requests that hit its entry
  // meanwhile may go on, and so may it, unless it too waits for a walk.
  void walk_over(Walk& w, uint64_t cycle) {
    if (!w.reads.empty()) model_.stats().walk_cycles += cycle - w.start;
    for (size_t e : w.fills)
      if (filling_[e] == &w) filling_[e] = nullptr;
    for (Walk* h : w.waiters) {
      h->ready = std::max(h->ready, cycle);
      h->waits_for.erase(std::find(h->waits_for.begin(), h->waits_for.end(), &w));
      if (h->walked && h->waits_for.empty()) calendar_->at(h->ready, rank_, h->key, [this, h] { go_on(*h, h->ready); });
    }
    w.waiters.clear();
    w.walked = true;
    w.ready = std::max(w.ready, cycle);
    if (w.waits_for.empty()) go_on(w, w.ready);
  }

  // The walk is over at `cycle`: the request goes on, or is answered with its fault.
  void go_on(Walk& w, uint64_t cycle) {
    tlm::tlm_generic_payload& trans = *w.trans;
    How& how = trans.get_extension<RequestExtension>()->how;
    how.cycle = cycle;
    walks_.give(w);
    if (w.translated) {
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      if (downstream->nb_transport_fw(trans, phase, delay) != tlm::TLM_COMPLETED) return;
    }
    answer(trans);
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    return target->nb_transport_bw(trans, phase, delay);
  }

  void answer(tlm::tlm_generic_payload& trans) {
    const uint64_t cycle = trans.get_extension<RequestExtension>()->how.cycle;
    const uint64_t now = calendar_->now();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = cycle > now ? clock_.time(cycle - now) : sc_core::SC_ZERO_TIME;
    target->nb_transport_bw(trans, phase, delay);
  }

  // simulation.timing: at: the translation a request's data moves by at its
  // issue, remembered by small page and access: it is a walk of the page
  // tables each time, which do not change while a run goes on
  // (docs/page-tables.md); forgotten when the root or an invalidation says
  // they may have. A direct-mapped table, not a hash map: a request's
  // lookup then touches one host cache line, not a bucket and a node.
  MmuOutcome issue_translation(uint64_t va, Mmu::Access access) {
    const MmuRegisters& regs = model_.registers();
    if (issue_pages_.empty() || regs.pt_root != issue_root_ || regs.invalidations != issue_invalidations_) {
      issue_pages_.assign(size_t{1} << kIssuePageBits, IssuePage{});
      issue_root_ = regs.pt_root;
      issue_invalidations_ = regs.invalidations;
    }
    const unsigned small_bits = model_.geometry().small_bits;
    const uint64_t offset = va & ((uint64_t{1} << small_bits) - 1);
    const uint64_t key = (va >> small_bits) << 1 | (access == Mmu::Access::kWrite);
    IssuePage& slot = issue_pages_[(key * 0x9E3779B97F4A7C15ull) >> (64 - kIssuePageBits)];
    MmuOutcome out;
    if (slot.key == key) {
      out.pa = slot.pa + offset;
      out.task_type = slot.task_type;
      return out;
    }
    out = model_.translate_debug(va, [this](uint64_t pa) { return debug_pte(pa); }, access);
    if (out.fault == FaultReason::kNone) slot = {key, out.pa - offset, out.task_type};
    return out;
  }

  uint64_t debug_pte(uint64_t pa) {
    uint64_t value = 0;
    tlm::tlm_generic_payload t;
    set_up(t, tlm::TLM_READ_COMMAND, pa, &value, kPteBytes);
    if (walker->transport_dbg(t) != kPteBytes) throw std::runtime_error("page-table read at PA " + std::to_string(pa) + " refused");
    return value;
  }

  // Translates `va` (the walks advancing `cycle`) and fills `how` with how it
  // came about; false on a fault, which is recorded.
  bool translate(const RequestInfo& info, const uint64_t& cycle, uint64_t va, bool write, How& how, const ReadPte& read) {
    if (sets_task_) how.virtual_address = va;
    const uint64_t before_walk = cycle;
    const MmuOutcome out = model_.translate(va, write, read, info.origin == Origin::kPrefetch ? Requester::kPrefetch : Requester::kProgram);
    if (out.walks) model_.stats().walk_cycles += cycle - before_walk;

    how.mmu = true;
    how.tlb = out.first;
    how.tlb_set = out.set;
    how.tlb_way = out.way;
    how.large_page = out.large_page;
    how.walk_reads = out.walk_reads;
    how.filled = out.filled;
    how.evicted = false;
    if (out.filled) {  // the victim is only meaningful after a fill: not copied on hits
      how.fill_way = out.fill.way;
      how.evicted = out.fill.evicted;
      if (out.fill.evicted) how.victim = out.fill.victim;
    }
    how.fault = out.fault;
    if (out.fault != FaultReason::kNone) {
      // Before the MMU the address here is the mapped VA and the translator
      // already chose the task type: report the request's own VA and that task.
      if (sets_task_) how.task_type = out.task_type;
      // A prefetch's fault is not the program's: the prefetch unit drops it
      // and counts it; the MMU's faults and fault records stay the program's.
      if (info.origin != Origin::kPrefetch) model_.record_fault(info.id, info.process, how.virtual_address, how.task_type, out.fault);
      return false;
    }
    how.physical_address = out.pa;
    if (sets_task_) how.task_type = out.task_type;
    return true;
  }

  // Untimed, for loaders: the page tables read by debug transport, the TLB
  // untouched. An address that does not translate transfers nothing.
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) {
    RequestExtension* ext = trans.get_extension<RequestExtension>();
    if (!ext) return 0;
    const uint64_t va = trans.get_address();
    const Mmu::Access access = !ext->info.data_at_issue ? Mmu::Access::kAny
                               : trans.is_write()        ? Mmu::Access::kWrite
                                                         : Mmu::Access::kRead;
    MmuOutcome out;
    if (access == Mmu::Access::kAny) {
      out = model_.translate_debug(va, [this](uint64_t pa) { return debug_pte(pa); }, access);
    } else {
      out = issue_translation(va, access);
    }
    if (out.fault != FaultReason::kNone) return 0;
    if (sets_task_) ext->info.task_type = out.task_type;
    ext->how.physical_address = out.pa;
    trans.set_address(out.pa);
    const unsigned n = downstream->transport_dbg(trans);
    trans.set_address(va);
    return n;
  }

  uint64_t read_pte(uint64_t pa, sc_core::sc_time& delay, uint64_t& cycle) {
    uint64_t value = 0;
    set_up(walk_, tlm::TLM_READ_COMMAND, pa, &value, kPteBytes);
    walk_ext_.how.cycle = cycle;
    walk_ext_.info.issue_cycle = walk_issue_cycle_;  // the channel's horizon: no access of a later request comes earlier
    walker->b_transport(walk_, delay);
    if (!walk_.is_response_ok()) throw std::runtime_error("page-table read at PA " + std::to_string(pa) + ": " + walk_.get_response_string());
    advance(walk_ext_.how, delay, walk_level_);
    cycle = walk_ext_.how.cycle;
    return value;  // little-endian host, as the driver wrote it
  }

  Mmu model_;
  const Clock& clock_;
  Clock::Span hit_, walk_level_;
  unsigned hit_cycles_, walk_level_cycles_;
  bool sets_task_;  // after the MMU the translator takes the task type from the PTE
  tlm::tlm_generic_payload walk_;
  RequestExtension walk_ext_;
  ReadPte read_pte_;
  sc_core::sc_time* walk_delay_ = nullptr;  // the current request's delay and cycle, for read_pte_
  uint64_t* walk_cycle_ = nullptr;
  uint64_t walk_issue_cycle_ = 0;
  // at:
  ReadPte record_pte_;                      // reads a PTE by debug transport and notes its PA in recording_
  std::vector<uint64_t>* recording_ = nullptr;
  EventCalendar* calendar_ = nullptr;
  unsigned rank_ = 0;
  SlotPool<Walk> walks_;
  uint64_t walk_seq_ = 0;
  std::vector<Walk*> filling_;  // per TLB entry (set * ways + way): the walk in flight that fills it, or null
  struct IssuePage {
    uint64_t key = ~uint64_t{0};  // small page << 1 | write; never a real key (a VA's page has at most 52 bits)
    uint64_t pa = 0;              // at the page's offset 0
    unsigned task_type = 0;
  };
  static constexpr unsigned kIssuePageBits = 14;
  std::vector<IssuePage> issue_pages_;  // by a hash of the key; the translation only (issue_translation's callers read no more)
  uint64_t issue_root_ = 0, issue_invalidations_ = 0;
};

}  // namespace gpumem
