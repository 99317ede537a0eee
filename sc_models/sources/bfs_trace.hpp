// The BFS trace generator (for CN109461113A's prefetcher; docs/workloads.md,
// "BFS"): a level-synchronous breadth-first search over a CSR graph, traced
// thread by thread. Its four uint32 arrays (worklist, vertexlist, edgelist,
// visitedlist: the data-structure prefetcher's four address ranges) are set
// up by memory-init items, so that every read of the trace, replayed in
// order, returns what the traversal read.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sources/graph.hpp"
#include "sources/placement.hpp"
#include "sources/thread_trace.hpp"

namespace gpumem {

// The arrays, one after another from the base, each at a multiple of 4096
// bytes from it.
struct BfsLayout {
  uint32_t vertices = 0, edges = 0;  // the CSR's: edges counts both directions
  uint64_t worklist = 0;     // vertices entries: the BFS queue, in discovery order
  uint64_t vertexlist = 0;   // vertices + 1 entries: CSR offsets
  uint64_t edgelist = 0;     // edges entries: CSR neighbours
  uint64_t visitedlist = 0;  // vertices entries: each vertex's level, kNoVertex until visited
  uint64_t bytes = 0;        // from the base to the end of the visitedlist

  static BfsLayout at(uint64_t base, uint32_t vertices, uint32_t edges);
};

// One PC per instruction; the same in every level's launch of a kernel.
constexpr uint64_t kBfsPcWorklist = 0x5000;       // expand: v = worklist[begin + i]
constexpr uint64_t kBfsPcVertexStart = 0x5010;    // expand: start = vertexlist[v]
constexpr uint64_t kBfsPcVertexEnd = 0x5020;      // expand: end = vertexlist[v + 1]
constexpr uint64_t kBfsPcEdge = 0x5030;           // expand: n = edgelist[e]
constexpr uint64_t kBfsPcVisited = 0x5040;        // expand: visitedlist[n]
constexpr uint64_t kBfsPcWriteWorklist = 0x5100;  // update: worklist[end + j] = n_j
constexpr uint64_t kBfsPcWriteVisited = 0x5110;  // update: visitedlist[n_j] = L + 1

struct BfsTraceOptions {
  Placement place;                 // the arrays start at place.base (a multiple of 4096)
  std::optional<uint32_t> source;  // default: the first vertex with a nonzero degree (Graph500 roots have one)
  unsigned warps_per_block = 0;    // KernelInfo::warps_per_block; 0: the config's
  // Worklist items each warp of an expand kernel takes, 32 at a time in a
  // loop (a multiple of 32): 32 is one item a thread; more makes each warp
  // walk a run of consecutive items, as a data-structure prefetcher assumes.
  uint32_t items_per_warp = 32;
  // Called for every read record, after it is emitted, with the 32-bit
  // value the traversal read there (tests replay the trace against it).
  std::function<void(const ThreadRecord&, uint32_t value)> on_read;
};

struct BfsTraceSummary {
  BfsLayout layout;
  uint32_t source = 0;
  uint32_t levels = 0;   // expand kernels: the deepest level reached + 1
  uint32_t reached = 0;  // vertices visited, the source included
  uint64_t kernels = 0, records = 0;
};

// Emits the memory-init items, then per level L with a nonempty frontier
// "bfs_expand_L" and, when it discovers vertices, "bfs_update_L". Throws
// InputError when the source is not a vertex (key "--source"), the graph
// has no edge and no source is given, or the arrays do not fit the placement;
// nothing is emitted then. The caller calls sink.finish().
BfsTraceSummary generate_bfs_trace(const CsrGraph& graph, const BfsTraceOptions& options, ThreadTraceSink& sink);

// The levels the BFS left in memory: the visitedlist, read back through
// `read` (a reader of the final memory image, little-endian).
using MemoryReader = std::function<void(uint64_t address, void* out, size_t bytes)>;
std::vector<uint32_t> levels_from_memory(const BfsLayout& layout, const MemoryReader& read);

}  // namespace gpumem
