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

// SplitMix64 (Steele, Lea and Flood): a 64-bit value from a seed, well
// mixed; seeds derived seeds and generators that must not depend on a library.
inline uint64_t splitmix64(uint64_t s) {
  uint64_t z = s + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// The generator form: the next value of the sequence with state `s`.
inline uint64_t splitmix64_next(uint64_t& s) {
  const uint64_t v = splitmix64(s);
  s += 0x9E3779B97F4A7C15ull;
  return v;
}

// Value whose bit j is bit positions[j] of x.
inline uint64_t gather_bits(uint64_t x, const std::vector<unsigned>& positions) {
  uint64_t v = 0;
  for (std::size_t j = 0; j < positions.size(); ++j) v |= ((x >> positions[j]) & 1u) << j;
  return v;
}

}  // namespace gpumem
