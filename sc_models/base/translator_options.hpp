// The translator's scalar settings: what the config's translator section
// gives besides its bit lists and task mappings (these are its defaults),
// and what the translator, its registers and the driver's firmware are
// built with.
#pragma once
#include <cstdint>

#include "base/types.hpp"

namespace gpumem {

struct TranslatorOptions {
  bool interleave_enable = true;
  uint64_t prime = 0;          // P of the prime scheme (0: not configured)
  uint64_t granule_bytes = 0;  // interleave granule (0: 2^c_min with channel bits, the smallest page with one channel)
  // The default layout (docs/config-reference.md, "Default channel layout"):
  // without channel_bits, the log2(N) bits just above the interleave granule;
  // without granule_bytes, a granule of 2^8 bytes. The reader applies it.
  static constexpr unsigned kDefaultGranuleShift = 8;
  Scheme default_scheme = Scheme::kNone;  // scheme of every task type not listed in tasks
  TranslatorPosition position = TranslatorPosition::kAfterMmu;
  // CTRL bit 1 when the profile store selects task types: false keeps every
  // application on its configured task type (the store is still written).
  bool dynamic_selection = true;
};

}  // namespace gpumem
