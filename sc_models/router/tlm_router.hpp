// TLM shell of the channel router: decodes the mapped address into channel and
// channel-local address, counts the request per task and channel in the
// register bank, and forwards to that channel's socket. The data path binds
// `target`; page-table traffic (the walker's reads, the driver's loads) binds
// `page_tables`, which takes any number of initiators.
#pragma once
#include <array>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "payload/clock.hpp"
#include "payload/payload_extensions.hpp"
#include "payload/strided.hpp"
#include "regs/register_bank.hpp"
#include "router/channel_decoder.hpp"
#include "router/strided_split.hpp"

namespace gpumem {

class ChannelRouterTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ChannelRouterTlm> target;
  tlm_utils::multi_passthrough_target_socket_optional<ChannelRouterTlm> page_tables;
  tlm_utils::multi_passthrough_initiator_socket<ChannelRouterTlm> to_channel;

  ChannelRouterTlm(sc_core::sc_module_name name, const ChannelLayout& layout, RegisterBank& counters, const Clock& clock)
      : sc_module(name), target("target"), page_tables("page_tables"), to_channel("to_channel"), decoder_(layout), granule_shift_(layout.granule_shift), counters_(counters), clock_(clock) {
    target.register_b_transport(this, &ChannelRouterTlm::b_transport);
    target.register_nb_transport_fw(this, &ChannelRouterTlm::nb_transport_fw);
    target.register_transport_dbg(this, &ChannelRouterTlm::transport_dbg);
    to_channel.register_nb_transport_bw(this, &ChannelRouterTlm::nb_transport_bw);
    page_tables.register_b_transport(this, &ChannelRouterTlm::page_table_b_transport);
    page_tables.register_nb_transport_fw(this, &ChannelRouterTlm::page_table_nb_transport_fw);
    page_tables.register_transport_dbg(this, &ChannelRouterTlm::page_table_transport_dbg);
  }

