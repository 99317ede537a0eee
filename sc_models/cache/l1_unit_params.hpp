// What an SM's L1 unit is elaborated with: the cache and the prefetch unit
// beside it (docs/cache.md, docs/prefetch.md); params/ fills it from the config.
#pragma once
#include <cstdint>

#include "base/types.hpp"
#include "cache/l1_cache.hpp"
#include "prefetch/stride_prefetcher.hpp"

namespace gpumem {

struct L1UnitParams {
  L1Params l1;
  PrefetchKind prefetcher = PrefetchKind::kNone;
  unsigned queue_entries = 32;  // prefetches generated and not yet back
  PrefetchFill fill = PrefetchFill::kL1;
  unsigned buffer_lines = 32;   // fill: buffer: the prefetch buffer's lines (fully associative, LRU)
  unsigned edge_window = 0;     // bfs: edgelist lines asked for ahead of the warp's edge reads
  StrideParams stride;
  uint64_t page_bytes = 4096;   // the smallest page: a prefetch does not cross it
};

}  // namespace gpumem
