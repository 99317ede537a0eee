// The commands of README.md's "Using it" block, read from the page itself,
// and a scratch copy of the repository's inputs they name, so that a test
// runs them as a user types them from the repository root without writing
// into the source tree (tests/test_readme.cpp; the Slurm line in
// tests/test_sweep_slurm.cpp).
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

namespace gpumem::test {

struct ReadmeCommand {
  int line = 0;          // in README.md
  std::string text;      // as written, comment included
  std::string command;   // the text before the comment, trailing blanks dropped
  std::string unquoted;  // the first word with a glob character outside quotes, "" for none
  std::vector<std::string> words;  // the command's words, quotes removed
};

// Splits a line as a POSIX shell does for what matters here: quotes, a
// backslash, and `#` opening a comment at the start of a word. zsh stops a
// command on a glob pattern that matches nothing (`TASK_SCHEME[1]`), where
// sh and bash pass it on as written, so such a word is kept to be refused.
inline ReadmeCommand parse_readme_line(int number, const std::string& text) {
  ReadmeCommand c;
  c.line = number;
  c.text = text;
  std::string word;
  bool in_word = false, glob = false;
  size_t end = text.size();
  auto finish = [&] {
    if (in_word) {
      c.words.push_back(word);
      if (glob && c.unquoted.empty()) c.unquoted = word;
    }
    word.clear();
    in_word = glob = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == ' ' || ch == '\t') {
      finish();
    } else if (ch == '#' && !in_word) {
      end = i;
      break;
    } else if (ch == '\'' || ch == '"') {
      in_word = true;
      const size_t close = text.find(ch, i + 1);
      word += text.substr(i + 1, close == std::string::npos ? std::string::npos : close - i - 1);
      i = close == std::string::npos ? text.size() : close;
    } else if (ch == '\\' && i + 1 < text.size()) {
      in_word = true;
      word += text[++i];
    } else {
      in_word = true;
      glob |= ch == '[' || ch == '*' || ch == '?' || ch == '{';
      word += ch;
    }
  }
  finish();
  c.command = text.substr(0, end);
  while (!c.command.empty() && (c.command.back() == ' ' || c.command.back() == '\t')) c.command.pop_back();
  return c;
}

// Every non-blank line of the first ```sh block after "## Using it".
inline std::vector<ReadmeCommand> readme_commands() {
  std::ifstream in(kSource + "/README.md");
  std::vector<ReadmeCommand> out;
  std::string line;
  int number = 0;
  enum { kBefore, kSection, kBlock } state = kBefore;
  while (std::getline(in, line)) {
    ++number;
    if (state == kBefore && line == "## Using it") state = kSection;
    else if (state == kSection && line.rfind("## ", 0) == 0) break;
    else if (state == kSection && line == "```sh") state = kBlock;
    else if (state == kBlock && line.rfind("```", 0) == 0) break;
    else if (state == kBlock && line.find_first_not_of(" \t") != std::string::npos) out.push_back(parse_readme_line(number, line));
  }
  return out;
}

// `dir` as the repository root the commands expect: build/gpumem is the
// binary under test, configs/ a copy (a sweep writes beside its spec), and
// every other source folder a command names a file of is copied (a
// kernelslist.g names the traces beside it).
inline void stage_readme_inputs(const fs::path& dir, const std::vector<ReadmeCommand>& commands) {
  fs::create_directories(dir / "build");
  fs::create_symlink(GPUMEM_BINARY, dir / "build/gpumem");
  fs::copy(kSource + "/configs", dir / "configs", fs::copy_options::recursive);
  std::set<fs::path> copied{"configs"};
  for (const ReadmeCommand& c : commands)
    for (size_t i = 1; i < c.words.size(); ++i) {  // the first is the program, build/gpumem
      const fs::path rel = fs::path(c.words[i]).lexically_normal();
      if (rel.parent_path().empty() || rel.is_absolute() || *rel.begin() == ".." || *rel.begin() == "configs") continue;
      if (!fs::is_regular_file(kSource / rel) || !copied.insert(rel.parent_path()).second) continue;
      fs::create_directories(dir / rel.parent_path());
      fs::copy(kSource / rel.parent_path(), dir / rel.parent_path());  // its files, not its subfolders
    }
}

struct ReadmeRun {
  int exit_code = -1;
  std::string out, err;
  double seconds = 0;
};

// `command` run by sh in `root`, with environment settings `env`
// ("NAME='value' ..."); stdout, stderr and the script are kept in `work`.
inline ReadmeRun run_readme_command(const std::string& command, const fs::path& root, const fs::path& work,
                                    const std::string& env) {
  std::ofstream(work / "line.sh") << command << "\n";
  const std::string cmd = "cd '" + root.string() + "' && env " + env + " sh '" + (work / "line.sh").string() + "' >'" +
                          (work / "stdout").string() + "' 2>'" + (work / "stderr").string() + "' </dev/null";
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(cmd.c_str());
  ReadmeRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(work / "stdout");
  r.err = slurp(work / "stderr");
  return r;
}

}  // namespace gpumem::test
