// TLM shell of the channel router: decodes the mapped address into channel and
// channel-local address, counts the request per task and channel in the
// register bank, and forwards to that channel's socket. The data path binds
// `target`; page-table traffic (the walker's reads, the driver's loads) binds
// `page_tables`, which takes any number of initiators.
#pragma once
#include <array>
#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "payload/payload_extensions.hpp"
#include "payload/strided.hpp"
#include "regs/register_bank.hpp"
#include "router/channel_decoder.hpp"

namespace gpumem {

class ChannelRouterTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ChannelRouterTlm> target;
  tlm_utils::multi_passthrough_target_socket_optional<ChannelRouterTlm> page_tables;
  tlm_utils::multi_passthrough_initiator_socket<ChannelRouterTlm> to_channel;

  ChannelRouterTlm(sc_core::sc_module_name name, const ChannelLayout& layout, RegisterBank& counters)
      : sc_module(name), target("target"), page_tables("page_tables"), to_channel("to_channel"), decoder_(layout), granule_shift_(layout.granule_shift), counters_(counters) {
    target.register_b_transport(this, &ChannelRouterTlm::b_transport);
    target.register_nb_transport_fw(this, &ChannelRouterTlm::nb_transport_fw);
    target.register_transport_dbg(this, &ChannelRouterTlm::transport_dbg);
    to_channel.register_nb_transport_bw(this, &ChannelRouterTlm::nb_transport_bw);
    page_tables.register_b_transport(this, &ChannelRouterTlm::page_table_b_transport);
    page_tables.register_transport_dbg(this, &ChannelRouterTlm::page_table_transport_dbg);
    message_.set_extension(&message_ext_);
    message_.set_extension(&message_elements_);
  }
  ~ChannelRouterTlm() override {  // members: the payload must not free them
    message_.clear_extension<RequestExtension>();
    message_.clear_extension<ChannelMessage>();
  }

