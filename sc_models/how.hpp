// How a request's result came about: filled block by block along the path.
// Plain struct, so tests and the scoreboard use it without a kernel; the TLM
// payload carries it as HowExtension.
#pragma once
#include <cstdint>

#include "config.hpp"

namespace gpumem {

struct How {
  Scheme scheme = Scheme::kNone;
  uint64_t physical_address = 0;
  uint64_t mapped_address = 0;
  uint64_t local_address = 0;
  unsigned channel = 0;
  uint64_t start_cycle = 0;
  uint64_t finish_cycle = 0;
  unsigned queue_depth = 0;  // requests in the channel at arrival, itself included
};

}  // namespace gpumem
