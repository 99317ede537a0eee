// The prefetchers (sc_models/prefetch/) on a small hand-built graph: each
// step of CN109461113A's chain, and the whole chain, issue exactly the expected
// line addresses in the expected order; the stride baseline; the queue.
#include <gtest/gtest.h>

#include <vector>

#include "prefetch/bfs_prefetcher.hpp"
#include "prefetch/prefetch_queue.hpp"
#include "prefetch/stride_prefetcher.hpp"
#include "test_helpers.hpp"

namespace gpumem {
namespace {

constexpr unsigned kLine = 64;  // 16 entries a line
constexpr uint64_t kWorklist = 0x10000, kVertexlist = 0x11000, kEdgelist = 0x12000, kVisited = 0x13000;
constexpr uint32_t kVertices = 20;

// The graph: vertex 0 has 40 edges (three edgelist lines), every other
// vertex 3; neighbours[e] = 9e mod 20. The worklist holds vertex 2 at item
// 16, vertex 15 (whose vertexlist entries straddle a line) at 17, vertex 0
// at 18; the rest is empty (0xFFFFFFFF).
struct Graph {
  std::vector<uint8_t> memory = std::vector<uint8_t>(0x4000, 0xFF);  // from kWorklist
  Graph() {
    for (uint32_t v = 0; v <= kVertices; ++v) put(kVertexlist + 4 * v, v == 0 ? 0 : 40 + 3 * (v - 1));
    for (uint32_t e = 0; e < 40 + 3 * (kVertices - 1); ++e) put(kEdgelist + 4 * e, (9 * e) % kVertices);
    put(kWorklist + 4 * 16, 2);
    put(kWorklist + 4 * 17, 15);
    put(kWorklist + 4 * 18, 0);
    for (uint32_t v = 0; v < kVertices; ++v) put(kVisited + 4 * v, 0xFFFFFFFF);
  }
  void put(uint64_t a, uint32_t v) {
    for (int i = 0; i < 4; ++i) memory[a - kWorklist + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  const uint8_t* line(uint64_t a) const { return &memory[a - kWorklist]; }
};

AddressClassifier classifier() {
  return AddressClassifier({ArrayRange{kWorklist, kWorklist + 4 * kVertices}, ArrayRange{kVertexlist, kVertexlist + 4 * (kVertices + 1)},
                            ArrayRange{kEdgelist, kEdgelist + 4 * (40 + 3 * (kVertices - 1))},
                            ArrayRange{kVisited, kVisited + 4 * kVertices}});
}

struct Want {
  uint64_t address;
  GraphArray array;
  uint64_t cycle;
};

void expect_requests(const std::vector<PrefetchRequest>& got, const std::vector<Want>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].address, want[i].address) << "request " << i;
    EXPECT_EQ(got[i].array, want[i].array) << "request " << i;
    EXPECT_EQ(got[i].cycle, want[i].cycle) << "request " << i;
    EXPECT_EQ(got[i].warp, 3u) << "request " << i;
  }
}

DemandRead worklist_read(const Graph& g, uint64_t address, unsigned size) {
  DemandRead r;
  r.warp = 3;
  r.pc = 0x5000;
  r.address = address;
  r.size = size;
  r.data = g.line(address);
  r.issue_cycle = 90;
  r.completion_cycle = 100;
  return r;
}

TEST(BfsPrefetcher, ClassifierNamesTheArrayOfAnAddress) {
  const AddressClassifier c = classifier();
  EXPECT_EQ(c.classify(kWorklist), GraphArray::kWorklist);
  EXPECT_EQ(c.classify(kWorklist + 4 * kVertices), GraphArray::kNone) << "end is exclusive";
  EXPECT_EQ(c.classify(kVertexlist + 80), GraphArray::kVertexlist);
  EXPECT_EQ(c.classify(kEdgelist + 4), GraphArray::kEdgelist);
  EXPECT_EQ(c.classify(kVisited + 76), GraphArray::kVisitedlist);
  EXPECT_EQ(c.classify(0x9000), GraphArray::kNone);
}

TEST(BfsPrefetcher, Step1ADemandWorklistReadFetchesTheNextItems) {
  const Graph g;
  BfsPrefetcher p(classifier(), kLine);
  std::vector<PrefetchRequest> out;
  p.on_demand_read(worklist_read(g, kWorklist, 64), out);  // items 0-15 -> the line of item 16
  expect_requests(out, {{kWorklist + 64, GraphArray::kWorklist, 100}});
  ASSERT_NE(p.runtime_info(3), nullptr);
  EXPECT_EQ(p.runtime_info(3)->worklist_index, 16u);
  out.clear();
  p.on_demand_read(worklist_read(g, kWorklist + 64, 16), out);  // items 16-19: item 20 is past the worklist
  EXPECT_TRUE(out.empty());
  DemandRead other = worklist_read(g, kVertexlist, 64);  // not the worklist: no chain starts
  p.on_demand_read(other, out);
  EXPECT_TRUE(out.empty());
}

TEST(BfsPrefetcher, Step2AWorklistLineFetchesEachVertexsVertexlistEntries) {
  const Graph g;
  BfsPrefetcher p(classifier(), kLine);
  PrefetchRequest w;
  w.address = kWorklist + 64;
  w.warp = 3;
  w.array = GraphArray::kWorklist;
  w.vertex = 16;
  std::vector<PrefetchRequest> out;
  p.on_prefetch_fill(w, w.address, g.line(w.address), 150, out);
  // Vertex 2: entries 2 and 3 share a line, one request. Vertex 15: entry 15
  // ends one line, 16 starts the next, two. Vertex 0: one. Empty items: none.
  expect_requests(out, {{kVertexlist, GraphArray::kVertexlist, 150},
                        {kVertexlist, GraphArray::kVertexlist, 150},
                        {kVertexlist + 64, GraphArray::kVertexlist, 150},
                        {kVertexlist, GraphArray::kVertexlist, 150}});
  EXPECT_EQ(out[0].vertex, 2u);
  EXPECT_EQ(out[1].vertex, 15u);
  EXPECT_EQ(out[2].vertex, 15u);
  EXPECT_EQ(out[3].vertex, 0u);
  EXPECT_EQ(p.runtime_info(3)->vertexlist_index, 0u);
}

PrefetchRequest vertexlist_prefetch(uint32_t v, uint64_t line) {
  PrefetchRequest r;
  r.address = line;
  r.warp = 3;
  r.array = GraphArray::kVertexlist;
  r.vertex = v;
  return r;
}

TEST(BfsPrefetcher, Step3AVertexlistLineFetchesTheEdgelistLinesOfItsRange) {
  const Graph g;
  BfsPrefetcher p(classifier(), kLine);
  std::vector<PrefetchRequest> out;
  // Vertex 0: edges [0, 40), bytes 0-159 of the edgelist: three lines.
  p.on_prefetch_fill(vertexlist_prefetch(0, kVertexlist), kVertexlist, g.line(kVertexlist), 200, out);
  expect_requests(out, {{kEdgelist, GraphArray::kEdgelist, 200},
                        {kEdgelist + 64, GraphArray::kEdgelist, 200},
                        {kEdgelist + 128, GraphArray::kEdgelist, 200}});
  EXPECT_EQ(out[0].edge_start, 0u);
  EXPECT_EQ(out[0].edge_end, 40u);
  EXPECT_EQ(p.runtime_info(3)->edge_end, 40u);
  out.clear();
  // Vertex 15: [82, 85); its entries straddle two lines: nothing until both are back.
  p.on_prefetch_fill(vertexlist_prefetch(15, kVertexlist), kVertexlist, g.line(kVertexlist), 210, out);
  EXPECT_TRUE(out.empty());
  p.on_prefetch_fill(vertexlist_prefetch(15, kVertexlist + 64), kVertexlist + 64, g.line(kVertexlist + 64), 220, out);
  // Bytes 328-339 of the edgelist: the line at 320.
  expect_requests(out, {{kEdgelist + 320, GraphArray::kEdgelist, 220}});
  EXPECT_EQ(out[0].edge_start, 82u);
  EXPECT_EQ(out[0].edge_end, 85u);
}

TEST(BfsPrefetcher, Step4AnEdgelistLineFetchesEachNeighboursVisitedEntry) {
  const Graph g;
  BfsPrefetcher p(classifier(), kLine);
  PrefetchRequest e;
  e.address = kEdgelist + 128;
  e.warp = 3;
  e.array = GraphArray::kEdgelist;
  e.edge_start = 0;
  e.edge_end = 40;
  std::vector<PrefetchRequest> out;
  // Edges 32-39 are in this line: neighbours 9e mod 20 = 8, 17, 6, 15, 4, 13, 2, 11.
  p.on_prefetch_fill(e, e.address, g.line(e.address), 300, out);
  std::vector<Want> want;
  for (uint32_t n : {8u, 17u, 6u, 15u, 4u, 13u, 2u, 11u}) want.push_back({kVisited + (n >= 16 ? 64 : 0), GraphArray::kVisitedlist, 300});
  expect_requests(out, want);
  out.clear();
  p.on_prefetch_fill(PrefetchRequest{kVisited, 0, 3, GraphArray::kVisitedlist}, kVisited, g.line(kVisited), 400, out);
  EXPECT_TRUE(out.empty()) << "the chain ends at the visitedlist";
}

TEST(BfsPrefetcher, TheWholeChainFromOneDemandRead) {
  // A demand read of items 0-15; the prefetches' lines come back 50 cycles
  // after they go out. Processed first in, first out, the chain is:
  const Graph g;
  BfsPrefetcher p(classifier(), kLine);
  std::vector<PrefetchRequest> fifo, issued;
  p.on_demand_read(worklist_read(g, kWorklist, 64), fifo);
  for (size_t i = 0; i < fifo.size(); ++i) {
    const PrefetchRequest r = fifo[i];
    issued.push_back(r);
    std::vector<PrefetchRequest> more;
    p.on_prefetch_fill(r, r.address, g.line(r.address), r.cycle + 50, more);
    fifo.insert(fifo.end(), more.begin(), more.end());
  }
  std::vector<Want> want = {
      {kWorklist + 64, GraphArray::kWorklist, 100},  // step 1
      // step 2: vertices 2, 15 (two lines), 0
      {kVertexlist, GraphArray::kVertexlist, 150},
      {kVertexlist, GraphArray::kVertexlist, 150},
      {kVertexlist + 64, GraphArray::kVertexlist, 150},
      {kVertexlist, GraphArray::kVertexlist, 150},
      // step 3: vertex 2's edges [43, 46); vertex 15's [82, 85) once both its lines are back; vertex 0's three lines
      {kEdgelist + 128, GraphArray::kEdgelist, 200},
      {kEdgelist + 320, GraphArray::kEdgelist, 200},
      {kEdgelist, GraphArray::kEdgelist, 200},
      {kEdgelist + 64, GraphArray::kEdgelist, 200},
      {kEdgelist + 128, GraphArray::kEdgelist, 200},
  };
  // step 4, in the order those lines come back: neighbours of edges 43-45, 82-84, 0-15, 16-31, 32-39.
  auto visited = [&](uint32_t from, uint32_t to) {
    for (uint32_t e = from; e < to; ++e) {
      const uint32_t n = (9 * e) % kVertices;
      want.push_back({kVisited + (n >= 16 ? 64 : 0), GraphArray::kVisitedlist, 250});
    }
  };
  visited(43, 46);
  visited(82, 85);
  visited(0, 16);
  visited(16, 32);
  visited(32, 40);
  expect_requests(issued, want);
}

TEST(BfsPrefetcher, WithAnEdgeWindowEdgelistLinesFollowTheWarpsOwnEdgeReads) {
  // Vertex 0's edges span three edgelist lines. With a window of one line,
  // step 3 asks for the first only; a demand read in line k then asks for
  // line k + 1, and nothing past the range's end.
  const Graph g;
  BfsPrefetcher p(classifier(), kLine, 1);
  std::vector<PrefetchRequest> out;
  p.on_prefetch_fill(vertexlist_prefetch(0, kVertexlist), kVertexlist, g.line(kVertexlist), 200, out);
  expect_requests(out, {{kEdgelist, GraphArray::kEdgelist, 200}});
  out.clear();
  DemandRead r;
  r.warp = 5;  // another warp's read of the range advances it too (the next items may be another warp's)
  r.address = kEdgelist + 8;
  r.size = 4;
  r.completion_cycle = 260;
  p.on_demand_read(r, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].address, kEdgelist + 64);
  EXPECT_EQ(out[0].array, GraphArray::kEdgelist);
  EXPECT_EQ(out[0].cycle, 260u);
  EXPECT_EQ(out[0].edge_end, 40u) << "it carries the range, for step 4";
  out.clear();
  p.on_demand_read(r, out);
  EXPECT_TRUE(out.empty()) << "already asked for";
  r.address = kEdgelist + 64;
  p.on_demand_read(r, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].address, kEdgelist + 128);
  out.clear();
  r.address = kEdgelist + 128;
  p.on_demand_read(r, out);
  EXPECT_TRUE(out.empty()) << "the range ends in this line";
  r.address = kEdgelist + 4 * 90;  // outside every range asked for
  p.on_demand_read(r, out);
  EXPECT_TRUE(out.empty());
}

