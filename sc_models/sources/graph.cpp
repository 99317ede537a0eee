#include "sources/graph.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "base/bits.hpp"
#include "base/input_error.hpp"
#include "base/input_file.hpp"

namespace gpumem {

namespace {

constexpr uint64_t kMaxDirectedEdges = 0xFFFFFFFF;  // a vertexlist offset is 32-bit

// A uniform integer in [0, range) from 64-bit draws, by rejection: the same
// numbers on every standard library (std::uniform_int_distribution's
// algorithm is the library's choice).
uint64_t uniform_below(std::mt19937_64& rng, uint64_t range) {
  const uint64_t reject_below = (0 - range) % range;  // 2^64 mod range
  uint64_t x = rng();
  while (x < reject_below) x = rng();
  return x % range;
}

}  // namespace

EdgeList rmat_edges(const RmatOptions& o) {
  if (o.scale < 1 || o.scale > 31) throw InputError("", 0, "--scale", "must be from 1 to 31 (2^scale vertices, 32-bit ids)");
  if (o.edge_factor < 1) throw InputError("", 0, "--edge-factor", "must be at least 1");
  const uint64_t edges = uint64_t{o.edge_factor} << o.scale;
  if (2 * edges > kMaxDirectedEdges)
    throw InputError("", 0, "--edge-factor", "edge_factor * 2^scale = " + std::to_string(edges) +
                                                 " edges; both directions must fit the edgelist's 32-bit offsets (at most " +
                                                 std::to_string(kMaxDirectedEdges / 2) + " edges)");
  if (!(o.a > 0 && o.b > 0 && o.c > 0 && o.a + o.b + o.c <= 1))
    throw InputError("", 0, "initiator", "a, b and c must be positive with a + b + c <= 1 (d = 1 - a - b - c)");

  EdgeList out;
  out.vertices = static_cast<uint32_t>(uint64_t{1} << o.scale);  // 2^31 still fits
  out.edges.resize(edges);

  // One draw a level picks the quadrant: its top 53 bits against the
  // cumulative initiator in units of 2^-53 (the reference draws two numbers
  // a level, ii_bit and jj_bit; the distribution is the same).
  auto units = [](double p) { return static_cast<uint64_t>(p * 0x1.0p53); };
  const uint64_t below_a = units(o.a), below_ab = units(o.a + o.b), below_abc = units(o.a + o.b + o.c);
  std::mt19937_64 rng(o.seed);
  for (Edge& e : out.edges) {
    uint32_t u = 0, v = 0;
    for (unsigned bit = 0; bit < o.scale; ++bit) {  // the first draw sets the lowest bit, as in the reference
      const uint64_t x = rng() >> 11;
      if (x < below_a) continue;
      if (x < below_ab) v |= 1u << bit;
      else if (x < below_abc) u |= 1u << bit;
      else u |= 1u << bit, v |= 1u << bit;
    }
    e = {u, v};
  }

  // Graph500 permutes the vertex labels (randperm in the specification's
  // code) so that a vertex's id says nothing of its degree. Its own stream:
  // the same permutation for every edge factor at one scale and seed.
  std::vector<uint32_t> label(out.vertices);
  std::iota(label.begin(), label.end(), 0u);
  std::mt19937_64 perm_rng(splitmix64(o.seed));
  for (uint32_t i = out.vertices - 1; i > 0; --i) std::swap(label[i], label[uniform_below(perm_rng, uint64_t{i} + 1)]);
  for (Edge& e : out.edges) e = {label[e.u], label[e.v]};
  return out;
}

namespace {

struct Field {
  std::string text;
  int column = 0;  // 1-based
};

// A vertex id: decimal digits only, below kNoVertex.
uint32_t parse_vertex(const Field& f, const std::string& name, int line, const char* key) {
  if (f.text.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(name, line, f.column, key, "'" + f.text + "' is not a vertex id (a decimal number)");
  uint64_t value = 0;
  for (char ch : f.text) {
    value = value * 10 + static_cast<uint64_t>(ch - '0');
    if (value >= kNoVertex)
      throw InputError(name, line, f.column, key,
                       "vertex id " + f.text + " is too large: ids are 32-bit, at most " + std::to_string(kNoVertex - 1));
  }
  return static_cast<uint32_t>(value);
}

}  // namespace

EdgeList read_edge_list(std::istream& in, const std::string& name) {
  EdgeList out;
  uint64_t vertices = 0;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    const size_t comment = text.find('#');
    if (comment != std::string::npos) text.resize(comment);
    std::vector<Field> fields;
    for (size_t i = 0; i < text.size();) {
      if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
        ++i;
        continue;
      }
      const size_t end = std::min(text.find_first_of(" \t\r", i), text.size());
      fields.push_back({text.substr(i, end - i), static_cast<int>(i) + 1});
      i = end;
    }
    if (fields.empty()) continue;
    const uint32_t u = parse_vertex(fields[0], name, line, "u");
    if (fields.size() < 2)
      throw InputError(name, line, fields[0].column + static_cast<int>(fields[0].text.size()), "v",
                       "missing the second vertex: one edge 'u v' a line");
    const uint32_t v = parse_vertex(fields[1], name, line, "v");
    if (fields.size() > 2)
      throw InputError(name, line, fields[2].column, "edge", "extra field '" + fields[2].text + "': one edge 'u v' a line");
    out.edges.push_back({u, v});
    vertices = std::max<uint64_t>(vertices, uint64_t{std::max(u, v)} + 1);
  }
  out.vertices = static_cast<uint32_t>(vertices);  // ids stop below kNoVertex
  return out;
}

