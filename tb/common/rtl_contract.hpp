// A block's port contract (docs/cosim.md, "The port contract"): the ports
// any RTL of the block must have, with their widths at a config's geometry,
// and the elaboration parameters gpumem sets when the RTL declares them. The
// RTL gpumem verilates at run time, the project's or a user's, is checked
// against it (rtl_port_check.hpp) before anything is built.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tb/common/rtl_parameter.hpp"

namespace gpumem::tb {

struct RtlContractPort {
  std::string name;
  bool output = false;
  unsigned width = 1;
  std::string width_text;  // how the width follows from the config ("memory.address_bits")
  std::string meaning;
};

struct RtlContract {
  std::string block;       // "translator", "tlb"
  std::string module;      // the project's RTL: its top module
  std::string rtl_file;    // and its file, relative to the source tree
  std::string sc_shell;    // the pin-level shell's class and header (rtl_sc_shell.hpp)
  std::string sc_shell_header;
  std::string ports_header;  // the port table the shell is made from
  std::vector<RtlContractPort> ports;  // inputs first, then outputs, each in the adapter's order
  std::vector<RtlContractParameter> parameters;
  std::string rules;  // Markdown after the tables: what the register port must answer (the translator's by scheme)
  unsigned inputs() const;
  unsigned outputs() const { return static_cast<unsigned>(ports.size()) - inputs(); }
};

// A port table (port_table.hpp) as contract ports, in table order: the
// widths are evaluated where it expands, over that block's geometry `g`.
#define GPUMEM_CONTRACT_INPUT(port, width, width_text, meaning) \
  ::gpumem::tb::RtlContractPort{#port, false, width, width_text, meaning},
#define GPUMEM_CONTRACT_OUTPUT(port, width, width_text, meaning) \
  ::gpumem::tb::RtlContractPort{#port, true, width, width_text, meaning},
#define GPUMEM_CONTRACT_PORTS(TABLE) \
  std::vector<::gpumem::tb::RtlContractPort> { TABLE(GPUMEM_CONTRACT_INPUT, GPUMEM_CONTRACT_INPUT, GPUMEM_CONTRACT_OUTPUT) }

// The contract of a block's table: its inputs, then its outputs, each in
// table order (the adapter's).
RtlContract make_contract(const char* block, const char* module, const char* rtl_file,
                          const std::vector<RtlContractPort>& table);

// The contract as a Markdown table (docs/cosim.md prints the default config's).
std::string contract_markdown(const RtlContract& c);

}  // namespace gpumem::tb
