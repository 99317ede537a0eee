// The TLB's ports, written once (tb/common/port_table.hpp): the rows of
// rtl/gpumem_nested_tlb.sv's port list, in its order, each with its width
// over the RTL's parameters `g` (RtlTlbGeometry, tlb_contract.hpp) and what
// `gpumem cosim --contract` prints of it. Macros only.
#pragma once

// clang-format off
#define GPUMEM_TLB_PORTS(CLOCK, IN, OUT)                                                                              \
  CLOCK(clk_i, 1, "1", "clock; everything happens at its rising edge")                                                 \
  IN(rst_ni, 1, "1", "reset, active low: every entry invalid, replacement state reset, operations in flight dropped")  \
  IN(flush_i, 1, "1", "invalidate every entry at this edge, after the operation accepted at the same edge")            \
  IN(req_valid_i, 1, "1", "an operation is offered; held with its payload until taken")                                \
  OUT(req_ready_o, 1, "1", "the operation is taken at this edge (with `req_valid_i`)")                                 \
  IN(req_fill_i, 1, "1", "0: look up `req_va_i`; 1: fill it from `req_pte_i`")                                         \
  IN(req_va_i, g.va_bits, "`address_space.va_bits`", "the virtual address")                                            \
  IN(req_pte_i, 64, "64 (`pte_t`)", "a fill's leaf page table entry, as the walker read it")                           \
  OUT(rsp_valid_o, 1, "1", "a response is offered; held until taken")                                                  \
  IN(rsp_ready_i, 1, "1", "the response is taken at this edge (with `rsp_valid_o`)")                                   \
  OUT(rsp_fill_o, 1, "1", "the response is a fill's")                                                                  \
  OUT(rsp_result_o, 2, "2 (`tlb_result_e`)", "a lookup's result: hit small, hit large, nested, miss")                  \
  OUT(rsp_set_o, index_bits(g.entries / g.ways), "$clog2(entries / ways), at least 1", "the set")                      \
  OUT(rsp_way_o, index_bits(g.ways), "$clog2(ways), at least 1", "the way that hit, or that the fill wrote")           \
  OUT(rsp_pa_o, kPtePfn.width + g.large_bits, "40 + log2(large page)", "a hit's physical address")                     \
  OUT(rsp_evicted_o, 1, "1", "the fill replaced a valid entry (the entry ports show it)")                              \
  OUT(rsp_entry_large_page_o, 1, "1", "the entry that hit, or the victim: a large page")                               \
  OUT(rsp_entry_vpn_o, g.va_bits - g.small_bits, "`va_bits` - log2(small page)", "its VPN, at its own page size")      \
  OUT(rsp_entry_pfn_o, kPtePfn.width, "40 (`PTE_PFN_BITS`)", "its PFN, in small pages")                                \
  OUT(rsp_entry_nested_flag_o, kPteNestedFlag.width, "4", "its nested flag")                                           \
  OUT(rsp_entry_task_type_o, kPteTaskType.width, "4", "its task type")                                                 \
  OUT(rsp_entry_readable_o, 1, "1", "its R bit")                                                                       \
  OUT(rsp_entry_writable_o, 1, "1", "its W bit")
// clang-format on
