// Strided requests (CN104199782B) through the whole model: the messages they
// take on hand-worked cases, when each element is served, and that they read
// exactly what element-by-element requests read, for every mapping scheme.
// One simulation per test (SystemC elaborates once per process).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <random>
#include <sstream>

#include "sources/thread_trace_io.hpp"
#include "system/simulation.hpp"
#include "test_helpers.hpp"

namespace gpumem::strided_path_test {
namespace {

// What the observers see of each element (or request).
struct Seen {
  uint64_t id, address;
  unsigned size, channel;
  uint64_t start, finish, issue, completion;
  FaultReason fault;
};
struct Recorder : CompletionObserver {
  std::vector<Seen> seen;
  void on_completion(const Completion& c) override {
    seen.push_back({c.request.id, c.request.address, c.request.size, c.how.channel, c.how.start_cycle, c.how.finish_cycle,
                    c.issue_cycle, c.completion_cycle, c.how.fault});
  }
};

SimulationResult run_text(const std::string& yaml, const std::string& text, std::vector<CompletionObserver*> observers) {
  const Config cfg = test::config_from(yaml);
  std::istringstream in(text);
  auto source = read_thread_trace(in, "t.csv");
  return run_thread_simulation(cfg, *source, observers);
}

// 4 channels on bits 8 and 9: 256-byte granules, one access each 2 cycles.
const char* const kFourChannels =
    "memory: {address_bits: 32, channels: 4, service_cycles: 2, max_outstanding: 16}\n"
    "translator: {channel_bits: [8, 9]}\n"
    "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 128, mshr_entries: 4, latency_min: 1, "
    "latency_sigma: 0}\n";

TEST(StridedPath, SavedMessagesAreExact) {
  // docs/frontend.md, "Strided requests": 32 threads load 4 bytes 64 bytes
  // apart from 0. Coalescing: two threads a 128-byte line, 16 line requests.
  // Elements 4g..4g+3 are granule g, in channel g % 4: each channel gets one
  // message of 8 elements in 2 granules.
  std::string t = std::string(kThreadTraceHeader) + "\nkernel,k,0\n";
  for (unsigned i = 0; i < 32; ++i) t += std::to_string(i) + ",0x10,R," + std::to_string(64 * i) + ",4,0,\n";
  Recorder rec;
  const SimulationResult r = run_text(kFourChannels, t, {&rec});
  EXPECT_EQ(r.sequence.requests, 1u);
  EXPECT_EQ(r.strided.requests, 1u);
  EXPECT_EQ(r.strided.elements, 32u);
  EXPECT_EQ(r.strided.line_requests, 16u);
  EXPECT_EQ(r.strided.messages, 4u);
  EXPECT_EQ(r.strided.accesses, 8u);
  EXPECT_EQ(r.strided.saved_against_elements(), 28);
  EXPECT_EQ(r.strided.saved_against_lines(), 12);
  // Each element as the request it stands for, in element order. Every
  // channel serves its first granule in cycles 0-2 and its second in 2-4;
  // the request completes with the last, at 4.
  ASSERT_EQ(rec.seen.size(), 32u);
  for (unsigned i = 0; i < 32; ++i) {
    const Seen& s = rec.seen[i];
    EXPECT_EQ(s.id, 0u);
    EXPECT_EQ(s.address, 64u * i);
    EXPECT_EQ(s.size, 4u);
    EXPECT_EQ(s.channel, (i / 4) % 4) << i;
    EXPECT_EQ(s.start, 2u * (i / 16)) << i;
    EXPECT_EQ(s.finish, 2u * (i / 16) + 2) << i;
    EXPECT_EQ(s.issue, 0u);
    EXPECT_EQ(s.completion, 4u);
  }
  EXPECT_EQ(r.channel_accesses, (std::vector<uint64_t>{2, 2, 2, 2}));
}

TEST(StridedPath, StoresOneElementPerGranuleAndThreadsSharingAnAddress) {
  // 16 threads store 4 bytes, two threads at each of 8 addresses 256 bytes
  // apart: 8 elements, channels 0 1 2 3 0 1 2 3, so 4 messages of 2
  // accesses; 8 line requests before. Then one warp reads them back.
  std::string t = std::string(kThreadTraceHeader) + "\nkernel,st,0\n";
  for (unsigned i = 0; i < 16; ++i)
    t += std::to_string(i) + ",0x10,W," + std::to_string(256 * (i / 2)) + ",4,0," + std::to_string(0x1000 + i) + "\n";
  t += "kernel,ld,0\n";
  for (unsigned i = 0; i < 8; ++i) t += std::to_string(i) + ",0x20,R," + std::to_string(256 * i) + ",4,0,\n";
  struct ReadBack : CompletionObserver {
    std::map<uint64_t, uint32_t> value;
    void on_completion(const Completion& c) override {
      if (c.request.op != Op::kRead) return;
      uint32_t v = 0;
      std::memcpy(&v, c.data, 4);
      value[c.request.address] = v;
    }
  } back;
  const SimulationResult r = run_text(kFourChannels, t, {&back});
  EXPECT_EQ(r.strided.requests, 2u);
  EXPECT_EQ(r.strided.elements, 16u);
  EXPECT_EQ(r.strided.line_requests, 16u);
  EXPECT_EQ(r.strided.messages, 8u);
  EXPECT_EQ(r.strided.accesses, 16u);
  // Of two threads at one address the later in lane order wrote last.
  ASSERT_EQ(back.value.size(), 8u);
  for (unsigned e = 0; e < 8; ++e) EXPECT_EQ(back.value[256 * e], 0x1000u + 2 * e + 1) << e;
}

// With an MMU, a strided request whose last element is past the mapped
// region faults as a whole: no element reaches a channel.
TEST(StridedPath, AFaultInOneElementFailsTheWholeRequest) {
  const std::string yaml =
      "memory: {address_bits: 32, channels: 4, service_cycles: 2, max_outstanding: 16}\n"
      "translator: {channel_bits: [8, 9]}\n"
      "address_space:\n  va_bits: 32\n  applications:\n"
      "    - name: a\n      process: 0\n      task_type: 0\n      regions:\n"
      "        - {name: r, va: 0x10000, size: 0x1000, page: small}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, latency_min: 1, latency_sigma: 0}\n";
  std::string t = std::string(kThreadTraceHeader) + "\nkernel,k,0\n";
  for (unsigned i = 0; i < 5; ++i) t += std::to_string(i) + ",0x10,R," + std::to_string(0x10000 + 0x400 * i) + ",4,0,\n";
  Recorder rec;
  const SimulationResult r = run_text(yaml, t, {&rec});
  ASSERT_EQ(rec.seen.size(), 5u);
  for (const Seen& s : rec.seen) EXPECT_EQ(s.fault, FaultReason::kUnmapped) << s.address;
  ASSERT_EQ(r.faults.size(), 1u);
  EXPECT_EQ(r.faults[0].va, 0x11000u);
  EXPECT_EQ(r.strided.messages, 0u);
}

// Strided reads read what element-by-element requests read: every scheme,
// both translator positions, strided requests on and off. The oracle is a
// byte-by-byte replay of the trace; with them on, the run must have made
// strided requests (across pages, with elements of 4, 8 and 16 bytes,
// spacings below and above a line, threads sharing addresses).
struct SchemeCase {
  const char* name;
  const char* task;  // the task type 1 entry
  const char* position;
  bool strided;
};

std::string scheme_yaml(const SchemeCase& c) {
  return std::string("memory: {address_bits: 32, channels: 8, service_cycles: 2, max_outstanding: 16}\n"
                     "mmu: {tlb: {entries: 8, ways: 2, replacement: plru}, walk_level_cycles: 1}\n"
                     "translator:\n  position: ") +
         c.position +
         "\n  channel_bits: [6, 7, 8]\n"
         "  candidate_bits: [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n"
         "  prime: 7\n"
         "  tasks:\n    - " + c.task + "\n"
         "address_space:\n  va_bits: 32\n  applications:\n"
         "    - name: a\n      process: 1\n      task_type: 1\n      regions:\n"
         "        - {name: a_large, va: 0x100000, size: 0x20000, page: large}\n"
         "        - {name: a_small, va: 0x200000, size: 0x8000, page: small}\n"
         "frontend: {num_sms: 2, blocks_per_sm: 2, warps_per_block: 2, line_bytes: 64, mshr_entries: 6, latency_min: 4, "
         "latency_sigma: 3, strided_requests: " + (c.strided ? "true" : "false") + "}\n";
}

using Image = std::map<uint64_t, uint8_t>;  // VA -> byte, process 1

struct ImageCheck : CompletionObserver {
  const Image& image;
  uint64_t wrong = 0;
  std::set<uint64_t> checked;
  explicit ImageCheck(const Image& i) : image(i) {}
  void on_completion(const Completion& c) override {
    ASSERT_EQ(c.how.fault, FaultReason::kNone) << "request " << c.request.id;
    if (c.request.op != Op::kRead) return;
    for (unsigned i = 0; i < c.request.size; ++i) {
      const auto it = image.find(c.request.address + i);
      if (it == image.end()) continue;
      checked.insert(it->first);
      if (c.data[i] != it->second && wrong++ < 5)
        ADD_FAILURE() << "request " << c.request.id << " VA 0x" << std::hex << c.request.address + i << ": read 0x"
                      << int(c.data[i]) << ", want 0x" << int(it->second);
    }
  }
};

// Kernel "fill" stores strided data over both regions (kernels are
// barriers), kernel "read" loads it back in other shapes.
// `read_bytes`: the bytes the threads read that the fill wrote.
std::string scheme_trace(Image& image, std::set<uint64_t>& read_bytes) {
  std::ostringstream t;
  t << kThreadTraceHeader << "\n";
  std::mt19937_64 rng(11);
  char line[128];
  uint32_t tid = 0;
  auto warp_op = [&](char op, uint64_t base, uint64_t stride, unsigned width, unsigned lanes, unsigned share) {
    // `share` threads per address; threads in ascending order, so the last writes last.
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const uint64_t va = base + stride * (lane / share);
      const uint64_t value = rng();
      if (op == 'W') {
        std::snprintf(line, sizeof line, "%u,0x%x,W,0x%llx,%u,0,0x%llx\n", tid + lane, 0x100 + width, (unsigned long long)va,
                      width, (unsigned long long)value);
        for (unsigned i = 0; i < width; ++i) image[va + i] = static_cast<uint8_t>(value >> (8 * (i % 8)));
      } else {
        for (unsigned i = 0; i < width; ++i)
          if (image.count(va + i)) read_bytes.insert(va + i);
        std::snprintf(line, sizeof line, "%u,0x%x,R,0x%llx,%u,1,\n", tid + lane, 0x200 + width, (unsigned long long)va, width);
      }
      t << line;
    }
    tid += 32;
  };
  t << "kernel,fill,1\n";
  warp_op('W', 0x100000, 8, 4, 32, 1);        // below a line: 4 lines
  warp_op('W', 0x100400, 256, 8, 32, 2);      // two threads an address
  warp_op('W', 0x102000, 4096, 16, 24, 1);    // a page apart (64 KB pages: 2 of them)
  warp_op('W', 0x200000, 1024, 4, 32, 1);     // small pages: 8 of them
  warp_op('W', 0x200010, 64, 8, 32, 1);
  tid = 0;
  t << "kernel,read,1\n";
  warp_op('R', 0x100000, 16, 8, 32, 1);       // the fill's words, in 8-byte pairs
  warp_op('R', 0x100400, 512, 8, 32, 4);
  warp_op('R', 0x102000, 4096, 16, 24, 1);
  warp_op('R', 0x102008, 8192, 4, 12, 1);
  warp_op('R', 0x200000, 2048, 4, 32, 2);
  warp_op('R', 0x200010, 128, 8, 32, 1);
  warp_op('R', 0x200000, 4, 4, 16, 1);        // one line: no strided request
  return t.str();
}

class StridedSchemes : public ::testing::TestWithParam<SchemeCase> {};

TEST_P(StridedSchemes, ReadsEqualElementByElementReads) {
  const SchemeCase& c = GetParam();
  Image image;
  std::set<uint64_t> read_bytes;
  const std::string text = scheme_trace(image, read_bytes);
  ImageCheck check(image);
  const SimulationResult r = run_text(scheme_yaml(c), text, {&check});
  EXPECT_EQ(check.wrong, 0u);
  // Every read byte was written by the fill kernel: all of them checked.
  EXPECT_GT(read_bytes.size(), 700u);
  EXPECT_TRUE(std::includes(check.checked.begin(), check.checked.end(), read_bytes.begin(), read_bytes.end()))
      << "a byte a thread read came back in no request";
  if (c.strided) {
    // All but the one-line read go out strided.
    EXPECT_EQ(r.strided.requests, 11u);
    EXPECT_EQ(r.sequence.requests, 12u);
    EXPECT_GT(r.strided.messages, 0u);
    EXPECT_LT(r.strided.messages, r.strided.elements);
  } else {
    EXPECT_EQ(r.strided.requests, 0u);
    EXPECT_GT(r.sequence.requests, 12u);
  }
}

std::vector<SchemeCase> scheme_cases() {
  const std::pair<const char*, const char*> schemes[] = {
      {"none", "{task_type: 1, scheme: none}"},
      {"xor", "{task_type: 1, scheme: xor, xor_vectors: [0x0F1, 0x3A2, 0xC54]}"},
      {"prime", "{task_type: 1, scheme: prime}"},
      {"matrix", "{task_type: 1, scheme: matrix, matrix: [[6, 9, 12, 16], [7, 10, 13], [8, 11, 14, 17]]}"},
  };
  std::vector<SchemeCase> cases;
  for (const auto& [name, task] : schemes)
    for (const char* position : {"after_mmu", "before_mmu"})
      for (bool strided : {true, false}) cases.push_back({name, task, position, strided});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllSchemes, StridedSchemes, ::testing::ValuesIn(scheme_cases()),
                         [](const ::testing::TestParamInfo<SchemeCase>& i) {
                           return std::string(i.param.name) + "_" + i.param.position + (i.param.strided ? "_strided" : "_lines");
                         });

}  // namespace
}  // namespace gpumem::strided_path_test
