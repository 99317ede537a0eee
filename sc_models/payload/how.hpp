// How a request's result came about: filled block by block along the path.
// Plain struct, so tests and the scoreboard use it without a kernel; the TLM
// payload carries it in RequestExtension.
#pragma once
#include <cstdint>

#include "base/dram_spec.hpp"
#include "base/types.hpp"
#include "payload/fault_reason.hpp"
#include "payload/tlb_entry.hpp"
#include "payload/tlb_result.hpp"

namespace gpumem {

// What an SM's L1 data cache did with a request (docs/cache.md).
enum class L1Result : uint8_t {
  kNone,       // no L1 in the path
  kHit,        // read, line ready: served by the L1 alone
  kMerge,      // read, line in flight: waits for its fill, served by the L1
  kMiss,       // read, line absent: the L1 sent a line fill, whose how this is
  kWriteHit,   // write through, the line present and updated
  kWriteMiss,  // write through, no line allocated
  kBypass,     // a strided request: past the L1
};
inline const char* l1_result_name(L1Result r) {
  switch (r) {
    case L1Result::kNone: return "";
    case L1Result::kHit: return "hit";
    case L1Result::kMerge: return "merge";
    case L1Result::kMiss: return "miss";
    case L1Result::kWriteHit: return "write_hit";
    case L1Result::kWriteMiss: return "write_miss";
    case L1Result::kBypass: return "bypass";
  }
  return "";
}
// Served without reaching memory: nothing downstream filled the how.
inline bool served_by_l1(L1Result r) { return r == L1Result::kHit || r == L1Result::kMerge; }

struct How {
  // The cycle the request has reached on its way: the player sets its issue
  // cycle, every block that adds delay adds the same cycles here, the channel
  // leaves its finish cycle. It always equals (now + delay) in cycles, so no
  // block converts kernel time per request.
  uint64_t cycle = 0;
  Scheme scheme = Scheme::kNone;
  unsigned task_type = 0;  // whose mapping was used
  // MMU (with an address space): the TLB result of the first lookup, the
  // entry that translated, the walk, the fill and its victim.
  bool mmu = false;
  uint64_t virtual_address = 0;
  TlbResult tlb = TlbResult::kMiss;
  unsigned tlb_set = 0, tlb_way = 0;
  bool large_page = false;
  unsigned walk_reads = 0;
  bool filled = false;
  unsigned fill_way = 0;
  bool evicted = false;
  TlbEntry victim;
  FaultReason fault = FaultReason::kNone;
  uint64_t physical_address = 0;
  uint64_t mapped_address = 0;
  uint64_t local_address = 0;
  unsigned channel = 0;
  uint64_t start_cycle = 0;
  uint64_t finish_cycle = 0;
  // memory.model: dram only: the cycle it reached the channel and the cycle
  // it entered the read or write queue (later if the queue was full), where
  // it landed, what its row did.
  bool dram = false;
  uint64_t arrival_cycle = 0;
  uint64_t accept_cycle = 0;
  DramAddress dram_at;
  RowResult row = RowResult::kHit;
  L1Result l1 = L1Result::kNone;
};

}  // namespace gpumem
