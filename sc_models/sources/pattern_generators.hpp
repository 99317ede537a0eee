// Per-thread generators of regular and random access patterns
// (docs/workloads.md, "Pattern generators"): strided, matrix transpose,
// uniform random, 2-D 5-point stencil. Each emits one kernel whose threads
// run a grid-stride loop (thread t takes items t, t + threads, ...), warp by
// warp, iteration by iteration, instruction by instruction over the lanes
// still in the loop. Options are checked before the first item is emitted:
// InputError naming the flag (or, in a region, the config key). The caller
// calls sink.finish().
#pragma once
#include <cstdint>
#include <optional>

#include "base/types.hpp"
#include "sources/placement.hpp"
#include "sources/thread_trace.hpp"

namespace gpumem {

// One PC per instruction, a range per generator.
constexpr uint64_t kStridedPc = 0x1000;
constexpr uint64_t kRandomPc = 0x2000;
constexpr uint64_t kTransposePcRead = 0x3000, kTransposePcWrite = 0x3010;
// Stencil: north, west, east, south, centre reads, then the write.
constexpr uint64_t kStencilPcRead[5] = {0x4000, 0x4010, 0x4020, 0x4030, 0x4040};
constexpr uint64_t kStencilPcWrite = 0x4050;

struct GeneratorSummary {
  uint64_t kernels = 0, records = 0;
  uint64_t bytes = 0;  // the footprint from the base: the highest address touched + 1 - base
};

// Thread t's k-th access: base + t * stride + k * step.
struct StridedOptions {
  Placement place;
  unsigned width = 4;                // bytes an access: 1, 2, 4, 8 or 16
  uint32_t threads = 1024;
  unsigned warps_per_block = 0;      // 0: the config's
  std::optional<uint64_t> stride;    // default: width (neighbouring threads, neighbouring elements)
  uint64_t count = 1;                // accesses a thread
  std::optional<uint64_t> step;      // default: threads * stride (a grid-stride loop)
  Op op = Op::kRead;
};
GeneratorSummary generate_strided(const StridedOptions& options, ThreadTraceSink& sink);

// B = A^T for a rows x cols matrix A of width-byte elements at the base and
// its cols x rows transpose B at the next multiple of 4096 bytes after A.
// Element e = i * cols + j: read A[i][j] (row-wise: coalesced), write B[j][i]
// (a column-stride write: rows * width bytes between neighbouring threads).
struct TransposeOptions {
  Placement place;
  unsigned width = 4;
  uint32_t threads = 0;  // 0: one a element
  unsigned warps_per_block = 0;
  uint32_t rows = 256, cols = 256;
};
GeneratorSummary generate_transpose(const TransposeOptions& options, ThreadTraceSink& sink);

// Uniform random width-aligned addresses in [base, base + range), count a
// thread, from std::mt19937_64(seed) in emission order.
struct RandomOptions {
  Placement place;
  unsigned width = 4;
  uint32_t threads = 1024;
  unsigned warps_per_block = 0;
  uint64_t range = uint64_t{1} << 20;
  uint64_t count = 1;
  uint64_t seed = 1;
  Op op = Op::kRead;
};
GeneratorSummary generate_random(const RandomOptions& options, ThreadTraceSink& sink);

// A 5-point stencil on a grid_width x grid_height grid of width-byte
// elements, row-major at the base; the result grid at the next multiple of
// 4096 bytes after it. One item an interior point (x, y), x in [1, W-2],
// y in [1, H-2], in row-major order: read north (y-1), west (x-1), east
// (x+1), south (y+1) and the centre, write the result at (x, y).
struct StencilOptions {
  Placement place;
  unsigned width = 4;  // 4: float
  uint32_t threads = 0;  // 0: one an interior point
  unsigned warps_per_block = 0;
  uint32_t grid_width = 256, grid_height = 256;
};
GeneratorSummary generate_stencil(const StencilOptions& options, ThreadTraceSink& sink);

}  // namespace gpumem
