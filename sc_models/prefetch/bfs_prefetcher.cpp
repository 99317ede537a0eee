#include "prefetch/bfs_prefetcher.hpp"

#include <algorithm>

namespace gpumem {

namespace {

uint32_t word_at(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

}  // namespace

const char* graph_array_name(GraphArray a) {
  switch (a) {
    case GraphArray::kWorklist: return "worklist";
    case GraphArray::kVertexlist: return "vertexlist";
    case GraphArray::kEdgelist: return "edgelist";
    case GraphArray::kVisitedlist: return "visitedlist";
    case GraphArray::kNone: return "none";
  }
  return "none";
}

GraphArray AddressClassifier::classify(uint64_t address) const {
  for (unsigned i = 0; i < kGraphArrays; ++i)
    if (ranges_[i].holds(address)) return static_cast<GraphArray>(i);
  return GraphArray::kNone;
}

const RuntimeInfo* BfsPrefetcher::runtime_info(uint32_t warp) const {
  const auto it = table_.find(warp);
  return it == table_.end() ? nullptr : &it->second;
}

void BfsPrefetcher::edge_lines(uint32_t warp, EdgeRun& run, uint64_t up_to, uint64_t cycle, std::vector<PrefetchRequest>& out) {
  const ArrayRange& el = classifier_.range(GraphArray::kEdgelist);
  const uint64_t from = el.base + 4 * run.start, to = el.base + 4 * run.end;  // the range's bytes
  PrefetchRequest q;
  q.cycle = cycle;
  q.warp = warp;
  q.array = GraphArray::kEdgelist;
  q.vertex = run.vertex;
  q.edge_start = run.start;
  q.edge_end = run.end;
  for (; run.next < to && run.next < up_to && el.holds(std::max(run.next, from)); run.next += line_bytes_) {
    q.address = run.next;
    out.push_back(q);
  }
}

void BfsPrefetcher::on_demand_read(const DemandRead& read, std::vector<PrefetchRequest>& out) {
  const ArrayRange& wl = classifier_.range(GraphArray::kWorklist);
  const GraphArray array = classifier_.classify(read.address);
  if (array == GraphArray::kEdgelist && edge_window_) {
    // A warp reads edges: the ranges the read falls in keep their window ahead of it.
    const ArrayRange& el = classifier_.range(GraphArray::kEdgelist);
    for (EdgeRun& run : runs_) {
      const uint64_t from = el.base + 4 * run.start, to = el.base + 4 * run.end;
      if (read.address + read.size <= from || read.address >= to) continue;
      edge_lines(read.warp, run, line_of(read.address) + uint64_t{edge_window_ + 1} * line_bytes_, read.completion_cycle, out);
    }
    runs_.erase(std::remove_if(runs_.begin(), runs_.end(), [&](const EdgeRun& r) { return r.next >= el.base + 4 * r.end; }),
                runs_.end());
    return;
  }
  if (array != GraphArray::kWorklist) return;
  // Step 1: the next item is at the read's address plus its size.
  const uint64_t next = read.address + read.size;
  if (!wl.holds(next)) return;
  table_[read.warp].worklist_index = (next - wl.base) / 4;
  PrefetchRequest p;
  p.address = line_of(next);
  p.cycle = read.completion_cycle;
  p.warp = read.warp;
  p.array = GraphArray::kWorklist;
  p.vertex = static_cast<uint32_t>((next - wl.base) / 4);  // the first item it is for
  out.push_back(p);
}

void BfsPrefetcher::vertex_step(uint32_t warp, uint32_t v, uint64_t cycle, std::vector<PrefetchRequest>& out) {
  const ArrayRange& vl = classifier_.range(GraphArray::kVertexlist);
  const uint64_t first = vl.base + 4 * uint64_t{v};
  if (first < vl.base || !vl.holds(first) || !vl.holds(first + 4)) return;  // not a vertex: an empty slot, say
  table_[warp].vertexlist_index = v;
  PrefetchRequest p;
  p.cycle = cycle;
  p.warp = warp;
  p.array = GraphArray::kVertexlist;
  p.vertex = v;
  p.address = line_of(first);
  out.push_back(p);
  // vertexlist[v] and [v + 1]: one request when they share a line.
  if (line_of(first + 4) != p.address) {
    p.address = line_of(first + 4);
    out.push_back(p);
  }
}

void BfsPrefetcher::on_prefetch_fill(const PrefetchRequest& p, uint64_t line_address, const uint8_t* line, uint64_t cycle,
                                     std::vector<PrefetchRequest>& out) {
  const uint64_t line_end = line_address + line_bytes_;
  switch (p.array) {
    case GraphArray::kWorklist: {
      // Step 2: each item from the one it was for to the line's end is a vertex.
      const ArrayRange& wl = classifier_.range(GraphArray::kWorklist);
      for (uint64_t a = wl.base + 4 * uint64_t{p.vertex}; a + 4 <= line_end && wl.holds(a); a += 4)
        if (a >= line_address) vertex_step(p.warp, word_at(line + (a - line_address)), cycle, out);
      return;
    }
    case GraphArray::kVertexlist: {
      // Step 3: [start, end) from vertexlist[v] and [v + 1]; split over two
      // lines, the step waits for the second.
      const ArrayRange& vl = classifier_.range(GraphArray::kVertexlist);
      const uint64_t first = vl.base + 4 * uint64_t{p.vertex};
      const uint64_t key = uint64_t{p.warp} << 32 | p.vertex;
      auto known = split_.find(key);
      uint64_t start = 0, end = 0;
      bool have_start = false, have_end = false;
      if (known != split_.end()) {
        start = known->second.start, end = known->second.end;
        have_start = known->second.have_start, have_end = known->second.have_end;
      }
      if (first >= line_address && first + 4 <= line_end) start = word_at(line + (first - line_address)), have_start = true;
      if (first + 4 >= line_address && first + 8 <= line_end) end = word_at(line + (first + 4 - line_address)), have_end = true;
      if (!(have_start && have_end)) {
        split_[key] = {start, end, have_start, have_end};
        return;
      }
      if (known != split_.end()) split_.erase(known);
      const ArrayRange& el = classifier_.range(GraphArray::kEdgelist);
      if (end <= start) return;
      RuntimeInfo& info = table_[p.warp];
      info.edge_start = start;
      info.edge_end = end;
      const uint64_t from = el.base + 4 * start;
      if (from < el.base || !el.holds(from)) return;
      EdgeRun run{p.vertex, start, end, line_of(from)};
      if (!edge_window_) {
        edge_lines(p.warp, run, ~uint64_t{0}, cycle, out);
        return;
      }
      edge_lines(p.warp, run, run.next + uint64_t{edge_window_} * line_bytes_, cycle, out);
      if (run.next < el.base + 4 * end) {
        if (runs_.size() == kMaxEdgeRuns) runs_.erase(runs_.begin());
        runs_.push_back(run);
      }
      return;
    }
    case GraphArray::kEdgelist: {
      // Step 4: visitedlist[n] for each neighbour n of the range in this line.
      const ArrayRange& el = classifier_.range(GraphArray::kEdgelist);
      const ArrayRange& vis = classifier_.range(GraphArray::kVisitedlist);
      PrefetchRequest q;
      q.cycle = cycle;
      q.warp = p.warp;
      q.array = GraphArray::kVisitedlist;
      for (uint64_t e = p.edge_start; e < p.edge_end; ++e) {
        const uint64_t a = el.base + 4 * e;
        if (a < line_address) continue;
        if (a + 4 > line_end) break;
        const uint32_t n = word_at(line + (a - line_address));
        const uint64_t target = vis.base + 4 * uint64_t{n};
        if (!vis.holds(target)) continue;
        q.vertex = n;
        q.address = line_of(target);
        out.push_back(q);
      }
      return;
    }
    case GraphArray::kVisitedlist:
    case GraphArray::kNone:
      return;  // the chain's end
  }
}

}  // namespace gpumem
