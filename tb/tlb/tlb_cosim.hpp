// Fast co-simulation of the nested-page TLB: the common fast-mode bench
// (tb/common/fast_bench.hpp) over TlbBlock, with directed operations. Its
// random run is TlbStimulus's (tlb_stimulus.hpp: the test bench plays the
// rest of the MMU).
#pragma once
#include <cstdint>

#include "mmu/pte.hpp"
#include "tb/common/fast_bench.hpp"
#include "tb/tlb/tlb_block.hpp"
#include "tb/tlb/tlb_driver.hpp"

namespace gpumem::tb {

class TlbCosim : public FastBench<TlbBlock> {
 public:
  using FastBench<TlbBlock>::FastBench;

  // Directed operations, one at a time without back-pressure; the RTL's
  // response (checked by the scoreboard).
  TlbResponse lookup(uint64_t va);
  TlbResponse fill(uint64_t va, const Pte& leaf);
  void flush();
};

}  // namespace gpumem::tb
