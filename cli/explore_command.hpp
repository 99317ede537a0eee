// gpumem explore (docs/explorer.md, "gpumem explore").
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "trace_inputs.hpp"

namespace gpumem::cli {

struct ExploreArgs {
  std::string config, json, emit_yaml, plot;
  TraceInputArgs input;
  unsigned window = 0;
  unsigned beam = 4;
  unsigned jobs = 1;  // worker threads of the search
};

// Declares `explore` and its options on `app`, filling `args` when parsed.
CLI::App* add_explore_command(CLI::App& app, ExploreArgs& args);

int explore_command(const ExploreArgs& a);

}  // namespace gpumem::cli
