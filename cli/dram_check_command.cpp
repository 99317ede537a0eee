#include "dram_check_command.hpp"

#include <iostream>

#include "base/input_error.hpp"
#include "config/config.hpp"
#include "help_examples.hpp"
#include "tb/dram/dram_command_check.hpp"
#include "tb/dram/dram_constraints.hpp"
#include "validators.hpp"

namespace gpumem::cli {

CLI::App* add_dram_check_command(CLI::App& app, DramCheckArgs& args) {
  CLI::App* check = app.add_subcommand("dram-check", "Check a DRAM command trace against the timing constraints of the config's device");
  set_examples(*check, {"gpumem run --config configs/examples/hbm2.yaml --quiet --dram-commands cmd.csv",
                        "gpumem dram-check cmd.csv --config configs/examples/hbm2.yaml"});
  check->add_option("trace", args.trace, "the trace gpumem run --dram-commands wrote")->required()->check(kPath);
  check->add_option("--config", args.config, "the config the trace's run used (its memory section)")->required()->check(kPath);
  return check;
}

int dram_check_command(const DramCheckArgs& a) {
  const Config cfg = load_config(a.config);
  if (cfg.memory.model != MemoryModel::kDram)
    throw InputError(a.config, 0, "memory.model", "simple: a simple channel issues no DRAM commands to check (memory.model: dram)");
  const tb::DramCheckResult r = tb::check_dram_command_trace(a.trace, cfg.memory.dram, cfg.memory.channels);
  if (r.violation) {
    std::cout << a.trace << ":" << r.violation->command.line << ": " << r.violation->text() << "\n";
    return 1;
  }
  std::cout << a.trace << ": " << r.commands << " commands on " << cfg.memory.channels << " channels of " << cfg.memory.dram.preset
            << ", none breaks a constraint (";
  for (const tb::DramConstraint& c : tb::kDramConstraints) std::cout << c.name << ", ";
  const size_t besides = sizeof tb::kDramCheckedBesides / sizeof *tb::kDramCheckedBesides;
  for (size_t i = 0; i < besides; ++i) std::cout << tb::kDramCheckedBesides[i] << (i + 1 < besides ? ", " : ")\n");
  return 0;
}

}  // namespace gpumem::cli
