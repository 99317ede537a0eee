// The elaboration parameters of a Verilated translator class, --cc or --sc:
// the positions are packed 8 bits each (entry 0 in the low byte), as
// verilator/CMakeLists.txt passes them.
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "tb/translator/translator_driver.hpp"

namespace gpumem::tb {

template <typename T>
std::vector<unsigned> unpack_positions(T packed, unsigned count) {
  static_assert(std::is_integral_v<T>, "more than 8 positions (a wide parameter) is not supported yet");
  std::vector<unsigned> v;
  for (unsigned i = 0; i < count; ++i) v.push_back(static_cast<unsigned>((uint64_t{packed} >> (8 * i)) & 0xFF));
  return v;
}

template <typename Params>
RtlTranslatorGeometry translator_geometry_of() {
  return {Params::ADDRESS_BITS, unpack_positions(Params::CHANNEL_BITS, Params::CHANNEL_BIT_COUNT),
          unpack_positions(Params::CANDIDATE_BITS, Params::CANDIDATE_BIT_COUNT), Params::PRIME};
}

}  // namespace gpumem::tb
