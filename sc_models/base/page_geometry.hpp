// The page sizes and where a nested region sits in a large page: what the
// config, the MMU and the driver share about pages (docs/page-tables.md).
#pragma once
#include <cstdint>

namespace gpumem {

constexpr unsigned kPteBytes = 8;  // one page table entry; the walker reads it in one access

// Small pages in the nested region a flag describes: 0 for 0000, 1/2/4/8 for
// a one-hot flag, -1 for anything else (more than one bit set).
inline int nested_units(uint8_t flag) {
  switch (flag & 0xF) {
    case 0x0: return 0;
    case 0x1: return 1;
    case 0x2: return 2;
    case 0x4: return 4;
    case 0x8: return 8;
    default: return -1;
  }
}

// Where the nested region sits inside the large page. CN113836054A leaves it
// open; the tail is where a partly used large page leaves space.
enum class NestedPlacement : uint8_t { kTail, kHead };

struct PageGeometry {
  unsigned small_bits = 12;  // log2(small page)
  unsigned large_bits = 16;  // log2(large page)
  NestedPlacement placement = NestedPlacement::kTail;

  uint64_t small_bytes() const { return uint64_t{1} << small_bits; }
  uint64_t large_bytes() const { return uint64_t{1} << large_bits; }
  unsigned units_per_large() const { return 1u << (large_bits - small_bits); }
  // Index of va's small page inside its large page: VA[15:12] for 4 KB / 64 KB.
  unsigned unit_in_large(uint64_t va) const {
    return static_cast<unsigned>((va >> small_bits) & (units_per_large() - 1));
  }
  // Does va fall in the nested region of a large page with this flag?
  // With the tail placement and 64 KB / 4 KB: offset[15:12] >= 16 - units.
  bool in_nested_region(uint64_t va, uint8_t flag) const {
    const int units = nested_units(flag);
    if (units <= 0) return false;
    const unsigned u = unit_in_large(va);
    return placement == NestedPlacement::kTail ? u >= units_per_large() - static_cast<unsigned>(units)
                                               : u < static_cast<unsigned>(units);
  }
};

}  // namespace gpumem
