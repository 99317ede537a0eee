// The BFS generator's trace through the whole model (gpumem run --threads):
// its arrays in a region of an address space, loaded by the memory-init
// items through the MMU and the translator, the SMs' coalesced reads and
// byte-enabled writes. Every word a read returns from the CSR arrays is the
// CSR's; every word of the worklist and visitedlist is either its initial
// value or the one the traversal leaves (each is written once, and a
// kernel's reads never race with a write of its own).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>

#include "base/hex.hpp"
#include "sources/bfs_trace.hpp"
#include "sources/thread_trace_io.hpp"
#include "params/frontend_from_config.hpp"
#include "system/simulation.hpp"
#include "test_helpers.hpp"

namespace gpumem {
namespace {

const char* const kConfig =
    "memory: {address_bits: 32, channels: 4, service_cycles: 2, max_outstanding: 16}\n"
    "mmu: {tlb: {entries: 8, ways: 2}}\n"
    "translator: {channel_bits: [6, 7]}\n"
    "address_space:\n"
    "  va_bits: 32\n"
    "  applications:\n"
    "    - name: bfs\n"
    "      process: 3\n"
    "      task_type: 1\n"
    "      regions:\n"
    "        - {name: graph, va: 0x400000, size: 0x40000, page: large}\n"
    "frontend: {num_sms: 3, blocks_per_sm: 2, warps_per_block: 2, line_bytes: 64, mshr_entries: 6, latency_min: 4, "
    "latency_sigma: 3}\n";

// A sink that writes the CSV form and keeps the final worklist.
class Capture : public ThreadTraceSink {
 public:
  Capture() : mem_(open_memstream(&buf_, &len_)), csv_(write_thread_trace(mem_, ThreadTraceForm::kCsv)) {}
  ~Capture() override { std::free(buf_); }
  void memory_init(const MemoryInit& i) override { csv_->memory_init(i); }
  void kernel(const KernelInfo& k) override { csv_->kernel(k); }
  void record(const ThreadRecord& r) override {
    csv_->record(r);
    if (r.op == Op::kWrite) written[r.address] = static_cast<uint32_t>(r.data);
  }
  std::string text() {
    csv_->finish();
    std::fclose(mem_);
    mem_ = nullptr;
    return std::string(buf_, len_);
  }
  std::map<uint64_t, uint32_t> written;  // address -> the last value written there

 private:
  char* buf_ = nullptr;
  size_t len_ = 0;
  std::FILE* mem_;
  std::unique_ptr<ThreadTraceSink> csv_;
};

struct Checker : CompletionObserver {
  const CsrGraph& g;
  const BfsLayout& l;
  const std::map<uint64_t, uint32_t>& written;
  const uint32_t source;
  uint64_t reads = 0, words = 0, wrong = 0, of_writes = 0;
  Checker(const CsrGraph& graph, const BfsLayout& layout, const std::map<uint64_t, uint32_t>& w, uint32_t src)
      : g(graph), l(layout), written(w), source(src) {}

  // Acceptable values of the word at `a`; false outside the arrays.
  bool expected(uint64_t a, uint32_t& first, uint32_t& second) const {
    auto in = [&](uint64_t base, uint64_t entries) { return a >= base && a < base + 4 * entries; };
    auto final_or_initial = [&](uint32_t initial) {
      const auto it = written.find(a);
      first = initial;
      second = it == written.end() ? initial : it->second;
    };
    if (in(l.vertexlist, uint64_t{l.vertices} + 1)) first = second = g.offsets[(a - l.vertexlist) / 4];
    else if (in(l.edgelist, l.edges)) first = second = g.neighbours[(a - l.edgelist) / 4];
    else if (a == l.worklist) first = second = source;  // from the memory init, never written
    else if (a == l.visitedlist + 4 * uint64_t{source}) first = second = 0;  // likewise
    else if (in(l.worklist, l.vertices)) final_or_initial(kNoVertex);
    else if (in(l.visitedlist, l.vertices)) final_or_initial(kNoVertex);
    else return false;
    return true;
  }

