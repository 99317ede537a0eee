#include "check_config_command.hpp"

#include <iostream>

#include "config/config.hpp"
#include "params/block_params.hpp"
#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

CLI::App* add_check_config_command(CLI::App& app, CheckConfigArgs& args) {
  CLI::App* check = app.add_subcommand("check-config", "Validate a config file (and its address-space allocation) and exit");
  set_examples(*check, {"gpumem check-config configs/default.yaml"});
  check->add_option("config", args.config, "YAML config file")->required()->check(kPath);
  return check;
}

int check_config_command(const CheckConfigArgs& a) {
  const Config cfg = load_config(a.config);
  if (cfg.has_mmu()) build_address_space(cfg, cfg.address_space.nesting);  // allocation errors too
  std::cout << a.config << ": ok\n";
  return 0;
}

}  // namespace gpumem::cli
