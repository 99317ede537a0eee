// gpumem: one CLI, a file per subcommand (cli/<command>_command.*). Errors
// are caught here, once: input errors printed as "file:line: key: message"
// with exit code 2, model errors with exit code 3.
#include <CLI/CLI.hpp>
#include <cctype>
#include <iostream>
#include <string>
#include <systemc>

#include "base/input_error.hpp"
#include "base/nearest_name.hpp"
#include "check_config_command.hpp"
#include "cosim_command.hpp"
#include "dram_check_command.hpp"
#include "explore_command.hpp"
#include "regmap_command.hpp"
#include "regs_command.hpp"
#include "run_command.hpp"
#include "stop_on_signal.hpp"
#include "sweep/sweep_version.hpp"
#include "sweep_command.hpp"
#include "trace_command.hpp"

namespace {

constexpr int kExitInputError = 2;
constexpr int kExitModelError = 3;

// What CLI11 reports poorly, said as the config errors say it: a misspelt
// command ("gpumem rnu": CLI11 says only "A subcommand is required") or
// option ("--confg": CLI11 first says --config is missing), with the
// nearest name and the help to read; "" when neither is the trouble.
std::string misspelt_word(const CLI::App& app, int argc, char* argv[]) {
  const CLI::App* level = &app;
  std::string path = "gpumem";
  int i = 1;
  for (; i < argc; ++i) {  // the command words
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') break;
    std::vector<std::string> names;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : level->get_subcommands([](const CLI::App*) { return true; })) {
      names.push_back(sub->get_name());
      if (sub->get_name() == word) next = sub;
    }
    if (next) {
      level = next;
      path += " " + word;
      continue;
    }
    if (level->get_require_subcommand_min() > 0)
      return "unknown command '" + word + "'" + gpumem::did_you_mean(word, names) + " (" + path + " --help)";
    break;  // a command's own word (gpumem sweep SPEC)
  }
  for (; i < argc; ++i) {  // options, of the command or those above it
    const std::string word = argv[i];
    const bool is_long = word.size() > 2 && word.compare(0, 2, "--") == 0;
    const bool is_short = word.size() == 2 && word[0] == '-' && word[1] != '-' && !std::isdigit(static_cast<unsigned char>(word[1]));
    if (!is_long && !is_short) continue;
    const std::string name = word.substr(0, word.find('='));
    std::vector<std::string> names, starting;  // the long names; those with the short one's letter first
    bool known = name == "--help" || name == "--version" || name == "-h";
    for (const CLI::App* a = level; a && !known; a = a->get_parent())
      for (const CLI::Option* o : a->get_options()) {
        for (const std::string& l : o->get_lnames()) {
          names.push_back("--" + l);
          if (is_short && l[0] == name[1]) starting.push_back("--" + l);
          known = known || "--" + l == name;
        }
        for (const std::string& sn : o->get_snames()) known = known || "-" + sn == name;
      }
    if (known) continue;
    // A short option gpumem does not have ("-o"): the one long option with its letter, if only one.
    const std::string hint = is_short ? (starting.size() == 1 ? "; did you mean '" + starting[0] + "'?" : "")
                                      : gpumem::did_you_mean(name, names);
    return "unknown option '" + name + "'" + hint + " (" + path + " --help)";
  }
  return "";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  using namespace gpumem::cli;
  CLI::App app{"gpumem: SystemC/TLM-2.0 golden model of a GPU memory front end"};
  app.require_subcommand(1);
  // The build's `git describe`, as the sweep hashes it into a point's identity.
  app.set_version_flag("--version", "gpumem " + gpumem::sweep::kSweepVersion);

  // In the order `gpumem --help` lists them.
  RunArgs run_args;
  CLI::App* run = add_run_command(app, run_args);
  RegmapArgs regmap_args;
  CLI::App* regmap = add_regmap_command(app, regmap_args);
  gpumem::tb::CosimOptions cosim_args;
  CLI::App* cosim = add_cosim_command(app, cosim_args);
  RegsArgs regs_args;
  CLI::App* regs = add_regs_command(app, regs_args);
  ExploreArgs explore_args;
  CLI::App* explore = add_explore_command(app, explore_args);
  TraceArgs trace_args;
  CLI::App* trace = add_trace_command(app, trace_args);
  CheckConfigArgs check_args;
  CLI::App* check = add_check_config_command(app, check_args);
  SweepArgs sweep_args;
  CLI::App* sweep = add_sweep_command(app, sweep_args);
  DramCheckArgs dram_check_args;
  CLI::App* dram_check = add_dram_check_command(app, dram_check_args);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // One line, like every other input error (docs/errors.md): CLI11's own
    // form adds a second line and no "gpumem: error:".
    if (const std::string unknown = misspelt_word(app, argc, argv); !unknown.empty()) {
      std::cerr << "gpumem: error: " << unknown << "\n";
      return kExitInputError;
    }
    std::string command = "gpumem";
    for (const CLI::App* level = &app; !level->get_subcommands().empty();) {  // down to the innermost: gpumem trace order
      level = level->get_subcommands().front();
      command += " " + level->get_name();
    }
    std::cerr << "gpumem: error: " << e.what() << " (" << command << " --help)\n";
    return kExitInputError;
  }

  // Every command: a signal ends a run or a co-simulation at its next step
  // and exits any other work at once, removing the outputs not yet written.
  const StopOnSignal stop;
  try {
    if (*run) return run_command(run_args);
    if (*cosim) return gpumem::tb::run_cosim(cosim_args, std::cout);
    if (*regs) return regs_command(regs_args);
    if (*explore) return explore_command(explore_args);
    if (*trace) return trace_command(trace_args);
    if (*regmap) return regmap_command(regmap_args);
    if (*check) return check_config_command(check_args);
    if (*sweep) return sweep_command(sweep_args);
    if (*dram_check) return dram_check_command(dram_check_args);
  } catch (const gpumem::InputError& e) {
    std::cerr << "gpumem: error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << "gpumem: model error: " << e.what() << "\n";
    return kExitModelError;
  }
  return 0;
}
