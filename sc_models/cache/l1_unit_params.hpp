// What an SM's L1 unit is elaborated with: the cache and the prefetch unit
// beside it (docs/cache.md, docs/prefetch.md); params/ fills it from the config.
#pragma once
#include <cstdint>

#include "base/types.hpp"
#include "cache/l1_cache.hpp"
#include "prefetch/stride_prefetcher.hpp"

namespace gpumem {

struct L1UnitParams : PrefetchUnitParams {  // the prefetch unit's (base/prefetch_params.hpp)
  L1Params l1;
  uint64_t page_bytes = 4096;  // the smallest page: a prefetch does not cross it
};

}  // namespace gpumem
