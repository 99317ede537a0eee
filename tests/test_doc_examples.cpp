// Every example output shown in docs/ comes from running the command it names,
// so it cannot drift from the binary. A fenced block preceded by a marker
// comment is checked:
//
//   <!-- example: ARGS [=> WHAT][, exit N] -->
//     runs `gpumem ARGS` in a scratch folder where configs/ is the source
//     tree's (so paths read as a user types them from the repository root),
//     and checks the block against
//     WHAT: stdout (the default), stderr, or a file the command writes, named
//     {name}. The exit status must be N (default 0). A ```json block must be
//     a subset of the JSON (every key shown has the value shown; an array
//     shows its first elements); any other block's lines must appear in the
//     output in the same order, each whole.
//   <!-- example-file: NAME -->
//     the block is an input: it is written to the scratch folder as NAME,
//     and {NAME} in later examples of the same page stands for its path.
//   <!-- example-file: NAME from PATH replace "A" "B" ... -->
//     (no block) NAME is PATH from the source tree with each A replaced by B.
//
// For writers of docs: docs/architecture.md, "Examples in the docs".
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

std::vector<std::string> trimmed_lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    out.push_back(line);
  }
  return out;
}

// A difference found, and where it can be mended by replacing text in the
// block (`from` empty when it cannot be mended mechanically).
struct Diff {
  std::string message;
  std::string from, to;
};

// Where `doc` is not contained in `actual`.
void json_subset(const nlohmann::json& doc, const nlohmann::json& actual, const std::string& at,
                 std::vector<Diff>& diffs) {
  if (doc.is_object()) {
    if (!actual.is_object()) return diffs.push_back({at + ": expected an object, output has " + actual.dump(), "", ""});
    for (const auto& [key, value] : doc.items()) {
      if (!actual.contains(key)) {
        diffs.push_back({at + "." + key + ": not in the output", "", ""});
      } else if (!value.is_structured() && value != actual.at(key)) {
        const std::string quoted = "\"" + key + "\": ";
        diffs.push_back({at + "." + key + ": docs say " + value.dump() + ", output has " + actual.at(key).dump(),
                         quoted + value.dump(), quoted + actual.at(key).dump()});
      } else {
        json_subset(value, actual.at(key), at + "." + key, diffs);
      }
    }
  } else if (doc.is_array()) {
    if (!actual.is_array() || actual.size() < doc.size())
      return diffs.push_back({at + ": output has " + actual.dump(), "", ""});
    for (size_t i = 0; i < doc.size(); ++i) json_subset(doc[i], actual[i], at + "[" + std::to_string(i) + "]", diffs);
  } else if (doc != actual) {
    diffs.push_back({at + ": docs say " + doc.dump() + ", output has " + actual.dump(), "", ""});
  }
}

// The doc's lines in order within the output's; on a miss, the output lines
// that start like the missing one (a CSV row with the same id, say), and the
// one to put in its place if there is exactly one.
void lines_subset(const std::string& doc, const std::string& actual, std::vector<Diff>& diffs) {
  const auto want = trimmed_lines_of(doc), have = trimmed_lines_of(actual);
  size_t at = 0;
  for (const std::string& line : want) {
    const auto it = std::find(have.begin() + static_cast<long>(at), have.end(), line);
    if (it != have.end()) {
      at = static_cast<size_t>(it - have.begin()) + 1;
      continue;
    }
    std::vector<std::string> similar;
    const std::string head = line.substr(0, std::min(line.find_first_of(", "), line.size()) + 1);
    for (const std::string& h : have)
      if (!head.empty() && h.rfind(head, 0) == 0 && similar.size() < 20) similar.push_back(h);
    std::string message = "line not in the output (in order): " + line;
    for (const auto& h : similar) message += "\n    output: " + h;
    diffs.push_back({message, similar.size() == 1 ? line : "", similar.size() == 1 ? similar[0] : ""});
  }
}

struct Block {
  int line;            // of the marker
  std::string marker;  // text between "<!-- " and " -->"
  std::string lang;    // after the opening fence
  std::string body;
  bool has_body;
};

// Marker comments and the fenced block after each (if the next line opens one).
std::vector<Block> blocks(const fs::path& page) {
  std::vector<Block> out;
  const auto text = trimmed_lines_of(slurp(page));
  const std::regex marker(R"(^<!-- (example(-file)?: .*) -->$)");
  for (size_t i = 0; i < text.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(text[i], m, marker)) continue;
    Block b{static_cast<int>(i + 1), m[1], "", "", false};
    if (i + 1 < text.size() && text[i + 1].rfind("```", 0) == 0) {
      b.has_body = true;
      b.lang = text[i + 1].substr(3);
      size_t j = i + 2;
      for (; j < text.size() && text[j].rfind("```", 0) != 0; ++j) b.body += text[j] + "\n";
      i = j;
    }
    out.push_back(b);
  }
  return out;
}

