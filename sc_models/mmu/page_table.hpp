// Radix page tables in simulated memory and the walker that reads them.
// Every table is one small page of 8-byte PTEs, so each level
// indexes log2(small page) - 3 bits of the VA (9 with 4 KB pages); the leaf
// level is small-page granular, and a large page's PTE stands in each of its
// leaf slots except those of its nested region (docs/page-tables.md).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "mmu/pte.hpp"
#include "payload/fault_reason.hpp"

namespace gpumem {

struct PageTableLayout {
  unsigned small_bits = 12;
  unsigned va_bits = 32;

  PageTableLayout() = default;
  PageTableLayout(unsigned small_bits_, unsigned va_bits_) : small_bits(small_bits_), va_bits(va_bits_) {}
  unsigned index_bits() const { return small_bits - 3; }
  // 32-bit VA, 4 KB pages: 20 index bits -> 3 levels of 2, 9 and 9 bits.
  unsigned levels() const { return (va_bits - small_bits + index_bits() - 1) / index_bits(); }
  unsigned shift(unsigned level) const { return small_bits + index_bits() * (levels() - 1 - level); }  // level 0: root
  unsigned index(uint64_t va, unsigned level) const {
    const unsigned sh = shift(level);
    const unsigned width = level == 0 ? va_bits - sh : index_bits();
    return static_cast<unsigned>((va >> sh) & ((uint64_t{1} << width) - 1));
  }
};

struct WalkResult {
  FaultReason fault = FaultReason::kNone;
  std::string detail;  // set with a fault: what was wrong, at which level
  Pte leaf;
  unsigned reads = 0;  // memory reads made, one per level reached
  uint64_t leaf_pte_address = 0;
  uint64_t last_pte = 0;  // the raw entry read last: the leaf, or the one the walk stopped at
};

// Performs one 8-byte read of simulated memory at a physical address.
using ReadPte = std::function<uint64_t(uint64_t pa)>;

class PageTableWalker {
 public:
  PageTableWalker(const PageTableLayout& layout, const PageGeometry& geometry) : layout_(layout), geo_(geometry) {}
  // Walks from the root table at `root` to the leaf PTE of `va` and checks it.
  WalkResult walk(uint64_t root, uint64_t va, const ReadPte& read) const;
  const PageTableLayout& layout() const { return layout_; }

 private:
  PageTableLayout layout_;
  PageGeometry geo_;
};

}  // namespace gpumem