TEST(StridePrefetcher, ARepeatedStrideOfOnePcAndWarpPrefetchesDegreeLinesAtTheDistance) {
  StrideParams cfg;
  cfg.degree = 2;
  cfg.distance = 4;
  cfg.confidence = 2;
  StridePrefetcher p(cfg, 128, 4096);
  std::vector<PrefetchRequest> out;
  DemandRead r;
  r.pc = 0x10;
  r.warp = 1;
  r.completion_cycle = 7;
  for (uint64_t a : {0x1000, 0x1080, 0x1100}) {
    r.address = a;
    p.on_demand_read(r, out);
  }
  EXPECT_TRUE(out.empty()) << "stride 0x80 seen once: confidence 1 of 2";
  // Another warp's read of the same PC is another stream: it changes nothing here.
  DemandRead other = r;
  other.warp = 2;
  other.address = 0x9000;
  p.on_demand_read(other, out);
  r.address = 0x1180;
  p.on_demand_read(r, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].address, 0x1180u + 4 * 0x80);
  EXPECT_EQ(out[1].address, 0x1180u + 5 * 0x80);
  EXPECT_EQ(out[0].cycle, 7u);
  EXPECT_EQ(out[0].array, GraphArray::kNone);
  EXPECT_EQ(p.entry(0x10, 1)->confidence, 2u);
  // Near the page's end the prefetches stop at it.
  out.clear();
  for (uint64_t a : {0x1D00, 0x1D80, 0x1E00, 0x1E80}) {
    r.address = a;
    p.on_demand_read(r, out);
  }
  EXPECT_TRUE(out.empty()) << "0x1E80 + 4 * 0x80 = 0x2080 is in the next page";
  // A changed stride starts over.
  r.address = 0x1F00;
  p.on_demand_read(r, out);
  EXPECT_EQ(p.entry(0x10, 1)->confidence, 2u) << "0x80 again";
  r.address = 0x1F10;
  p.on_demand_read(r, out);
  EXPECT_EQ(p.entry(0x10, 1)->confidence, 0u);
  EXPECT_EQ(p.entry(0x10, 1)->stride, 0x10);
}

