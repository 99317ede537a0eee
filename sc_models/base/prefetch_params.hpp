// The prefetch unit beside each SM's L1 (CN109461113A; docs/prefetch.md):
// what the config's prefetch section gives (these are its defaults) and
// the unit and its prefetchers are elaborated with.
#pragma once

#include "base/types.hpp"

namespace gpumem {

// The stride baseline's (docs/prefetch.md, "Stride prefetcher").
struct StrideParams {
  unsigned table_entries = 64;  // streams (PC and warp) tracked, LRU
  unsigned degree = 2;          // lines prefetched per trigger
  unsigned distance = 8;        // strides ahead of the read
  unsigned confidence = 2;      // the same stride seen this many times in a row before prefetching
};

struct PrefetchUnitParams {
  PrefetchKind kind = PrefetchKind::kNone;
  unsigned queue_entries = 32;  // prefetches generated and not yet back; a new one past this is dropped
  PrefetchFill fill = PrefetchFill::kL1;
  unsigned buffer_lines = 32;   // fill: buffer: the prefetch buffer's lines (fully associative, LRU)
  unsigned edge_window = 0;     // bfs: edgelist lines asked for ahead of the warp's edge reads; 0: a range's all at once
  StrideParams stride;
};

}  // namespace gpumem
