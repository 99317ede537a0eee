// The shared pieces in sc_models/base/ that every block and bench uses.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "base/hex.hpp"
#include "base/ring_buffer.hpp"

namespace gpumem::test {
namespace {

TEST(RingBuffer, BehavesAsADequeAcrossWrapsGrowthAndInserts) {
  // Random pushes, pops and inserts against std::deque: growth happens with
  // the head anywhere in the ring, so every unwrap path is taken.
  RingBuffer<int> ring(2);
  std::deque<int> ref;
  std::mt19937 rng(7);
  for (int step = 0; step < 20000; ++step) {
    const unsigned op = rng() % 8;
    if (op < 4) {
      ring.push_back(step);
      ref.push_back(step);
    } else if (op < 7 && !ref.empty()) {
      ASSERT_EQ(ring.pop_front(), ref.front()) << "step " << step;
      ref.pop_front();
    } else {
      const size_t at = ref.empty() ? 0 : rng() % (ref.size() + 1);
      ring.insert(at, -step);
      ref.insert(ref.begin() + static_cast<std::ptrdiff_t>(at), -step);
    }
    ASSERT_EQ(ring.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(ring[i], ref[i]) << "step " << step << " index " << i;
  }
}

TEST(Hex, LowerCaseByDefaultUpperWhereAsked) {
  EXPECT_EQ(hex(0xABCu), "0xabc");
  EXPECT_EQ(hex(0x1Fu, 10), "0x000000001f");
  EXPECT_EQ(hex_upper(0x40u, 4), "0x0040");
  EXPECT_EQ(hex_upper(0xdeadbeefu, 8), "0xDEADBEEF");
  EXPECT_EQ(hex(~uint64_t{0}), "0xffffffffffffffff");
}

}  // namespace
}  // namespace gpumem::test
