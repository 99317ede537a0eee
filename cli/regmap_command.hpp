// gpumem regmap: the register map, from its one table (docs/register-map.md).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace gpumem::cli {

struct RegmapArgs {
  std::string format = "markdown";  // markdown | sv
};

// Declares `regmap` and its options on `app`, filling `args` when parsed.
CLI::App* add_regmap_command(CLI::App& app, RegmapArgs& args);

int regmap_command(const RegmapArgs& a);

}  // namespace gpumem::cli
