// TLM shell of one memory channel. The returned delay ends at the cycle the
// access finishes; the channel never waits, so the caller stays decoupled.
// The arrival cycle comes from the request's How (How::cycle).
#pragma once
#include <algorithm>
#include <array>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "channel/channel_model.hpp"
#include "payload/clock.hpp"
#include "payload/payload_extensions.hpp"
#include "payload/strided.hpp"

namespace gpumem {

class MemoryChannelTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemoryChannelTlm> target;

  // `pages`: shared by the model's channels (null: the channel's own).
  MemoryChannelTlm(sc_core::sc_module_name name, const ChannelParams& params, const Clock& clock, PagePool* pages = nullptr)
      : sc_module(name), target("target"), model_(params, pages), clock_(clock) {
    target.register_b_transport(this, &MemoryChannelTlm::b_transport);
    target.register_transport_dbg(this, &MemoryChannelTlm::transport_dbg);
  }

  ChannelModel& model() { return model_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    RequestExtension* ext = trans.get_extension<RequestExtension>();
    if (!ext) {  // a timed access must say when it arrives
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    How& how = ext->how;
    if (ChannelMessage* m = trans.get_extension<ChannelMessage>()) {
      serve(trans, *m, how, ext->info.issue_cycle, delay);
      return;
    }
    const uint64_t local = trans.get_address();
    // The data's host lines load while the timing is worked out.
    model_.prefetch(local, trans.get_data_length(), trans.is_write());
    const ChannelModel::Slot slot = model_.access(how.cycle, ext->info.issue_cycle, local, trans.is_write());
    access(trans, local);
    how.start_cycle = slot.start;
    how.finish_cycle = slot.finish;
    how.queue_depth = slot.depth;
    note_dram(how, slot);
    advance(how, delay, clock_.span(slot.finish - how.cycle));
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  // A strided request's message (seed 001, step 3): the elements one by one,
  // one access for each granule they fall in, the accesses queued behind
  // one another from the message's arrival.
  void serve(tlm::tlm_generic_payload& trans, ChannelMessage& m, How& how, uint64_t horizon, sc_core::sc_time& delay) {
    std::array<ChannelModel::Slot, kMaxStridedElements> slots;
    for (unsigned a = 0; a < m.accesses; ++a) {
      unsigned first = 0;  // the access's first element says where it lands
      while (first + 1 < m.count && m.access[first] != a) ++first;
      slots[a] = model_.access(how.cycle, horizon, m.local[first], trans.is_write());
    }
    unsigned char* data = trans.get_data_ptr();
    for (unsigned k = 0; k < m.count; ++k) {
      const ChannelModel::Slot& s = slots[m.access[k]];
      if (trans.is_read()) model_.read(m.local[k], data + k * m.element_size, m.element_size);
      else model_.write(m.local[k], data + k * m.element_size, m.element_size);
      m.start[k] = s.start;
      m.finish[k] = s.finish;
      m.depth[k] = s.depth;
      m.accept[k] = s.accept;
      m.at[k] = s.at;
      m.row[k] = s.row;
    }
    m.dram = model_.dram() != nullptr;
    uint64_t finish = how.cycle;
    for (unsigned a = 0; a < m.accesses; ++a) finish = std::max(finish, slots[a].finish);
    how.start_cycle = slots[0].start;
    how.finish_cycle = finish;
    how.queue_depth = slots[0].depth;
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
};

}  // namespace gpumem
