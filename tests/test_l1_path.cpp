// The L1 in the whole model: a write finds its line by the address the SM
// sent, not by the channel-local address the path below leaves in the
// payload (issue 29: on 8 channels the write to 0x2000 missed the line the
// read had just filled, and the write to 0x10000, whose local address is
// 0x2000, overwrote it); and with issue_timing: memory, fills end and MSHRs
// free when the memory answers, so a longer memory latency turns hits into
// merges.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <vector>

#include "sources/thread_trace_io.hpp"
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
  const std::vector<L1Result> want{L1Result::kMiss, L1Result::kWriteHit, L1Result::kWriteMiss, L1Result::kHit};
  EXPECT_EQ(seen.l1, want);
  ASSERT_EQ(seen.value.size(), 4u);
  EXPECT_EQ(seen.value[3], 0x11111111u);
}

struct Timed : CompletionObserver {
  std::vector<std::pair<uint64_t, uint64_t>> issue_completion;
  std::vector<L1Result> l1;
  std::vector<uint64_t> address;
  void on_completion(const Completion& c) override {
    issue_completion.emplace_back(c.issue_cycle, c.completion_cycle);
    l1.push_back(c.how.l1);
    address.push_back(c.request.address);
  }
};

SimulationResult run_timed(const std::string& yaml, const std::string& trace, Timed& seen) {
  const Config cfg = test::config_from(yaml);
  std::istringstream in(trace);
  auto source = read_thread_trace(in, "t.csv");
  SimulationResult r = run_thread_simulation(cfg, *source, {&seen});
  return r;
}

TEST(L1Path, WithMemoryLatencyAFillHoldsItsMshrAndReadsOfItsLineMergeUntilTheMemoryAnswers) {
  // One MSHR, hit latency 1, a memory of 1-cycle slots and 100 cycles of
  // latency. 0x000 misses at 0: its fill goes out at 1 and is back at 102.
  // 0x400 misses at 1 but the MSHR is held until 102: its fill goes out then
  // and is back at 203. 0x004 at 2 finds 0x000's line in flight: a merge,
  // answered with the fill at 102.
  const std::string yaml =
      "memory: {address_bits: 32, channels: 2, service_cycles: 1, max_outstanding: 16, latency_cycles: 100}\n"
      "translator: {channel_bits: [8]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 64, mshr_entries: 8, latency_min: 1, "
      "latency_sigma: 0, issue_timing: memory}\n"
      "l1: {size_bytes: 1024, ways: 2, mshrs: 1, hit_latency: 1}\n";
  Timed seen;
  const SimulationResult r = run_timed(yaml, std::string(kThreadTraceHeader) +
                                                 "\nkernel,k,0\n0,0x10,R,0x000,4,0,\n0,0x18,R,0x400,4,0,\n0,0x20,R,0x004,4,0,\n",
                                       seen);
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 102}, {1, 203}, {2, 102}};
  EXPECT_EQ(seen.issue_completion, want);
  EXPECT_EQ(seen.l1, (std::vector<L1Result>{L1Result::kMiss, L1Result::kMiss, L1Result::kMerge}));
  ASSERT_EQ(r.l1.size(), 1u);
  EXPECT_EQ(r.l1[0].mshr_full_stalls, 1u);
  EXPECT_EQ(r.l1[0].mshr_stall_cycles, 102u - 2) << "from when its fill would have gone out";
}

// A stencil's rows, on one SM: warp w (of 8) reads rows w, w + 1 and w + 2
// of a grid of 128-byte rows, one line each, in three independent loads. The
// warps take turns, one load a cycle: row r is first read at cycle r (rows 8
// and 9 at 15 and 23) and read again 7 and 14 cycles later. 24 reads, 10
// rows: 10 misses and 14 reads of a line already filled.
Timed stencil_rows(unsigned latency_cycles, SimulationResult& r) {
  std::string t = std::string(kThreadTraceHeader) + "\nkernel,stencil,0\n";
  for (uint32_t warp = 0; warp < 8; ++warp)
    for (uint32_t row = warp; row < warp + 3; ++row)
      for (uint32_t lane = 0; lane < 32; ++lane)
        t += std::to_string(32 * warp + lane) + "," + std::to_string(0x10 + row - warp) + ",R," + std::to_string(128 * row + 4 * lane) +
             ",4,0,\n";
  Timed seen;
  r = run_timed("memory: {address_bits: 32, channels: 4, service_cycles: 1, max_outstanding: 16, latency_cycles: " +
                    std::to_string(latency_cycles) +
                    "}\n"
                    "translator: {channel_bits: [7, 8]}\n"
                    "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 8, line_bytes: 128, mshr_entries: 32, latency_min: 1, "
                    "latency_sigma: 0, strided_requests: false, issue_timing: memory}\n"
                    "l1: {size_bytes: 4096, ways: 4, mshrs: 32, hit_latency: 2}\n",
                t, seen);
  return seen;
}

TEST(L1Path, WithoutMemoryLatencyAStencilsRowsAreReadAgainAfterTheirFillsAndHit) {
  // A fill is back 3 cycles after its miss, before the row is read again.
  SimulationResult r;
  stencil_rows(0, r);
  ASSERT_EQ(r.l1.size(), 1u);
  EXPECT_EQ(r.l1[0].reads, 24u);
  EXPECT_EQ(r.l1[0].misses, 10u);
  EXPECT_EQ(r.l1[0].hits, 14u);
  EXPECT_EQ(r.l1[0].mshr_merges, 0u);
}