EdgeList read_edge_list_file(const std::string& path) {
  const auto in = open_input_file(path, "edge-list");
  return read_edge_list(*in, path);
}

CsrGraph build_csr(const EdgeList& list) {
  CsrGraph g;
  const uint32_t n = list.vertices;
  // Both directions of every edge but a self-loop, bucketed by source.
  std::vector<uint64_t> start(uint64_t{n} + 1, 0);
  for (const Edge& e : list.edges) {
    if (e.u == e.v) {
      ++g.self_loops;
      continue;
    }
    ++start[e.u + uint64_t{1}];
    ++start[e.v + uint64_t{1}];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<uint32_t> all(start[n]);
  std::vector<uint64_t> fill(start.begin(), start.end() - 1);
  for (const Edge& e : list.edges)
    if (e.u != e.v) all[fill[e.u]++] = e.v, all[fill[e.v]++] = e.u;

  // Sort each vertex's neighbours and drop repeats, compacting in place.
  g.offsets.assign(uint64_t{n} + 1, 0);
  uint64_t kept = 0;
  for (uint32_t v = 0; v < n; ++v) {
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(start[v]);
    const auto last = all.begin() + static_cast<std::ptrdiff_t>(start[v + uint64_t{1}]);
    std::sort(first, last);
    const auto unique_end = std::unique(first, last);
    for (auto it = first; it != unique_end; ++it) all[kept++] = *it;  // kept <= start[v]: moves down or stays
    if (kept > kMaxDirectedEdges)
      throw InputError("", 0, "edges", "the graph has more than " + std::to_string(kMaxDirectedEdges) +
                                          " directed edges; the edgelist's offsets are 32-bit");
    g.offsets[v + uint64_t{1}] = static_cast<uint32_t>(kept);
  }
  g.duplicates = (start[n] - kept) / 2;
  all.resize(kept);
  all.shrink_to_fit();
  g.neighbours = std::move(all);
  return g;
}

std::vector<uint32_t> bfs_levels(const CsrGraph& g, uint32_t source) {
  std::vector<uint32_t> level(g.vertices(), kNoVertex);
  std::vector<uint32_t> queue;
  queue.reserve(g.vertices());
  level[source] = 0;
  queue.push_back(source);
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t v = queue[head];
    for (uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      const uint32_t w = g.neighbours[e];
      if (level[w] == kNoVertex) level[w] = level[v] + 1, queue.push_back(w);
    }
  }
  return level;
}

}  // namespace gpumem
