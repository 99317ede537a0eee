// The RTL's code coverage (gpumem cosim --code-coverage DIR, docs/cosim.md,
// "Code coverage"): each run's Verilator line coverage (every statement
// block and branch arm a point) in DIR/<block>-seed<S>.dat, all of a
// block's runs in DIR merged by verilator_coverage into DIR/<block>.info
// (lcov's form, what CI coverage tools read) and by lcov's genhtml into
// DIR/<block>-html/index.html. gpumem sweep merge merges its cosim points'
// the same way.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::tb {

struct CodeCoverage {
  std::string info;  // DIR/<block>.info
  std::string html;  // DIR/<block>-html/index.html; "" when genhtml is not installed
  size_t runs = 0;   // .dat files merged
  uint64_t lines = 0, lines_hit = 0;        // source lines with a point, and those run
  uint64_t branches = 0, branches_hit = 0;  // if and else arms (Verilator's v_branch points), and those taken
  std::vector<std::string> unhit;           // "file:line" of each line never run, in file order
  std::vector<std::string> untaken;         // "file:line if" or "... else" of each arm never taken
};

// Merges `dats` (Verilator .dat files) into `dir`/<block>.info and its HTML
// report. Throws std::runtime_error naming a missing tool, or a tool that
// failed and its log.
CodeCoverage merge_code_coverage(const std::string& dir, const std::string& block, const std::vector<std::string>& dats);

// The .dat files of `block` in `dir` (<block>-seed<S>.dat), in name order.
std::vector<std::string> code_coverage_runs(const std::string& dir, const std::string& block);

// The report's lines: "rtl coverage lines 812 of 830 (97.8 %), branches ...",
// the files, and the first lines never run.
std::string code_coverage_report(const CodeCoverage& c);

}  // namespace gpumem::tb
