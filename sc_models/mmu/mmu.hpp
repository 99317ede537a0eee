// The MMU (CN113836054A steps S11-S16): nested-page TLB lookup, page-table
// walk on a miss or on a hit in a large page's nested region, fill, bounded
// retry, permission check, faults. Plain C++: the TLM shell supplies the
// memory reads (and their timing), the RTL scoreboard drives it directly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/address_space_spec.hpp"
#include "base/mmu_timing.hpp"
#include "mmu/page_table.hpp"
#include "mmu/tlb.hpp"

namespace gpumem {

// What the MMU is elaborated with (params/block_params.hpp fills it from the
// config): its TLB, and the VA width its page tables cover.
// The TLM shell's timing (base/mmu_timing.hpp), the TLB, the VA width, and
// whether the MMU sets the task type from the PTE (the translator after it)
// or leaves the one before.
struct MmuParams : MmuTiming {
  TlbParams tlb;
  unsigned va_bits = AddressSpaceConfig{}.va_bits;
  bool sets_task_type = true;
};

// The MMU's view of the register bank: what firmware programs.
struct MmuRegisters {
  uint64_t pt_root = 0;
  uint64_t invalidations = 0;  // TLB_INVALIDATE writes so far: the MMU flushes when it changes
};

struct MmuStats {
  uint64_t lookups = 0;  // requests translated (first lookup of each)
  uint64_t hits_small = 0, hits_large = 0, misses = 0;
  uint64_t nested = 0;  // first lookups that hit a large page inside its nested region
  uint64_t walks = 0, walk_reads = 0, walk_cycles = 0;
  uint64_t fills_small = 0, fills_large = 0;
  uint64_t evictions_small = 0, evictions_large = 0;  // by the size of the victim
  uint64_t faults = 0;
  uint64_t invalidations = 0;
};

// How one translation came about; the TLM shell copies it into the payload's
// how extension, the scoreboard compares it with the RTL's.
struct MmuOutcome {
  FaultReason fault = FaultReason::kNone;  // Mmu::fault_detail() says more
  uint64_t pa = 0;
  unsigned task_type = 0;  // from the PTE that translated
  bool large_page = false;  // page size that translated
  TlbResult first = TlbResult::kMiss;  // result of the first lookup
  unsigned set = 0, way = 0;           // the entry that translated
  unsigned walks = 0;                  // 0, or 1 (a miss or a nested-region hit)
  unsigned walk_reads = 0;
  bool filled = false;
  TlbFill fill;
};

struct FaultRecord {
  uint64_t id;
  unsigned process;
  uint64_t va;
  unsigned task_type;  // of the leaf PTE when the walk got that far, else 0
  FaultReason reason;
  std::string detail;
};

// Whose access a translation is: a prefetch's fault is not the program's
// (the prefetch unit drops it and counts it), so the MMU does not count it.
enum class Requester { kProgram, kPrefetch };

class Mmu {
 public:
  Mmu(const MmuParams& params, const MmuRegisters& regs);

  // Hits translate inline; misses, nested-region hits and faults take the
  // out-of-line path.
  MmuOutcome translate(uint64_t va, bool write, const ReadPte& read, Requester requester = Requester::kProgram) {
    if (regs_.invalidations != seen_invalidations_) invalidate();
    const TlbLookup lk = tlb_.lookup(va);
    if ((lk.result == TlbResult::kHitSmall || lk.result == TlbResult::kHitLarge) && (write ? lk.hit->writable : lk.hit->readable)) {
      MmuOutcome out;
      ++stats_.lookups;
      ++(lk.result == TlbResult::kHitSmall ? stats_.hits_small : stats_.hits_large);
      out.first = lk.result;
      out.set = lk.set;
      out.way = lk.way;
      out.large_page = lk.hit->large_page;
      out.task_type = lk.hit->task_type;
      out.pa = tlb_.translate(*lk.hit, va);
      return out;
    }
    return translate_slow(va, write, read, lk, requester);
  }
  const std::string& fault_detail() const { return fault_detail_; }  // of the last fault

  // A loader's or debugger's translation: walks the page tables without
  // touching the TLB or the statistics. Permissions are not checked (a
  // loader fills read-only data too) unless `access` is given: a request's
  // own data moving at its issue (simulation.timing: at), refused where the
  // request will fault. On a fault, out.fault says why.
  enum class Access { kAny, kRead, kWrite };
  MmuOutcome translate_debug(uint64_t va, const ReadPte& read, Access access = Access::kAny) const;

  // Fault records for the report: every fault of the program is counted (stats().faults),
  // the first kMaxFaultRecords are kept with their detail. The caller names
  // the request, which only it knows: its id, process, own VA (before the
  // MMU that is not the address translated) and task type.
  static constexpr size_t kMaxFaultRecords = 1000;
  void record_fault(uint64_t id, unsigned process, uint64_t va, unsigned task, FaultReason reason) {
    if (faults_.size() < kMaxFaultRecords) faults_.push_back({id, process, va, task, reason, fault_detail_});
  }
  const std::vector<FaultRecord>& faults() const { return faults_; }

  const MmuRegisters& registers() const { return regs_; }
  Tlb& tlb() { return tlb_; }
  const MmuStats& stats() const { return stats_; }
  MmuStats& stats() { return stats_; }
  const PageGeometry& geometry() const { return geo_; }

 private:
  void count_first(TlbResult r);
  void invalidate();
  MmuOutcome translate_slow(uint64_t va, bool write, const ReadPte& read, TlbLookup first, Requester requester);
  std::string fault_detail_;
  std::vector<FaultRecord> faults_;

  const MmuRegisters& regs_;
  PageGeometry geo_;
  Tlb tlb_;
  PageTableWalker walker_;
  uint64_t seen_invalidations_ = 0;
  MmuStats stats_;
};

}  // namespace gpumem
