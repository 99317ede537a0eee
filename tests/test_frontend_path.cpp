// A per-thread trace through the whole model (gpumem run --threads): the
// memory-init items, the SMs' coalesced reads and byte-enabled writes, the
// MMU and the translator in both positions. Every read must return what a
// plain byte-by-byte replay of the trace says (kernels are barriers).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>

#include "sources/thread_trace_io.hpp"
#include "system/simulation.hpp"
#include "test_helpers.hpp"

namespace gpumem::frontend_path_test {
namespace {

std::string config_yaml(const std::string& position) {
  return "memory: {address_bits: 32, channels: 8, service_cycles: 2, max_outstanding: 16}\n"
         "mmu: {tlb: {entries: 8, ways: 2, replacement: plru}, walk_level_cycles: 1}\n"
         "translator:\n"
         "  position: " + position + "\n"
         "  channel_bits: [6, 7, 8]\n"
         "  candidate_bits: [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n"
         "  tasks:\n"
         "    - {task_type: 1, scheme: xor, xor_vectors: [0x0F1, 0x3A2, 0xC54]}\n"
         "    - {task_type: 2, scheme: xor, xor_vectors: [0x801, 0x402, 0x204]}\n"
         "address_space:\n"
         "  va_bits: 32\n"
         "  applications:\n"
         "    - name: a\n      process: 1\n      task_type: 1\n      regions:\n"
         "        - {name: a_large, va: 0x100000, size: 0x20000, page: large}\n"
         "    - name: b\n      process: 2\n      task_type: 2\n      regions:\n"
         "        - {name: b_small, va: 0x500000, size: 0x4000, page: small}\n"
         "frontend: {num_sms: 3, blocks_per_sm: 2, warps_per_block: 2, line_bytes: 64, mshr_entries: 6, latency_min: 4, "
         "latency_sigma: 3}\n";
}

// The bytes every read must see: (process, VA) -> byte.
using Image = std::map<std::pair<unsigned, uint64_t>, uint8_t>;

struct Checker : CompletionObserver {
  const Image& image;
  uint64_t reads = 0, bytes_checked = 0, wrong = 0;
  explicit Checker(const Image& i) : image(i) {}
  void on_completion(const Completion& c) override {
    ASSERT_EQ(c.how.fault, FaultReason::kNone) << "request " << c.request.id;
    EXPECT_NE(c.request.sm, Request::kNoSm);
    if (c.request.op != Op::kRead) return;
    ++reads;
    for (unsigned i = 0; i < c.request.size; ++i) {
      const auto it = image.find({c.request.process, c.request.address + i});
      if (it == image.end()) continue;  // never written: no value to expect
      ++bytes_checked;
      if (c.data[i] != it->second && wrong++ < 5)
        ADD_FAILURE() << "request " << c.request.id << " VA 0x" << std::hex << c.request.address + i << ": read 0x"
                      << int(c.data[i]) << ", want 0x" << int(it->second);
    }
  }
};

// Kernel 0 of process 1 writes every other 4-byte word of 4 KB; kernel 1
// reads all of it in 8-byte accesses; process 2's kernels write 16-byte
// vectors then read them back as 4-byte words, and read the memory-init
// bytes. `image` is the memory the reads of the last kernel of each must see.
std::string make_trace(Image& image, Image& after_init) {
  std::ostringstream t;
  t << kThreadTraceHeader << "\n";
  std::mt19937_64 rng(5);
  // Memory-init: 256 bytes at 0x501000 of process 2, and 4 KB at 0x100000
  // of process 1, half of which kernel "writes" overwrites word by word.
  for (unsigned chunk = 0; chunk < 2; ++chunk) {
    const unsigned process = chunk ? 1 : 2;
    const uint64_t va = chunk ? 0x100000 : 0x501000;
    t << "init," << process << ",0x" << std::hex << va << std::dec << ",";
    for (unsigned i = 0; i < (chunk ? 4096u : 256u); ++i) {
      const uint8_t b = static_cast<uint8_t>(rng());
      char h[3];
      std::snprintf(h, sizeof h, "%02x", b);
      t << h;
      after_init[{process, va + i}] = b;
    }
    t << "\n";
  }
  image = after_init;
  auto put = [&](unsigned process, uint64_t va, unsigned width, uint64_t value) {
    for (unsigned i = 0; i < width; ++i) image[{process, va + i}] = static_cast<uint8_t>(value >> (8 * (i % 8)));
  };
  char line[128];
  t << "kernel,writes,1\n";
  for (uint32_t tid = 0; tid < 512; ++tid) {
    const uint64_t va = 0x100000 + 8 * tid;  // every other word
    const uint64_t value = rng() & 0xFFFFFFFF;
    std::snprintf(line, sizeof line, "%u,0x10,W,0x%llx,4,0,0x%llx\n", tid, (unsigned long long)va, (unsigned long long)value);
    t << line;
    put(1, va, 4, value);
  }
  // Two instructions per thread: a warp's records of one instruction stay
  // together (the layout rule), so warp by warp, instruction by instruction.
  t << "kernel,reads,1\n";
  for (uint32_t warp = 0; warp < 16; ++warp) {
    for (uint32_t tid = 32 * warp; tid < 32 * warp + 32; ++tid) {
      std::snprintf(line, sizeof line, "%u,0x20,R,0x%llx,8,1,\n", tid, (unsigned long long)(0x100000 + 8 * tid));
      t << line;
    }
    for (uint32_t tid = 32 * warp; tid < 32 * warp + 32; ++tid) {
      std::snprintf(line, sizeof line, "%u,0x28,R,0x%llx,4,1,\n", tid, (unsigned long long)(0x100000 + 4 * (tid % 64)));
      t << line;
    }
  }
  t << "kernel,vectors,2\n";
  for (uint32_t tid = 0; tid < 64; ++tid) {
    const uint64_t va = 0x500000 + 16 * tid, value = rng();
    std::snprintf(line, sizeof line, "%u,0x30,W,0x%llx,16,0,0x%llx\n", tid, (unsigned long long)va, (unsigned long long)value);
    t << line;
    put(2, va, 16, value);
  }
  t << "kernel,readback,2\n";
  for (uint32_t warp = 0; warp < 8; ++warp) {
    for (uint32_t tid = 32 * warp; tid < 32 * warp + 32; ++tid) {
      std::snprintf(line, sizeof line, "%u,0x40,R,0x%llx,4,0,\n", tid, (unsigned long long)(0x500000 + 4 * tid));
      t << line;
    }
    for (uint32_t tid = 32 * warp; tid < 32 * warp + 32; ++tid) {
      std::snprintf(line, sizeof line, "%u,0x48,R,0x%llx,4,1,\n", tid, (unsigned long long)(0x501000 + 4 * (tid % 64)));
      t << line;
    }
  }
  return t.str();
}

void run_and_check(const std::string& position) {
  const Config cfg = test::config_from(config_yaml(position));
  Image image, after_init;
  const std::string text = make_trace(image, after_init);
  std::istringstream in(text);
  auto source = read_thread_trace(in, "t.csv");
  Checker check(image);
  const SimulationResult r = run_thread_simulation(cfg, *source, {&check});
  EXPECT_EQ(r.memory_init_bytes, 4096u + 256u);
  EXPECT_EQ(r.sequence.kernels, 4u);
  EXPECT_EQ(r.sequence.thread_accesses, 512u + 1024u + 64u + 512u);
  EXPECT_EQ(r.requests, r.sequence.requests);
  // Reads of the kernels after the writes: every byte checked, none wrong.
  EXPECT_GT(check.bytes_checked, 4096u + 1024u + 1024u);
  EXPECT_EQ(check.wrong, 0u);
  // All three SMs ran blocks and the coalescing merged accesses.
  ASSERT_EQ(r.sms.size(), 3u);
  for (const SmRunStats& s : r.sms) EXPECT_GT(s.requests, 0u);
  EXPECT_LT(r.sequence.requests, r.sequence.thread_accesses / 4);
}

TEST(FrontendPath, ReadsSeeTheTracesWritesAndMemoryInitAfterTheMmu) {
  run_and_check("after_mmu");
}

TEST(FrontendPath, ReadsSeeTheTracesWritesAndMemoryInitBeforeTheMmu) {
  run_and_check("before_mmu");
}

// When the SMs issue, on a hand-worked case: one channel slot of 10 cycles
// per request (so real latencies exceed the ordering's latency of 1), no MMU.
const char* const kSlowMemory =
    "memory: {address_bits: 32, channels: 2, service_cycles: 10, max_outstanding: 16}\n"
    "translator: {channel_bits: [8]}\n"
    "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 64, mshr_entries: 2, latency_min: 1, "
    "latency_sigma: 0}\n";

struct IssueLog : CompletionObserver {
  std::vector<std::pair<uint64_t, uint64_t>> issue_completion;
  void on_completion(const Completion& c) override { issue_completion.emplace_back(c.issue_cycle, c.completion_cycle); }
};

SimulationResult run_text(const char* yaml, const std::string& text, IssueLog& log) {
  const Config cfg = test::config_from(yaml);
  std::istringstream in(text);
  auto source = read_thread_trace(in, "t.csv");
  return run_thread_simulation(cfg, *source, {&log});
}

TEST(FrontendTiming, AnSmIssuesOnlyWhileAnMshrIsFree) {
  // Four independent loads, all in channel 0. The ordering issues them at
  // ticks 0-3; the memory completes one each 10 cycles (10, 20, 30, 40), so
  // with two MSHRs the third waits for the first (10) and the fourth for
  // the second (20).
  std::string t = std::string(kThreadTraceHeader) + "\nkernel,k,0\n";
  for (int i = 0; i < 4; ++i) t += "0,0x" + std::to_string(10 + i) + ",R," + std::to_string(0x200 * i) + ",4,0,\n";
  IssueLog log;
  const SimulationResult r = run_text(kSlowMemory, t, log);
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 10}, {1, 20}, {10, 30}, {20, 40}};
  EXPECT_EQ(log.issue_completion, want);
  ASSERT_EQ(r.sms.size(), 1u);
  // Waits are counted from the later of the slot and the cycle after the
  // SM's previous issue: 2 -> 10, then 11 -> 20.
  EXPECT_EQ(r.sms[0].mshr_wait_cycles, (10u - 2) + (20u - 11));
  EXPECT_EQ(r.sms[0].dependency_wait_cycles, 0u);
  EXPECT_EQ(r.sms[0].latency_max, 20u);
}

