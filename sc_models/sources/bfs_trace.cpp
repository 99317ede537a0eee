#include "sources/bfs_trace.hpp"

#include <algorithm>
#include <string>

#include "base/input_error.hpp"
#include "sources/trace_emitter.hpp"

namespace gpumem {

namespace {

constexpr uint64_t kArrayAlign = 4096;

uint64_t align_up(uint64_t x) { return (x + kArrayAlign - 1) / kArrayAlign * kArrayAlign; }

uint32_t pick_source(const CsrGraph& g, const std::optional<uint32_t>& source) {
  if (source) {
    if (*source >= g.vertices())
      throw InputError("", 0, "--source", "vertex " + std::to_string(*source) + " is not in the graph (" +
                                              std::to_string(g.vertices()) + " vertices)");
    return *source;
  }
  for (uint32_t v = 0; v < g.vertices(); ++v)
    if (g.degree(v) > 0) return v;
  throw InputError("", 0, "--source", "the graph has no edge (self-loops do not count), so no vertex to start from by default");
}

}  // namespace

BfsLayout BfsLayout::at(uint64_t base, uint32_t vertices, uint32_t edges) {
  BfsLayout l;
  l.vertices = vertices;
  l.edges = edges;
  const uint64_t vertexlist = align_up(4 * uint64_t{vertices});
  const uint64_t edgelist = vertexlist + align_up(4 * (uint64_t{vertices} + 1));
  const uint64_t visitedlist = edgelist + align_up(4 * uint64_t{edges});
  l.bytes = visitedlist + 4 * uint64_t{vertices};
  l.worklist = base;
  l.vertexlist = base + vertexlist;
  l.edgelist = base + edgelist;
  l.visitedlist = base + visitedlist;
  return l;
}

namespace {

// One BFS's kernels, level by level, over its arrays as memory holds them
// between kernels: bfs_expand_L reads the frontier's vertices, their edge
// ranges, edges and neighbours' visited entries; bfs_update_L appends the
// discovered vertices and marks their level.
class BfsKernels {
 public:
  // The arrays' first values, which the trace's memory-init items give.
  BfsKernels(const CsrGraph& g, const BfsTraceOptions& o, const BfsLayout& lay, uint32_t source, TraceEmitter& out)
      : g_(g), o_(o), lay_(lay), out_(out) {
    const uint32_t n = g.vertices();
    worklist_.assign(n, kNoVertex);
    visited_.assign(n, kNoVertex);
    found_.assign(n, 0);  // discovered by an expand kernel (visited is written by the next update)
    worklist_[0] = source;
    visited_[source] = 0;
    found_[source] = 1;
    out.memory_init_u32(lay_.worklist, n, [&](uint64_t i) { return worklist_[i]; });
    out.memory_init_u32(lay_.vertexlist, uint64_t{n} + 1, [&](uint64_t i) { return g_.offsets[i]; });
    out.memory_init_u32(lay_.edgelist, g_.neighbours.size(), [&](uint64_t i) { return g_.neighbours[i]; });
    out.memory_init_u32(lay_.visitedlist, n, [&](uint64_t i) { return visited_[i]; });
  }

  // bfs_expand_L: thread i expands worklist[begin + i]. Reads only. The
  // vertices discovered, in the sequential queue's order.
  const std::vector<uint32_t>& expand(uint32_t level, uint32_t begin, uint32_t end) {
    out_.kernel("bfs_expand_" + std::to_string(level));
    discovered_.clear();
    for (uint32_t first = 0; first < end - begin; first += kWarpSize) expand_warp(begin, first, std::min(kWarpSize, end - begin - first));
    return discovered_;
  }

  // bfs_update_L: thread j appends the j-th discovered vertex at worklist[end + j] and marks its level. Writes only.
  void update(uint32_t level, uint32_t end) {
    out_.kernel("bfs_update_" + std::to_string(level));
    const auto count = static_cast<uint32_t>(discovered_.size());
    for (uint32_t first = 0; first < count; first += kWarpSize) {
      const uint32_t lanes = std::min(kWarpSize, count - first);
      for (uint32_t l = 0; l < lanes; ++l)
        out_.write(first + l, kBfsPcWriteWorklist, lay_.worklist + 4 * uint64_t{end + first + l}, 4, discovered_[first + l]);
      for (uint32_t l = 0; l < lanes; ++l)
        out_.write(first + l, kBfsPcWriteVisited, lay_.visitedlist + 4 * uint64_t{discovered_[first + l]}, 4, level + 1);
    }
    for (uint32_t j = 0; j < count; ++j) worklist_[end + j] = discovered_[j], visited_[discovered_[j]] = level + 1;
  }

 private:
  void read(uint32_t thread, uint64_t pc, uint64_t address, uint32_t value) {
    const ThreadRecord& r = out_.read(thread, pc, address, 4, true);
    if (o_.on_read) o_.on_read(r, value);
  }

