#include "cosim_command.hpp"

#include <string>

#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

CLI::App* add_cosim_command(CLI::App& app, tb::CosimOptions& args) {
  CLI::App* cosim = app.add_subcommand("cosim", "Co-simulate an RTL block against the golden model");
  set_examples(*cosim, {"gpumem cosim --config configs/default.yaml --block translator --transactions 1000000 --seed 1",
                        "gpumem cosim --config configs/default.yaml --block tlb --mode pin --transactions 100000",
                        "gpumem cosim --config configs/default.yaml --rtl tests/rtl/two_stage_translator.sv --top two_stage_translator",
                        "gpumem cosim --config configs/default.yaml --block tlb --contract"});
  cosim->add_option("--config", args.config, "YAML config file")->required()->check(kPath);
  cosim->add_option("--block", args.block, "translator or tlb")
      ->check(CLI::IsMember({"translator", "tlb"}));
  cosim->add_option("--transactions", args.transactions, "random transactions: requests (translator) or translations (tlb); default 1000000")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  cosim->add_option("--seed", args.seed, "random seed (default 1)")->check(kUnsigned);
  cosim->add_flag("--count-all", args.count_all, "count every mismatch instead of stopping at the first");
  cosim->add_option("--hang-cycles", args.hang_cycles,
                    "watchdog: stop with a hang report after this many cycles without a handshake while the bench "
                    "waits on the RTL (default " + std::to_string(tb::kDefaultHangCycles) + ")")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  cosim->add_option("--waves", args.waves, "folder for the FST and replay files of a mismatch (default waves)")->check(kPath);
  cosim->add_option("--code-coverage", args.code_coverage,
                    "folder for the RTL's line and branch coverage: this run's, merged with the runs already there, as lcov .info "
                    "and HTML (the RTL is verilated with coverage; fast mode)")
      ->check(kPath);
  cosim->add_option("--waves-when", args.waves_when,
                    "failure (default): waves of a failing run only; always: a passing run's last 1000 cycles too");
  cosim->add_option("--rtl", args.rtl,
                    "your RTL of the block's port contract (docs/cosim.md), verilated for the config; repeat for more files")
      ->check(CLI::ExistingFile);
  cosim->add_option("--top", args.top, "the top module of --rtl (default gpumem_xor_translator or gpumem_nested_tlb)");
  cosim->add_option("--max-latency", args.max_latency,
                    "with --rtl: cycles from a request to its response before the protocol checker calls it late "
                    "(default: no bound but --hang-cycles)")
      ->check(CLI::Range(1u, 1u << 20));
  cosim->add_option("--schemes", args.schemes,
                    "with --rtl or --contract: the translator schemes your RTL implements, e.g. none,matrix (default: "
                    "all, without matrix when the module declares no MATRIX); the others' task types are not checked")
      ->check(kList);
  cosim->add_flag("--require-all", args.require_all,
                  "refuse (exit 2) a config whose mappings the RTL cannot check (a task type on matrix or a baseline)");
  cosim->add_option("--json", args.json, "write the run's counts, result and coverage as JSON to this file (gpumem sweep merges it)")
      ->check(kPath);
  cosim->add_option("--junit", args.junit,
                    "write the run as a JUnit XML test case to this file (one test case; a failure's message is the "
                    "first divergence, its text the report)")
      ->check(kPath);
  cosim->add_flag("--no-timing", args.no_timing,
                  "leave out the host's time (a verilation's seconds, or that it came from the cache): two runs' reports "
                  "then compare byte for byte (gpumem sweep passes it)");
  cosim->add_flag("--contract", args.contract,
                  "print the block's port contract at the config's geometry (Markdown) and stop");
  cosim->add_option("--mode", args.mode, "fast (Verilated model clocked from C++) or pin (SystemC-clocked pins)")
      ->check(CLI::IsMember({"fast", "pin"}));
  return cosim;
}

}  // namespace gpumem::cli
