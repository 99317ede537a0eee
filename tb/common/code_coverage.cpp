#include "tb/common/code_coverage.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/child_process.hpp"

namespace gpumem::tb {

namespace fs = std::filesystem;

namespace {

std::string tail_of(const std::string& log) {
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > 600) text = "..." + text.substr(text.size() - 600);
  return text;
}

// Runs a tool; throws naming it and its output when it fails.
void run_or_throw(const std::vector<std::string>& argv, const std::string& log) {
  fs::remove(log);
  const int status = run_tool(argv, log);
  const std::string out = tail_of(log);
  fs::remove(log);
  if (status != 0)
    throw std::runtime_error(fs::path(argv[0]).filename().string() + " failed (exit " + std::to_string(status) +
                             "): " + out);
}

std::string percent(uint64_t part, uint64_t whole) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", whole ? 100.0 * double(part) / double(whole) : 100.0);
  return b;
}

}  // namespace

std::vector<std::string> code_coverage_runs(const std::string& dir, const std::string& block) {
  std::vector<std::string> dats;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".dat" && name.rfind(block + "-seed", 0) == 0) dats.push_back(e.path().string());
  }
  std::sort(dats.begin(), dats.end());
  return dats;
}

CodeCoverage merge_code_coverage(const std::string& dir, const std::string& block, const std::vector<std::string>& dats) {
  const std::string tool = find_tool("verilator_coverage");
  if (tool.empty()) throw std::runtime_error("verilator_coverage not found on PATH (it comes with Verilator)");
  CodeCoverage c;
  c.runs = dats.size();
  c.info = dir + "/" + block + ".info";
  const std::string log = dir + "/." + block + "-coverage-" + std::to_string(getpid()) + ".log";
  std::vector<std::string> argv{tool, "--write-info", c.info};
  argv.insert(argv.end(), dats.begin(), dats.end());
  run_or_throw(argv, log);

  // Branch arms: the points of Verilator's v_branch page (each if's and
  // else's arm; the rest are v_line statement blocks), added up over the runs
  // by their key (C '<key>' <count>): lcov's .info has no branch records.
  std::map<std::string, uint64_t> arms;
  for (const std::string& dat : dats) {
    std::ifstream d(dat);
    for (std::string l; std::getline(d, l);) {
      const size_t open = l.find('\''), close = l.rfind('\'');
      if (l.rfind("C ", 0) != 0 || open == std::string::npos || close <= open) continue;
      const std::string key = l.substr(open + 1, close - open - 1);
      if (key.find("page\002v_branch/") == std::string::npos) continue;  // \001 and \002 separate keys and values
      arms[key] += std::stoull(l.substr(close + 1));
    }
  }
  for (const auto& [key, n] : arms) {
    ++c.branches;
    if (n) {
      ++c.branches_hit;
      continue;
    }
    // Its file (f), line (l) and arm (o: if, else), each "\001<name>\002<value>".
    std::map<std::string, std::string> field;
    for (size_t at = key.find('\001'); at != std::string::npos;) {
      const size_t next = key.find('\001', at + 1), sep = key.find('\002', at);
      if (sep != std::string::npos && sep < next) field[key.substr(at + 1, sep - at - 1)] = key.substr(sep + 1, next - sep - 1);
      at = next;
    }
    c.untaken.push_back(fs::path(field["f"]).filename().string() + ":" + field["l"] + " " + field["o"]);
  }

  // Lines: DA:<line>,<count>.
  std::ifstream in(c.info);
  std::string file;
  std::map<std::pair<std::string, uint64_t>, bool> line_hit;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("SF:", 0) == 0) {
      file = l.substr(3);
    } else if (l.rfind("DA:", 0) == 0) {
      const size_t comma = l.find(',');
      const uint64_t line = std::stoull(l.substr(3, comma - 3));
      const bool hit = std::stoull(l.substr(comma + 1)) > 0;
      bool& h = line_hit[{file, line}];
      h = h || hit;
    }
  }
  for (const auto& [where, hit] : line_hit) {
    ++c.lines;
    if (hit) ++c.lines_hit;
    else c.unhit.push_back(fs::path(where.first).filename().string() + ":" + std::to_string(where.second));
  }

  if (const std::string genhtml = find_tool("genhtml"); !genhtml.empty()) {
    const std::string out = dir + "/" + block + "-html";
    fs::remove_all(out);
    // The package is verilated from a copy in a build folder that is gone by
    // now: its lines are counted, its source page left out.
    run_or_throw({genhtml, "--quiet", "--ignore-errors", "source", "--output-directory", out, c.info},
                 log);
    c.html = out + "/index.html";
  }
  return c;
}

std::string code_coverage_report(const CodeCoverage& c) {
  std::ostringstream o;
  o << "rtl coverage lines " << c.lines_hit << " of " << c.lines << " (" << percent(c.lines_hit, c.lines) << "), branches "
    << c.branches_hit << " of " << c.branches << " (" << percent(c.branches_hit, c.branches) << "), " << c.runs
    << (c.runs == 1 ? " run\n" : " runs merged\n");
  o << "             " << c.info;
  if (!c.html.empty()) o << ", " << c.html;
  else o << " (no HTML: genhtml, from Debian's lcov, is not installed)";
  o << "\n";
  const auto list = [&o](const char* label, const std::vector<std::string>& items, const char* where) {
    if (items.empty()) return;
    o << label;
    size_t width = 13;
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string item = (i ? ", " : "") + items[i];
      if (width + item.size() > 150) {
        o << " ... and " << (items.size() - i) << " more (" << where << " lists each)";
        break;
      }
      o << item;
      width += item.size();
    }
    o << "\n";
  };
  list("lines unrun  ", c.unhit, "the .info");
  list("arms untaken ", c.untaken, "each .dat");
  return o.str();
}

}  // namespace gpumem::tb
