// A module's ports as Verilator elaborates them (verilator --xml-only), and
// their check against a block's port contract: one message per port that
// is missing, of another width or direction, or an input the contract does
// not have. Extra outputs are allowed (debug signals; nothing reads them).
#pragma once
#include <string>
#include <vector>

#include "tb/common/rtl_contract.hpp"

namespace gpumem::tb {

struct RtlModulePort {
  std::string name;
  std::string direction;  // "input", "output", "inout"
  unsigned width = 0;     // bits; 0: an unpacked array (no contract port is one)
};

struct RtlModule {
  std::string name;
  std::vector<RtlModulePort> ports;
  std::vector<std::string> parameters;  // every parameter it declares (not localparams)
};

// Reads the top module `top` from the XML file Verilator wrote; throws
// std::runtime_error when the file does not hold it.
RtlModule read_rtl_module(const std::string& xml_path, const std::string& top);

// Empty when `module` has every contract port at its width and direction.
std::vector<std::string> check_ports(const RtlContract& contract, const RtlModule& module);

// Empty when `module`'s ports are a block's port table exactly (port_table.hpp:
// the rows of a contract in table order): the same ports, directions and
// widths, in the same order, and none besides. The project's RTL is held to
// this; check_ports is what any RTL of the block must meet.
std::vector<std::string> table_differences(const std::vector<RtlContractPort>& table, const RtlModule& module);

}  // namespace gpumem::tb
