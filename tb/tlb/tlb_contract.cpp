#include "tb/tlb/tlb_contract.hpp"

#include <map>

#include "mmu/pte.hpp"

namespace gpumem::tb {

namespace {
unsigned index_bits(unsigned n) {  // $clog2(n), at least 1, as the RTL's SetBits and WayBits
  unsigned b = 0;
  while ((1u << b) < n) ++b;
  return b ? b : 1;
}
}  // namespace

RtlContract tlb_contract(const Config& cfg) {
  const PageGeometry geo = cfg.mmu.geometry();
  const unsigned va_bits = cfg.address_space.va_bits;
  const unsigned sets = cfg.mmu.tlb_entries / cfg.mmu.tlb_ways;
  const std::map<std::string, RtlPortRow> rows{
      {"clk_i", {1, "1", "clock; everything happens at its rising edge"}},
      {"rst_ni", {1, "1", "reset, active low: every entry invalid, replacement state reset, operations in flight dropped"}},
      {"flush_i", {1, "1", "invalidate every entry at this edge, after the operation accepted at the same edge"}},
      {"req_valid_i", {1, "1", "an operation is offered; held with its payload until taken"}},
      {"req_ready_o", {1, "1", "the operation is taken at this edge (with `req_valid_i`)"}},
      {"req_fill_i", {1, "1", "0: look up `req_va_i`; 1: fill it from `req_pte_i`"}},
      {"req_va_i", {va_bits, "`address_space.va_bits`", "the virtual address"}},
      {"req_pte_i", {64, "64 (`pte_t`)", "a fill's leaf page table entry, as the walker read it"}},
      {"rsp_valid_o", {1, "1", "a response is offered; held until taken"}},
      {"rsp_ready_i", {1, "1", "the response is taken at this edge (with `rsp_valid_o`)"}},
      {"rsp_fill_o", {1, "1", "the response is a fill's"}},
      {"rsp_result_o", {2, "2 (`tlb_result_e`)", "a lookup's result: hit small, hit large, nested, miss"}},
      {"rsp_set_o", {index_bits(sets), "$clog2(entries / ways), at least 1", "the set"}},
      {"rsp_way_o", {index_bits(cfg.mmu.tlb_ways), "$clog2(ways), at least 1", "the way that hit, or that the fill wrote"}},
      {"rsp_pa_o", {kPtePfn.width + geo.large_bits, "40 + log2(large page)", "a hit's physical address"}},
      {"rsp_evicted_o", {1, "1", "the fill replaced a valid entry (the entry ports show it)"}},
      {"rsp_entry_large_page_o", {1, "1", "the entry that hit, or the victim: a large page"}},
      {"rsp_entry_vpn_o", {va_bits - geo.small_bits, "`va_bits` - log2(small page)", "its VPN, at its own page size"}},
      {"rsp_entry_pfn_o", {kPtePfn.width, "40 (`PTE_PFN_BITS`)", "its PFN, in small pages"}},
      {"rsp_entry_nested_flag_o", {kPteNestedFlag.width, "4", "its nested flag"}},
      {"rsp_entry_task_type_o", {kPteTaskType.width, "4", "its task type"}},
      {"rsp_entry_readable_o", {1, "1", "its R bit"}},
      {"rsp_entry_writable_o", {1, "1", "its W bit"}},
  };
  RtlContract c = make_contract("tlb", "gpumem_nested_tlb", "rtl/gpumem_nested_tlb.sv", {GPUMEM_TLB_INPUTS(GPUMEM_PORT_NAME)},
                                {GPUMEM_TLB_OUTPUTS(GPUMEM_PORT_NAME)}, rows);
  c.sc_shell = "gpumem::tb::TlbScShell";
  c.sc_shell_header = "tb/tlb/tlb_sc_shell.hpp";
  c.parameters = {
      {"VA_BITS", std::to_string(va_bits), "`address_space.va_bits`"},
      {"SMALL_BITS", std::to_string(geo.small_bits), "log2 of `mmu.page_sizes[0]`"},
      {"LARGE_BITS", std::to_string(geo.large_bits), "log2 of `mmu.page_sizes[1]`"},
      {"ENTRIES", std::to_string(cfg.mmu.tlb_entries), "`mmu.tlb.entries`"},
      {"WAYS", std::to_string(cfg.mmu.tlb_ways), "`mmu.tlb.ways`"},
      {"PLRU", cfg.mmu.replacement == Replacement::kPlru ? "1" : "0", "`mmu.tlb.replacement` (1: plru, 0: lru)"},
      {"NESTED_TAIL", geo.placement == NestedPlacement::kTail ? "1" : "0", "`mmu.nested_placement` (1: tail, 0: head)"},
  };
  return c;
}

}  // namespace gpumem::tb
