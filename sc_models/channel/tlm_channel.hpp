// TLM shell of one memory channel. The returned delay ends at the cycle the
// access finishes; the channel never waits, so the caller stays decoupled.
// The arrival cycle comes from the request's How (How::cycle).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "channel/channel_model.hpp"
#include "payload/clock.hpp"
#include "payload/payload_extensions.hpp"

namespace gpumem {

class MemoryChannelTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemoryChannelTlm> target;

  MemoryChannelTlm(sc_core::sc_module_name name, unsigned service_cycles, const Clock& clock)
      : sc_module(name), target("target"), model_(service_cycles), clock_(clock) {
    target.register_b_transport(this, &MemoryChannelTlm::b_transport);
    target.register_transport_dbg(this, &MemoryChannelTlm::transport_dbg);
  }

  ChannelModel& model() { return model_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    if (trans.get_byte_enable_ptr()) {
      trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
      return;
    }
    RequestExtension* ext = trans.get_extension<RequestExtension>();
    if (!ext) {  // a timed access must say when it arrives
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    How& how = ext->how;
    const ChannelModel::Slot slot = model_.schedule(how.cycle, ext->info.issue_cycle);
    const uint64_t local = trans.get_address();
    if (trans.is_read()) model_.read(local, trans.get_data_ptr(), trans.get_data_length());
    else if (trans.is_write()) model_.write(local, trans.get_data_ptr(), trans.get_data_length());
    how.start_cycle = slot.start;
    how.finish_cycle = slot.finish;
    how.queue_depth = slot.depth;
    advance(how, delay, clock_.span(slot.finish - how.cycle));
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  unsigned transport_dbg(tlm::tlm_generic_payload& trans) {
    const unsigned n = trans.get_data_length();
    if (trans.is_read()) model_.read(trans.get_address(), trans.get_data_ptr(), n);
    else if (trans.is_write()) model_.write(trans.get_address(), trans.get_data_ptr(), n);
    return n;
  }

  ChannelModel model_;
  const Clock& clock_;
};

}  // namespace gpumem
