#include "sources/pattern_generators.hpp"

#include <algorithm>
#include <random>
#include <string>

#include "base/input_error.hpp"
#include "sources/trace_emitter.hpp"

namespace gpumem {

namespace {

using u128 = unsigned __int128;

void check_width(unsigned width) {
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
    throw InputError("", 0, "--width", std::to_string(width) + " bytes: an access is 1, 2, 4, 8 or 16 bytes");
}

void check_at_least(uint64_t value, uint64_t least, const char* flag) {
  if (value < least) throw InputError("", 0, flag, "must be at least " + std::to_string(least));
}

void check_multiple(uint64_t value, unsigned width, const char* flag) {
  if (value % width)
    throw InputError("", 0, flag, std::to_string(value) + " is not a multiple of the access width (" + std::to_string(width) +
                                      " bytes): every address must be");
}

// A footprint as the placement checks it; 2^64 bytes or more fit nowhere.
uint64_t footprint(u128 bytes, const Placement& place, bool writes, const std::string& what) {
  if (bytes > ~uint64_t{0}) throw InputError("", 0, "--base", what + " span 2^64 bytes or more");
  place.check_fits(static_cast<uint64_t>(bytes), writes, what);
  return static_cast<uint64_t>(bytes);
}

// Two arrays of `elements` width-byte elements: the input at the base, the
// output at the next multiple of 4096 bytes after it (transpose, stencil).
// Checked against the placement; the output is written.
struct TwoArrays {
  uint64_t output = 0;  // its address
  uint64_t bytes = 0;   // the footprint of both
};
TwoArrays two_arrays(const Placement& place, uint64_t elements, unsigned width, const std::string& what) {
  const u128 output_offset = (u128{elements} * width + 4095) / 4096 * 4096;
  TwoArrays a;
  a.bytes = footprint(output_offset + u128{elements} * width, place, true, what);
  a.output = place.base + static_cast<uint64_t>(output_offset);
  return a;
}

// threads * count accesses, each a record.
uint64_t total_items(uint32_t threads, uint64_t count) {
  if (u128{threads} * count > ~uint64_t{0}) throw InputError("", 0, "--count", "threads * count is 2^64 records or more");
  return uint64_t{threads} * count;
}

// Threads 0 .. threads - 1 run a grid-stride loop over items 0 .. items - 1
// (thread t takes t, t + threads, ...): warp by warp, iteration by
// iteration, access(instruction, thread, item) for each instruction in turn
// over the lanes that still have an item, so that the records of one warp
// instruction are consecutive and in lane order.
template <typename Access>
void grid_stride(uint32_t threads, uint64_t items, unsigned instructions, Access&& access) {
  for (uint64_t first = 0; first < threads; first += kWarpSize) {
    const auto lanes = static_cast<uint32_t>(std::min<uint64_t>(kWarpSize, threads - first));
    for (uint64_t item0 = first; item0 < items; item0 = items - item0 > threads ? item0 + threads : items)
      for (unsigned p = 0; p < instructions; ++p)
        for (uint32_t l = 0; l < lanes && l < items - item0; ++l) access(p, static_cast<uint32_t>(first + l), item0 + l);
  }
}

// The generator's one kernel: grid_stride's loop with access(out,
// instruction, thread, item) emitting each record.
template <typename Access>
GeneratorSummary one_kernel(ThreadTraceSink& sink, const Placement& place, unsigned warps_per_block, const char* name,
                            uint32_t threads, uint64_t items, unsigned instructions, uint64_t bytes, Access&& access) {
  TraceEmitter out(sink, place.process, warps_per_block);
  out.kernel(name);
  grid_stride(threads, items, instructions, [&](unsigned p, uint32_t t, uint64_t item) { access(out, p, t, item); });
  return {out.kernels(), out.records(), bytes};
}

// threads * count accesses (strided, random), checked.
uint64_t loop_items(unsigned width, uint32_t threads, uint64_t count) {
  check_width(width);
  check_at_least(threads, 1, "--thread-count");
  check_at_least(count, 1, "--count");
  return total_items(threads, count);
}

// One thread an item when `threads` is 0.
uint32_t threads_for(uint32_t threads, uint64_t items) {
  if (threads) return threads;
  if (items > 0xFFFFFFFF)
    throw InputError("", 0, "--thread-count", std::to_string(items) + " items are more threads than 32-bit thread ids count; give --thread-count");
  return static_cast<uint32_t>(items);
}

}  // namespace

GeneratorSummary generate_strided(const StridedOptions& o, ThreadTraceSink& sink) {
  const uint64_t items = loop_items(o.width, o.threads, o.count);
  const uint64_t stride = o.stride.value_or(o.width);
  const uint64_t step = o.step.value_or(uint64_t{o.threads} * stride);
  check_multiple(stride, o.width, "--stride");
  check_multiple(step, o.width, "--step");
  o.place.check_aligned(o.width, "the strided accesses");
  const u128 span = u128{o.threads - 1u} * stride + u128{o.count - 1} * step + o.width;
  const uint64_t bytes = footprint(span, o.place, o.op == Op::kWrite, "the strided accesses");
  return one_kernel(sink, o.place, o.warps_per_block, "strided", o.threads, items, 1,
                    bytes, [&](TraceEmitter& out, unsigned, uint32_t t, uint64_t item) {
                      const uint64_t k = item / o.threads;
                      out.access(t, kStridedPc, o.place.base + t * stride + k * step, o.width, o.op, false);
                    });
}

GeneratorSummary generate_transpose(const TransposeOptions& o, ThreadTraceSink& sink) {
  check_width(o.width);
  check_at_least(o.rows, 1, "--rows");
  check_at_least(o.cols, 1, "--cols");
  o.place.check_aligned(o.width, "the matrices");
  const uint64_t elements = uint64_t{o.rows} * o.cols;
  const uint32_t threads = threads_for(o.threads, elements);
  const TwoArrays ab = two_arrays(o.place, elements, o.width, "the matrices");
  return one_kernel(sink, o.place, o.warps_per_block, "transpose", threads, elements, 2,
                    ab.bytes, [&](TraceEmitter& out, unsigned p, uint32_t t, uint64_t e) {
                      const uint64_t i = e / o.cols, j = e % o.cols;
                      // A[i][j], dependent: its value is what the thread stores next.
                      if (p == 0) out.read(t, kTransposePcRead, o.place.base + e * o.width, o.width, true);
                      else out.write(t, kTransposePcWrite, ab.output + (j * o.rows + i) * o.width, o.width);  // B[j][i]
                    });
}

GeneratorSummary generate_random(const RandomOptions& o, ThreadTraceSink& sink) {
  const uint64_t items = loop_items(o.width, o.threads, o.count);
  if (o.range < o.width)
    throw InputError("", 0, "--range", std::to_string(o.range) + " bytes: the range must hold one access (" +
                                          std::to_string(o.width) + " bytes)");
  o.place.check_aligned(o.width, "the random accesses");
  const uint64_t bytes = footprint(o.range, o.place, o.op == Op::kWrite, "the random accesses");
  // The slot by rejection from 64-bit draws: the same addresses on every
  // standard library.
  const uint64_t slots = o.range / o.width;
  const uint64_t reject_below = (0 - slots) % slots;
  std::mt19937_64 rng(o.seed);
  return one_kernel(sink, o.place, o.warps_per_block, "random", o.threads, items, 1,
                    bytes, [&](TraceEmitter& out, unsigned, uint32_t t, uint64_t) {
                      uint64_t x = rng();
                      while (x < reject_below) x = rng();
                      out.access(t, kRandomPc, o.place.base + x % slots * o.width, o.width, o.op, false);
                    });
}

GeneratorSummary generate_stencil(const StencilOptions& o, ThreadTraceSink& sink) {
  check_width(o.width);
  check_at_least(o.grid_width, 3, "--grid-width");
  check_at_least(o.grid_height, 3, "--grid-height");
  o.place.check_aligned(o.width, "the grids");
  const uint64_t w = o.grid_width, cells = w * o.grid_height;
  const uint64_t inner_w = w - 2, points = inner_w * (o.grid_height - 2u);
  const uint32_t threads = threads_for(o.threads, points);
  const TwoArrays grids = two_arrays(o.place, cells, o.width, "the grids");
  return one_kernel(sink, o.place, o.warps_per_block, "stencil", threads, points, 6,
                    grids.bytes, [&](TraceEmitter& out, unsigned p, uint32_t t, uint64_t item) {
                      const uint64_t centre = (1 + item / inner_w) * w + 1 + item % inner_w;
                      const uint64_t cell[5] = {centre - w, centre - 1, centre + 1, centre + w, centre};
                      // The four neighbours' loads are followed by another
                      // load; the centre's by the arithmetic that uses all five.
                      if (p < 5) out.read(t, kStencilPcRead[p], o.place.base + cell[p] * o.width, o.width, p == 4);
                      else out.write(t, kStencilPcWrite, grids.output + centre * o.width, o.width);
                    });
}

}  // namespace gpumem
