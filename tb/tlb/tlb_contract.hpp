// What any TLB RTL under `gpumem cosim` must be (docs/cosim.md, "The port
// contract"): its ports (tlb_ports.hpp) and their widths at a config.
#pragma once

#include "config/config.hpp"
#include "tb/common/rtl_contract.hpp"
#include "tb/tlb/tlb_ports.hpp"

namespace gpumem::tb {

#define GPUMEM_PORT_INDEX(port) port,
enum class TlbIn : unsigned { GPUMEM_TLB_INPUTS(GPUMEM_PORT_INDEX) };
enum class TlbOut : unsigned { GPUMEM_TLB_OUTPUTS(GPUMEM_PORT_INDEX) };
#undef GPUMEM_PORT_INDEX

// The TLB's ports and elaboration parameters for a config's MMU geometry
// (the config must have an address_space section).
RtlContract tlb_contract(const Config& cfg);

}  // namespace gpumem::tb
