// What any TLB RTL under `gpumem cosim` must be (docs/cosim.md, "The port
// contract"): its ports (the table in tlb_ports.hpp) and their widths at a
// geometry, and the elaboration parameters that make the geometry.
#pragma once
#include <string>
#include <vector>

#include "config/config.hpp"
#include "tb/common/port_table.hpp"
#include "tb/common/rtl_contract.hpp"
#include "tb/tlb/tlb_parameters.hpp"
#include "tb/tlb/tlb_ports.hpp"

namespace gpumem::tb {

GPUMEM_PORT_INDICES(TlbIn, TlbOut, GPUMEM_TLB_PORTS)
inline constexpr const char* kTlbModule = "gpumem_nested_tlb";  // the project's RTL
inline constexpr const char* kTlbRtlFile = "rtl/gpumem_nested_tlb.sv";

// "" when the config's MMU geometry equals the RTL's elaboration parameters,
// else a message naming both values.
std::string tlb_geometry_difference(const Config& cfg, const RtlTlbGeometry& rtl);

// The port table at a geometry, in the RTL's order.
std::vector<RtlContractPort> tlb_port_table(const RtlTlbGeometry& g);
// The TLB's ports and elaboration parameters at a geometry, or for a
// config's MMU (the config must have an address_space section).
RtlContract tlb_contract(const RtlTlbGeometry& g);
RtlContract tlb_contract(const Config& cfg);

}  // namespace gpumem::tb
