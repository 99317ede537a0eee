// gpumem explore (docs/explorer.md, "gpumem explore").
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace gpumem::cli {

struct ExploreArgs {
  std::string config, trace, json, emit_yaml, plot;
  unsigned window = 0;
  unsigned beam = 4;
  unsigned threads = 1;
};

// Declares `explore` and its options on `app`, filling `args` when parsed.
CLI::App* add_explore_command(CLI::App& app, ExploreArgs& args);

int explore_command(const ExploreArgs& a);

}  // namespace gpumem::cli
