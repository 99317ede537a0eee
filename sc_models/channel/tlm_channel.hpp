// TLM shell of one memory channel. Loosely timed (simulation.timing: lt):
// the returned delay ends at the cycle the access finishes; the channel
// never waits, so the caller stays decoupled. Approximately timed (at): a
// request comes with nb_transport_fw's BEGIN_REQ and its request phase ends
// at once (END_REQ: the channel holds what its queues cannot take yet); a
// DRAM's controller decides at command time, and the channel answers with
// BEGIN_RESP on nb_transport_bw, annotated with the delay to the cycle the
// access finishes, as soon as that cycle is decided. A simple channel, which
// serves in arrival order, answers at once (TLM_COMPLETED). The arrival
// cycle comes from the request's How (How::cycle); the data moves at
// arrival in both modes, so a read returns the last write that arrived
// before it whatever order the controller serves them in.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <systemc>
#include <vector>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "channel/channel_model.hpp"
#include "payload/clock.hpp"
#include "payload/event_calendar.hpp"
#include "payload/payload_extensions.hpp"
#include "payload/strided.hpp"

namespace gpumem {

class MemoryChannelTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemoryChannelTlm> target;

  // `pages`: shared by the model's channels (null: the channel's own).
  MemoryChannelTlm(sc_core::sc_module_name name, const ChannelParams& params, const Clock& clock, PagePool* pages = nullptr)
      : sc_module(name), target("target"), model_(params, pages), clock_(clock), clocks_{params.dram.cycle_ps, params.dram.spec.tck_ps} {
    target.register_b_transport(this, &MemoryChannelTlm::b_transport);
    target.register_transport_dbg(this, &MemoryChannelTlm::transport_dbg);
    if (params.timing != TimingMode::kAt) return;
    target.register_nb_transport_fw(this, &MemoryChannelTlm::nb_transport_fw);
    SC_HAS_PROCESS(MemoryChannelTlm);
    SC_METHOD(decide);
    sensitive << wake_;
    dont_initialize();
  }

  ChannelModel& model() { return model_; }

