#include "tb/common/rtl_contract.hpp"

#include <cstdio>
#include <stdexcept>

namespace gpumem::tb {

unsigned RtlContract::inputs() const {
  unsigned n = 0;
  for (const RtlContractPort& p : ports) n += !p.output;
  return n;
}

RtlContract make_contract(const char* block, const char* module, const char* rtl_file,
                          const std::vector<const char*>& inputs, const std::vector<const char*>& outputs,
                          const std::map<std::string, RtlPortRow>& rows) {
  RtlContract c{block, module, rtl_file, "", "", {}, {}};
  for (const auto* list : {&inputs, &outputs}) {
    for (const char* name : *list) {
      const auto it = rows.find(name);
      if (it == rows.end()) throw std::logic_error(std::string(block) + " contract: no row for port " + name);
      c.ports.push_back({name, list == &outputs, it->second.width, it->second.width_text, it->second.meaning});
    }
  }
  if (c.ports.size() != rows.size()) throw std::logic_error(std::string(block) + " contract: a row for a port it does not have");
  return c;
}

std::string packed_positions(const std::vector<unsigned>& positions) {
  std::string hex;
  for (unsigned p : positions) {
    char byte[3];
    std::snprintf(byte, sizeof byte, "%02X", p & 0xFF);
    hex = byte + hex;
  }
  return std::to_string(8 * positions.size()) + "'h" + hex;
}

std::string contract_markdown(const RtlContract& c) {
  std::string s = "| port | direction | width | at this config | meaning |\n|---|---|---|---|---|\n";
  for (const RtlContractPort& p : c.ports)
    s += "| `" + p.name + "` | " + (p.output ? "output" : "input") + " | " + p.width_text + " | " +
         std::to_string(p.width) + " | " + p.meaning + " |\n";
  s += "\n| parameter (set when the module declares it) | at this config | from |\n|---|---|---|\n";
  for (const RtlContractParameter& p : c.parameters) s += "| `" + p.name + "` | `" + p.value + "` | " + p.from + " |\n";
  return s;
}

}  // namespace gpumem::tb