TEST(FrontendTiming, AWarpWaitsForItsDependentDataAndAKernelForThePreviousOne) {
  // Kernel a: a dependent load (slot 0), then the same warp's next load
  // (slot 2 in the ordering); kernel b: one load (slot 4). In real time the
  // first completes at 10, so the second issues at 10 and completes at 20;
  // kernel b waits for that: 20, not 11.
  const std::string t = std::string(kThreadTraceHeader) +
                        "\nkernel,a,0\n0,0x10,R,0x0,4,1,\n0,0x18,R,0x200,4,0,\nkernel,b,0\n0,0x10,R,0x400,4,0,\n";
  IssueLog log;
  const SimulationResult r = run_text(kSlowMemory, t, log);
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 10}, {10, 20}, {20, 30}};
  EXPECT_EQ(log.issue_completion, want);
  EXPECT_EQ(r.sms[0].dependency_wait_cycles, 10u - 2);
}

TEST(FrontendTiming, EveryRequestOfAKernelWaitsForThePreviousKernel) {
  // Kernel a: one load on SM 0, complete at 10. Kernel b: one load on each
  // of two SMs, both ordered long before 10: both wait for kernel a, not
  // only the first to issue (the second issued at its slot, before the
  // first, when only a kernel's first request was held).
  const char* yaml =
      "memory: {address_bits: 32, channels: 2, service_cycles: 10, max_outstanding: 16}\n"
      "translator: {channel_bits: [8]}\n"
      "frontend: {num_sms: 2, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 64, mshr_entries: 2, latency_min: 1, "
      "latency_sigma: 0}\n";
  const std::string t = std::string(kThreadTraceHeader) +
                        "\nkernel,a,0\n0,0x10,R,0x0,4,0,\nkernel,b,0\n0,0x20,R,0x200,4,0,\n32,0x20,R,0x400,4,0,\n";
  IssueLog log;
  run_text(yaml, t, log);
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 10}, {10, 20}, {10, 30}};
  EXPECT_EQ(log.issue_completion, want);
}

