// How mapped addresses are spread over the memory channels: the one fact the
// translator maps onto and the router's decoder splits by. Filled from the
// config (Config::channel_layout()).
#pragma once
#include <vector>

namespace gpumem {

struct ChannelLayout {
  // c_0..c_{m-1}: channel index bit j is mapped bit c_j. Empty for a
  // non-power-of-two channel count, which interleaves whole granules.
  std::vector<unsigned> channel_bits;
  unsigned channels = 1;
  unsigned granule_shift = 0;  // log2 of the interleave granule
};

}  // namespace gpumem
