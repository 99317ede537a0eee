// Graphs for the BFS generator (docs/workloads.md, "The graph"): an
// R-MAT/Kronecker edge list as Graph500 generates it, an edge-list file
// reader, the CSR arrays the BFS kernels read, and a plain reference BFS.
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace gpumem {

constexpr uint32_t kNoVertex = 0xFFFFFFFF;  // the largest id; also "unreached" in a level array

struct Edge {
  uint32_t u = 0, v = 0;
  bool operator==(const Edge& o) const { return u == o.u && v == o.v; }
};

struct EdgeList {
  uint32_t vertices = 0;  // ids are 0 .. vertices - 1
  std::vector<Edge> edges;
};

// Graph500's Kronecker generator (its specification's reference code):
// 2^scale vertices, edge_factor * 2^scale edges, each edge's id bits drawn
// level by level from the initiator [[a, b], [c, d]], then the vertex labels
// permuted by a random permutation. Everything comes from one seed through
// std::mt19937_64 and integer arithmetic, so a seed gives the same edge list,
// byte for byte, on every platform. What is followed and what is not:
// docs/workloads.md, "R-MAT".
struct RmatOptions {
  unsigned scale = 10;        // 1 .. 31
  unsigned edge_factor = 16;  // Graph500's default
  double a = 0.57, b = 0.19, c = 0.19;  // d = 1 - a - b - c
  uint64_t seed = 1;
};
// Throws InputError (key "--scale", "--edge-factor", "initiator") on options
// out of range, or on a graph whose CSR would overflow its 32-bit offsets.
EdgeList rmat_edges(const RmatOptions& options);

// An edge-list file: one edge "u v" a line, decimal vertex ids separated by
// blanks or tabs, '#' starts a comment, blank lines are skipped. The vertex
// count is the largest id + 1. Errors: InputError(name, line, column, key)
// with key "u" or "v" (not a decimal number, too large for a 32-bit id,
// missing) or "edge" (a third field).
EdgeList read_edge_list(std::istream& in, const std::string& name);
EdgeList read_edge_list_file(const std::string& path);  // InputError when it cannot be opened

// Compressed sparse rows of the undirected graph: the neighbours of v are
// neighbours[offsets[v] .. offsets[v + 1]). Every edge appears both ways;
// self-loops are dropped and parallel edges (either direction) merged, as
// Graph500's reference CSR (seq-csr) does; each vertex's neighbours are in
// ascending order.
struct CsrGraph {
  std::vector<uint32_t> offsets;     // the BFS vertexlist: vertices() + 1 entries
  std::vector<uint32_t> neighbours;  // the BFS edgelist
  uint64_t self_loops = 0;           // input edges dropped as self-loops
  uint64_t duplicates = 0;           // input edges merged into an earlier one

  uint32_t vertices() const { return offsets.empty() ? 0 : static_cast<uint32_t>(offsets.size() - 1); }
  uint32_t degree(uint32_t v) const { return offsets[v + 1] - offsets[v]; }
};
// Throws InputError (key "edges") when the graph has more directed edges
// than a 32-bit offset can count.
CsrGraph build_csr(const EdgeList& edges);

// Level of every vertex in a BFS from `source` (0 for the source, kNoVertex
// for a vertex it does not reach): the plain queue algorithm.
std::vector<uint32_t> bfs_levels(const CsrGraph& graph, uint32_t source);

}  // namespace gpumem
