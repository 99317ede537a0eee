#include "tb/translator/translator_contract.hpp"

#include <map>

#include "mmu/pte.hpp"

namespace gpumem::tb {

RtlContract translator_contract(const Config& cfg) {
  const unsigned address_bits = cfg.memory.address_bits;
  const auto& t = cfg.translator;
  const unsigned m = static_cast<unsigned>(t.channel_bits.size());
  const std::map<std::string, RtlPortRow> rows{
      {"clk_i", {1, "1", "clock; everything happens at its rising edge"}},
      {"rst_ni", {1, "1", "reset, active low: registers to their reset values, requests in flight dropped"}},
      {"reg_we_i", {1, "1", "a 32-bit register write this cycle"}},
      {"reg_addr_i", {register_address_bits(), "`REG_ADDR_BITS` (gpumem_pkg)", "its byte offset in the register map"}},
      {"reg_wdata_i", {32, "32", "its value"}},
      {"reg_error_o", {1, "1", "with `reg_we_i`, in the same cycle: the write is refused (and changes nothing)"}},
      {"req_valid_i", {1, "1", "a request is offered; held with its payload until taken"}},
      {"req_ready_o", {1, "1", "the request is taken at this edge (with `req_valid_i`)"}},
      {"req_addr_i", {address_bits, "`memory.address_bits`", "the physical address to map"}},
      {"req_task_type_i", {kPteTaskType.width, "4 (`PTE_TASK_TYPE_BITS`)", "its task type: selects TASK_SCHEME[t] and XOR_VECTOR[t]"}},
      {"rsp_valid_o", {1, "1", "a response is offered; held until taken"}},
      {"rsp_ready_i", {1, "1", "the response is taken at this edge (with `rsp_valid_o`)"}},
      {"rsp_mapped_o", {address_bits, "`memory.address_bits`", "the mapped address"}},
      {"rsp_channel_o", {m, "number of `translator.channel_bits`", "its channel: bit j is mapped address bit c_j"}},
      {"rsp_scheme_o", {2, "2 (`scheme_e`)", "the scheme that mapped it: none, xor or prime"}},
  };
  RtlContract c = make_contract("translator", "gpumem_xor_translator", "rtl/gpumem_xor_translator.sv", {GPUMEM_TRANSLATOR_INPUTS(GPUMEM_PORT_NAME)},
                                {GPUMEM_TRANSLATOR_OUTPUTS(GPUMEM_PORT_NAME)}, rows);
  c.sc_shell = "gpumem::tb::TranslatorScShell";
  c.sc_shell_header = "tb/translator/translator_sc_shell.hpp";
  c.parameters = {
      {"ADDRESS_BITS", std::to_string(address_bits), "`memory.address_bits`"},
      {"CHANNEL_BIT_COUNT", std::to_string(m), "number of `translator.channel_bits`"},
      {"CANDIDATE_BIT_COUNT", std::to_string(t.candidate_bits.size()), "number of `translator.candidate_bits`"},
      {"CHANNEL_BITS", packed_positions(t.channel_bits), "`translator.channel_bits`, 8 bits each, c_0 lowest"},
      {"CANDIDATE_BITS", packed_positions(t.candidate_bits), "`translator.candidate_bits`, 8 bits each, p_0 lowest"},
      {"PRIME", std::to_string(t.prime), "`translator.prime` (0: none)"},
  };
  return c;
}

std::string translator_unchecked(const Config& cfg) {
  std::string tasks, schemes;
  unsigned n = 0;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    if (cfg.scheme_of(t) != Scheme::kMatrix) continue;
    const TaskMapping* m = cfg.task_mapping(t);
    const std::string name = m && !m->baseline.empty() ? m->baseline : "matrix";
    tasks += (n ? ", " : "") + std::to_string(t);
    schemes += (n ? ", " : "") + name;
    ++n;
  }
  if (n == 0) return "";
  return std::string(n == 1 ? "task type " : "task types ") + tasks + ": not checked, scheme" + (n == 1 ? " " : "s ") + schemes;
}

}  // namespace gpumem::tb
