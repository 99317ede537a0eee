// The "Examples" section at the end of a command's --help. Each line is a
// line of README.md's "Using it" block, which Readme.EveryUsingItLineRuns
// runs as written; Readme.EveryHelpExampleIsAUsingItLine holds them equal,
// so an example cannot stop working unseen.
#pragma once
#include <CLI/CLI.hpp>
#include <initializer_list>
#include <string>

namespace gpumem::cli {

inline void set_examples(CLI::App& command, std::initializer_list<const char*> lines) {
  std::string text = "\nExamples, from the repository root (README.md, \"Using it\"):\n";
  for (const char* line : lines) text += std::string("  ") + line + "\n";
  command.footer(text);
}

}  // namespace gpumem::cli
