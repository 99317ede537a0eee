// gpumem dram-check: a DRAM command trace (gpumem run --dram-commands) held
// to the timing constraints of the config's device by a checker of its own
// (tb/dram/; docs/memory.md, "Checking a command trace").
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace gpumem::cli {

struct DramCheckArgs {
  std::string trace;
  std::string config;
};

// Declares `dram-check` and its arguments on `app`, filling `args` when parsed.
CLI::App* add_dram_check_command(CLI::App& app, DramCheckArgs& args);

// 0 when no command breaks a constraint; 1 with the first that does, printed.
int dram_check_command(const DramCheckArgs& a);

}  // namespace gpumem::cli
