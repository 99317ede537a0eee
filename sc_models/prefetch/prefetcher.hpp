// The prefetch unit beside each SM's L1 (CN109461113A; docs/prefetch.md):
// what a prefetcher sees (demand reads with the data memory returned, and
// the lines its own prefetches bring back) and what it asks for (line
// addresses, each with the cycle it was generated at). Two kinds: the BFS
// data-structure prefetcher (bfs_prefetcher.hpp) and the stride baseline
// (stride_prefetcher.hpp). Plain C++: the L1's TLM shell sends what they ask
// for; tests drive them directly.
#pragma once
#include <cstdint>
#include <vector>

namespace gpumem {

// The four arrays of a BFS in CSR form (CN109461113A), the classifier's ranges.
enum class GraphArray : uint8_t { kWorklist, kVertexlist, kEdgelist, kVisitedlist, kNone };
constexpr unsigned kGraphArrays = 4;
const char* graph_array_name(GraphArray a);  // "worklist" ... "visitedlist", "none"

// A demand read as the L1 answered it: `data` is what the requester got.
struct DemandRead {
  uint32_t warp = 0;
  uint64_t pc = 0;
  uint64_t address = 0;
  unsigned size = 0;
  const uint8_t* data = nullptr;
  uint64_t issue_cycle = 0;
  uint64_t completion_cycle = 0;  // when the data was back
};

// A prefetch the unit asks for: the line holding `address`. It carries the
// runtime information it was made from, so what its line brings back is read
// in that light even when the warp's table entry has moved on.
struct PrefetchRequest {
  uint64_t address = 0;
  uint64_t cycle = 0;  // generated: the cycle the data that triggered it was back
  uint32_t warp = 0;
  GraphArray array = GraphArray::kNone;  // kNone: a stride prefetch
  // BFS: the vertex whose vertexlist entries it fetches, the edge range
  // [edge_start, edge_end) whose neighbours an edgelist line holds.
  uint32_t vertex = 0;
  uint64_t edge_start = 0, edge_end = 0;
};

class Prefetcher {
 public:
  virtual ~Prefetcher() = default;
  // A demand read was answered; append the prefetches it triggers.
  virtual void on_demand_read(const DemandRead& read, std::vector<PrefetchRequest>& out) = 0;
  // A prefetch's line (`line_bytes` from `line_address`) came back at `cycle`.
  virtual void on_prefetch_fill(const PrefetchRequest& p, uint64_t line_address, const uint8_t* line, uint64_t cycle,
                                std::vector<PrefetchRequest>& out) = 0;
};

}  // namespace gpumem