struct L1Log : CompletionObserver {
  std::vector<std::pair<uint64_t, uint64_t>> issue_completion;
  std::vector<L1Result> l1;
  void on_completion(const Completion& c) override {
    issue_completion.emplace_back(c.issue_cycle, c.completion_cycle);
    l1.push_back(c.how.l1);
  }
};

TEST(FrontendTiming, AnL1AnswersAHitAfterItsLatencyAMissAfterItsFillAndAMergeWithIt) {
  // One warp, 64-byte lines, memory 10 cycles a request, L1 hit latency 3.
  // 0x0 (dependent) misses: its fill goes out at 3, is served 3-13. 0x4 and
  // 0x8 then hit (13 -> 16, 14 -> 17). 0x40 misses at 15 (fill 18-28), and
  // 0x44 at 16 merges with that fill: done at 28 too.
  const char* yaml =
      "memory: {address_bits: 32, channels: 2, service_cycles: 10, max_outstanding: 16}\n"
      "translator: {channel_bits: [8]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 64, mshr_entries: 8, latency_min: 1, "
      "latency_sigma: 0}\n"
      "l1: {size_bytes: 1024, ways: 2, mshrs: 4, hit_latency: 3}\n";
  const std::string t = std::string(kThreadTraceHeader) +
                        "\nkernel,k,0\n0,0x10,R,0x0,4,1,\n0,0x18,R,0x4,4,0,\n0,0x20,R,0x8,4,0,\n0,0x28,R,0x40,4,0,\n0,0x30,R,0x44,4,0,\n";
  const Config cfg = test::config_from(yaml);
  std::istringstream in(t);
  auto source = read_thread_trace(in, "t.csv");
  L1Log log;
  const SimulationResult r = run_thread_simulation(cfg, *source, {&log});
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 13}, {13, 16}, {14, 17}, {15, 28}, {16, 28}};
  EXPECT_EQ(log.issue_completion, want);
  EXPECT_EQ(log.l1, (std::vector<L1Result>{L1Result::kMiss, L1Result::kHit, L1Result::kHit, L1Result::kMiss, L1Result::kMerge}));
  ASSERT_EQ(r.l1.size(), 1u);
  EXPECT_EQ(r.l1[0].fills, 2u);
  EXPECT_EQ(r.channel_accesses[0], 2u) << "only the two fills reached memory";
}