 private:
  void page_table_b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) { b_transport(trans, delay); }
  unsigned page_table_transport_dbg(int, tlm::tlm_generic_payload& trans) { return transport_dbg(trans); }

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    RequestExtension* ext = trans.get_extension<RequestExtension>();
    if (!ext) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    if (StridedExtension* sx = trans.get_extension<StridedExtension>()) {
      split(trans, *ext, *sx, delay);
      return;
    }
    const uint64_t mapped = trans.get_address();
    if (!decoder_.in_one_granule(mapped, trans.get_data_length())) {
      trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    How& how = ext->how;
    how.channel = decoder_.channel(mapped);
    how.local_address = decoder_.local(mapped);
    if (ext->info.origin != Origin::kPageTable)
      counters_.count(ext->info.task_type, ext->info.process, how.channel, trans.get_data_length(), how.cycle);
    trans.set_address(how.local_address);
    to_channel[how.channel]->b_transport(trans, delay);
  }

  // simulation.timing: at: the same decode, then the request goes on to its
  // channel, whose answer comes back the same way. Strided requests come
  // from the SMs, which at does not model yet.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    RequestExtension* ext = trans.get_extension<RequestExtension>();
    if (!ext || trans.get_extension<StridedExtension>()) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return tlm::TLM_COMPLETED;
    }
    How& how = ext->how;
    if (phase == tlm::BEGIN_REQ) {
      const uint64_t mapped = trans.get_address();
      if (!decoder_.in_one_granule(mapped, trans.get_data_length())) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return tlm::TLM_COMPLETED;
      }
      how.channel = decoder_.channel(mapped);
      how.local_address = decoder_.local(mapped);
      if (ext->info.origin != Origin::kPageTable)
        counters_.count(ext->info.task_type, ext->info.process, how.channel, trans.get_data_length(), how.cycle);
      trans.set_address(how.local_address);
    }
    return to_channel[how.channel]->nb_transport_fw(trans, phase, delay);
  }
  tlm::tlm_sync_enum nb_transport_bw(int, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    return target->nb_transport_bw(trans, phase, delay);
  }

  // A strided request (seed 001, steps 2 to 5): each channel its elements
  // touch gets one message with them, all sent at the request's cycle; the
  // data comes back reassembled in element order, and the request completes
  // with the last message.
  void split(tlm::tlm_generic_payload& trans, RequestExtension& ext, StridedExtension& sx, sc_core::sc_time& delay) {
    const StridedShape& shape = sx.shape;
    const unsigned size = shape.element_size;
    if (shape.count == 0 || shape.count > kMaxStridedElements || size == 0 || size > kMaxElementBytes || trans.get_data_length() != shape.bytes()) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    std::array<unsigned, kMaxStridedElements> channel;
    for (unsigned i = 0; i < shape.count; ++i) {
      const uint64_t mapped = sx.address[i];
      if (!decoder_.in_one_granule(mapped, size)) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
      }
      How& e = sx.element[i];
      channel[i] = e.channel = decoder_.channel(mapped);
      e.local_address = decoder_.local(mapped);
      if (ext.info.origin != Origin::kPageTable) counters_.count(e.task_type, ext.info.process, e.channel, size, ext.how.cycle);
    }
    unsigned char* data = trans.get_data_ptr();
    const uint64_t arrival = ext.how.cycle;
    sc_core::sc_time last = delay;
    uint64_t finish = arrival;
    std::array<bool, kMaxStridedElements> sent{};
    sx.messages = sx.accesses = 0;
    for (unsigned first = 0; first < shape.count; ++first) {
      if (sent[first]) continue;
      // The channel's elements, in element order, and the granules they fall in.
      ChannelMessage& m = message_elements_;
      m.count = m.accesses = 0;
      m.element_size = size;
      std::array<unsigned, kMaxStridedElements> which;
      std::array<uint64_t, kMaxStridedElements> granule;
      for (unsigned i = first; i < shape.count; ++i) {
        if (channel[i] != channel[first]) continue;
        sent[i] = true;
        const uint64_t local = sx.element[i].local_address;
        unsigned a = 0;
        while (a < m.accesses && granule[a] != local >> granule_shift_) ++a;
        if (a == m.accesses) granule[m.accesses++] = local >> granule_shift_;
        which[m.count] = i;
        m.local[m.count] = local;
        m.access[m.count] = static_cast<uint8_t>(a);
        if (trans.is_write()) std::memcpy(&gather_[m.count * size], data + i * size, size);
        ++m.count;
      }
      set_up(message_, trans.get_command(), m.local[0], gather_.data(), m.count * size);
      message_ext_.info = ext.info;
      message_ext_.how = sx.element[first];
      message_ext_.how.cycle = arrival;
      sc_core::sc_time d = delay;
      to_channel[channel[first]]->b_transport(message_, d);
      if (!message_.is_response_ok()) {
        trans.set_response_status(message_.get_response_status());
        return;
      }
      for (unsigned k = 0; k < m.count; ++k) {
        How& e = sx.element[which[k]];
        e.start_cycle = m.start[k];
        e.finish_cycle = m.finish[k];
        e.queue_depth = m.depth[k];
        e.dram = m.dram;
        if (m.dram) {
          e.arrival_cycle = arrival;
          e.accept_cycle = m.accept[k];
          e.dram_at = m.at[k];
          e.row = m.row[k];
        }
        if (trans.is_read()) std::memcpy(data + which[k] * size, &gather_[k * size], size);
      }
      ++sx.messages;
      sx.accesses += m.accesses;
      if (message_ext_.how.cycle > finish) {
        finish = message_ext_.how.cycle;
        last = d;
      }
    }
    for (unsigned i = 0; i < shape.count; ++i) sx.element[i].cycle = finish;
    ext.how = sx.element[0];
    ext.how.cycle = finish;
    delay = last;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  // Untimed access for loaders (the driver's page tables) and debuggers.
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) {
    const uint64_t mapped = trans.get_address();
    if (!decoder_.in_one_granule(mapped, trans.get_data_length())) return 0;
    trans.set_address(decoder_.local(mapped));
    const unsigned n = to_channel[decoder_.channel(mapped)]->transport_dbg(trans);
    trans.set_address(mapped);
    return n;
  }

  ChannelDecoder decoder_;
  unsigned granule_shift_;  // of the interleave: a channel serves a granule's elements in one access
  RegisterBank& counters_;
  // One message in flight at a time: b_transport returns before the next.
  tlm::tlm_generic_payload message_;
  RequestExtension message_ext_;
  ChannelMessage message_elements_;
  std::array<unsigned char, kMaxStridedElements * kMaxElementBytes> gather_{};
};

}  // namespace gpumem
