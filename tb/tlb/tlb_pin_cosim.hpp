// Pin-level co-simulation of the nested-page TLB, for debugging: the common
// pin-level bench (tb/common/pin_bench.hpp) over TlbBlock, with the --sc
// models of the built-in variants (tlb_pin_cosim.cpp) or a library's.
#pragma once
#include <vector>

#include "tb/common/pin_bench.hpp"
#include "tb/tlb/tlb_block.hpp"

namespace gpumem::tb {

using TlbPinCosim = PinBench<TlbBlock>;

// The elaboration parameters of the --sc models, one per variant (verilated
// from the same arguments as the --cc models, so equal to rtl_tlb_variants()).
const std::vector<RtlTlbGeometry>& rtl_tlb_pin_variants();

}  // namespace gpumem::tb