// Two dependent loads of one warp with an ordering latency of 50: in the
// ordering the second is at tick 51; the memory answers the first at 10.
uint64_t second_issue(const char* timing) {
  std::string y = kSlowMemory;
  y.replace(y.find("latency_min: 1"), 14, "latency_min: 50");
  y.replace(y.find("latency_sigma: 0}"), 17, std::string("latency_sigma: 0, issue_timing: ") + timing + "}");
  const std::string t = std::string(kThreadTraceHeader) + "\nkernel,k,0\n0,0x10,R,0x0,4,1,\n0,0x18,R,0x200,4,1,\n";
  IssueLog log;
  run_text(y.c_str(), t, log);
  return log.issue_completion.size() == 2 ? log.issue_completion[1].first : 0;
}

TEST(FrontendTiming, WithOrderingIssueTimingTheOrderingsGapsStay) {
  EXPECT_EQ(second_issue("ordering"), 51u);
}

TEST(FrontendTiming, WithMemoryIssueTimingTheDataDecides) {
  EXPECT_EQ(second_issue("memory"), 10u);
}

// issue_timing: memory in front of a memory with 100 cycles of pipelined
// latency (simple model, one channel slot of 10 cycles, no MMU, no L1).
const char* const kLatency100 =
    "memory: {address_bits: 32, channels: 2, service_cycles: 10, max_outstanding: 16, latency_cycles: 100}\n"
    "translator: {channel_bits: [8]}\n"
    "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 64, mshr_entries: 8, latency_min: 1, "
    "latency_sigma: 0, strided_requests: false, issue_timing: memory}\n";

// One warp: a dependent load whose four lanes touch four lines (0x000, 0x040
// and 0x080 on channel 0, 0x100 on channel 1), then a dependent load of 0x200
// (channel 0).
std::string four_lines_then_one() {
  std::string t = std::string(kThreadTraceHeader) + "\nkernel,k,0\n";
  unsigned lane = 0;
  for (const char* a : {"0x000", "0x040", "0x080", "0x100"}) t += std::to_string(lane++) + ",0x10,R," + a + ",4,1,\n";
  return t + "0,0x18,R,0x200,4,1,\n";
}

