// gpumem check-config: a config and its address-space allocation checked,
// nothing run (docs/config-reference.md).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace gpumem::cli {

struct CheckConfigArgs {
  std::string config;
};

// Declares `check-config` and its argument on `app`, filling `args` when parsed.
CLI::App* add_check_config_command(CLI::App& app, CheckConfigArgs& args);

int check_config_command(const CheckConfigArgs& a);

}  // namespace gpumem::cli