  // Items first .. first + lanes - 1 of the frontier: item first + l goes to
  // lane l of warp first / items_per_warp.
  void expand_warp(uint32_t begin, uint32_t first, uint32_t lanes) {
    const uint32_t thread0 = first / o_.items_per_warp * kWarpSize;
    uint32_t v[kWarpSize], start[kWarpSize], stop[kWarpSize];
    uint32_t longest = 0;
    for (uint32_t l = 0; l < lanes; ++l) {
      v[l] = worklist_[begin + first + l];
      read(thread0 + l, kBfsPcWorklist, lay_.worklist + 4 * uint64_t{begin + first + l}, v[l]);
    }
    for (uint32_t l = 0; l < lanes; ++l) {
      start[l] = g_.offsets[v[l]];
      read(thread0 + l, kBfsPcVertexStart, lay_.vertexlist + 4 * uint64_t{v[l]}, start[l]);
    }
    for (uint32_t l = 0; l < lanes; ++l) {
      stop[l] = g_.offsets[v[l] + 1];
      read(thread0 + l, kBfsPcVertexEnd, lay_.vertexlist + 4 * (uint64_t{v[l]} + 1), stop[l]);
      longest = std::max(longest, stop[l] - start[l]);
    }
    // The edge loop diverges: iteration j runs in the lanes with more than j edges.
    for (uint32_t j = 0; j < longest; ++j) {
      for (uint32_t l = 0; l < lanes; ++l)
        if (start[l] + j < stop[l]) read(thread0 + l, kBfsPcEdge, lay_.edgelist + 4 * uint64_t{start[l] + j}, g_.neighbours[start[l] + j]);
      for (uint32_t l = 0; l < lanes; ++l)
        if (start[l] + j < stop[l]) {
          const uint32_t w = g_.neighbours[start[l] + j];
          read(thread0 + l, kBfsPcVisited, lay_.visitedlist + 4 * uint64_t{w}, visited_[w]);
        }
    }
    // Discovery order: thread by thread, edge by edge (the sequential queue's order).
    for (uint32_t l = 0; l < lanes; ++l)
      for (uint32_t e = start[l]; e < stop[l]; ++e) {
        const uint32_t w = g_.neighbours[e];
        if (visited_[w] == kNoVertex && !found_[w]) found_[w] = 1, discovered_.push_back(w);
      }
  }

  const CsrGraph& g_;
  const BfsTraceOptions& o_;
  const BfsLayout lay_;
  TraceEmitter& out_;
  std::vector<uint32_t> worklist_, visited_, discovered_;
  std::vector<uint8_t> found_;
};

}  // namespace

BfsTraceSummary generate_bfs_trace(const CsrGraph& g, const BfsTraceOptions& o, ThreadTraceSink& sink) {
  BfsTraceSummary sum;
  sum.source = pick_source(g, o.source);
  const uint32_t n = g.vertices();
  const BfsLayout lay = BfsLayout::at(o.place.base, n, static_cast<uint32_t>(g.neighbours.size()));
  o.place.check_aligned(kArrayAlign, "the BFS arrays");
  if (o.items_per_warp == 0 || o.items_per_warp % kWarpSize)
    throw InputError("", 0, "--items-per-warp", std::to_string(o.items_per_warp) + " is not a positive multiple of 32");
  o.place.check_fits(lay.bytes, true, "the BFS arrays");
  sum.layout = lay;

  TraceEmitter out(sink, o.place.process, o.warps_per_block);
  BfsKernels kernels(g, o, lay, sum.source, out);
  uint32_t begin = 0, end = 1;  // the frontier: worklist[begin, end)
  for (uint32_t level = 0; begin < end; ++level) {
    const uint32_t count = static_cast<uint32_t>(kernels.expand(level, begin, end).size());
    if (count == 0) {
      sum.levels = level + 1;
      break;
    }
    kernels.update(level, end);
    begin = end;
    end += count;
  }
  sum.reached = end;
  sum.kernels = out.kernels();
  sum.records = out.records();
  return sum;
}

std::vector<uint32_t> levels_from_memory(const BfsLayout& layout, const MemoryReader& read) {
  std::vector<uint32_t> levels(layout.vertices);
  std::vector<uint8_t> bytes;
  for (uint64_t i = 0; i < layout.vertices;) {
    const uint64_t n = std::min<uint64_t>(layout.vertices - i, kMemoryInitChunk / 4);
    bytes.resize(4 * n);
    read(layout.visitedlist + 4 * i, bytes.data(), bytes.size());
    for (uint64_t k = 0; k < n; ++k, ++i)
      levels[i] = uint32_t{bytes[4 * k]} | uint32_t{bytes[4 * k + 1]} << 8 | uint32_t{bytes[4 * k + 2]} << 16 |
                  uint32_t{bytes[4 * k + 3]} << 24;
  }
  return levels;
}

}  // namespace gpumem
