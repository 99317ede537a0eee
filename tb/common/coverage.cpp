#include "tb/common/coverage.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace gpumem::tb {

std::vector<std::string> unhit_bins(const std::vector<const CoverageGroup*>& groups) {
  std::vector<std::string> unhit;
  for (const CoverageGroup* g : groups)
    for (size_t b = 0; b < g->size(); ++b)
      if (!(*g)[b]) unhit.push_back(g->name() + ":" + g->bin_name(b));
  return unhit;
}

std::string wrapped(const std::string& head, const std::vector<std::string>& pieces, size_t width, size_t indent) {
  std::string text = head;
  size_t line = head.size();
  for (const std::string& p : pieces) {
    if (line > indent && line + p.size() > width) {
      text += "\n" + std::string(indent, ' ');
      line = indent;
    }
    text += p;
    line += p.size();
  }
  return text;
}

void print_coverage(std::ostream& out, const std::vector<const CoverageGroup*>& groups, size_t width,
                    const std::string& listed_in) {
  const std::string head = "coverage     ";
  for (const CoverageGroup* g : groups) {
    if (g->size() > kCoverageBinsPrinted) {  // a port's bits, a frame number's: how many, the unhit named below
      size_t hit = 0;
      for (size_t b = 0; b < g->size(); ++b) hit += (*g)[b] != 0;
      out << head << g->name() << ": " << hit << " of " << g->size() << " bins hit\n";
      continue;
    }
    std::vector<std::string> bins;
    for (size_t b = 0; b < g->size(); ++b) bins.push_back(" " + g->bin_name(b) + " " + std::to_string((*g)[b]));
    out << wrapped(head + g->name() + ":", bins, width, head.size() + 2) << "\n";
  }
  out << "unhit bins  ";
  const auto unhit = unhit_bins(groups);
  if (unhit.empty()) out << " none";
  size_t line = 12, listed = 0;
  for (; listed < unhit.size(); ++listed) {
    // Room for this bin, and for the count of the rest unless it is the last.
    const size_t rest = unhit.size() - listed - 1;
    const size_t tail = rest ? std::string(" ... and 1000000 more unhit bins ()").size() + listed_in.size() : 0;
    if (width != std::string::npos && line + 1 + unhit[listed].size() + tail > width) break;
    out << " " << unhit[listed];
    line += 1 + unhit[listed].size();
  }
  if (listed < unhit.size())
    out << " ... and " << unhit.size() - listed << " more unhit bins (" << listed_in << ")";
  out << "\n";
}

std::string coverage_json_text(const std::vector<const CoverageGroup*>& groups) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const CoverageGroup* g : groups) {
    nlohmann::ordered_json bins = nlohmann::ordered_json::array();
    for (size_t b = 0; b < g->size(); ++b) bins.push_back({g->bin_name(b), (*g)[b]});
    j.push_back({{"group", g->name()}, {"bins", bins}});
  }
  return j.dump();
}

std::string add_coverage_json(const std::string& json_text, std::vector<CoverageGroup>& into) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_array()) return "not a coverage array";
  for (const auto& g : j) {
    if (!g.is_object() || !g.contains("group") || !g.contains("bins") || !g["bins"].is_array()) return "a group without name or bins";
    const std::string name = g["group"].get<std::string>();
    std::vector<std::string> names;
    for (const auto& b : g["bins"]) {
      if (!b.is_array() || b.size() != 2 || !b[0].is_string() || !b[1].is_number_unsigned()) return "a bin of group " + name;
      names.push_back(b[0].get<std::string>());
    }
    auto it = std::find_if(into.begin(), into.end(), [&](const CoverageGroup& c) { return c.name() == name; });
    if (it == into.end()) {
      into.emplace_back(name, names);
      it = into.end() - 1;
    }
    for (size_t k = 0; k < names.size(); ++k) {
      size_t bin = 0;
      while (bin < it->size() && it->bin_name(bin) != names[k]) ++bin;
      if (bin == it->size()) return "group " + name + " has another bin, " + names[k] + ", in another run";
      it->hit(bin, g["bins"][k][1].get<uint64_t>());
    }
  }
  return "";
}

}  // namespace gpumem::tb
