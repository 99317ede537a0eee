// docs/errors.md is the bad-input catalogue and its own test: every row of a
// table after the marker `<!-- error-catalogue -->` is one test here, so a
// row cannot lack its test. Columns:
//
//   | id | bad input | command | the user sees | exit |
//
//   id          a short name; the test is ErrorCatalogue/Row.<id>
//   bad input   `-`, or files separated by ` + `, each
//                 `NAME`: `TEXT`                  (\n in TEXT is a newline, \t a tab,
//                                                  \xNN the byte NN: a binary file's)
//                 `NAME`: `PATH` with `A` → `B`   (PATH from the source tree, A replaced by B)
//   command     `gpumem ARGS`, run in a scratch folder holding the files, where
//               configs/ is the source tree's
//   the user sees
//               exit 0: a line the command prints on stdout;
//               otherwise: stderr is exactly this one line
//   exit        the exit status
//
// A pipe inside a cell is written \| (Markdown's escape).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iomanip>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

struct Row {
  int line = 0;  // in docs/errors.md
  std::string id, input, command, message;
  int exit_code = 0;
};

// How gtest names a row in test lists and failures.
void PrintTo(const Row& r, std::ostream* os) { *os << r.id; }

const char* const kPage = "docs/errors.md";

// Plain string code, not std::regex: these run when every test of this
// program is listed or started (the catalogue is read at registration), and
// a regex compiled per cell cost each of its 250 processes 0.2 s, 0.8 s under
// the sanitizers, of the suite's time.
std::string trimmed(const std::string& s) {
  const char* space = " \t\r\f\v";
  const size_t first = s.find_first_not_of(space);
  return first == std::string::npos ? "" : s.substr(first, s.find_last_not_of(space) - first + 1);
}

bool is_identifier(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isalnum(ch) || ch == '_'; });
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  for (size_t i = 1; i < line.size(); ++i) {  // past the leading '|'
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      out.push_back(trimmed(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return out;
}

std::string code(const std::string& cell) {  // `x` -> x
  return cell.size() >= 2 && cell.front() == '`' && cell.back() == '`' ? cell.substr(1, cell.size() - 2) : cell;
}

std::vector<Row> catalogue() {
  std::vector<Row> rows;
  std::istringstream in(slurp(kSource + "/" + kPage));
  std::string line;
  bool in_table = false, marked = false;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line == "<!-- error-catalogue -->") {
      marked = true;
      continue;
    }
    if (line.rfind("|", 0) != 0) {
      in_table = false;
      if (!line.empty()) marked = false;
      continue;
    }
    if (marked && !in_table) {  // the header row, then the separator
      in_table = true;
      std::getline(in, line);
      ++n;
      continue;
    }
    if (!in_table) continue;
    const auto c = cells(line);
    Row r;
    r.line = n;
    if (c.size() != 5) {
      r.id = "bad_row_line_" + std::to_string(n);
      r.exit_code = -1;
    } else {
      r.id = c[0];
      r.input = c[1];
      r.command = code(c[2]);
      r.message = code(c[3]);
      r.exit_code = std::stoi(c[4]);
    }
    rows.push_back(r);
  }
  return rows;
}

// A literal cell's text: \n a newline, \t a tab, \xNN the byte NN.
std::string unescape(const std::string& cell) {
  std::string out;
  for (size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] == '\\' && i + 1 < cell.size() && (cell[i + 1] == 'n' || cell[i + 1] == 't')) {
      out += cell[++i] == 'n' ? '\n' : '\t';
    } else if (cell.compare(i, 2, "\\x") == 0 && i + 3 < cell.size() && std::isxdigit(static_cast<unsigned char>(cell[i + 2])) &&
               std::isxdigit(static_cast<unsigned char>(cell[i + 3]))) {
      out += static_cast<char>(std::stoi(cell.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      out += cell[i];
    }
  }
  return out;
}

class ErrorCatalogue : public Cli, public ::testing::WithParamInterface<Row> {
 protected:
  // Writes the row's files; false (with a failure) if the cell does not parse.
  bool write_inputs(const std::string& cell) {
    if (cell == "-") return true;
    static const std::regex literal(R"(^`([^`]+)`: `([^`]*)`$)");
    static const std::regex edited(R"(^`([^`]+)`: `([^`]+)` with `([^`]+)` → `([^`]*)`$)");
    size_t start = 0;
    while (start <= cell.size()) {
      size_t end = cell.find(" + ", start);
      if (end == std::string::npos) end = cell.size();
      const std::string item = cell.substr(start, end - start);
      std::smatch m;
      if (std::regex_match(item, m, edited)) {
        std::string text = slurp(kSource + "/" + m[2].str());
        const auto at = text.find(m[3].str());
        if (text.empty() || at == std::string::npos) {
          ADD_FAILURE() << "'" << m[3] << "' is not in " << m[2];
          return false;
        }
        write(m[1], text.replace(at, m[3].length(), m[4].str()));
      } else if (std::regex_match(item, m, literal)) {
        write(m[1], unescape(m[2].str()));
      } else {
        ADD_FAILURE() << "bad input cell item: " << item;
        return false;
      }
      start = end + 3;
    }
    return true;
  }
};

TEST_P(ErrorCatalogue, Row) {
  const Row& row = GetParam();
  SCOPED_TRACE(std::string(kPage) + ":" + std::to_string(row.line) + " (" + row.id + ")");
  ASSERT_NE(row.exit_code, -1) << "a catalogue row needs 5 cells";
  ASSERT_TRUE(write_inputs(row.input));
  std::error_code ec;
  fs::create_directory_symlink(kSource + "/configs", path("configs"), ec);
  auto args = words(row.command);
  ASSERT_FALSE(args.empty());
  ASSERT_EQ(args[0], "gpumem") << "a command starts with gpumem";
  args.erase(args.begin());
  const Result r = run_in(dir_.string(), args);
  EXPECT_EQ(r.exit_code, row.exit_code) << r.out << r.err;
  if (row.exit_code == 0) {
    EXPECT_NE(("\n" + r.out).find("\n" + row.message + "\n"), std::string::npos)
        << "not a line of stdout:\n" << r.out;
  } else {
    EXPECT_EQ(r.err, row.message + "\n") << "stderr must be exactly the one line shown";
  }
}

// Every row's id is unique and names a test (letters, digits, underscores).
TEST(ErrorCatalogueTable, IdsAreUniqueNames) {
  std::set<std::string> seen;
  const auto rows = catalogue();
  EXPECT_GE(rows.size(), 20u) << "the catalogue lost its rows";
  for (const Row& r : rows) {
    EXPECT_TRUE(is_identifier(r.id)) << kPage << ":" << r.line << ": id '" << r.id << "'";
    EXPECT_TRUE(seen.insert(r.id).second) << kPage << ":" << r.line << ": id '" << r.id << "' twice";
  }
}

INSTANTIATE_TEST_SUITE_P(, ErrorCatalogue, ::testing::ValuesIn(catalogue()),
                         [](const ::testing::TestParamInfo<Row>& info) {
                           return is_identifier(info.param.id) ? info.param.id
                                      : "line_" + std::to_string(info.param.line);
                         });

}  // namespace
}  // namespace gpumem::test
