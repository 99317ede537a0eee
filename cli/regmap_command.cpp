#include "regmap_command.hpp"

#include <iostream>

#include "regs/register_map.hpp"
#include "regs/rtl_package.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

CLI::App* add_regmap_command(CLI::App& app, RegmapArgs& args) {
  CLI::App* regmap = app.add_subcommand("regmap", "Print the register map (one source of truth)");
  set_examples(*regmap, {"gpumem regmap --format markdown"});
  regmap->add_option("--format", args.format, "markdown (the register map) or sv (the RTL package gpumem_pkg)")->check(CLI::IsMember({"markdown", "sv"}));
  return regmap;
}

int regmap_command(const RegmapArgs& a) {
  std::cout << (a.format == "sv" ? systemverilog_package() : register_map_markdown());
  return 0;
}

}  // namespace gpumem::cli
