// The translator's ports, written once (tb/common/port_table.hpp): the rows
// of rtl/gpumem_xor_translator.sv's port list, in its order, each with its
// width over the RTL's parameters `g` (RtlTranslatorGeometry,
// translator_contract.hpp) and what `gpumem cosim --contract` prints of it.
// Macros only.
#pragma once

// clang-format off
#define GPUMEM_TRANSLATOR_PORTS(CLOCK, IN, OUT)                                                                            \
  CLOCK(clk_i, 1, "1", "clock; everything happens at its rising edge")                                                      \
  IN(rst_ni, 1, "1", "reset, active low: registers to their reset values, requests in flight dropped")                     \
  IN(reg_we_i, 1, "1", "a 32-bit register write this cycle")                                                                \
  IN(reg_addr_i, register_address_bits(), "`REG_ADDR_BITS` (gpumem_pkg)", "its byte offset in the register map")            \
  IN(reg_wdata_i, 32, "32", "its value")                                                                                    \
  OUT(reg_error_o, 1, "1", "with `reg_we_i`, in the same cycle: the write is refused (and changes nothing)")                \
  OUT(reg_rdata_o, 32, "32", "combinational: the register at `reg_addr_i` as the block holds it, 0 elsewhere; "          \
      "from 0xE000 the committed matrix rows")                                                                              \
  IN(req_valid_i, 1, "1", "a request is offered; held with its payload until taken")                                        \
  OUT(req_ready_o, 1, "1", "the request is taken at this edge (with `req_valid_i`)")                                        \
  IN(req_addr_i, g.address_bits, "`memory.address_bits`", "the physical address to map")                                   \
  IN(req_task_type_i, kPteTaskType.width, "4 (`PTE_TASK_TYPE_BITS`)",                                                       \
     "its task type: selects TASK_SCHEME[t] and its XOR_VECTOR or MATRIX_ROW rows")                                                             \
  OUT(rsp_valid_o, 1, "1", "a response is offered; held until taken")                                                       \
  IN(rsp_ready_i, 1, "1", "the response is taken at this edge (with `rsp_valid_o`)")                                        \
  OUT(rsp_mapped_o, g.address_bits, "`memory.address_bits`", "the mapped address")                                          \
  OUT(rsp_channel_o, unsigned(g.channel_bits.size()), "number of `translator.channel_bits`",                                 \
      "its channel: bit j is mapped address bit c_j")                                                                       \
  OUT(rsp_scheme_o, 2, "2 (`scheme_e`)", "the scheme that mapped it: none, xor, prime or matrix")
// clang-format on
