// Bit helpers shared by the translator, the channel decoder and the explorer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpumem {

inline unsigned parity(uint64_t x) { return static_cast<unsigned>(__builtin_parityll(x)); }
inline bool is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
inline unsigned log2_exact(uint64_t x) { return static_cast<unsigned>(__builtin_ctzll(x)); }
inline uint64_t bit(unsigned i) { return uint64_t{1} << i; }

// Value whose bit j is bit positions[j] of x.
inline uint64_t gather_bits(uint64_t x, const std::vector<unsigned>& positions) {
  uint64_t v = 0;
  for (std::size_t j = 0; j < positions.size(); ++j) v |= ((x >> positions[j]) & 1u) << j;
  return v;
}

}  // namespace gpumem
