// Strided requests (CN104199782B): one request for the equally spaced accesses of
// a warp instruction, (base, stride, count, element size), carried beside the
// RequestExtension. The payload's data is the elements packed in element
// order (count * element_size bytes). Every block works element by element,
// as it would on that many requests: the translator maps each, the MMU
// translates each, the router sends each channel one message with its
// elements and reassembles the data in element order. docs/frontend.md,
// "Strided requests", states the rules.
#pragma once
#include <array>
#include <cstdint>
#include <tlm>

#include "payload/how.hpp"

namespace gpumem {

// A warp's worth: the front end makes strided requests of one warp instruction.
constexpr unsigned kMaxStridedElements = 32;
constexpr unsigned kMaxElementBytes = 16;  // the widest per-thread access

struct StridedShape {
  uint64_t base = 0;
  uint64_t stride = 0;  // bytes, at least element_size: elements never overlap
  unsigned count = 0;
  unsigned element_size = 0;
  uint64_t element_address(unsigned i) const { return base + stride * i; }
  unsigned bytes() const { return count * element_size; }
};

struct StridedExtension : tlm::tlm_extension<StridedExtension> {
  StridedShape shape;
  // Per element, what the payload's address and the RequestExtension's How
  // are for a plain request: the element's address at this point of the path
  // (VA, then PA, then mapped), and how its result came about.
  std::array<uint64_t, kMaxStridedElements> address{};
  std::array<How, kMaxStridedElements> element{};
  // Filled by the router: the messages it sent the channels (one per channel
  // touched) and the accesses the channels made (one per interleave granule).
  unsigned messages = 0;
  unsigned accesses = 0;

  // Element addresses from the shape; the path fills the rest.
  void start(const StridedShape& s, const How& how) {
    shape = s;
    messages = accesses = 0;
    for (unsigned i = 0; i < s.count; ++i) {
      address[i] = s.element_address(i);
      element[i] = how;
    }
  }

  tlm_extension_base* clone() const override { return new StridedExtension(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const StridedExtension&>(other); }
};

// One message from the router to a channel: that channel's elements of a
// strided request, packed in element order in the message's data. The router
// numbers the granules they fall in; the channel makes one access per granule.
struct ChannelMessage : tlm::tlm_extension<ChannelMessage> {
  unsigned count = 0;
  unsigned element_size = 0;
  std::array<uint64_t, kMaxStridedElements> local{};  // channel-local address of each
  std::array<uint8_t, kMaxStridedElements> access{};  // which access serves it, from 0
  unsigned accesses = 0;
  // Filled by the channel: when each element's access started and finished;
  // with a DRAM, when its access entered the read or write queue, where it
  // landed, what its row did.
  std::array<uint64_t, kMaxStridedElements> start{}, finish{};
  bool dram = false;
  std::array<uint64_t, kMaxStridedElements> accept{};
  std::array<DramAddress, kMaxStridedElements> at{};
  std::array<RowResult, kMaxStridedElements> row{};

  tlm_extension_base* clone() const override { return new ChannelMessage(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const ChannelMessage&>(other); }
};

}  // namespace gpumem
