#include "tb/common/wave_layout.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "gtkwave/fstapi.h"

namespace gpumem::tb {

namespace {

// Verilator's name for the block of a for loop: its loop variable, nothing
// of the design.
bool loop_scope(const std::string& scope) {
  const size_t last = scope.rfind('.');
  return scope.compare(last == std::string::npos ? 0 : last + 1, 10, "unnamedblk") == 0;
}
bool inside_loop_scope(const std::string& scope) {
  for (size_t from = 0;;) {
    const size_t dot = scope.find('.', from);
    if (loop_scope(scope.substr(0, dot))) return true;
    if (dot == std::string::npos) return false;
    from = dot + 1;
  }
}

bool in_scope(const std::string& scope, const std::string& outer) {
  return scope == outer || (scope.size() > outer.size() && scope.compare(0, outer.size(), outer) == 0 &&
                            scope[outer.size()] == '.');
}

// A signal of `port` under the top scope: the port itself, or a field of a
// struct port (traced as a scope of its own).
bool of_port(const FstSignal& s, const std::string& top, const std::string& port) {
  return (s.scope == top && s.name == port) || in_scope(s.scope, top + "." + port);
}

// The contract port a signal is (or is a field of), or null.
const std::string* contract_port(const FstSignal& s, const std::string& top, const std::vector<std::string>& ports) {
  for (const std::string& p : ports)
    if (of_port(s, top, p)) return &p;
  return nullptr;
}

// The top module's own copy of a contract port (Verilator traces the ports
// at the top scope and again inside the module).
bool port_copy(const FstSignal& s, const std::string& top, const std::set<std::string>& ports) {
  if (!in_scope(s.scope, top) || s.scope == top) return false;
  const size_t module_end = s.scope.find('.', top.size() + 1);
  const std::string module = s.scope.substr(0, module_end);
  if (s.scope == module) return s.port || ports.count(s.name);
  const size_t field_end = s.scope.find('.', module.size() + 1);
  return ports.count(s.scope.substr(module.size() + 1, field_end - module.size() - 1)) != 0;
}

// A layout's rows: signals, each under the display flag GTKWave wants
// (binary for a bit, hex for a vector), and the comment rows that head
// their sections.
class Rows {
 public:
  void comment(const std::string& text) {
    text_ += "@200\n-" + text + "\n";
    flag_.clear();
  }
  void signal(const FstSignal& s) {
    const std::string flag = s.width == 1 ? "@28" : "@22";
    if (flag != flag_) text_ += flag + "\n";
    flag_ = flag;
    text_ += s.layout_name() + "\n";
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::string flag_;
};

// A saved row's name without its bit range ("tlb.req_va_i[39:0]" ->
// "tlb.req_va_i"); an unpacked index ("entries_q[3]") stays.
std::string without_range(const std::string& row) {
  if (row.empty() || row.back() != ']') return row;
  const size_t open = row.rfind('[');
  if (open == std::string::npos || row.find(':', open) == std::string::npos) return row;
  return row.substr(0, open);
}

bool signal_row(const std::string& line) {
  return !line.empty() && line[0] != '[' && line[0] != '@' && line[0] != '-' && line[0] != '*';
}

}  // namespace

std::vector<FstSignal> fst_signals(const std::string& path) {
  std::vector<FstSignal> out;
  void* ctx = fstReaderOpen(path.c_str());
  if (!ctx) return out;
  std::vector<std::string> scope;
  std::string joined;
  while (const fstHier* h = fstReaderIterateHier(ctx)) {
    if (h->htyp == FST_HT_SCOPE) {
      scope.emplace_back(h->u.scope.name);
      joined += (joined.empty() ? "" : ".") + scope.back();
    } else if (h->htyp == FST_HT_UPSCOPE && !scope.empty()) {
      joined.resize(joined.size() - scope.back().size() - (scope.size() > 1 ? 1 : 0));
      scope.pop_back();
    } else if (h->htyp == FST_HT_VAR) {
      FstSignal s;
      s.scope = joined;
      s.name = h->u.var.name;
      if (const size_t space = s.name.rfind(' '); space != std::string::npos && s.name[space + 1] == '[') {
        s.range = s.name.substr(space + 1);
        s.name.erase(space);
      }
      s.width = h->u.var.length;
      s.parameter = h->u.var.typ == FST_VT_VCD_PARAMETER || h->u.var.typ == FST_VT_VCD_REAL_PARAMETER;
      s.port = h->u.var.direction != FST_VD_IMPLICIT;
      out.push_back(std::move(s));
    }
  }
  fstReaderClose(ctx);
  return out;
}

WaveLayout saved_wave_layout(const std::string& saved_path, const std::string& top,
                             const std::vector<std::string>& ports, const std::vector<FstSignal>& signals) {
  WaveLayout layout;
  std::ifstream in(saved_path);
  if (!in) return layout;
  std::map<std::string, const FstSignal*> by_name;
  for (const FstSignal& s : signals) by_name.emplace(s.scope + "." + s.name, &s);
  std::vector<std::string> lines;
  std::vector<const FstSignal*> found;  // per line: its signal, null for any other row
  std::set<const std::string*> ports_shown;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[timestart]", 0) == 0 || line.rfind("[dumpfile]", 0) == 0) continue;
    const FstSignal* s = nullptr;
    if (signal_row(line)) {
      const auto it = by_name.find(without_range(line));
      if (it == by_name.end()) {
        ++layout.dropped;
        continue;
      }
      s = it->second;
    }
    lines.push_back(line);
    found.push_back(s);
  }
  // A section whose rows are all gone goes too: its comment row, and the
  // flag row before it.
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty() || lines[i][0] != '-') {
      if (found[i]) {
        const FstSignal& s = *found[i];
        layout.text += s.layout_name() + "\n";
        if (const std::string* port = contract_port(s, top, ports)) ports_shown.insert(port);
        else ++layout.others;
      } else {
        layout.text += lines[i] + "\n";
      }
      continue;
    }
    size_t next = i + 1;
    bool rows = false;
    for (; next < lines.size() && (lines[next].empty() || lines[next][0] != '-'); ++next)
      rows |= found[next] != nullptr;
    if (rows) {
      layout.text += lines[i] + "\n";
    } else if (layout.text.size() >= 5 && layout.text.compare(layout.text.size() - 5, 5, "@200\n") == 0) {
      layout.text.resize(layout.text.size() - 5);
    }
  }
  layout.ports = ports_shown.size();
  return layout;
}

