// A memory channel's own cycles on top of its model's (memory.model): what
// the config's memory section gives (these are its defaults) and a channel
// is elaborated with.
#pragma once

namespace gpumem {

struct ChannelTiming {
  unsigned service_cycles = 1;  // simple: one access per service_cycles per channel
  unsigned latency_cycles = 0;  // both models: pipelined latency added to every completion
};

}  // namespace gpumem
