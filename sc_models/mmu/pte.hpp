// Extended page-table entry (CN115422098A, CN113836054A) and the page geometry
// it is read with. The 64-bit layout is the table kPteLayout below;
// docs/page-tables.md explains each field. Reserved bits are zero.
#pragma once
#include <array>
#include <cstdint>

#include "base/page_geometry.hpp"

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

}  // namespace gpumem
