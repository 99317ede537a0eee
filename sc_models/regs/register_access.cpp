#include "regs/register_access.hpp"

#include <cstdio>
#include <istream>
#include <ostream>
#include <vector>

#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "base/nearest_name.hpp"
#include "base/text.hpp"

namespace gpumem {

RegisterAccess parse_register_access(const std::string& text, const std::string& file, int line) {
  RegisterAccess a;
  a.text = trim(text);
  a.file = file;
  a.line = line;
  auto fail = [&](const std::string& why) { throw InputError(file, line, a.text, why); };

  const size_t eq = a.text.find('=');
  const std::string name = trim(a.text.substr(0, eq));
  if (eq != std::string::npos) {
    a.write = true;
    const std::string value = trim(a.text.substr(eq + 1));
    uint64_t v = 0;
    const NumberParse p = parse_unsigned(value, v);
    if (p == NumberParse::kNotANumber) fail("value '" + value + "' is not a number (decimal or 0x hexadecimal)");
    if (p == NumberParse::kOutOfRange || v > 0xFFFFFFFFu) fail("value " + value + " does not fit in a 32-bit register");
    a.value = static_cast<uint32_t>(v);
  }
  if (name.empty()) fail("missing register name: NAME reads, NAME=VALUE writes");

  if (name[0] >= '0' && name[0] <= '9') {  // a byte offset
    const NumberParse p = parse_unsigned(name, a.offset);
    if (p != NumberParse::kOk) fail("'" + name + "' is neither a register name nor an offset");
    return a;
  }

  const std::string row = name.substr(0, name.find('['));
  const RegisterDef* def = nullptr;
  for (const RegisterDef& r : register_map())
    if (row == r.name) def = &r;
  if (!def) {
    std::vector<std::string> names;
    for (const RegisterDef& r : register_map()) names.push_back(r.name);
    fail("no register named " + row + " (gpumem regmap lists them)" + did_you_mean(row, names));
  }

  std::vector<uint64_t> index;
  for (size_t at = row.size(); at < name.size();) {
    const size_t close = name.find(']', at);
    if (name[at] != '[' || close == std::string::npos) fail("expected " + row + "[index], got '" + name + "'");
    uint64_t i = 0;
    const std::string digits = name.substr(at + 1, close - at - 1);
    if (parse_unsigned(digits, i) != NumberParse::kOk) fail("index '" + digits + "' is not a number");
    index.push_back(i);
    at = close + 1;
  }
  const unsigned wanted = (def->dim0 > 1) + (def->dim1 > 1);
  if (index.size() != wanted)
    fail(row + (wanted == 0 ? " takes no index" : wanted == 1 ? " takes one index [" + std::string(def->index_names) + "]"
                                                              : " takes two indices [" + std::string(def->index_names) + "]"));
  const uint64_t i = def->dim0 > 1 ? index[0] : 0, j = def->dim1 > 1 ? index.back() : 0;
  if (i >= def->dim0) fail("index " + std::to_string(i) + " out of range (0 to " + std::to_string(def->dim0 - 1) + ")");
  if (j >= def->dim1) fail("index " + std::to_string(j) + " out of range (0 to " + std::to_string(def->dim1 - 1) + ")");
  a.offset = def->base + (i * def->dim1 + j) * 4;
  return a;
}

std::vector<RegisterAccess> read_register_script(std::istream& in, const std::string& file) {
  std::vector<RegisterAccess> out;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    const std::string content = trim(line.substr(0, line.find('#')));
    if (!content.empty()) out.push_back(parse_register_access(content, file, n));
  }
  return out;
}

std::string register_element_name(uint64_t offset) {
  const RegisterDef* def = register_at(offset);
  if (!def || offset % 4) return "";
  const uint64_t k = (offset - def->base) / 4;
  std::string s = def->name;
  if (def->dim0 > 1) s += "[" + std::to_string(k / def->dim1) + "]";
  if (def->dim1 > 1) s += "[" + std::to_string(k % def->dim1) + "]";
  return s;
}

void perform_register_access(RegisterBank& bank, const RegisterAccess& a, std::ostream& out) {
  uint32_t read_back = 0;
  const RegStatus s = a.write ? bank.write(a.offset, 4, a.value) : bank.read(a.offset, 4, read_back);
  if (s != RegStatus::kOk) {
    std::string why = std::string("refused: ") + reg_status_name(s);
    if (s == RegStatus::kUnmapped) {
      const std::string element = register_element_name(a.offset);
      why += element.empty() ? " (" + hex_upper(a.offset, 4) + " is in no register)"
                             : " (" + element + " does not exist in this configuration)";
    }
    const RegisterDef* def = register_at(a.offset);
    if (s == RegStatus::kBadValue && def && def->base == kRegTaskScheme && a.value == static_cast<uint32_t>(Scheme::kMatrix)) {
      const std::string problem = bank.staged_matrix_problem(static_cast<unsigned>((a.offset - def->base) / 4));
      if (!problem.empty()) why += " (the staged MATRIX_ROW rows: " + problem + ")";
    }
    throw InputError(a.file, a.line, a.text, why + "; docs/register-map.md, \"Access rules\"");
  }
  char line[160];
  const std::string name = register_element_name(a.offset);
  if (a.write) {
    bank.read(a.offset, 4, read_back);
    std::snprintf(line, sizeof line, "write  %-22s %s  %s", name.c_str(), hex_upper(a.offset, 4).c_str(), hex_upper(a.value, 8).c_str());
    out << line;
    if (read_back != a.value) out << "  (reads back " << hex_upper(read_back, 8) << ")";
  } else {
    std::snprintf(line, sizeof line, "read   %-22s %s  %s", name.c_str(), hex_upper(a.offset, 4).c_str(), hex_upper(read_back, 8).c_str());
    out << line;
  }
  out << "\n";
}

}  // namespace gpumem
