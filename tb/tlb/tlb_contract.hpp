// What any TLB RTL under `gpumem cosim` must be (docs/cosim.md, "The port
// contract"): its ports, in the order the fast-mode adapter
// (tb/common/rtl_adapter.hpp) and the driver index them.
#pragma once

#include "config/config.hpp"
#include "tb/common/rtl_contract.hpp"

#define GPUMEM_TLB_INPUTS(X) \
  X(clk_i) X(rst_ni) X(flush_i) X(req_valid_i) X(req_fill_i) X(req_va_i) X(req_pte_i) X(rsp_ready_i)
#define GPUMEM_TLB_OUTPUTS(X)                                                                                    \
  X(req_ready_o) X(rsp_valid_o) X(rsp_fill_o) X(rsp_result_o) X(rsp_set_o) X(rsp_way_o) X(rsp_pa_o)            \
  X(rsp_evicted_o) X(rsp_entry_large_page_o) X(rsp_entry_vpn_o) X(rsp_entry_pfn_o) X(rsp_entry_nested_flag_o) \
  X(rsp_entry_task_type_o) X(rsp_entry_readable_o) X(rsp_entry_writable_o)

namespace gpumem::tb {

#define GPUMEM_PORT_INDEX(port) port,
enum class TlbIn : unsigned { GPUMEM_TLB_INPUTS(GPUMEM_PORT_INDEX) };
enum class TlbOut : unsigned { GPUMEM_TLB_OUTPUTS(GPUMEM_PORT_INDEX) };
#undef GPUMEM_PORT_INDEX

// The TLB's ports and elaboration parameters for a config's MMU geometry
// (the config must have an address_space section).
RtlContract tlb_contract(const Config& cfg);

}  // namespace gpumem::tb
