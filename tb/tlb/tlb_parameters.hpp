// The TLB RTL's elaboration parameters: its geometry (a config's MMU, or
// read back from a Verilated model) and the -G values that make it. The
// port contract lists them (tlb_contract.hpp), and the built-in variants are
// verilated with their configs' (verilator/CMakeLists.txt runs
// verilator/rtl_parameters_bootstrap.cpp over them at configure time), so
// the config, the contract and the build share this one table.
#pragma once
#include <string>
#include <vector>

#include "config/config.hpp"
#include "tb/common/rtl_parameter.hpp"

namespace gpumem::tb {

// The RTL's elaboration parameters, one row each: PARAMETER(name, member of
// RtlTlbGeometry, what it is, the config key it comes from, the name a
// difference shows on the RTL's side, the contract's column, how the config
// says the value: kPlain, kPowerOfTwo (a size, the parameter its log2),
// kReplacement, kPlacement). The geometry, the contract's parameters and the
// config-to-RTL differences are all made from it.
#define GPUMEM_TLB_PARAMETERS(PARAMETER)                                                                                \
  PARAMETER(VA_BITS, va_bits, "VA bits", "address_space.va_bits", "VA_BITS", "`address_space.va_bits`", kPlain)       \
  PARAMETER(SMALL_BITS, small_bits, "small page", "mmu.page_sizes[0]", "2^SMALL_BITS", "log2 of `mmu.page_sizes[0]`",  \
            kPowerOfTwo)                                                                                                \
  PARAMETER(LARGE_BITS, large_bits, "large page", "mmu.page_sizes[1]", "2^LARGE_BITS", "log2 of `mmu.page_sizes[1]`",  \
            kPowerOfTwo)                                                                                                \
  PARAMETER(ENTRIES, entries, "entries", "mmu.tlb.entries", "ENTRIES", "`mmu.tlb.entries`", kPlain)                    \
  PARAMETER(WAYS, ways, "ways", "mmu.tlb.ways", "WAYS", "`mmu.tlb.ways`", kPlain)                                        \
  PARAMETER(PLRU, plru, "replacement", "mmu.tlb.replacement", "PLRU", "`mmu.tlb.replacement` (1: plru, 0: lru)",        \
            kReplacement)                                                                                               \
  PARAMETER(NESTED_TAIL, nested_tail, "nested placement", "mmu.nested_placement", "NESTED_TAIL",                        \
            "`mmu.nested_placement` (1: tail, 0: head)", kPlacement)

// A built-in variant's, read back from its Verilated model (tlb_driver.hpp),
// or a config's.
struct RtlTlbGeometry {
  std::string variant;  // "plru" (configs/default.yaml), "lru" (configs/examples/tlb-lru.yaml), "runtime"
#define GPUMEM_TLB_GEOMETRY_MEMBER(name, member, ...) unsigned member = 0;
  GPUMEM_TLB_PARAMETERS(GPUMEM_TLB_GEOMETRY_MEMBER)
#undef GPUMEM_TLB_GEOMETRY_MEMBER
};
// From a Verilated model's parameter class (the parameters are `verilator public`).
template <typename Params>
RtlTlbGeometry tlb_geometry_of(const char* variant) {
  RtlTlbGeometry g;
  g.variant = variant;
#define GPUMEM_TLB_GEOMETRY_OF(name, member, ...) g.member = Params::name;
  GPUMEM_TLB_PARAMETERS(GPUMEM_TLB_GEOMETRY_OF)
#undef GPUMEM_TLB_GEOMETRY_OF
  return g;
}
// cfg's MMU geometry as the TLB RTL's parameters: what a model verilated at
// run time for cfg has (variant "runtime").
RtlTlbGeometry tlb_geometry_of_config(const Config& cfg);
// The -G values that elaborate g, in the table's order.
std::vector<RtlContractParameter> tlb_parameters(const RtlTlbGeometry& g);

}  // namespace gpumem::tb
