#include "tb/tlb/tlb_parameters.hpp"

namespace gpumem::tb {

RtlTlbGeometry tlb_geometry_of_config(const Config& cfg) {
  const PageGeometry geo = cfg.mmu.geometry();
  RtlTlbGeometry g;
  g.variant = "runtime";
  g.va_bits = cfg.address_space.va_bits;
  g.small_bits = geo.small_bits;
  g.large_bits = geo.large_bits;
  g.entries = cfg.mmu.tlb.entries;
  g.ways = cfg.mmu.tlb.ways;
  g.plru = cfg.mmu.tlb.replacement == Replacement::kPlru;
  g.nested_tail = geo.placement == NestedPlacement::kTail;
  return g;
}

std::vector<RtlContractParameter> tlb_parameters(const RtlTlbGeometry& g) {
  std::vector<RtlContractParameter> p;
#define GPUMEM_TLB_PARAMETER(name, member, what, key, rtl_name, source, form) p.push_back({#name, std::to_string(g.member), source});
  GPUMEM_TLB_PARAMETERS(GPUMEM_TLB_PARAMETER)
#undef GPUMEM_TLB_PARAMETER
  return p;
}

}  // namespace gpumem::tb
