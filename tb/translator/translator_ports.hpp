// The translator's ports in contract order, as X-macros: the contract's
// table (translator_contract.cpp), the fast-mode adapter
// (tb/common/rtl_adapter.hpp), the pin-level shell (translator_sc_shell.hpp)
// and the driver's indices are this one list. Macros only, so that a
// library verilated at run time compiles it with nothing else.
#pragma once

// clk_i first in every block: it is bound straight through, never converted.
#define GPUMEM_TRANSLATOR_INPUTS(X) X(clk_i) GPUMEM_TRANSLATOR_DATA_INPUTS(X)
#define GPUMEM_TRANSLATOR_DATA_INPUTS(X) \
  X(rst_ni) X(reg_we_i) X(reg_addr_i) X(reg_wdata_i) X(req_valid_i) X(req_addr_i) X(req_task_type_i) X(rsp_ready_i)
#define GPUMEM_TRANSLATOR_OUTPUTS(X) \
  X(reg_error_o) X(req_ready_o) X(rsp_valid_o) X(rsp_mapped_o) X(rsp_channel_o) X(rsp_scheme_o)
