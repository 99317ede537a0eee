// Extended page-table entry (SPEC 1, seeds 000 and 004) and the page geometry
// it is read with. Layout of the 64-bit entry (docs/page-tables.md):
//
//   [0]      V     valid
//   [1]      R     readable
//   [2]      W     writable
//   [3]      T     table: a directory entry whose PFN is the next-level table
//   [4]      S     size: 1 = large page, 0 = small page (leaf entries only)
//   [7:5]    reserved, zero
//   [11:8]   NEST  nested flag, one-hot: 0000 none, 0001/0010/0100/1000 =
//                  a nested region of 1/2/4/8 small pages (4/8/16/32 KB with
//                  4 KB small pages) inside this large page
//   [15:12]  TASK  task type: selects the XOR mapping of the page's data
//   [55:16]  PFN   frame number in small-page units (PA >> log2(small page))
//   [63:56]  reserved, zero
#pragma once
#include <cstdint>

namespace gpumem {

constexpr unsigned kPteBytes = 8;
constexpr unsigned kPfnShift = 16;
constexpr unsigned kPfnBits = 40;
constexpr uint64_t kPteReservedMask = (uint64_t{0x7} << 5) | (uint64_t{0xFF} << 56);

struct Pte {
  bool valid = false;
  bool readable = false;
  bool writable = false;
  bool table = false;
  bool large = false;
  uint8_t nested_flag = 0;  // 4 bits
  uint8_t task = 0;         // 4 bits
  uint64_t pfn = 0;         // kPfnBits bits

  uint64_t encode() const {
    return uint64_t{valid} | uint64_t{readable} << 1 | uint64_t{writable} << 2 | uint64_t{table} << 3 |
           uint64_t{large} << 4 | uint64_t{nested_flag & 0xFu} << 8 | uint64_t{task & 0xFu} << 12 |
           (pfn & ((uint64_t{1} << kPfnBits) - 1)) << kPfnShift;
  }
  static Pte decode(uint64_t raw) {
    Pte p;
    p.valid = raw & 1;
    p.readable = (raw >> 1) & 1;
    p.writable = (raw >> 2) & 1;
    p.table = (raw >> 3) & 1;
    p.large = (raw >> 4) & 1;
    p.nested_flag = static_cast<uint8_t>((raw >> 8) & 0xF);
    p.task = static_cast<uint8_t>((raw >> 12) & 0xF);
    p.pfn = (raw >> kPfnShift) & ((uint64_t{1} << kPfnBits) - 1);
    return p;
  }
  bool operator==(const Pte& o) const { return encode() == o.encode(); }
};

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

// Where the nested region sits inside the large page. Seed 004 leaves it
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
