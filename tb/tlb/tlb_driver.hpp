// The TLB's built-in fast-mode models: rtl/gpumem_nested_tlb.sv verilated
// (--cc) once per variant, clocked from C++ by the common bench
// (tb/common/fast_bench.hpp) through TlbBlock (tlb_block.hpp), whose pins,
// models and geometry tlb_driver.cpp defines.
#pragma once
#include <vector>

#include "config/config.hpp"
#include "tb/tlb/tlb_contract.hpp"

namespace gpumem::tb {

// Every variant verilated (verilator/CMakeLists.txt, gpumem_verilate_tlb):
// one per replacement policy, so both are proven against the model.
const std::vector<RtlTlbGeometry>& rtl_tlb_variants();

// The variant whose geometry equals cfg's MMU; throws std::invalid_argument
// naming the differences to each variant otherwise.
const RtlTlbGeometry& matching_tlb_variant(const Config& cfg);

}  // namespace gpumem::tb
