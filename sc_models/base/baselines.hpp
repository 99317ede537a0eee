// Published channel mappings as matrices, so that a config
// can name one (`scheme: ipoly`) and the explorer can score it on the same
// trace as its own search. Each is written from its published definition;
// docs/explorer.md ("Baselines") cites the sources and says where a
// definition does not apply. All of them are channel-field mappings: the
// channel bits must be one contiguous ascending field c_j = s + j.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/channel_layout.hpp"
#include "base/channel_matrix.hpp"

namespace gpumem {

// ipoly, bitwise_xor, mop4clxor, pae, random.
const std::vector<std::string>& baseline_names();
bool is_baseline(const std::string& name);

struct BaselineMatrix {
  MatrixRows rows;      // empty when the baseline is not defined here
  std::string why_not;  // then: why, in words for an error message
};
// The baseline `name` on this layout and address width. `seed` is random's.
BaselineMatrix baseline_matrix(const std::string& name, const ChannelLayout& layout, unsigned address_bits, uint64_t seed = 1);

}  // namespace gpumem
