// The memory behind the translator as a whole: what the config's memory
// section gives besides the DRAM (these are its defaults), and what the
// blocks that depend on it (translator, registers, allocator, channels,
// the trace player) are built with.
#pragma once

#include "base/channel_timing.hpp"
#include "base/dram_spec.hpp"  // MemoryModel

namespace gpumem {

struct MemoryOptions : ChannelTiming {  // service_cycles, latency_cycles (base/channel_timing.hpp)
  unsigned address_bits = 40;     // physical address width; wider addresses are rejected
  unsigned channels = 8;
  MemoryModel model = MemoryModel::kSimple;
  unsigned max_outstanding = 64;  // requests in flight from the player (also the entropy window)
};

}  // namespace gpumem
