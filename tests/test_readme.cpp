// Every line of README.md's "Using it" block runs as written on a fresh
// clone (issue 50): the lines are read from the page, run in order by sh in
// a scratch copy of the inputs they name (tests/readme_commands.hpp), and
// each must exit 0; a failure names its README line. A word zsh would take
// for a glob pattern fails too, whatever sh makes of it.
//
// The default suite runs the heavy lines smaller (kSmaller, kCosimCount)
// and leaves out those of kSkippedByDefault; Readme.EveryUsingItLineAsWritten,
// the CTest test readme.as_written (label soak), runs every line exactly as
// written. Both leave out the lines of kSkipped, and a line with --plot
// where no python3 imports matplotlib, printing each with the reason.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

#include "readme_commands.hpp"

namespace gpumem::test {
namespace {

// What the default suite runs instead, each `from` a whole run of words in
// a line: counts and sizes that take the lines to seconds or minutes each
// (1,000,000 co-simulated transactions, a BFS over 65,536 vertices, the
// explorer over the default workload's 600,000 requests). An entry that
// matches no line fails the test, so the table cannot outlive the README.
struct Substitution {
  const char* from;
  const char* to;
};
const Substitution kSmaller[] = {
    {"--transactions 1000000", "--transactions 20000"},
    {"--transactions 100000", "--transactions 5000"},
    {"--scale 16", "--scale 10"},
    {"explore --config configs/default.yaml", "explore --config configs/default.yaml --trace configs/examples/three-apps.csv"},
};
// A co-simulation that names no count runs 1,000,000 transactions: in the
// default suite it gets this one.
const char* const kCosimCount = "--transactions 20000";
// An RTL file of tests/rtl/ is named by its path in the source tree: the RTL
// cache keys a library by its files' absolute paths, and so the Cli.Cosim*
// tests' libraries of the same files and config are reused, where a copy's
// path would verilate them again on every run.
const char* const kRtlFolder = "tests/rtl/";

struct Skip {
  const char* fragment;  // of the line
  const char* why;
};
const Skip kSkipped[] = {
    {"--slurm", "needs a Slurm cluster: Slurm.TheReadmesSlurmLineRunsAsAJobArray runs it on a one-node one (label slurm)"},
};
const Skip kSkippedByDefault[] = {
    {"configs/examples/cosim-8-channels.yaml --block tlb",
     "verilates a TLB for a geometry not built in, 25 to 55 s on 2 cores; "
     "Cli.CosimOfAGeometryNotBuiltInVerilatesOnceAndThenReusesTheCache runs this config on both blocks"},
};

// `text` with each whole-word occurrence of `from` replaced by `to`.
std::string replace_words(const std::string& text, const std::string& from, const std::string& to, bool& found) {
  std::string out;
  size_t done = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1)) {
    const size_t end = at + from.size();
    if ((at > 0 && text[at - 1] != ' ') || (end < text.size() && text[end] != ' ')) continue;
    out += text.substr(done, at - done) + to;
    done = end;
    found = true;
  }
  return out + text.substr(done);
}

std::string last_lines(const std::string& text, size_t n) {
  size_t at = text.size();
  for (size_t i = 0; i <= n && at != std::string::npos && at > 0; ++i) at = text.rfind('\n', at - 1);
  return at == std::string::npos ? text : text.substr(at + 1);
}

class Readme : public Cli {
 protected:
  void run_every_line(bool as_written) {
    const std::vector<ReadmeCommand> commands = readme_commands();
    ASSERT_GE(commands.size(), 30u) << "README.md's \"Using it\" block not found, or cut short";
    const fs::path root = dir_ / "repo";
    stage_readme_inputs(root, commands);
    // As written, the RTL is verilated as on a fresh clone, into a cache that
    // goes with the scratch folder: its paths there would never be reused.
    const std::string cache = as_written ? (dir_ / "rtl-cache").string() : GPUMEM_RTL_TEST_CACHE;
    const std::string env = "GPUMEM_RTL_CACHE='" + cache + "' TMPDIR='" + dir_.string() + "'";
    const bool plots = !python_with_matplotlib().empty();
    for (const ReadmeCommand& c : commands) {
      const std::string where = "README.md:" + std::to_string(c.line);
      EXPECT_EQ(c.unquoted, "") << where << ": zsh takes the unquoted " << c.unquoted
                                << " for a glob pattern and stops with 'no matches found': quote it\n  " << c.text;
      std::string why = skip_reason(c, as_written);
      if (why.empty() && !plots && c.text.find(" --plot ") != std::string::npos)
        why = "draws a plot: no python3 here imports matplotlib";
      if (!why.empty()) {
        std::cout << where << "  skipped: " << why << "\n";
        continue;
      }
      const std::string command = as_written ? c.command : smaller(c);
      const ReadmeRun r = run_readme_command(command, root, dir_, env);
      std::cout << where << "  " << std::fixed << std::setprecision(1) << r.seconds << " s"
                << (command == c.command ? "" : "  as: " + command) << "\n";
      EXPECT_EQ(r.exit_code, 0) << where << ": exit status " << r.exit_code << "\n  " << command << "\n"
                                << last_lines(r.err.empty() ? r.out : r.err, 10);
    }
    // Every entry of the tables still names a line.
    for (size_t i = 0; i < std::size(kSkipped); ++i)
      EXPECT_TRUE(skipped_always_[i]) << "kSkipped: no README line has " << kSkipped[i].fragment;
    for (size_t i = 0; i < std::size(kSmaller) && !as_written; ++i)
      EXPECT_TRUE(substituted_[i]) << "kSmaller: no README line has " << kSmaller[i].from;
    for (size_t i = 0; i < std::size(kSkippedByDefault) && !as_written; ++i)
      EXPECT_TRUE(skipped_[i]) << "kSkippedByDefault: no README line has " << kSkippedByDefault[i].fragment;
  }

