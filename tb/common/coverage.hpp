// Functional coverage of a co-simulation: named groups of named bins, each a
// count of what the scoreboard saw. A scoreboard owns its groups; the bin
// names come from the model's own name tables (scheme names, TLB result
// names), so a bin is added in one place and the report, the tests and the
// model spell it the same way.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::tb {

class CoverageGroup {
 public:
  CoverageGroup(std::string name, std::vector<std::string> bins)
      : name_(std::move(name)), bins_(std::move(bins)), counts_(bins_.size(), 0) {}
  template <typename Names>
  static CoverageGroup named(std::string name, const Names& names) {
    return CoverageGroup(std::move(name), std::vector<std::string>(std::begin(names), std::end(names)));
  }
  // Bins "0".."n-1": a task type, a way.
  static CoverageGroup indexed(std::string name, size_t n) {
    std::vector<std::string> bins;
    for (size_t i = 0; i < n; ++i) bins.push_back(std::to_string(i));
    return CoverageGroup(std::move(name), std::move(bins));
  }

  // A cross: a bin for every combination of one bin of each dimension,
  // named "a / b / c", the last dimension varying fastest, but those `keep`
  // refuses (a covergroup's ignore_bins: combinations that cannot happen, or
  // that are no goal); hit_cross counts a combination, an ignored one in no
  // bin. A cross reports, merges and counts its unhit bins as any group does.
  static CoverageGroup cross(std::string name, const std::vector<std::vector<std::string>>& dimensions,
                             const std::function<bool(const std::vector<size_t>&)>& keep = nullptr) {
    std::vector<std::string> bins;
    std::vector<long> bin_of;
    std::vector<size_t> index(dimensions.size(), 0);
    for (bool more = !dimensions.empty(); more;) {
      if (!keep || keep(index)) {
        std::string n;
        for (size_t k = 0; k < index.size(); ++k) n += (k ? " / " : "") + dimensions[k][index[k]];
        bin_of.push_back(static_cast<long>(bins.size()));
        bins.push_back(n);
      } else {
        bin_of.push_back(-1);
      }
      more = false;
      for (size_t k = index.size(); k-- > 0;) {
        if (++index[k] < dimensions[k].size()) {
          more = true;
          break;
        }
        index[k] = 0;
      }
    }
    CoverageGroup g(std::move(name), std::move(bins));
    for (const std::vector<std::string>& d : dimensions) g.dims_.push_back(d.size());
    g.bin_of_ = std::move(bin_of);
    return g;
  }
  // Counts a cross's combination, one index per dimension.
  void hit_cross(std::initializer_list<size_t> index) {
    size_t flat = 0, k = 0;
    for (const size_t i : index) flat = flat * dims_.at(k++) + i;
    if (const long bin = bin_of_.at(flat); bin >= 0) hit(static_cast<size_t>(bin));
  }

  void hit(size_t bin, uint64_t n = 1) { counts_.at(bin) += n; }
  uint64_t operator[](size_t bin) const { return counts_.at(bin); }
  size_t size() const { return bins_.size(); }
  const std::string& name() const { return name_; }
  const std::string& bin_name(size_t bin) const { return bins_.at(bin); }
  bool operator==(const CoverageGroup& o) const { return name_ == o.name_ && bins_ == o.bins_ && counts_ == o.counts_; }

 private:
  std::string name_;
  std::vector<std::string> bins_;
  std::vector<uint64_t> counts_;
  std::vector<size_t> dims_;  // a cross's dimensions' sizes
  std::vector<long> bin_of_;  // a cross's bin of each combination (last dimension fastest), -1 for none
};

// Groups with more bins print as "<hit> of <n> bins hit".
inline constexpr size_t kCoverageBinsPrinted = 16;
// The longest line of `gpumem cosim`'s report: a longer one goes on over
// more lines, a list of unhit bins is cut short with their count.
inline constexpr size_t kReportWidth = 160;
// "coverage     <group>: <bin> <n> ..." a line per group, then the bins
// never hit, by name ("group:bin"), or " none". With `width`, a group's
// line longer than that goes on over more lines (indented, broken between
// bins), and the unhit bins that do not fit are counted: "... and 57 more
// unhit bins (--json lists every bin)"; `listed_in` says where the rest
// are listed (gpumem sweep merge: the points' stats.json files).
void print_coverage(std::ostream& out, const std::vector<const CoverageGroup*>& groups, size_t width = std::string::npos,
                    const std::string& listed_in = "--json lists every bin");
// `head` and `pieces` on one line, or on as many as keep each within
// `width`: a new line, indented by `indent` blanks, starts before the piece
// that would cross it. Ends without a line break.
std::string wrapped(const std::string& head, const std::vector<std::string>& pieces, size_t width, size_t indent);
// The bins never hit, as "group:bin".
std::vector<std::string> unhit_bins(const std::vector<const CoverageGroup*>& groups);

// As JSON text: [{"group": name, "bins": [[bin, count], ...]}, ...], in
// order; and back, each group's counts added to `into`'s group of the same
// name and bins (new ones appended): how gpumem sweep merge unions the
// coverage of many runs. Returns "" or what does not match.
std::string coverage_json_text(const std::vector<const CoverageGroup*>& groups);
std::string add_coverage_json(const std::string& json_text, std::vector<CoverageGroup>& into);

}  // namespace gpumem::tb
