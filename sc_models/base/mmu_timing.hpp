// The MMU's own cycles, on top of the memory's: what the config's mmu
// section gives (these are its defaults) and the MMU's TLM shell charges.
#pragma once

namespace gpumem {

struct MmuTiming {
  unsigned tlb_hit_cycles = 1;     // once per request (the retry after a fill is not charged again)
  unsigned walk_level_cycles = 1;  // per page-table level, on top of the memory read
};

}  // namespace gpumem
