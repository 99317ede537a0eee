#include "tb/common/coverage.hpp"

namespace gpumem::tb {

std::vector<std::string> unhit_bins(const std::vector<const CoverageGroup*>& groups) {
  std::vector<std::string> unhit;
  for (const CoverageGroup* g : groups)
    for (size_t b = 0; b < g->size(); ++b)
      if (!(*g)[b]) unhit.push_back(g->name() + ":" + g->bin_name(b));
  return unhit;
}

void print_coverage(std::ostream& out, const std::vector<const CoverageGroup*>& groups) {
  for (const CoverageGroup* g : groups) {
    out << "coverage     " << g->name() << ":";
    if (g->size() > kCoverageBinsPrinted) {  // a port's bits, a frame number's: how many, the unhit named below
      size_t hit = 0;
      for (size_t b = 0; b < g->size(); ++b) hit += (*g)[b] != 0;
      out << " " << hit << " of " << g->size() << " bins hit\n";
      continue;
    }
    for (size_t b = 0; b < g->size(); ++b) out << " " << g->bin_name(b) << " " << (*g)[b];
    out << "\n";
  }
  out << "unhit bins  ";
  const auto unhit = unhit_bins(groups);
  if (unhit.empty()) out << " none";
  for (const auto& u : unhit) out << " " << u;
  out << "\n";
}

}  // namespace gpumem::tb