 private:
  void page_table_b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) { b_transport(trans, delay); }
  unsigned page_table_transport_dbg(int, tlm::tlm_generic_payload& trans) { return transport_dbg(trans); }
  // at: a walker's read; its answer goes back to that walker.
  tlm::tlm_sync_enum page_table_nb_transport_fw(int from, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) page_table_from_[&trans] = from;
    const tlm::tlm_sync_enum r = nb_transport_fw(trans, phase, delay);
    if (r == tlm::TLM_COMPLETED) page_table_from_.erase(&trans);
    return r;
  }

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    RequestExtension* ext = request_of(trans);
    if (!ext) return;
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
  // channel, whose answer comes back the same way. A strided request's
  // messages go out together; it is answered when the last is.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    RequestExtension* ext = request_of(trans);
    if (!ext) return tlm::TLM_COMPLETED;
    if (StridedExtension* sx = trans.get_extension<StridedExtension>()) {
      if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP: the messages are done already
      return split_at(trans, *ext, *sx, phase, delay);
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
    // Only the router's own messages carry a ChannelMessage: most answers
    // pass on without a look into the pool's map.
    const auto it = trans.get_extension<ChannelMessage>() ? message_of_.find(&trans) : message_of_.end();
    if (it == message_of_.end()) {
      const auto walker = page_table_from_.find(&trans);
      if (walker == page_table_from_.end()) return target->nb_transport_bw(trans, phase, delay);
      const int from = walker->second;
      if (phase == tlm::BEGIN_RESP) page_table_from_.erase(walker);  // the walkers take every answer at once
      return page_tables[from]->nb_transport_bw(trans, phase, delay);
    }
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    Message& m = *it->second;
    Strided& st = *m.parent;
    collect(m, *st.trans);
    free_messages_.push_back(&m);
    phase = tlm::END_RESP;
    if (--st.remaining == 0) {
      tlm::tlm_generic_payload& parent = *st.trans;
      finish(st);
      free_strided_.push_back(&st);
      tlm::tlm_phase up = tlm::BEGIN_RESP;
      sc_core::sc_time d = until(st.finish);
      target->nb_transport_bw(parent, up, d);
    }
    return tlm::TLM_COMPLETED;
  }

  // A strided request (router/strided_split.hpp): each channel its elements
  // touch gets one message with them, all sent at the request's cycle; the
  // request completes with the last message's answer.
  //
  // Maps each element to its channel and counts it; false (and the
  // payload's error) when the shape or an element's place is wrong.
  bool decode(tlm::tlm_generic_payload& trans, RequestExtension& ext, StridedExtension& sx, ElementChannels& channel) {
    const unsigned size = sx.shape.element_size;
    const tlm::tlm_response_status r = decode_strided(decoder_, sx, trans.get_data_length(), channel, [&](const How& e) {
      if (ext.info.origin != Origin::kPageTable) counters_.count(e.task_type, ext.info.process, e.channel, size, ext.how.cycle);
    });
    if (r != tlm::TLM_OK_RESPONSE) trans.set_response_status(r);
    return r == tlm::TLM_OK_RESPONSE;
  }

  struct Strided;
  // One channel's message: its elements, in element order, and the granules they fall in.
  struct Message {
    Message() {
      trans.set_extension(&ext);
      trans.set_extension(&split.elements);
    }
    ~Message() {  // members: the payload must not free them
      trans.clear_extension<RequestExtension>();
      trans.clear_extension<ChannelMessage>();
    }
    tlm::tlm_generic_payload trans;
    RequestExtension ext;
    StridedMessage split;
    Strided* parent = nullptr;
  };
  // at: a strided request whose messages are out.
  struct Strided {
    tlm::tlm_generic_payload* trans = nullptr;
    unsigned remaining = 0;  // messages not yet answered
    uint64_t finish = 0;
    sc_core::sc_time last;  // lt: the delay of the message that finished last
  };

  void make_message(Message& msg, tlm::tlm_generic_payload& trans, RequestExtension& ext, StridedExtension& sx,
                    const ElementChannels& channel, std::array<bool, kMaxStridedElements>& sent, unsigned first) {
    gather_message(sx, channel, first, granule_shift_, trans.get_data_ptr(), trans.is_write(), sent, msg.split);
    const ChannelMessage& m = msg.split.elements;
    set_up(msg.trans, trans.get_command(), m.local[0], msg.split.gather.data(), m.count * m.element_size);
    msg.ext.info = ext.info;
    msg.ext.how = sx.element[first];
    msg.ext.how.cycle = ext.how.cycle;
  }

  // A message's answer into its request.
  void collect(Message& msg, tlm::tlm_generic_payload& trans) {
    if (!msg.trans.is_response_ok()) {
      trans.set_response_status(msg.trans.get_response_status());
      return;
    }
    const RequestExtension& ext = *trans.get_extension<RequestExtension>();
    scatter_answer(msg.split, ext.how.cycle, !ext.info.timing_only && trans.is_read(), *trans.get_extension<StridedExtension>(),
                   trans.get_data_ptr());
    msg.parent->finish = std::max(msg.parent->finish, msg.ext.how.cycle);
  }

  // Every message answered: the request completes with the last.
  void finish(Strided& st) {
    tlm::tlm_generic_payload& trans = *st.trans;
    StridedExtension& sx = *trans.get_extension<StridedExtension>();
    RequestExtension& ext = *trans.get_extension<RequestExtension>();
    if (trans.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
      complete_strided(sx, st.finish, ext.how);
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
    }
  }
  // From now to the model cycle `cycle` (none if it is past).
  sc_core::sc_time until(uint64_t cycle) const {
    const sc_core::sc_time at = clock_.time(cycle);
    return at > sc_core::sc_time_stamp() ? at - sc_core::sc_time_stamp() : sc_core::SC_ZERO_TIME;
  }

  void split(tlm::tlm_generic_payload& trans, RequestExtension& ext, StridedExtension& sx, sc_core::sc_time& delay) {
    ElementChannels channel;
    if (!decode(trans, ext, sx, channel)) return;
    Strided& st = lt_strided_;
    st.trans = &trans;
    st.finish = ext.how.cycle;
    st.last = delay;
    std::array<bool, kMaxStridedElements> sent{};
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    for (unsigned first = 0; first < sx.shape.count; ++first) {
      if (sent[first]) continue;
      Message& msg = lt_message_;
      msg.parent = &st;
      make_message(msg, trans, ext, sx, channel, sent, first);
      sc_core::sc_time d = delay;
      const uint64_t before = st.finish;
      to_channel[channel[first]]->b_transport(msg.trans, d);
      collect(msg, trans);
      if (!msg.trans.is_response_ok()) return;
      if (st.finish > before) st.last = d;
    }
    finish(st);
    delay = st.last;
  }

  tlm::tlm_sync_enum split_at(tlm::tlm_generic_payload& trans, RequestExtension& ext, StridedExtension& sx, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay) {
    ElementChannels channel;
    if (!decode(trans, ext, sx, channel)) return tlm::TLM_COMPLETED;
    if (free_strided_.empty()) free_strided_.push_back(&strided_pool_.emplace_back());
    Strided& st = *free_strided_.back();
    free_strided_.pop_back();
    st.trans = &trans;
    st.finish = ext.how.cycle;
    st.remaining = 1;  // held while the messages go out, so an early answer cannot finish it
    std::array<bool, kMaxStridedElements> sent{};
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    for (unsigned first = 0; first < sx.shape.count; ++first) {
      if (sent[first]) continue;
      if (free_messages_.empty()) {
        Message& m = message_pool_.emplace_back();
        message_of_[&m.trans] = &m;
        free_messages_.push_back(&m);
      }
      Message& msg = *free_messages_.back();
      free_messages_.pop_back();
      msg.parent = &st;
      make_message(msg, trans, ext, sx, channel, sent, first);
      tlm::tlm_phase p = tlm::BEGIN_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      ++st.remaining;
      if (to_channel[channel[first]]->nb_transport_fw(msg.trans, p, d) == tlm::TLM_COMPLETED) {
        collect(msg, trans);
        free_messages_.push_back(&msg);
        --st.remaining;
      }
    }
    if (--st.remaining > 0) {
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    finish(st);
    free_strided_.push_back(&st);
    delay = until(st.finish);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
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
  const Clock& clock_;
  // lt: one message in flight at a time (b_transport returns before the next).
  Message lt_message_;
  Strided lt_strided_;
  // at: every strided request and message in flight, pooled (deques: their places never move).
  std::deque<Message> message_pool_;
  std::deque<Strided> strided_pool_;
  std::vector<Message*> free_messages_;
  std::vector<Strided*> free_strided_;
  std::unordered_map<const tlm::tlm_generic_payload*, Message*> message_of_;
  std::unordered_map<const tlm::tlm_generic_payload*, int> page_table_from_;  // at: walkers' reads in flight
};

}  // namespace gpumem
