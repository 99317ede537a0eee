// TLM shell of the channel router: decodes the mapped address into channel and
// channel-local address, counts the request per task and channel in the
// register bank, and forwards to that channel's socket. The data path binds
// `target`; page-table traffic (the walker's reads, the driver's loads) binds
// `page_tables`, which takes any number of initiators.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "payload/payload_extensions.hpp"
#include "regs/register_bank.hpp"
#include "router/channel_decoder.hpp"

namespace gpumem {

class ChannelRouterTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ChannelRouterTlm> target;
  tlm_utils::multi_passthrough_target_socket_optional<ChannelRouterTlm> page_tables;
  tlm_utils::multi_passthrough_initiator_socket<ChannelRouterTlm> to_channel;

  ChannelRouterTlm(sc_core::sc_module_name name, const Config& cfg, RegisterBank& counters)
      : sc_module(name), target("target"), page_tables("page_tables"), to_channel("to_channel"), decoder_(cfg.channel_layout()), counters_(counters) {
    target.register_b_transport(this, &ChannelRouterTlm::b_transport);
    target.register_transport_dbg(this, &ChannelRouterTlm::transport_dbg);
    page_tables.register_b_transport(this, &ChannelRouterTlm::page_table_b_transport);
    page_tables.register_transport_dbg(this, &ChannelRouterTlm::page_table_transport_dbg);
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
    const uint64_t mapped = trans.get_address();
    if (!decoder_.in_one_granule(mapped, trans.get_data_length())) {
      trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    How& how = ext->how;
    how.channel = decoder_.channel(mapped);
    how.local_address = decoder_.local(mapped);
    if (ext->info.origin == Origin::kData)
      counters_.count(ext->info.task_type, ext->info.process, how.channel, trans.get_data_length(), how.cycle);
    trans.set_address(how.local_address);
    to_channel[how.channel]->b_transport(trans, delay);
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
  RegisterBank& counters_;
};

}  // namespace gpumem
