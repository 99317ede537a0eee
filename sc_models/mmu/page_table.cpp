#include "mmu/page_table.hpp"

namespace gpumem {

WalkResult PageTableWalker::walk(uint64_t root, uint64_t va, const ReadPte& read) const {
  WalkResult w;
  auto fail = [&](FaultReason r, unsigned level, const std::string& what) {
    w.fault = r;
    w.detail = "level " + std::to_string(level) + ": " + what;
    return w;
  };
  if (layout_.va_bits < 64 && (va >> layout_.va_bits) != 0)
    return fail(FaultReason::kVaOutOfRange, 0, "VA wider than " + std::to_string(layout_.va_bits) + " bits");
  const unsigned levels = layout_.levels();
  uint64_t table = root;
  for (unsigned level = 0; level < levels; ++level) {
    const uint64_t at = table + uint64_t{layout_.index(va, level)} * kPteBytes;
    const uint64_t raw = w.last_pte = read(at);
    ++w.reads;
    const Pte p = Pte::decode(raw);
    if (raw & kPteReservedMask) return fail(FaultReason::kPageTableError, level, "reserved PTE bits set");
    if (!p.valid) return fail(FaultReason::kUnmapped, level, "invalid PTE");
    const bool leaf_level = level + 1 == levels;
    if (!leaf_level) {
      if (!p.directory) return fail(FaultReason::kPageTableError, level, "leaf PTE at a directory level");
      table = p.pfn << geo_.small_bits;
      continue;
    }
    if (p.directory) return fail(FaultReason::kPageTableError, level, "table pointer at the leaf level");
    if (nested_units(p.nested_flag) < 0)
      return fail(FaultReason::kPageTableError, level, "nested flag with more than one bit set");
    if (!p.large_page && p.nested_flag)
      return fail(FaultReason::kPageTableError, level, "small-page PTE with a nested flag");
    if (p.large_page && (p.pfn & (geo_.units_per_large() - 1)))
      return fail(FaultReason::kPageTableError, level, "large-page PFN not aligned to the large page");
    w.leaf = p;
    w.leaf_pte_address = at;
  }
  return w;
}

}  // namespace gpumem
