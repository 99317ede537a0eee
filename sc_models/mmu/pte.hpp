// Extended page-table entry (SPEC 1, seeds 000 and 004) and the page geometry
// it is read with. The 64-bit layout is the table kPteLayout below;
// docs/page-tables.md explains each field. Reserved bits are zero.
#pragma once
#include <array>
#include <cstdint>

namespace gpumem {

// One field of the entry. The encoder and decoder below, docs/page-tables.md
// and the RTL's pte_t (generated into gpumem_pkg) all read this table.
struct PteField {
  const char* name;
  unsigned lsb, width;
  constexpr uint64_t mask() const { return (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1) << lsb; }
  constexpr uint64_t get(uint64_t raw) const { return (raw & mask()) >> lsb; }
  constexpr uint64_t put(uint64_t value) const { return (value << lsb) & mask(); }
};

inline constexpr PteField kPteValid{"valid", 0, 1};
inline constexpr PteField kPteReadable{"readable", 1, 1};
inline constexpr PteField kPteWritable{"writable", 2, 1};
inline constexpr PteField kPteDirectory{"directory", 3, 1};  // T: the PFN is the next-level table
inline constexpr PteField kPteLargePage{"large_page", 4, 1};
inline constexpr PteField kPteReservedLow{"reserved_low", 5, 3};
// One-hot: a nested region of 1/2/4/8 small pages inside this large page (0: none).
inline constexpr PteField kPteNestedFlag{"nested_flag", 8, 4};
inline constexpr PteField kPteTaskType{"task_type", 12, 4};  // selects the XOR mapping of the page's data
inline constexpr PteField kPtePfn{"pfn", 16, 40};            // frame number in small-page units
inline constexpr PteField kPteReservedHigh{"reserved_high", 56, 8};
// Least significant first; the fields tile the 64 bits (checked below).
inline constexpr std::array<PteField, 10> kPteLayout{kPteValid,       kPteReadable,   kPteWritable, kPteDirectory,
                                                     kPteLargePage,   kPteReservedLow, kPteNestedFlag, kPteTaskType,
                                                     kPtePfn,         kPteReservedHigh};
constexpr bool pte_layout_tiles() {
  unsigned next = 0;
  for (const PteField& f : kPteLayout) {
    if (f.lsb != next) return false;
    next += f.width;
  }
  return next == 64;
}
static_assert(pte_layout_tiles(), "the PTE fields must cover bits 0..63 in order, without gaps");

constexpr unsigned kPteBytes = 8;
constexpr unsigned kPfnShift = kPtePfn.lsb;
constexpr unsigned kPfnBits = kPtePfn.width;
constexpr uint64_t kPteReservedMask = kPteReservedLow.mask() | kPteReservedHigh.mask();

struct Pte {
  bool valid = false;
  bool readable = false;
  bool writable = false;
  bool directory = false;  // a directory entry: pfn is the next-level table
  bool large_page = false;
  uint8_t nested_flag = 0;  // 4 bits
  uint8_t task_type = 0;    // 4 bits
  uint64_t pfn = 0;         // kPfnBits bits

  uint64_t encode() const {
    return kPteValid.put(valid) | kPteReadable.put(readable) | kPteWritable.put(writable) |
           kPteDirectory.put(directory) | kPteLargePage.put(large_page) | kPteNestedFlag.put(nested_flag) |
           kPteTaskType.put(task_type) | kPtePfn.put(pfn);
  }
  static Pte decode(uint64_t raw) {
    Pte p;
    p.valid = kPteValid.get(raw);
    p.readable = kPteReadable.get(raw);
    p.writable = kPteWritable.get(raw);
    p.directory = kPteDirectory.get(raw);
    p.large_page = kPteLargePage.get(raw);
    p.nested_flag = static_cast<uint8_t>(kPteNestedFlag.get(raw));
    p.task_type = static_cast<uint8_t>(kPteTaskType.get(raw));
    p.pfn = kPtePfn.get(raw);
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
