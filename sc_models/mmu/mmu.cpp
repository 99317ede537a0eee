#include "mmu/mmu.hpp"

#include <stdexcept>

namespace gpumem {

Mmu::Mmu(const MmuParams& params, const MmuRegisters& regs)
    : regs_(regs),
      geo_(params.tlb.geometry),
      tlb_(params.tlb),
      walker_(PageTableLayout(geo_.small_bits, params.va_bits), geo_),
      seen_invalidations_(regs.invalidations) {}

void Mmu::count_first(TlbResult r) {
  ++stats_.lookups;
  switch (r) {
    case TlbResult::kHitSmall: ++stats_.hits_small; break;
    case TlbResult::kHitLarge: ++stats_.hits_large; break;
    case TlbResult::kNested: ++stats_.nested; break;
    case TlbResult::kMiss: ++stats_.misses; break;
  }
}

void Mmu::invalidate() {
  tlb_.invalidate_all();
  seen_invalidations_ = regs_.invalidations;
  ++stats_.invalidations;
}

MmuOutcome Mmu::translate_slow(uint64_t va, bool write, const ReadPte& read, TlbLookup lk, Requester requester) {
  MmuOutcome out;
  auto fault = [&](FaultReason r, std::string detail) {
    out.fault = r;
    fault_detail_ = std::move(detail);
    if (requester == Requester::kProgram) ++stats_.faults;
    return out;
  };
  const unsigned va_bits = walker_.layout().va_bits;
  if (lk.result == TlbResult::kMiss && va_bits < 64 && (va >> va_bits) != 0) {
    count_first(lk.result);  // no walk: there is no table to read for it
    return fault(FaultReason::kVaOutOfRange, "VA wider than " + std::to_string(va_bits) + " bits");
  }
  // At most one walk: after it the retry must translate (a nested region
  // whose leaf is the large page again is refused before the fill, so the
  // retry cannot land in the nested region a second time).
  for (unsigned attempt = 0;; ++attempt) {
    if (attempt > 0) lk = tlb_.lookup(va);
    if (attempt == 0) {
      out.first = lk.result;
      count_first(lk.result);
    }
    if (lk.result == TlbResult::kHitSmall || lk.result == TlbResult::kHitLarge) {
      const TlbEntry& e = *lk.hit;
      out.set = lk.set;
      out.way = lk.way;
      out.large_page = e.large_page;
      out.task_type = e.task_type;
      if (write ? !e.writable : !e.readable)
        return fault(FaultReason::kPermission, std::string(write ? "write to a read-only page" : "read from an unreadable page"));
      out.pa = tlb_.translate(e, va);
      return out;
    }
    if (attempt > 0) throw std::logic_error("MMU: the lookup after a fill did not hit");

    ++out.walks;
    ++stats_.walks;
    WalkResult w = walker_.walk(regs_.pt_root, va, read);
    out.walk_reads += w.reads;
    stats_.walk_reads += w.reads;
    if (w.fault != FaultReason::kNone) return fault(w.fault, std::move(w.detail));
    out.task_type = w.leaf.task_type;
    if (w.leaf.large_page && (out.first == TlbResult::kNested || geo_.in_nested_region(va, w.leaf.nested_flag)))
      return fault(FaultReason::kPageTableError, "the leaf PTE of a VA in a nested region is the large page itself");
    out.filled = true;
    out.fill = tlb_.fill(va, w.leaf);
    ++(w.leaf.large_page ? stats_.fills_large : stats_.fills_small);
    if (out.fill.evicted) ++(out.fill.victim.large_page ? stats_.evictions_large : stats_.evictions_small);
  }
}

MmuOutcome Mmu::translate_debug(uint64_t va, const ReadPte& read, Access access) const {
  MmuOutcome out;
  const unsigned va_bits = walker_.layout().va_bits;
  if (va_bits < 64 && (va >> va_bits) != 0) {
    out.fault = FaultReason::kVaOutOfRange;
    return out;
  }
  const WalkResult w = walker_.walk(regs_.pt_root, va, read);
  out.walk_reads = w.reads;
  out.fault = w.fault;
  if (w.fault != FaultReason::kNone) return out;
  out.task_type = w.leaf.task_type;
  out.large_page = w.leaf.large_page;
  if ((access == Access::kWrite && !w.leaf.writable) || (access == Access::kRead && !w.leaf.readable)) {
    out.fault = FaultReason::kPermission;
    return out;
  }
  const uint64_t offset_mask = (w.leaf.large_page ? geo_.large_bytes() : geo_.small_bytes()) - 1;
  out.pa = (w.leaf.pfn << geo_.small_bits) + (va & offset_mask);
  return out;
}

}  // namespace gpumem
