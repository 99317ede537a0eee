// Does a GTKWave layout (a saved one in waves/, or the one a failure's view
// was made with) name only signals the waves hold? An RTL port renamed or
// retyped (a packed struct traced field by field) would otherwise leave the
// layout showing empty rows. Reads the FST's hierarchy with the fstapi every
// Verilated library carries, apart from gpumem's own reading of it
// (tb/common/wave_layout.cpp), so that the check does not share its faults.
#pragma once
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "gtkwave/fstapi.h"

namespace gpumem::test {

// Every variable of the FST as GTKWave writes it into a layout:
// "scope.scope.name", a vector with its range ("tlb.req_va_i[39:0]").
inline std::set<std::string> fst_signal_names(const std::string& path) {
  std::set<std::string> names;
  void* ctx = fstReaderOpen(path.c_str());
  if (!ctx) return names;
  std::vector<std::string> scope;
  while (fstHier* h = fstReaderIterateHier(ctx)) {
    if (h->htyp == FST_HT_SCOPE) {
      scope.emplace_back(h->u.scope.name);
    } else if (h->htyp == FST_HT_UPSCOPE) {
      if (!scope.empty()) scope.pop_back();
    } else if (h->htyp == FST_HT_VAR) {
      std::string name;
      for (const auto& s : scope) name += s + ".";
      std::string var = h->u.var.name;
      if (const auto space = var.find(' '); space != std::string::npos) var.erase(space, 1);  // "x [3:0]"
      names.insert(name + var);
    }
  }
  fstReaderClose(ctx);
  return names;
}

// The signal rows of a layout that the waves do not hold (empty: all found).
inline std::vector<std::string> layout_signals_missing(const std::string& gtkw, const std::set<std::string>& signals) {
  std::vector<std::string> missing;
  std::ifstream in(gtkw);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '[' || line[0] == '@' || line[0] == '-' || line[0] == '*') continue;
    if (!signals.count(line)) missing.push_back(line);
  }
  return missing;
}

// For a test: "" when every signal row of the layout at `gtkw` is in the
// FST at `fst`, else the rows that are not (and a few of the names that are).
inline std::string layout_file_check(const std::string& gtkw, const std::string& fst) {
  const std::set<std::string> signals = fst_signal_names(fst);
  if (signals.empty()) return "no signals read from " + fst;
  const auto missing = layout_signals_missing(gtkw, signals);
  if (missing.empty()) return "";
  std::string s = gtkw + " names signals the waves do not hold:\n";
  for (const auto& m : missing) {
    s += "  " + m + "\n";
    const std::string stem = m.substr(0, m.find('['));
    for (const auto& name : signals)
      if (name.compare(0, stem.size(), stem) == 0) s += "      the waves have " + name + "\n";
  }
  return s;
}

// The same for the saved layout waves/<layout>.
inline std::string layout_check(const std::string& layout, const std::string& fst) {
  return layout_file_check(std::string(GPUMEM_SOURCE_DIR) + "/waves/" + layout, fst);
}

}  // namespace gpumem::test
