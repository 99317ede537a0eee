// gpumem regs: register accesses on a config's bank (docs/register-map.md).
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gpumem::cli {

struct RegsArgs {
  std::string config;
  std::string script;
  std::vector<std::string> accesses;
  bool reset_state = false;
};

// Declares `regs` and its options on `app`, filling `args` when parsed.
CLI::App* add_regs_command(CLI::App& app, RegsArgs& args);

int regs_command(const RegsArgs& a);

}  // namespace gpumem::cli