 private:
  std::string skip_reason(const ReadmeCommand& c, bool as_written) {
    std::string why;
    for (size_t i = 0; i < std::size(kSkipped); ++i)
      if (c.text.find(kSkipped[i].fragment) != std::string::npos) why = kSkipped[i].why, skipped_always_[i] = true;
    for (size_t i = 0; i < std::size(kSkippedByDefault) && !as_written; ++i)
      if (c.text.find(kSkippedByDefault[i].fragment) != std::string::npos) {
        why = std::string(kSkippedByDefault[i].why) + "; readme.as_written (label soak) runs it as written";
        skipped_[i] = true;
      }
    return why;
  }

  // The line as the default suite runs it.
  std::string smaller(const ReadmeCommand& c) {
    std::string command = c.command;
    for (size_t i = 0; i < std::size(kSmaller); ++i) {
      bool found = false;
      command = replace_words(command, kSmaller[i].from, kSmaller[i].to, found);
      substituted_[i] = substituted_[i] || found;
    }
    const auto named = [&](const char* w) { return std::find(c.words.begin(), c.words.end(), w) != c.words.end(); };
    if (named("cosim") && !named("--transactions") && !named("--contract")) command += std::string(" ") + kCosimCount;
    const std::string rtl = std::string(" ") + kRtlFolder;
    for (size_t at = command.find(rtl); at != std::string::npos; at = command.find(rtl, at + rtl.size()))
      command.insert(at + 1, kSource + "/");
    return command;
  }

  std::vector<bool> substituted_ = std::vector<bool>(std::size(kSmaller));
  std::vector<bool> skipped_ = std::vector<bool>(std::size(kSkippedByDefault));
  std::vector<bool> skipped_always_ = std::vector<bool>(std::size(kSkipped));
};

TEST_F(Readme, EveryUsingItLineRuns) { run_every_line(false); }

// Every command's --help ends with examples, and each is a line of the
// "Using it" block (which the test above runs), so no example can stop
// working unseen (cli/help_examples.hpp).
TEST_F(Readme, EveryHelpExampleIsAUsingItLine) {
  std::set<std::string> lines;
  for (const ReadmeCommand& c : readme_commands())
    if (c.command.rfind("./build/gpumem ", 0) == 0) lines.insert(c.command.substr(std::string("./build/").size()));
  for (const char* command : {"run", "regmap", "cosim", "regs", "explore", "trace", "trace gen", "trace order", "trace convert",
                              "check-config", "sweep", "sweep merge", "sweep status"}) {
    std::vector<std::string> args;
    std::istringstream words(command);
    for (std::string w; words >> w;) args.push_back(w);
    args.push_back("--help");
    const Result help = run(args);
    ASSERT_EQ(help.exit_code, 0) << command;
    const size_t at = help.out.find("\nExamples, from the repository root");
    ASSERT_NE(at, std::string::npos) << "gpumem " << command << " --help has no examples:\n" << help.out;
    std::istringstream examples(help.out.substr(help.out.find('\n', at + 1) + 1));
    size_t shown = 0;
    for (std::string line; std::getline(examples, line) && line.rfind("  gpumem ", 0) == 0; ++shown)
      EXPECT_EQ(lines.count(line.substr(2)), 1u) << "gpumem " << command << " --help shows an example that README.md's "
                                                    "\"Using it\" block does not run:\n" << line;
    EXPECT_GT(shown, 0u) << command;
  }
}

// Minutes: the CTest test readme.as_written (label soak) sets the variable.
TEST_F(Readme, EveryUsingItLineAsWritten) {
  if (!std::getenv("GPUMEM_README_AS_WRITTEN")) GTEST_SKIP() << "run by readme.as_written (label soak)";
  run_every_line(true);
}

// The line reader: a comment starts at a word's `#`, quotes keep a word
// whole, and only an unquoted glob character is flagged.
TEST(ReadmeLine, SplitsAsTheShellDoes) {
  const ReadmeCommand c = parse_readme_line(3, "./build/gpumem regs 'A[1]' \"B C\" x#y   # a 'comment' [1]");
  EXPECT_EQ(c.command, "./build/gpumem regs 'A[1]' \"B C\" x#y");
  EXPECT_EQ(c.words, (std::vector<std::string>{"./build/gpumem", "regs", "A[1]", "B C", "x#y"}));
  EXPECT_EQ(c.unquoted, "");
  EXPECT_EQ(parse_readme_line(1, "./build/gpumem regs TASK_SCHEME[1] X=1").unquoted, "TASK_SCHEME[1]");
  bool found = false;
  EXPECT_EQ(replace_words("a --n 100000 --n 1000000 --n 100000", "--n 100000", "--n 5", found), "a --n 5 --n 1000000 --n 5");
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace gpumem::test
