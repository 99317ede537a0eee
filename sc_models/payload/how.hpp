// How a request's result came about: filled block by block along the path.
// Plain struct, so tests and the scoreboard use it without a kernel; the TLM
// payload carries it in RequestExtension.
#pragma once
#include <cstdint>

#include "base/types.hpp"
#include "mmu/page_table.hpp"
#include "mmu/tlb.hpp"

namespace gpumem {

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
  unsigned queue_depth = 0;  // requests in the channel at arrival, itself included
};

}  // namespace gpumem
