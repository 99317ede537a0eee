// The TLB's ports in contract order, as X-macros (see
// tb/translator/translator_ports.hpp for who reads them). Macros only.
#pragma once

#define GPUMEM_TLB_INPUTS(X) X(clk_i) GPUMEM_TLB_DATA_INPUTS(X)
#define GPUMEM_TLB_DATA_INPUTS(X) \
  X(rst_ni) X(flush_i) X(req_valid_i) X(req_fill_i) X(req_va_i) X(req_pte_i) X(rsp_ready_i)
#define GPUMEM_TLB_OUTPUTS(X)                                                                                    \
  X(req_ready_o) X(rsp_valid_o) X(rsp_fill_o) X(rsp_result_o) X(rsp_set_o) X(rsp_way_o) X(rsp_pa_o)            \
  X(rsp_evicted_o) X(rsp_entry_large_page_o) X(rsp_entry_vpn_o) X(rsp_entry_pfn_o) X(rsp_entry_nested_flag_o) \
  X(rsp_entry_task_type_o) X(rsp_entry_readable_o) X(rsp_entry_writable_o)
