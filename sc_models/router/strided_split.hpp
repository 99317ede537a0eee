// A strided request split over the channels and put together again
// (CN104199782B, steps 2 to 5), as plain functions over the decoder: each
// channel its elements touch gets one message with them, in element order,
// and the answers come back into the request's elements and data. The
// router's TLM shell (tlm_router.hpp) sends the messages and counts the
// request; tests drive these without a simulation kernel.
#pragma once
#include <array>
#include <cstring>
#include <tlm>

#include "payload/strided.hpp"
#include "router/channel_decoder.hpp"

namespace gpumem {

using ElementChannels = std::array<unsigned, kMaxStridedElements>;

// Each element's channel and channel-local address into its How, and its
// channel into `channel`; `decoded(how)` is told each element in element
// order, up to the first that fails. The response a wrong shape or an element
// across two interleave granules gets; TLM_OK_RESPONSE when none is wrong.
template <class Decoded>
tlm::tlm_response_status decode_strided(const ChannelDecoder& decoder, StridedExtension& sx, unsigned data_length,
                                        ElementChannels& channel, Decoded&& decoded) {
  const StridedShape& shape = sx.shape;
  const unsigned size = shape.element_size;
  if (shape.count == 0 || shape.count > kMaxStridedElements || size == 0 || size > kMaxElementBytes || data_length != shape.bytes())
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
  for (unsigned i = 0; i < shape.count; ++i) {
    const uint64_t mapped = sx.address[i];
    if (!decoder.in_one_granule(mapped, size)) return tlm::TLM_BURST_ERROR_RESPONSE;
    How& e = sx.element[i];
    channel[i] = e.channel = decoder.channel(mapped);
    e.local_address = decoder.local(mapped);
    decoded(static_cast<const How&>(e));
  }
  sx.messages = sx.accesses = 0;
  return tlm::TLM_OK_RESPONSE;
}

// One channel's message: its elements in element order, where each sits in
// the request (`which`), and a write's bytes (`gather`, packed as they go).
struct StridedMessage {
  ChannelMessage elements;
  std::array<unsigned, kMaxStridedElements> which{};
  std::array<unsigned char, kMaxStridedElements * kMaxElementBytes> gather{};
};

// The message of the elements on element `first`'s channel, from `first` on;
// `sent` marks them. Elements in one interleave granule (`granule_shift`)
// share one access. `data` is the request's, packed in element order.
inline void gather_message(const StridedExtension& sx, const ElementChannels& channel, unsigned first, unsigned granule_shift,
                           const unsigned char* data, bool write, std::array<bool, kMaxStridedElements>& sent, StridedMessage& msg) {
  const unsigned size = sx.shape.element_size;
  ChannelMessage& m = msg.elements;
  m.count = m.accesses = 0;
  m.element_size = size;
  std::array<uint64_t, kMaxStridedElements> granule;
  for (unsigned i = first; i < sx.shape.count; ++i) {
    if (channel[i] != channel[first]) continue;
    sent[i] = true;
    const uint64_t local = sx.element[i].local_address;
    unsigned a = 0;
    while (a < m.accesses && granule[a] != local >> granule_shift) ++a;
    if (a == m.accesses) granule[m.accesses++] = local >> granule_shift;
    msg.which[m.count] = i;
    m.local[m.count] = local;
    m.access[m.count] = static_cast<uint8_t>(a);
    if (write) std::memcpy(&msg.gather[m.count * size], data + i * size, size);
    ++m.count;
  }
}

// A message's answer into the request: each element's timing (and, from a
// DRAM, when it entered its queue, its place and row; `arrival` the request's cycle there), and
// with `read_data` a read's bytes into `data` in element order.
inline void scatter_answer(const StridedMessage& msg, uint64_t arrival, bool read_data, StridedExtension& sx, unsigned char* data) {
  const ChannelMessage& m = msg.elements;
  const unsigned size = m.element_size;
  for (unsigned k = 0; k < m.count; ++k) {
    How& e = sx.element[msg.which[k]];
    e.start_cycle = m.start[k];
    e.finish_cycle = m.finish[k];
    e.dram = m.dram;
    if (m.dram) {
      e.arrival_cycle = arrival;
      e.accept_cycle = m.accept[k];
      e.dram_at = m.at[k];
      e.row = m.row[k];
    }
    if (read_data) std::memcpy(data + msg.which[k] * size, &msg.gather[k * size], size);
  }
  ++sx.messages;
  sx.accesses += m.accesses;
}

// Every message answered, the last at `finish`: each element, and the
// request's own How (the first element's), complete then.
inline void complete_strided(StridedExtension& sx, uint64_t finish, How& how) {
  for (unsigned i = 0; i < sx.shape.count; ++i) sx.element[i].cycle = finish;
  how = sx.element[0];
  how.cycle = finish;
}

}  // namespace gpumem
