// The L1 in the whole model: a write finds its line by the address the SM
// sent, not by the channel-local address the path below leaves in the
// payload (issue 29: on 8 channels the write to 0x2000 missed the line the
// read had just filled, and the write to 0x10000, whose local address is
// 0x2000, overwrote it).
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "base/sanitizer.hpp"
#include "frontend/thread_trace_io.hpp"
#include "system/simulation.hpp"
#include "test_helpers.hpp"

namespace gpumem {
namespace {

struct Seen : CompletionObserver {
  std::vector<L1Result> l1;
  std::vector<uint32_t> value;
  void on_completion(const Completion& c) override {
    l1.push_back(c.how.l1);
    uint32_t v = 0;
    for (unsigned i = 0; i < 4 && i < c.request.size; ++i) v |= uint32_t{c.data[i]} << (8 * i);
    value.push_back(v);
  }
};

TEST(L1Path, AWriteUpdatesTheLineOfTheAddressTheSmSent) {
  // Channel bits 7-9: the local address of 0x10000 is 0x2000.
  const Config cfg = test::config_from(
      "memory: {address_bits: 32, channels: 8, service_cycles: 1, max_outstanding: 16}\n"
      "translator: {channel_bits: [7, 8, 9]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 128, mshr_entries: 4, latency_min: 1, "
      "latency_sigma: 0}\n"
      "l1: {size_bytes: 4096, ways: 4, mshrs: 2, hit_latency: 1}\n");
  std::istringstream in(std::string(kThreadTraceHeader) +
                        "\nkernel,k,0\n"
                        "0,0x10,R,0x2000,4,1,\n"
                        "0,0x18,W,0x2000,4,0,0x11111111\n"
                        "0,0x20,W,0x10000,4,0,0x22222222\n"
                        "0,0x28,R,0x2000,4,1,\n");
  auto source = read_thread_trace(in, "t.csv");
  Seen seen;
  run_thread_simulation(cfg, *source, {&seen});
  sanitizer_back_on_main_stack();
  const std::vector<L1Result> want{L1Result::kMiss, L1Result::kWriteHit, L1Result::kWriteMiss, L1Result::kHit};
  EXPECT_EQ(seen.l1, want);
  ASSERT_EQ(seen.value.size(), 4u);
  EXPECT_EQ(seen.value[3], 0x11111111u);
}

}  // namespace
}  // namespace gpumem