WaveLayout generated_wave_layout(const std::string& top, const std::vector<std::string>& ports,
                                 const std::vector<FstSignal>& signals) {
  WaveLayout layout;
  Rows rows;
  rows.comment("the port contract's ports");
  std::vector<bool> listed(signals.size(), false);
  for (const std::string& port : ports) {
    bool shown = false;
    for (size_t i = 0; i < signals.size(); ++i)
      if (!listed[i] && of_port(signals[i], top, port)) {
        rows.signal(signals[i]);
        listed[i] = shown = true;
      }
    layout.ports += shown;
  }
  const std::set<std::string> port_set(ports.begin(), ports.end());
  bool others = false;
  for (size_t i = 0; i < signals.size(); ++i) {
    const FstSignal& s = signals[i];
    if (listed[i] || s.scope != top || s.parameter) continue;
    if (!others) rows.comment("ports beyond the contract");
    others = true;
    rows.signal(s);
    listed[i] = true;
    ++layout.others;
  }
  // The design's signals scope by scope, a scope's own before those of the
  // scopes inside it (the FST interleaves them: a struct is a scope).
  std::vector<std::string> scopes;
  std::map<std::string, std::vector<size_t>> in;
  for (size_t i = 0; i < signals.size(); ++i) {
    const FstSignal& s = signals[i];
    if (listed[i] || !in_scope(s.scope, top) || s.scope == top || s.parameter || inside_loop_scope(s.scope) ||
        port_copy(s, top, port_set))
      continue;
    if (!in.count(s.scope)) scopes.push_back(s.scope);
    in[s.scope].push_back(i);
  }
  std::vector<std::string> order;
  std::set<std::string> placed;
  for (const std::string& scope : scopes)
    for (size_t dot = top.size() + 1; dot != std::string::npos;) {
      dot = scope.find('.', dot + 1);
      const std::string outer = scope.substr(0, dot);
      if (in.count(outer) && placed.insert(outer).second) order.push_back(outer);
    }
  size_t design = 0;
  for (const std::string& scope : order) {
    const std::vector<size_t>& own = in[scope];
    const size_t shown = std::min(own.size(), kMaxLayoutSignals - design);
    layout.unlisted += own.size() - shown;
    if (!shown) continue;
    rows.comment(scope.substr(top.size() + 1));
    for (size_t k = 0; k < shown; ++k) rows.signal(signals[own[k]]);
    design += shown;
  }
  layout.others += design;
  if (layout.unlisted)
    rows.comment(std::to_string(layout.unlisted) + " more signals of the design: in the signal tree");
  layout.text = "[*] Made by gpumem cosim from the signals these waves hold: the port contract's\n"
                "[*] ports in its order, then the design's own signals, scope by scope.\n" +
                rows.text();
  return layout;
}

}  // namespace gpumem::tb
