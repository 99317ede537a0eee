// The BFS data-structure prefetcher of CN109461113A (docs/prefetch.md, "BFS
// prefetcher"): an address-space classifier with four ranges, a runtime
// information table per warp and the four-step chain, each step driven by
// the data memory actually returned:
//   1. a demand read of the worklist -> the next worklist item(s): the read's
//      address plus its size (claim 3);
//   2. a worklist prefetch's line -> for each vertex v in it, vertexlist[v]
//      and vertexlist[v + 1]: one request when they share a line (claim 4);
//   3. a vertexlist prefetch's line -> the edgelist lines of [start, end)
//      (claim 5);
//   4. an edgelist prefetch's line -> visitedlist[n] for each neighbour n in
//      it (claim 6).
// The entries of the arrays are 32-bit, as the BFS generator writes them.
#pragma once
#include <array>
#include <cstddef>
#include <vector>
#include <unordered_map>

#include "prefetch/prefetcher.hpp"

namespace gpumem {

struct ArrayRange {
  uint64_t base = 0, end = 0;  // [base, end)
  bool holds(uint64_t a) const { return a >= base && a < end; }
};

// Which of the four arrays an address falls in (CN109461113A's classifier).
// The ranges are the register bank's (PF_RANGE_*), checked there:
// none ends before it starts, none overlaps another.
class AddressClassifier {
 public:
  AddressClassifier() = default;
  explicit AddressClassifier(const std::array<ArrayRange, kGraphArrays>& ranges) : ranges_(ranges) {}
  GraphArray classify(uint64_t address) const;
  const ArrayRange& range(GraphArray a) const { return ranges_[static_cast<unsigned>(a)]; }

 private:
  std::array<ArrayRange, kGraphArrays> ranges_{};
};

// A warp's row of the runtime information table: the indices of the last
// chain step of each kind (CN109461113A's table).
struct RuntimeInfo {
  uint64_t worklist_index = 0;
  uint64_t vertexlist_index = 0;
  uint64_t edge_start = 0, edge_end = 0;
};

class BfsPrefetcher : public Prefetcher {
 public:
  // `edge_window` 0: step 3 asks for all the edgelist lines of [start, end)
  // at once. N > 0: for the first N, and the rest N lines ahead of the
  // warp's own edgelist reads in that range (docs/prefetch.md, "Edge window").
  BfsPrefetcher(const AddressClassifier& classifier, unsigned line_bytes, unsigned edge_window = 0)
      : classifier_(classifier), line_bytes_(line_bytes), edge_window_(edge_window) {}

  void on_demand_read(const DemandRead& read, std::vector<PrefetchRequest>& out) override;
  void on_prefetch_fill(const PrefetchRequest& p, uint64_t line_address, const uint8_t* line, uint64_t cycle,
                        std::vector<PrefetchRequest>& out) override;

  const RuntimeInfo* runtime_info(uint32_t warp) const;  // null before the warp's first step
  void set_classifier(const AddressClassifier& c) { classifier_ = c; }
  // A kernel launch: the warps are new.
  void clear() {
    table_.clear();
    split_.clear();
    runs_.clear();
  }

 private:
  uint64_t line_of(uint64_t a) const { return a & ~uint64_t{line_bytes_ - 1}; }
  void vertex_step(uint32_t warp, uint32_t v, uint64_t cycle, std::vector<PrefetchRequest>& out);

  // An edge range of a warp whose lines are asked for a window at a time.
  struct EdgeRun {
    uint32_t vertex = 0;
    uint64_t start = 0, end = 0;  // edge indices
    uint64_t next = 0;            // the first edgelist line not yet asked for
  };
  void edge_lines(uint32_t warp, EdgeRun& run, uint64_t up_to, uint64_t cycle, std::vector<PrefetchRequest>& out);

  // vertexlist[v] and [v + 1] in two lines: what the first line back gave,
  // by warp and vertex, until the second comes.
  struct Half {
    uint64_t start = 0, end = 0;
    bool have_start = false, have_end = false;
  };

  AddressClassifier classifier_;
  unsigned line_bytes_;
  unsigned edge_window_;
  std::unordered_map<uint32_t, RuntimeInfo> table_;
  // With an edge window: the ranges not yet asked for to their end, oldest
  // first, at most kMaxEdgeRuns. Not by warp: the next items, whose ranges
  // these are, may be another warp's (one item a thread).
  static constexpr size_t kMaxEdgeRuns = 256;
  std::vector<EdgeRun> runs_;
  std::unordered_map<uint64_t, Half> split_;
};

}  // namespace gpumem
