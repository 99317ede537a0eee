#include "tb/common/rtl_port_check.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <pugixml.hpp>
#include <stdexcept>

namespace gpumem::tb {

namespace {

// The value of a Verilator constant's name: "32'sh3", "1'h0", "5".
long const_value(const char* text) {
  std::string s = text;
  const size_t tick = s.find('\'');
  if (tick == std::string::npos) return std::strtol(s.c_str(), nullptr, 10);
  size_t at = tick + 1;
  if (at < s.size() && s[at] == 's') ++at;
  const char base = at < s.size() ? s[at] : 'd';
  const std::string digits = s.substr(at + 1);
  return std::strtol(digits.c_str(), nullptr, base == 'h' ? 16 : base == 'b' ? 2 : base == 'o' ? 8 : 10);
}

long range_length(const pugi::xml_node& type) {
  const pugi::xml_node range = type.child("range");
  const pugi::xml_node left = range.first_child(), right = left.next_sibling();
  if (!left || !right) return 1;
  const long l = const_value(left.attribute("name").value()), r = const_value(right.attribute("name").value());
  return (l > r ? l - r : r - l) + 1;
}

class TypeTable {
 public:
  explicit TypeTable(const pugi::xml_node& table) {
    for (pugi::xml_node t : table.children()) types_[t.attribute("id").value()] = t;
  }
  // Packed width in bits; 0 for an unpacked array or a type it cannot size.
  unsigned width(const std::string& id, int depth = 0) const {
    const auto it = types_.find(id);
    if (it == types_.end() || depth > 64) return 0;
    const pugi::xml_node t = it->second;
    const std::string kind = t.name();
    if (kind == "basicdtype") {
      const pugi::xml_attribute left = t.attribute("left");
      if (!left) return 1;
      const long l = left.as_int(), r = t.attribute("right").as_int();
      return static_cast<unsigned>((l > r ? l - r : r - l) + 1);
    }
    if (kind == "refdtype" || kind == "enumdtype") return width(t.attribute("sub_dtype_id").value(), depth + 1);
    if (kind == "packarraydtype")
      return static_cast<unsigned>(range_length(t)) * width(t.attribute("sub_dtype_id").value(), depth + 1);
    if (kind == "structdtype" || kind == "uniondtype") {
      unsigned total = 0, widest = 0;
      for (pugi::xml_node m : t.children("memberdtype")) {
        const unsigned w = width(m.attribute("sub_dtype_id").value(), depth + 1);
        if (w == 0) return 0;
        total += w;
        widest = std::max(widest, w);
      }
      return kind == "structdtype" ? total : widest;
    }
    return 0;  // unpackarraydtype and anything else: not a packed vector
  }

 private:
  std::map<std::string, pugi::xml_node> types_;
};

// A contract's Markdown text for a terminal: no backticks.
std::string plain(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return s;
}

}  // namespace

RtlModule read_rtl_module(const std::string& xml_path, const std::string& top) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_file(xml_path.c_str());
  if (!parsed) throw std::runtime_error(xml_path + ": " + parsed.description());
  const pugi::xml_node netlist = doc.child("verilator_xml").child("netlist");
  pugi::xml_node module;
  for (pugi::xml_node m : netlist.children("module"))
    if (std::string(m.attribute("name").value()) == top || std::string(m.attribute("origName").value()) == top) module = m;
  if (!module) throw std::runtime_error(xml_path + ": no module " + top);
  const TypeTable types(netlist.child("typetable"));
  RtlModule out{top, {}, {}};
  for (pugi::xml_node v : module.children("var")) {
    if (v.attribute("param").as_bool()) out.parameters.push_back(v.attribute("origName").value());
    const pugi::xml_attribute dir = v.attribute("dir");
    if (!dir) continue;
    out.ports.push_back({v.attribute("origName").value(), dir.value(), types.width(v.attribute("dtype_id").value())});
  }
  return out;
}

std::vector<std::string> check_ports(const RtlContract& contract, const RtlModule& module) {
  std::vector<std::string> errors;
  std::map<std::string, const RtlModulePort*> ports;
  for (const RtlModulePort& p : module.ports) ports[p.name] = &p;
  for (const RtlContractPort& c : contract.ports) {
    const std::string want = c.output ? "output" : "input";
    const std::string what = want + ", " + std::to_string(c.width) + (c.width == 1 ? " bit" : " bits");
    const auto it = ports.find(c.name);
    if (it == ports.end()) {
      errors.push_back("port " + c.name + ": missing (the contract: " + what + ", " + plain(c.meaning) + ")");
      continue;
    }
    const RtlModulePort& p = *it->second;
    if (p.direction != want)
      errors.push_back("port " + c.name + ": an " + p.direction + ", the contract says " + want);
    else if (p.width == 0)
      errors.push_back("port " + c.name + ": an unpacked array, the contract says " + what);
    else if (p.width != c.width)
      errors.push_back("port " + c.name + ": " + std::to_string(p.width) + " bits, the contract says " +
                       std::to_string(c.width) + " (" + plain(c.width_text) + ")");
    ports.erase(it);
  }
  for (const auto& [name, p] : ports)
    if (p->direction != "output")
      errors.push_back("port " + name + ": an " + p->direction + " the contract does not have (nothing would drive it)");
  return errors;
}

std::vector<std::string> table_differences(const std::vector<RtlContractPort>& table, const RtlModule& module) {
  std::vector<std::string> errors;
  std::map<std::string, const RtlModulePort*> ports;
  for (const RtlModulePort& p : module.ports) ports[p.name] = &p;
  std::map<std::string, const RtlContractPort*> rows;
  for (const RtlContractPort& r : table) rows[r.name] = &r;
  auto what = [](const std::string& direction, unsigned width) {
    return direction + ", " + std::to_string(width) + (width == 1 ? " bit" : " bits");
  };
  for (const RtlContractPort& r : table) {
    const std::string row = what(r.output ? "output" : "input", r.width);
    const auto it = ports.find(r.name);
    if (it == ports.end()) errors.push_back("port " + r.name + ": in the table (" + row + "), not in " + module.name);
    else if (what(it->second->direction, it->second->width) != row)
      errors.push_back("port " + r.name + ": the table says " + row + ", " + module.name + " has " +
                       what(it->second->direction, it->second->width));
  }
  for (const RtlModulePort& p : module.ports)
    if (!rows.count(p.name))
      errors.push_back("port " + p.name + ": in " + module.name + " (" + what(p.direction, p.width) + "), not in the table");
  if (!errors.empty()) return errors;
  std::string table_order, module_order;
  for (const RtlContractPort& r : table) table_order += " " + r.name;
  for (const RtlModulePort& p : module.ports) module_order += " " + p.name;
  if (table_order != module_order)
    errors.push_back("port order: the table's is" + table_order + "; " + module.name + "'s is" + module_order);
  return errors;
}

}  // namespace gpumem::tb