  // at, in a memory system: the controller decides as a waker of the
  // system's calendar (payload/event_calendar.hpp), rather than in a
  // process of its own woken by a timed event. What it decides is the
  // same either way (an arrival first decides every cycle before it, and
  // every answer is taken in the calendar); the calendar's one wake for the
  // whole system costs the kernel less than a timed event a channel. The
  // channels act after every other actor of their cycle, in channel order.
  void use_calendar(EventCalendar& calendar) {
    calendar_ = &calendar;
    waker_ = calendar.add_waker([this] { decide(); });
  }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    RequestExtension* ext = request_of(trans);
    if (!ext) return;  // a timed access must say when it arrives
    How& how = ext->how;
    if (ChannelMessage* m = trans.get_extension<ChannelMessage>()) {
      serve(trans, *m, how, ext->info, delay);
      return;
    }
    const uint64_t local = trans.get_address();
    // The data's host lines load while the timing is worked out.
    model_.prefetch(local, trans.get_data_length(), trans.is_write());
    const ChannelModel::Slot slot =
        model_.request(how.cycle, ext->info.issue_cycle, local, trans.get_data_length(), trans.is_write(), ext->info.id);
    access(trans, local);
    how.start_cycle = slot.start;
    how.finish_cycle = slot.finish;
    note_dram(how, slot);
    advance(how, delay, clock_.span(slot.finish - how.cycle));
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  // A strided request's message (CN104199782B, step 3): the elements one by one,
  // one access for each granule they fall in, the accesses queued behind
  // one another from the message's arrival.
  void serve(tlm::tlm_generic_payload& trans, ChannelMessage& m, How& how, const RequestInfo& info, sc_core::sc_time& delay,
             bool move_data = true) {
    const uint64_t horizon = info.issue_cycle;
    std::array<ChannelModel::Slot, kMaxStridedElements> slots;
    for (unsigned a = 0; a < m.accesses; ++a) {
      unsigned first = 0;  // the access's first element says where it lands
      while (first + 1 < m.count && m.access[first] != a) ++first;
      slots[a] = model_.access(how.cycle, horizon, m.local[first], trans.is_write(), info.id);
    }
    unsigned char* data = trans.get_data_ptr();
    for (unsigned k = 0; k < m.count; ++k) {
      const ChannelModel::Slot& s = slots[m.access[k]];
      if (move_data && trans.is_read()) model_.read(m.local[k], data + k * m.element_size, m.element_size);
      else if (move_data) model_.write(m.local[k], data + k * m.element_size, m.element_size);
      m.start[k] = s.start;
      m.finish[k] = s.finish;
      m.accept[k] = s.accept;
      m.at[k] = s.at;
      m.row[k] = s.row;
    }
    m.dram = model_.dram() != nullptr;
    uint64_t finish = how.cycle;
    for (unsigned a = 0; a < m.accesses; ++a) finish = std::max(finish, slots[a].finish);
    how.start_cycle = slots[0].start;
    how.finish_cycle = finish;
    note_dram(how, slots[0]);
    advance(how, delay, clock_.span(finish - how.cycle));
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  void note_dram(How& how, const ChannelModel::Slot& slot) const {
    if (!model_.dram()) return;
    how.dram = true;
    how.arrival_cycle = how.cycle;
    how.accept_cycle = slot.accept;
    how.dram_at = slot.at;
    how.row = slot.row;
  }

  // simulation.timing: at. A request's BEGIN_REQ: its data moves now; a
  // simple channel answers at once, a DRAM's controller takes it.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP: the initiator took the answer
    RequestExtension* ext = request_of(trans);
    if (!ext) return tlm::TLM_COMPLETED;  // no arrival cycle
    How& how = ext->how;
    if (ChannelMessage* m = trans.get_extension<ChannelMessage>()) return message_fw(trans, *m, *ext, phase, delay);
    const uint64_t local = trans.get_address();
    if (!ext->info.timing_only) {
      model_.prefetch(local, trans.get_data_length(), trans.is_write());
      access(trans, local);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    DramController* k = model_.controller();
    if (!k) {
      // Served in arrival order: planning on arrival is exact here.
      const ChannelModel::Slot slot = model_.access(how.cycle, ext->info.issue_cycle, local, trans.is_write(), ext->info.id);
      how.start_cycle = slot.start;
      how.finish_cycle = slot.finish;
      advance(how, delay, clock_.span(slot.finish - how.cycle));
      phase = tlm::BEGIN_RESP;
      return tlm::TLM_COMPLETED;
    }
    if (const unsigned n = model_.accesses_of(local, trans.get_data_length()); n > 1)
      return arrive_accesses(trans, *ext, nullptr, n, phase, delay);
    model_.count_access();
    // Every memory cycle before now is decided before the arrival joins.
    const uint64_t now = clock_.cycles(sc_core::sc_time_stamp());
    model_.queue().arrive(how.cycle, std::min(now, how.cycle));
    k->run_until(clocks_.to_memory(now), decided_);
    const size_t others = decided_.size();
    k->arrive(reinterpret_cast<uintptr_t>(&trans), clocks_.to_memory(how.cycle), local, trans.is_write(), decided_,
              ext->info.origin == Origin::kPrefetch, ext->info.id);
    if (decided_.size() > others) {  // posted, or forwarded from a posted write: answered now
      const DramController::Done d = decided_.back();
      decided_.pop_back();
      const uint64_t finish = note(how, d);
      answered(how.arrival_cycle, finish);
      delay += clock_.time(finish - how.cycle);
      how.cycle = finish;
      phase = tlm::BEGIN_RESP;
      wake(now);
      return tlm::TLM_COMPLETED;
    }
    wake(decided_.empty() ? wake_cycle(*k, now) : now);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }

  // The controller's decisions up to now, and the answers they give.
  void decide() {
    DramController& k = *model_.controller();
    const uint64_t now = clock_.cycles(sc_core::sc_time_stamp());
    k.run_until(clocks_.to_memory(now), decided_);
    for (const DramController::Done& d : decided_) {
      if (is_access(d.token)) {
        MessageInFlight& f = *reinterpret_cast<const MessageInFlight::Access*>(d.token & ~uint64_t{1})->message;
        if (!decide_access(d)) continue;
        tlm::tlm_generic_payload& trans = *f.trans;
        How& how = trans.get_extension<RequestExtension>()->how;
        const uint64_t finish = std::max(close(f), now + 1);
        how.cycle = finish;
        how.finish_cycle = finish;
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = clock_.time(finish - now);
        target->nb_transport_bw(trans, phase, delay);
        continue;
      }
      auto& trans = *reinterpret_cast<tlm::tlm_generic_payload*>(d.token);
      How& how = trans.get_extension<RequestExtension>()->how;
      // An answer falls after the cycle it is given in: a write that waited
      // for room in the write queue is acknowledged the cycle after it entered.
      const uint64_t finish = std::max(note(how, d), now + 1);
      answered(how.arrival_cycle, finish);
      how.cycle = finish;
      how.finish_cycle = finish;
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_core::sc_time delay = clock_.time(finish - now);
      target->nb_transport_bw(trans, phase, delay);
    }
    decided_.clear();
    if (k.busy()) wake(wake_cycle(k, now));
  }

  // The channel's queue holds an access until its access finishes, not through memory.latency_cycles.
  void answered(uint64_t arrival, uint64_t finish) { model_.queue().answer(arrival, finish - model_.latency_cycles()); }

  // A decision in model cycles, for a request that arrived at `arrival`.
  struct Decided {
    uint64_t accept, start, finish;
  };
  Decided cycles_of(uint64_t arrival, const DramController::Done& d) const {
    const bool at_arrival = d.accept == clocks_.to_memory(arrival);
    const bool answered_at_arrival = d.row == RowResult::kPosted || d.row == RowResult::kForwarded;
    return {at_arrival ? arrival : clocks_.to_model(d.accept), answered_at_arrival ? arrival : clocks_.to_model(d.start),
            (answered_at_arrival && at_arrival ? arrival : clocks_.to_model(d.finish)) + model_.latency_cycles()};
  }

  // Fills the how of a request the controller has answered; its finish, in model cycles.
  uint64_t note(How& how, const DramController::Done& d) const {
    const Decided c = cycles_of(how.cycle, d);
    how.dram = true;
    how.arrival_cycle = how.cycle;
    how.accept_cycle = c.accept;
    how.start_cycle = c.start;
    how.finish_cycle = c.finish;
    how.dram_at = d.at;
    how.row = d.row;
    return c.finish;
  }

  // at: a strided request's message (CN104199782B, step 3), its data moved at
  // arrival as a request's; each granule its elements fall in is one access
  // of the controller's, and the message is answered when its last access
  // is. So is a request wider than one of the DRAM's accesses.
  struct MessageInFlight {
    tlm::tlm_generic_payload* trans = nullptr;
    ChannelMessage* message = nullptr;  // null: a plain request's accesses
    unsigned remaining = 0;             // accesses not yet decided
    uint64_t finish = 0;
    Decided first{};  // its first access's, as the request's how gives them
    DramAddress first_at{};
    RowResult first_row = RowResult::kHit;
    struct Access {
      MessageInFlight* message;
      unsigned index;
    };
    std::vector<Access> access;  // their tokens (the address, low bit set); sized before they go in
  };
  static bool is_access(uint64_t token) { return token & 1; }

  tlm::tlm_sync_enum message_fw(tlm::tlm_generic_payload& trans, ChannelMessage& m, RequestExtension& ext, tlm::tlm_phase& phase,
                                sc_core::sc_time& delay) {
    if (!model_.controller()) {  // served in arrival order, as lt does
      serve(trans, m, ext.how, ext.info, delay, !ext.info.timing_only);
      phase = tlm::BEGIN_RESP;
      return tlm::TLM_COMPLETED;
    }
    unsigned char* data = trans.get_data_ptr();
    for (unsigned e = 0; e < m.count && !ext.info.timing_only; ++e) {
      if (trans.is_read()) model_.read(m.local[e], data + e * m.element_size, m.element_size);
      else model_.write(m.local[e], data + e * m.element_size, m.element_size);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    m.dram = true;
    return arrive_accesses(trans, ext, &m, m.accesses, phase, delay);
  }

  // Where access `a` of a message or a wide request lands.
  uint64_t access_local(const tlm::tlm_generic_payload& trans, const ChannelMessage* m, unsigned a) const {
    if (!m) return model_.access_address(trans.get_address(), a);
    unsigned first = 0;  // the access's first element says where it lands
    while (first + 1 < m->count && m->access[first] != a) ++first;
    return m->local[first];
  }

  // The `accesses` of a message (`m`) or a wide request (null) into the
  // controller; answered at once if every one is (posted writes, forwarded
  // reads), else when the last is decided.
  tlm::tlm_sync_enum arrive_accesses(tlm::tlm_generic_payload& trans, RequestExtension& ext, ChannelMessage* m, unsigned accesses,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    How& how = ext.how;
    DramController* k = model_.controller();
    if (free_messages_.empty()) free_messages_.push_back(&message_pool_.emplace_back());
    MessageInFlight& f = *free_messages_.back();
    free_messages_.pop_back();
    f.trans = &trans;
    f.message = m;
    f.remaining = accesses;
    f.finish = how.cycle;
    if (f.access.size() < accesses) f.access.resize(accesses);
    const uint64_t now = clock_.cycles(sc_core::sc_time_stamp());
    k->run_until(clocks_.to_memory(now), decided_);
    const size_t others = decided_.size();
    for (unsigned a = 0; a < accesses; ++a) {
      model_.queue().arrive(how.cycle, std::min(now, how.cycle));
      model_.count_access();
      f.access[a] = {&f, a};
      k->arrive(reinterpret_cast<uintptr_t>(&f.access[a]) | 1, clocks_.to_memory(how.cycle), access_local(trans, m, a), trans.is_write(),
                decided_, ext.info.origin == Origin::kPrefetch, ext.info.id);
    }
    // Posted writes and forwarded reads are decided at arrival.
    for (size_t i = others; i < decided_.size(); ++i) decide_access(decided_[i]);
    decided_.resize(others);
    if (f.remaining == 0) {
      const uint64_t finish = close(f);
      delay += clock_.time(finish - how.cycle);
      how.cycle = finish;
      phase = tlm::BEGIN_RESP;
      wake(now);
      return tlm::TLM_COMPLETED;
    }
    wake(decided_.empty() ? wake_cycle(*k, now) : now);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }

  // One access of a message decided: its elements' figures; true when it was the message's last.
  bool decide_access(const DramController::Done& d) {
    const MessageInFlight::Access& a = *reinterpret_cast<const MessageInFlight::Access*>(d.token & ~uint64_t{1});
    MessageInFlight& f = *a.message;
    const uint64_t arrival = f.trans->get_extension<RequestExtension>()->how.cycle;
    const Decided c = cycles_of(arrival, d);
    answered(arrival, c.finish);
    if (a.index == 0) f.first = c, f.first_at = d.at, f.first_row = d.row;
    if (ChannelMessage* m = f.message)
      for (unsigned e = 0; e < m->count; ++e)
        if (m->access[e] == a.index) {
          m->start[e] = c.start;
          m->finish[e] = c.finish;
          m->accept[e] = c.accept;
          m->at[e] = d.at;
          m->row[e] = d.row;
        }
    f.finish = std::max(f.finish, c.finish);
    return --f.remaining == 0;
  }

  // A message or wide request whose accesses are all decided: its how, as lt gives it; its finish.
  uint64_t close(MessageInFlight& f) {
    How& how = f.trans->get_extension<RequestExtension>()->how;
    how.dram = true;
    how.arrival_cycle = how.cycle;
    how.start_cycle = f.first.start;
    how.finish_cycle = f.finish;
    how.accept_cycle = f.first.accept;
    how.dram_at = f.first_at;
    how.row = f.first_row;
    free_messages_.push_back(&f);
    return f.finish;
  }

  // From now to the model cycle before the controller's next answer could
  // fall (the decisions up to it in one batch), and at which its next
  // decision lies in the past.
  uint64_t wake_cycle(const DramController& k, uint64_t now) const {
    const uint64_t decided = clocks_.model_cycle_after(k.next_decision());
    const uint64_t answer = clocks_.to_model(k.next_answer());
    return std::max({now, decided, answer ? answer - 1 : 0});
  }

  // decide() at model cycle `cycle` (not before now), unless it is due
  // earlier already: in the calendar, or by the channel's own event.
  void wake(uint64_t cycle) {
    if (calendar_) {
      calendar_->wake(waker_, cycle);
      return;
    }
    const sc_core::sc_time at = clock_.time(cycle);
    wake_.notify(at > sc_core::sc_time_stamp() ? at - sc_core::sc_time_stamp() : sc_core::SC_ZERO_TIME);
  }

  unsigned transport_dbg(tlm::tlm_generic_payload& trans) {
    access(trans, trans.get_address());
    return trans.get_data_length();
  }

  // A write with byte enables (a coalesced store: only the bytes its threads
  // wrote) changes the enabled bytes only; a read returns every byte.
  void access(tlm::tlm_generic_payload& trans, uint64_t local) {
    const unsigned n = trans.get_data_length();
    unsigned char* data = trans.get_data_ptr();
    if (trans.is_read()) {
      model_.read(local, data, n);
    } else if (trans.is_write()) {
      const unsigned char* be = trans.get_byte_enable_ptr();
      if (!be) {
        model_.write(local, data, n);
        return;
      }
      const unsigned be_len = trans.get_byte_enable_length() ? trans.get_byte_enable_length() : n;
      for (unsigned i = 0; i < n; ++i)
        if (be[i % be_len] == TLM_BYTE_ENABLED) model_.write(local + i, data + i, 1);
    }
  }

  ChannelModel model_;
  const Clock& clock_;
  DramClocks clocks_;
  sc_core::sc_event wake_;                      // at: the controller has something to decide, or answers to give
  EventCalendar* calendar_ = nullptr;           // at, in a memory system: wake_'s part is the calendar's
  unsigned waker_ = 0;                          // the channel's in it
  std::vector<DramController::Done> decided_;  // at: answers not yet given
  std::deque<MessageInFlight> message_pool_;  // at: strided messages in the controller (a deque: places never move)
  std::vector<MessageInFlight*> free_messages_;
};

}  // namespace gpumem