TEST(FrontendTiming, WithMemoryIssueTimingAnInstructionsLinesIssueTogetherAndTheNextInstructionWaitsForAll) {
  IssueLog log;
  const SimulationResult r = run_text(kLatency100, four_lines_then_one(), log);
  // The four lines issue at 0-3, one a cycle. Channel 0 serves 0x000 at
  // 0-10, 0x040 at 10-20, 0x080 at 20-30, channel 1 0x100 at 3-13; each
  // completes 100 cycles later. The whole instruction is back at 130, not
  // 440 (four round trips one after the other). The next load waits for
  // the latest of the four (0x080, 130), not for the last issued (0x100, 113).
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 110}, {1, 120}, {2, 130}, {3, 113}, {130, 240}};
  EXPECT_EQ(log.issue_completion, want);
  ASSERT_EQ(r.sms.size(), 1u);
  EXPECT_EQ(r.sms[0].dependency_wait_cycles, 130u - 4) << "only the second load waited for data, from cycle 4";
}

TEST(FrontendTiming, WithMemoryIssueTimingAnotherWarpsWaitDoesNotSplitAnInstruction) {
  // Two warps on the SM, an ordering latency of 5. Warp 0: the four-line
  // load; warp 1: two dependent loads on channel 0. Warp 0's four lines go
  // out at 0-3 and warp 1's first load at 4 (channel 0 is free at 30: back
  // at 140); its second load waits for that. Had the ordering put warp 1's
  // loads between warp 0's lines, as CN106407063B does (a line every 6 ticks),
  // the wait would hold warp 0's last two lines back until 120.
  std::string y = kLatency100;
  y.replace(y.find("warps_per_block: 1"), 18, "warps_per_block: 2");
  y.replace(y.find("latency_min: 1"), 14, "latency_min: 5");
  std::string t = four_lines_then_one();
  t.erase(t.rfind("0,0x18"));  // warp 0: the four-line load only
  t += "32,0x20,R,0x1000,4,1,\n32,0x28,R,0x1200,4,1,\n";
  IssueLog log;
  run_text(y.c_str(), t, log);
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 110}, {1, 120}, {2, 130}, {3, 113}, {4, 140}, {140, 250}};
  EXPECT_EQ(log.issue_completion, want);
}

TEST(FrontendTiming, WithMemoryIssueTimingAnSmsMshrsAreHeldUntilTheMemoryAnswers) {
  // Two MSHRs, four independent loads on channel 0: the third issues when the
  // first answers (110), the fourth when the second does (120).
  std::string y = kLatency100;
  y.replace(y.find("mshr_entries: 8"), 15, "mshr_entries: 2");
  std::string t = std::string(kThreadTraceHeader) + "\nkernel,k,0\n";
  for (int i = 0; i < 4; ++i) t += "0,0x" + std::to_string(10 + i) + ",R," + std::to_string(0x200 * i) + ",4,0,\n";
  IssueLog log;
  const SimulationResult r = run_text(y.c_str(), t, log);
  const std::vector<std::pair<uint64_t, uint64_t>> want{{0, 110}, {1, 120}, {110, 220}, {120, 230}};
  EXPECT_EQ(log.issue_completion, want);
  EXPECT_EQ(r.sms[0].mshr_wait_cycles, (110u - 2) + (120u - 111));
}

TEST(FrontendTiming, WithADramMemoryAnInstructionsLinesIssueTogetherAndTheNextInstructionWaitsForAll) {
  // The same two loads in front of HBM2 (memory.model: dram): the four lines
  // still issue at 0-3 and the next load at the latest of their completions.
  const char* yaml =
      "memory: {address_bits: 32, channels: 2, model: dram, preset: hbm2, max_outstanding: 16}\n"
      "translator: {channel_bits: [8]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 64, mshr_entries: 8, latency_min: 1, "
      "latency_sigma: 0, strided_requests: false, issue_timing: memory}\n";
  IssueLog log;
  run_text(yaml, four_lines_then_one(), log);
  ASSERT_EQ(log.issue_completion.size(), 5u);
  uint64_t first_back = ~uint64_t{0}, last_back = 0;
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(log.issue_completion[i].first, i) << "one line a cycle";
    first_back = std::min(first_back, log.issue_completion[i].second);
    last_back = std::max(last_back, log.issue_completion[i].second);
  }
  EXPECT_EQ(log.issue_completion[4].first, last_back);
  // The four were in the memory together: the last is back well before four
  // unloaded round trips one after the other would be.
  EXPECT_GT(first_back, 10u) << "a DRAM read takes tens of cycles";
  EXPECT_LT(last_back, 2 * first_back);
}

}  // namespace
}  // namespace gpumem::frontend_path_test
