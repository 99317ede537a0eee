#include "tb/tlb/tlb_pin_cosim.hpp"

#include <stdexcept>
#include <string>

#include "Vgpumem_nested_tlb_lru_sc.h"
#include "Vgpumem_nested_tlb_lru_sc_gpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_sc.h"
#include "Vgpumem_nested_tlb_sc_gpumem_nested_tlb.h"
#include "tb/common/pin_module.hpp"
#include "tb/tlb/tlb_driver.hpp"
#include "tb/tlb/tlb_sc_shell.hpp"

namespace gpumem::tb {

GPUMEM_PIN_SIGNALS(TlbBlock, GPUMEM_TLB_PORTS)

const std::vector<RtlTlbGeometry>& rtl_tlb_pin_variants() {
  static const std::vector<RtlTlbGeometry> v{tlb_geometry_of<Vgpumem_nested_tlb_sc_gpumem_nested_tlb>("plru"),
                                             tlb_geometry_of<Vgpumem_nested_tlb_lru_sc_gpumem_nested_tlb>("lru")};
  return v;
}

std::unique_ptr<PinModule<TlbBlock>> TlbBlock::pin_module(const Config& cfg, uint64_t seed, const WaveWindow& waves,
                                                          const LoadedRtl* rtl) {
  if (rtl) return make_pin_module<TlbBlock, LoadedScModel<TlbScShell>>(cfg, seed, geometry(cfg, rtl), waves, rtl);
  const RtlTlbGeometry& fast = matching_tlb_variant(cfg);  // throws, naming every difference
  for (const RtlTlbGeometry& v : rtl_tlb_pin_variants()) {
    if (v.variant != fast.variant) continue;
    if (const std::string d = tlb_geometry_difference(cfg, v); !d.empty())
      throw std::invalid_argument("the --sc TLB '" + v.variant + "' differs from the config:\n" + d);
    if (v.variant == "plru") return make_pin_module<TlbBlock, LinkedScModel<Vgpumem_nested_tlb_sc>>(cfg, seed, v, waves, nullptr);
    return make_pin_module<TlbBlock, LinkedScModel<Vgpumem_nested_tlb_lru_sc>>(cfg, seed, v, waves, nullptr);
  }
  throw std::invalid_argument("the TLB variant '" + fast.variant + "' has no pin-level (--sc) model");
}

}  // namespace gpumem::tb