TEST(L1Path, WithMemoryLatencyAStencilsRowsAreReadAgainWhileTheirFillsAreInFlightAndMerge) {
  // With 100 cycles of memory latency every second and third read of a row
  // comes while its fill is out: the 14 hits of the test above are merges,
  // each answered when its row's fill is back.
  SimulationResult r;
  const Timed seen = stencil_rows(100, r);
  ASSERT_EQ(r.l1.size(), 1u);
  EXPECT_EQ(r.l1[0].misses, 10u);
  EXPECT_EQ(r.l1[0].hits, 0u);
  EXPECT_EQ(r.l1[0].mshr_merges, 14u);
  std::map<uint64_t, uint64_t> fill_back;  // each row's fill completion
  for (size_t i = 0; i < seen.l1.size(); ++i)
    if (seen.l1[i] == L1Result::kMiss) fill_back[seen.address[i] / 128] = seen.issue_completion[i].second;
  ASSERT_EQ(fill_back.size(), 10u);
  for (size_t i = 0; i < seen.l1.size(); ++i) {
    if (seen.l1[i] != L1Result::kMerge) continue;
    EXPECT_EQ(seen.issue_completion[i].second, fill_back[seen.address[i] / 128]) << "read " << i;
    EXPECT_GT(seen.issue_completion[i].second, seen.issue_completion[i].first + 2) << "later than a hit";
  }
}

// simulation.timing: at: the same case, the miss's MSHR held until the
// memory's answer comes, the merge answered with the fill. The observers
// see the requests as they complete; by issue they are those of lt.
TEST(L1Path, ApproximatelyTimedAFillHoldsItsMshrAndReadsOfItsLineMergeUntilTheMemoryAnswers) {
  const std::string yaml =
      "memory: {address_bits: 32, channels: 2, service_cycles: 1, max_outstanding: 16, latency_cycles: 100}\n"
      "translator: {channel_bits: [8]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 64, mshr_entries: 8, issue_timing: memory}\n"
      "l1: {size_bytes: 1024, ways: 2, mshrs: 1, hit_latency: 1}\n"
      "simulation: {timing: at}\n";
  Timed seen;
  const SimulationResult r = run_timed(yaml, std::string(kThreadTraceHeader) +
                                                 "\nkernel,k,0\n0,0x10,R,0x000,4,0,\n0,0x18,R,0x400,4,0,\n0,0x20,R,0x004,4,0,\n",
                                       seen);
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 102}, {2, 102}, {1, 203}};  // in completion order
  EXPECT_EQ(seen.issue_completion, want);
  EXPECT_EQ(seen.l1, (std::vector<L1Result>{L1Result::kMiss, L1Result::kMerge, L1Result::kMiss}));
  ASSERT_EQ(r.l1.size(), 1u);
  EXPECT_EQ(r.l1[0].mshr_full_stalls, 1u);
  EXPECT_EQ(r.l1[0].mshr_stall_cycles, 102u - 2) << "from when its fill would have gone out";
}

// l1.allocate (at): a two-way L1 of one set holds line A. Two misses, B and
// C, go out; A is read again while their fills are out. Placed at the miss,
// B and C take both ways and A misses; placed at the fill, A is still there
// and hits.
std::vector<L1Result> reread_while_two_fills_are_out(const char* allocate, L1Stats& stats) {
  const std::string yaml =
      "memory: {address_bits: 32, channels: 2, service_cycles: 1, max_outstanding: 16, latency_cycles: 100}\n"
      "translator: {channel_bits: [8]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 128, mshr_entries: 8, issue_timing: memory}\n"
      "l1: {size_bytes: 256, ways: 2, mshrs: 4, hit_latency: 1, allocate: " + std::string(allocate) + "}\n"
      "simulation: {timing: at}\n";
  // A (dependent: the warp waits for it), then B, C and A again, independent.
  const std::string t = std::string(kThreadTraceHeader) +
                        "\nkernel,k,0\n0,0x10,R,0x0000,4,1,\n0,0x18,R,0x1000,4,0,\n0,0x20,R,0x2000,4,0,\n0,0x28,R,0x0004,4,0,\n";
  Timed seen;
  const SimulationResult r = run_timed(yaml, t, seen);
  stats = r.l1.at(0);
  std::vector<L1Result> by_issue(4);
  for (size_t i = 0; i < seen.l1.size(); ++i) by_issue[seen.issue_completion[i].first == 0 ? 0 : seen.issue_completion[i].first - 101] = seen.l1[i];
  return by_issue;
}

TEST(L1Path, AllocatedAtTheMissTwoFillsEvictALineThatIsReadWhileTheyAreOut) {
  L1Stats st;
  EXPECT_EQ(reread_while_two_fills_are_out("miss", st),
            (std::vector<L1Result>{L1Result::kMiss, L1Result::kMiss, L1Result::kMiss, L1Result::kMiss}));
  EXPECT_EQ(st.misses, 4u);
}

TEST(L1Path, AllocatedAtTheFillALineStaysUntilTheFillsAreBack) {
  L1Stats st;
  EXPECT_EQ(reread_while_two_fills_are_out("fill", st),
            (std::vector<L1Result>{L1Result::kMiss, L1Result::kMiss, L1Result::kMiss, L1Result::kHit}));
  EXPECT_EQ(st.misses, 3u);
  EXPECT_EQ(st.hits, 1u);
}

}  // namespace
}  // namespace gpumem
