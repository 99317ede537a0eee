// The strided split without a simulation kernel (router/strided_split.hpp;
// in the simulation tests only because its extensions need libsystemc):
// a request's elements go to their channels' messages in element order,
// elements in one interleave granule share an access, and the answers come
// back into each element and into the data in element order.
#include <gtest/gtest.h>

#include <vector>

#include "router/strided_split.hpp"

namespace gpumem {
namespace {

// Four channels on address bits 8 and 9: channel = (a >> 8) & 3, 256-byte granules.
ChannelLayout four_channels() {
  ChannelLayout l;
  l.channel_bits = {8, 9};
  l.channels = 4;
  l.granule_shift = 8;
  return l;
}

StridedExtension request(uint64_t base, uint64_t stride, unsigned count, unsigned size) {
  StridedExtension sx;
  sx.start({base, stride, count, size}, How{});
  return sx;
}

TEST(StridedSplit, EachChannelGetsItsElementsInElementOrderAndTheAnswersComeBackInPlace) {
  const ChannelDecoder decoder(four_channels());
  // Eight 4-byte elements 128 bytes apart: two to a granule, channels 0 0 1 1 2 2 3 3, then again.
  StridedExtension sx = request(0x1000, 128, 16, 4);
  ElementChannels channel{};
  std::vector<unsigned> decoded;
  ASSERT_EQ(decode_strided(decoder, sx, 64, channel, [&](const How& e) { decoded.push_back(e.channel); }), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(decoded, (std::vector<unsigned>{0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(sx.element[9].local_address, decoder.local(0x1000 + 9 * 128));

  unsigned char data[64];
  for (unsigned i = 0; i < 64; ++i) data[i] = static_cast<unsigned char>(i);
  std::array<bool, kMaxStridedElements> sent{};
  StridedMessage to_1;
  gather_message(sx, channel, 2, 8, data, true, sent, to_1);
  // Elements 2, 3 (one granule) and 10, 11 (another): four elements, two accesses.
  ASSERT_EQ(to_1.elements.count, 4u);
  EXPECT_EQ(to_1.elements.accesses, 2u);
  EXPECT_EQ((std::vector<unsigned>(to_1.which.begin(), to_1.which.begin() + 4)), (std::vector<unsigned>{2, 3, 10, 11}));
  EXPECT_EQ((std::vector<uint8_t>(to_1.elements.access.begin(), to_1.elements.access.begin() + 4)), (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(to_1.gather[4], 12) << "element 3's first byte, packed after element 2's";
  EXPECT_EQ(to_1.gather[8], 40) << "element 10's first byte";
  EXPECT_TRUE(sent[2] && sent[3] && sent[10] && sent[11]);
  EXPECT_FALSE(sent[0] || sent[4]);

  // The channel answers: element k of the message started at 100 + k, finished at 110 + k, read bytes 0xA0 + k.
  for (unsigned k = 0; k < 4; ++k) {
    to_1.elements.start[k] = 100 + k;
    to_1.elements.finish[k] = 110 + k;
    for (unsigned b = 0; b < 4; ++b) to_1.gather[k * 4 + b] = static_cast<unsigned char>(0xA0 + k);
  }
  unsigned char back[64] = {};
  scatter_answer(to_1, 7, true, sx, back);
  EXPECT_EQ(sx.element[10].start_cycle, 102u);
  EXPECT_EQ(sx.element[11].finish_cycle, 113u);
  EXPECT_EQ(back[10 * 4], 0xA2);
  EXPECT_EQ(back[3 * 4 + 3], 0xA1);
  EXPECT_EQ(back[0], 0) << "an element of another message is left alone";
  EXPECT_EQ(sx.messages, 1u);
  EXPECT_EQ(sx.accesses, 2u);

  How how;
  complete_strided(sx, 200, how);
  EXPECT_EQ(how.cycle, 200u);
  EXPECT_EQ(how.channel, 0u) << "the request's own How is its first element's";
  EXPECT_EQ(sx.element[15].cycle, 200u);
}

TEST(StridedSplit, AWrongShapeOrAnElementAcrossGranulesIsRefused) {
  const ChannelDecoder decoder(four_channels());
  ElementChannels channel{};
  const auto none = [](const How&) {};
  StridedExtension sx = request(0x1000, 16, 4, 4);
  EXPECT_EQ(decode_strided(decoder, sx, 12, channel, none), tlm::TLM_GENERIC_ERROR_RESPONSE) << "the data is not 4 x 4 bytes";
  sx = request(0x1000, 16, 0, 4);
  EXPECT_EQ(decode_strided(decoder, sx, 0, channel, none), tlm::TLM_GENERIC_ERROR_RESPONSE) << "no elements";
  // Element 1 at 0x10FE..0x1101 crosses from granule 0x10 into 0x11.
  sx = request(0x10F0, 14, 2, 4);
  unsigned seen = 0;
  EXPECT_EQ(decode_strided(decoder, sx, 8, channel, [&](const How&) { ++seen; }), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(seen, 1u) << "the elements before the wrong one are decoded";
}

}  // namespace
}  // namespace gpumem
