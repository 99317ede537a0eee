// An SM's L1 data cache's geometry and timing (docs/cache.md): what the
// config's l1 section gives (these are its defaults) and the L1 sizes
// itself by.
#pragma once
#include <cstdint>

#include "base/types.hpp"

namespace gpumem {

struct L1Params {
  uint64_t size_bytes = 32768;
  unsigned line_bytes = 128;  // the config's default: frontend.line_bytes
  unsigned ways = 4;
  unsigned mshrs = 32;        // line fills outstanding at once
  unsigned hit_latency = 2;   // cycles from issue to data on a hit, and to a miss's fill going out
  L1Allocate allocate = L1Allocate::kOnMiss;  // the L1's shell places a missed line at the miss or at its fill (at only)

  unsigned lines() const { return static_cast<unsigned>(size_bytes / line_bytes); }
  unsigned sets() const { return lines() / ways; }
};

}  // namespace gpumem
