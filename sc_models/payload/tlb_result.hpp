// What a TLB lookup found. The values are the RTL's tlb_result_e (generated
// into gpumem_pkg from kTlbResultNames), so the waves show the same names.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace gpumem {

enum class TlbResult : uint8_t { kHitSmall = 0, kHitLarge = 1, kNested = 2, kMiss = 3 };
inline constexpr std::array<const char*, 4> kTlbResultNames{"hit_small", "hit_large", "nested", "miss"};
inline const char* tlb_result_name(TlbResult r) {
  const auto v = static_cast<std::size_t>(r);
  return v < kTlbResultNames.size() ? kTlbResultNames[v] : "?";
}

}  // namespace gpumem