  void on_completion(const Completion& c) override {
    ASSERT_EQ(c.how.fault, FaultReason::kNone) << "request " << c.request.id;
    ASSERT_EQ(c.request.process, 3u);
    if (c.request.op != Op::kRead) return;
    ++reads;
    ASSERT_EQ(c.request.address % 4, 0u);
    for (unsigned i = 0; i + 4 <= c.request.size; i += 4) {
      const uint64_t a = c.request.address + i;
      uint32_t first = 0, second = 0;
      if (!expected(a, first, second)) continue;
      const uint32_t v = uint32_t{c.data[i]} | uint32_t{c.data[i + 1]} << 8 | uint32_t{c.data[i + 2]} << 16 |
                         uint32_t{c.data[i + 3]} << 24;
      ++words;
      of_writes += v == second && v != first;
      if (v != first && v != second && wrong++ < 5) ADD_FAILURE() << "VA " << hex(a) << " read " << v << ", want " << first << " or " << second;
    }
  }
};

// The same with a small L1 per SM (evictions, merges, MSHR stalls) and the
// memory deciding when requests issue: the L1 answers many reads itself.
std::string with_l1() {
  std::string y = kConfig;
  y.replace(y.find("latency_sigma: 3}"), 17, "latency_sigma: 3, issue_timing: memory}");
  return y + "l1: {size_bytes: 1024, ways: 2, mshrs: 1, hit_latency: 1}\n";
}

// with_l1() and a prefetch unit of `kind` ("stride", "bfs"; `extra` more
// keys), its classifier pointed at the arrays of the graph `r` makes.
std::string with_prefetch(const std::string& kind, const RmatOptions& r, const std::string& extra = "") {
  const CsrGraph g = build_csr(rmat_edges(r));
  const BfsLayout l = BfsLayout::at(0x400000, g.vertices(), static_cast<uint32_t>(g.neighbours.size()));
  auto range = [](uint64_t base, uint64_t entries) { return "[" + hex(base) + ", " + hex(base + 4 * entries) + "]"; };
  return with_l1() + "prefetch: {kind: " + kind + extra + ", queue_entries: 8, ranges: {worklist: " + range(l.worklist, l.vertices) +
         ", vertexlist: " + range(l.vertexlist, uint64_t{l.vertices} + 1) + ", edgelist: " + range(l.edgelist, l.edges) +
         ", visitedlist: " + range(l.visitedlist, l.vertices) + "}}\n";
}

RmatOptions traverse_graph() {
  RmatOptions r;
  r.scale = 8;
  r.edge_factor = 8;
  r.seed = 2;
  return r;
}

RmatOptions levels_graph() {
  RmatOptions r;
  r.scale = 9;
  r.edge_factor = 8;
  r.seed = 4;
  return r;
}

SimulationResult traverse(const std::string& yaml) {
  const Config cfg = test::config_from(yaml);
  const CsrGraph g = build_csr(rmat_edges(traverse_graph()));
  BfsTraceOptions o;
  o.place = region_placement(cfg, "bfs", "graph");
  Capture capture;
  const BfsTraceSummary s = generate_bfs_trace(g, o, capture);
  const std::string text = capture.text();
  std::istringstream in(text);
  auto source = read_thread_trace(in, "bfs.csv");

  Checker check(g, s.layout, capture.written, s.source);
  const SimulationResult result = run_thread_simulation(cfg, *source, {&check});
  EXPECT_EQ(result.sequence.thread_accesses, s.records);
  EXPECT_EQ(result.sequence.kernels, s.kernels);
  EXPECT_EQ(result.memory_init_bytes, 4 * (3 * uint64_t{s.layout.vertices} + 1 + s.layout.edges));
  EXPECT_EQ(result.mmu->faults, 0u);
  EXPECT_GT(check.reads, 0u);
  EXPECT_GT(check.words, s.records / 2) << "the reads cover the traversal's words";
  EXPECT_EQ(check.wrong, 0u);
  EXPECT_GT(check.of_writes, uint64_t{s.reached}) << "later kernels read what the update kernels wrote";
  return result;
}

TEST(BfsPath, RmatTraversalThroughTheModelReadsTheCsrAndItsOwnWrites) {
  EXPECT_TRUE(traverse(kConfig).l1.empty());
}

TEST(BfsPath, WithAnL1EveryReadStillReturnsTheCsrAndItsOwnWrites) {
  const SimulationResult r = traverse(with_l1());
  ASSERT_EQ(r.l1.size(), 3u);
  L1Stats t;
  for (const L1Stats& s : r.l1) t += s;
  EXPECT_GT(t.hits, t.reads / 10);
  EXPECT_GT(t.evictions, 0u);
  EXPECT_GT(t.mshr_merges, 0u);
  EXPECT_GT(t.mshr_full_stalls, 0u);
  EXPECT_EQ(t.hits + t.mshr_merges + t.misses, t.reads);
  EXPECT_EQ(r.l1[0].invalidations, r.sequence.kernels - 1) << "every launch after the first";
}

// The last word each read returned, by address.
struct LastRead : CompletionObserver {
  std::map<uint64_t, uint8_t> bytes;
  void on_completion(const Completion& c) override {
    if (c.request.op == Op::kRead)
      for (unsigned i = 0; i < c.request.size; ++i) bytes[c.request.address + i] = c.data[i];
  }
};

// The levels the traversal left in simulated memory, read back by a kernel
// appended to the trace (so through the SMs, the MMU, the translator and the
// channels), equal a plain BFS of the same graph.
void levels_read_back(const std::string& yaml) {
  const Config cfg = test::config_from(yaml);
  const CsrGraph g = build_csr(rmat_edges(levels_graph()));
  BfsTraceOptions o;
  o.place = region_placement(cfg, "bfs", "graph");
  Capture capture;
  const BfsTraceSummary s = generate_bfs_trace(g, o, capture);
  KernelInfo readback;
  readback.name = "read_levels";
  readback.process = 3;
  capture.kernel(readback);
  for (uint32_t v = 0; v < s.layout.vertices; ++v) {
    ThreadRecord rec;
    rec.thread_id = v;
    rec.pc = 0x9000;
    rec.address = s.layout.visitedlist + 4 * uint64_t{v};
    rec.width = 4;
    capture.record(rec);
  }
  const std::string text = capture.text();
  std::istringstream in(text);
  auto source = read_thread_trace(in, "bfs.csv");
  LastRead last;
  run_thread_simulation(cfg, *source, {&last});
  const std::vector<uint32_t> levels = levels_from_memory(s.layout, [&](uint64_t address, void* dst, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const auto it = last.bytes.find(address + i);
      ASSERT_NE(it, last.bytes.end()) << "VA " << hex(address + i) << " was not read back";
      static_cast<uint8_t*>(dst)[i] = it->second;
    }
  });
  const std::vector<uint32_t> want = bfs_levels(g, s.source);
  EXPECT_EQ(levels, want);
  EXPECT_GT(std::count_if(want.begin(), want.end(), [](uint32_t l) { return l != kNoVertex && l > 1; }), 10);
}

TEST(BfsPath, LevelsReadBackFromSimulatedMemoryEqualAPlainBfs) {
  levels_read_back(kConfig);
}

TEST(BfsPath, LevelsReadBackThroughL1sEqualAPlainBfs) {
  levels_read_back(with_l1());
}

// Prefetching never changes what the program reads.
TEST(BfsPath, LevelsReadBackWithStridePrefetchingEqualAPlainBfs) {
  levels_read_back(with_prefetch("stride", levels_graph()));
}

TEST(BfsPath, LevelsReadBackWithBfsPrefetchingEqualAPlainBfs) {
  levels_read_back(with_prefetch("bfs", levels_graph()));
}

TEST(BfsPath, LevelsReadBackWithBfsPrefetchingIntoABufferEqualAPlainBfs) {
  levels_read_back(with_prefetch("bfs", levels_graph(), ", fill: buffer, buffer_lines: 8"));
}

TEST(BfsPath, WithBfsPrefetchingEveryReadStillReturnsTheCsrAndItsOwnWrites) {
  const SimulationResult r = traverse(with_prefetch("bfs", traverse_graph()));
  PrefetchStats t;
  for (const PrefetchStats& s : r.prefetch) t += s;
  EXPECT_GT(t.issued, 0u);
  EXPECT_GT(t.useful, 0u);
  EXPECT_GT(t.issued_by_array[static_cast<unsigned>(GraphArray::kVisitedlist)], 0u) << "the chain reaches its last step";
  EXPECT_EQ(t.generated, t.redundant + t.dropped + t.issued);
}

}  // namespace
}  // namespace gpumem