TEST(StridePrefetcher, TheTableKeepsTheMostRecentStreams) {
  StrideParams cfg;
  cfg.table_entries = 2;
  StridePrefetcher p(cfg, 128, 4096);
  std::vector<PrefetchRequest> out;
  DemandRead r;
  for (uint64_t pc : {1, 2, 1, 3}) {
    r.pc = pc;
    p.on_demand_read(r, out);
  }
  EXPECT_NE(p.entry(1, 0), nullptr);
  EXPECT_EQ(p.entry(2, 0), nullptr) << "the least recently used went";
  EXPECT_NE(p.entry(3, 0), nullptr);
}

TEST(PrefetchQueue, APrefetchHoldsItsEntryUntilItsLineIsBack) {
  PrefetchQueue q(2);
  q.hold(10, 50);
  q.hold(20, 60);
  EXPECT_FALSE(q.has_room(30)) << "both held";
  EXPECT_TRUE(q.has_room(5)) << "before either";
  EXPECT_TRUE(q.has_room(55)) << "the first is back";
  q.retire(50);
  EXPECT_EQ(q.held(), 1u);
}

TEST(PrefetchConfig, BadRangesAndKindsAreRefusedByKey) {
  const std::string base = test::base_yaml("translator: {channel_bits: [8, 9, 10]}\nl1: {}\nprefetch: ");
  auto load = [&](const std::string& p) { return test::config_from(base + p); };
  EXPECT_TRUE(test::input_error_at([&] { load("{kind: magic}"); }, "test.yaml", 4, "prefetch.kind", "'magic' is not one of: none, stride, bfs"));
  EXPECT_TRUE(test::input_error_at([&] { load("{kind: bfs}"); }, "test.yaml", 4, "prefetch.ranges", "kind: bfs needs"));
  const std::string ok = "worklist: [0x1000, 0x2000], vertexlist: [0x2000, 0x3000], edgelist: [0x3000, 0x4000], ";
  EXPECT_TRUE(test::input_error_at([&] { load("{kind: bfs, ranges: {" + ok + "visitedlist: [0x6000, 0x5000]}}"); }, "test.yaml", 4,
                                   "prefetch.ranges.visitedlist", "end 20480 is not after base 24576"));
  EXPECT_TRUE(test::input_error_at([&] { load("{kind: bfs, ranges: {" + ok + "visitedlist: [0x3800, 0x5000]}}"); }, "test.yaml", 4,
                                   "prefetch.ranges.visitedlist", "overlaps prefetch.ranges.edgelist"));
  EXPECT_TRUE(test::input_error_at([&] { load("{kind: bfs, ranges: {" + ok + "}}"); }, "test.yaml", 4, "prefetch.ranges.visitedlist",
                                   "missing value"));
  EXPECT_TRUE(test::input_error_at([&] { load("{fill: disk}"); }, "test.yaml", 4, "prefetch.fill", "not one of: l1, buffer"));
  EXPECT_TRUE(test::input_error_at([&] { load("{queue_entries: 0}"); }, "test.yaml", 4, "prefetch.queue_entries", "outside [1, 4096]"));
  EXPECT_TRUE(test::input_error_at([&] { load("{edge_window: 5000}"); }, "test.yaml", 4, "prefetch.edge_window", "outside [0, 4096]"));
  EXPECT_TRUE(test::input_error_at([&] { load("{buffer_lines: 0}"); }, "test.yaml", 4, "prefetch.buffer_lines", "outside [1, 4096]"));
  EXPECT_TRUE(test::input_error_at([&] { load("{stride: {degree: 0}}"); }, "test.yaml", 4, "prefetch.stride.degree", "outside [1, 64]"));
  EXPECT_TRUE(test::input_error_at(
      [] { test::config_from(test::base_yaml("translator: {channel_bits: [8, 9, 10]}\nprefetch: {kind: stride}")); }, "test.yaml", 3,
      "prefetch", "needs an l1 section"));
  const Config c = load("{kind: bfs, fill: buffer, ranges: {" + ok + "visitedlist: [0x5000, 0x6000]}}");
  EXPECT_EQ(c.prefetch.kind, PrefetchKind::kBfs);
  EXPECT_EQ(c.prefetch.fill, PrefetchFill::kBuffer);
  EXPECT_EQ(c.prefetch.ranges[3], std::make_pair(uint64_t{0x5000}, uint64_t{0x6000}));
}

}  // namespace
}  // namespace gpumem
