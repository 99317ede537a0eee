#include "regs_command.hpp"

#include <iostream>
#include <optional>

#include "base/input_file.hpp"
#include "params/block_params.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "driver/firmware.hpp"
#include "regs/register_access.hpp"
#include "regs/register_bank.hpp"
#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

CLI::App* add_regs_command(CLI::App& app, RegsArgs& args) {
  CLI::App* regs = app.add_subcommand("regs", "Read and write the register bank of a config (docs/register-map.md)");
  set_examples(*regs, {"gpumem regs --config configs/default.yaml 'TASK_SCHEME[1]' 'XOR_VECTOR[3][0]=0x3'"});
  regs->add_option("--config", args.config, "YAML config file")->required()->check(kPath);
  regs->add_option("--script", args.script, "file of register accesses, one per line ('#' comments), run first")->check(kPath);
  regs->add_option("access", args.accesses, "NAME to read, NAME=VALUE to write; NAME: CTRL, TASK_SCHEME[3], XOR_VECTOR[1][0] or an offset (0x0044)");
  regs->add_flag("--reset-state", args.reset_state, "start from the reset values, not from the config's firmware writes");
  return regs;
}

// On the bank as the driver's firmware left it (or at reset): the script's
// lines first, then the command line's.
int regs_command(const RegsArgs& a) {
  const Config cfg = load_config(a.config);
  std::vector<RegisterAccess> accesses;
  if (!a.script.empty()) accesses = read_register_script(*open_input_file(a.script, "register script"), a.script);
  for (const std::string& text : a.accesses) accesses.push_back(parse_register_access(text));

  RegisterBank bank(register_params(cfg));
  if (!a.reset_state) {
    std::optional<AddressSpaceImage> image;
    if (cfg.has_mmu()) image = build_address_space(cfg, cfg.address_space.nesting);
    program_registers(cfg, image ? &*image : nullptr, [&](uint32_t offset, uint32_t value) {
      return bank.write(offset, 4, value) == RegStatus::kOk;
    });
  }
  for (const RegisterAccess& access : accesses) perform_register_access(bank, access, std::cout);
  return 0;
}

}  // namespace gpumem::cli
