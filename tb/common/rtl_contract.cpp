#include "tb/common/rtl_contract.hpp"

#include <algorithm>

namespace gpumem::tb {

unsigned RtlContract::inputs() const {
  unsigned n = 0;
  for (const RtlContractPort& p : ports) n += !p.output;
  return n;
}

RtlContract make_contract(const char* block, const char* module, const char* rtl_file,
                          const std::vector<RtlContractPort>& table) {
  RtlContract c{block, module, rtl_file, "", "", "", table, {}, ""};
  std::stable_partition(c.ports.begin(), c.ports.end(), [](const RtlContractPort& p) { return !p.output; });
  return c;
}

std::string contract_markdown(const RtlContract& c) {
  std::string s = "| port | direction | width | at this config | meaning |\n|---|---|---|---|---|\n";
  for (const RtlContractPort& p : c.ports)
    s += "| `" + p.name + "` | " + (p.output ? "output" : "input") + " | " + p.width_text + " | " +
         std::to_string(p.width) + " | " + p.meaning + " |\n";
  s += "\n| parameter (set when the module declares it) | at this config | from |\n|---|---|---|\n";
  for (const RtlContractParameter& p : c.parameters) s += "| `" + p.name + "` | `" + p.value + "` | " + p.from + " |\n";
  if (!c.rules.empty()) s += "\n" + c.rules;
  return s;
}

}  // namespace gpumem::tb