class DocExamples : public Cli {
 protected:
  // Runs one page's examples; returns how many outputs were checked.
  int check_page(const fs::path& page) {
    const std::string name = fs::relative(page, kSource).string();
    // Commands run in the scratch folder: {name} is the file `name` there.
    auto expand = [](std::string arg) { return std::regex_replace(arg, std::regex(R"(\{([^}]+)\})"), "$1"); };
    std::error_code ec;
    fs::create_directory_symlink(kSource + "/configs", path("configs"), ec);
    int checked = 0;
    const bool update = std::getenv("GPUMEM_UPDATE_DOCS") != nullptr;
    std::vector<std::string> page_lines = trimmed_lines_of(slurp(page));
    for (const Block& b : blocks(page)) {
      const std::string where = name + ":" + std::to_string(b.line);
      SCOPED_TRACE(where);
      if (b.marker.rfind("example-file: ", 0) == 0) {
        const auto w = words(b.marker.substr(14));
        if (w.size() == 1 && b.has_body) {
          write(w[0], b.body);
          continue;
        }
        if (w.size() < 3 || w[1] != "from" || (w.size() - 3) % 3 != 0) {
          ADD_FAILURE() << "bad example-file marker: " << b.marker;
          continue;
        }
        std::string text = slurp(kSource + "/" + w[2]);
        for (size_t k = 3; k + 2 < w.size(); k += 3) {
          const auto at = text.find(w[k + 1]);
          if (w[k] != "replace" || at == std::string::npos) {
            ADD_FAILURE() << "'" << w[k + 1] << "' not in " << w[2];
            continue;
          }
          text.replace(at, w[k + 1].size(), w[k + 2]);
        }
        write(w[0], text);
        continue;
      }
      if (!b.has_body) {
        ADD_FAILURE() << "example marker without a fenced block after it";
        continue;
      }
      // example: ARGS [=> WHAT][, exit N]
      std::string spec = b.marker.substr(9), what = "stdout";
      int exit_code = 0;
      if (const auto e = spec.rfind(", exit "); e != std::string::npos) {
        exit_code = std::stoi(spec.substr(e + 7));
        spec.erase(e);
      }
      if (const auto arrow = spec.find(" => "); arrow != std::string::npos) {
        what = spec.substr(arrow + 4);
        spec.erase(arrow);
      }
      std::vector<std::string> args;
      for (const auto& w : words(spec)) args.push_back(expand(w));
      const Result r = run_in(dir_.string(), args);
      EXPECT_EQ(r.exit_code, exit_code) << "gpumem " << spec << "\n" << r.err;
      const std::string output = what == "stdout" ? r.out : what == "stderr" ? r.err : slurp(path(expand(what)));
      std::vector<Diff> diffs;
      if (b.lang == "json") {
        const auto doc = nlohmann::json::parse(b.body, nullptr, false);
        const auto actual = nlohmann::json::parse(output, nullptr, false);
        if (doc.is_discarded()) diffs.push_back({"the block is not JSON", "", ""});
        else if (actual.is_discarded()) diffs.push_back({what + " is not JSON", "", ""});
        else json_subset(doc, actual, "", diffs);
      } else {
        lines_subset(b.body, output, diffs);
      }
      for (const auto& d : diffs) ADD_FAILURE() << "gpumem " << spec << " => " << what << "\n  " << d.message;
      if (update) mend(page_lines, b, diffs);
      ++checked;
    }
    if (update) {
      std::string text;
      for (const auto& l : page_lines) text += l + "\n";
      if (text != slurp(page)) std::ofstream(page) << text, std::cout << "updated " << name << "\n";
    }
    return checked;
  }

  // GPUMEM_UPDATE_DOCS=1: differences with one obvious mend (a changed JSON
  // value, a CSV row with the same id) are written into the page; the test
  // still fails this time.
  static void mend(std::vector<std::string>& page_lines, const Block& b, const std::vector<Diff>& diffs) {
    for (const Diff& d : diffs) {
      if (d.from.empty()) continue;
      std::vector<size_t> hits;
      for (size_t i = static_cast<size_t>(b.line) + 1; i < page_lines.size() && page_lines[i].rfind("```", 0) != 0; ++i)
        if (page_lines[i].find(d.from) != std::string::npos) hits.push_back(i);
      if (hits.size() == 1) page_lines[hits[0]].replace(page_lines[hits[0]].find(d.from), d.from.size(), d.to);
    }
  }
};

TEST_F(DocExamples, EveryExampleShownIsWhatTheBinaryPrints) {
  int checked = 0;
  std::vector<fs::path> pages;
  for (const auto& e : fs::directory_iterator(kSource + "/docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  std::sort(pages.begin(), pages.end());
  for (const auto& page : pages) checked += check_page(page);
  EXPECT_GE(checked, 12) << "examples found in docs/; markers lost?";
}

// The checker itself: a wrong value, a missing line and a missing key are caught.
TEST(DocExampleChecker, FindsWhatDiffers) {
  std::vector<Diff> diffs;
  json_subset(nlohmann::json::parse(R"({"a": 1, "b": [1, 2], "c": {"d": "x"}})"),
              nlohmann::json::parse(R"({"a": 1, "b": [1, 2, 3], "c": {"d": "x", "e": 0}, "f": 2})"), "", diffs);
  EXPECT_TRUE(diffs.empty());
  json_subset(nlohmann::json::parse(R"({"a": 2, "b": [2], "g": 0})"), nlohmann::json::parse(R"({"a": 1, "b": [1]})"), "",
              diffs);
  ASSERT_EQ(diffs.size(), 3u);
  EXPECT_EQ(diffs[0].from, "\"a\": 2");
  EXPECT_EQ(diffs[0].to, "\"a\": 1");
  diffs.clear();
  lines_subset("h\n1,a\n3,c\n", "h\n1,a\n2,b\n3,c\n", diffs);
  EXPECT_TRUE(diffs.empty());
  lines_subset("3,c\n1,a\n", "h\n1,a\n3,x\n", diffs);
  ASSERT_EQ(diffs.size(), 1u) << "out of order and different";
  EXPECT_NE(diffs[0].message.find("output: 3,x"), std::string::npos) << diffs[0].message;
  EXPECT_EQ(diffs[0].to, "3,x");
}

}  // namespace
}  // namespace gpumem::test
