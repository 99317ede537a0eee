// gpumem trace: the per-thread trace tools (docs/frontend.md, docs/workloads.md).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "trace_gen_command.hpp"

namespace gpumem::cli {

struct TraceArgs {
  CLI::App* convert = nullptr;
  CLI::App* order = nullptr;
  TraceGenArgs gen;
  std::string config, input, output, form, to;
  bool quiet = false;
};

// Declares `trace` and its subcommands on `app`, filling `args` when parsed.
CLI::App* add_trace_command(CLI::App& app, TraceArgs& args);

int trace_command(const TraceArgs& a);

}  // namespace gpumem::cli
