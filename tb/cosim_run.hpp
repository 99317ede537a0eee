// `gpumem cosim`: one entry point for every RTL block, shared by the CLI and
// the mutation check's runner, so a mutant is judged by exactly the command a
// user runs.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tb/common/protocol_checker.hpp"

namespace gpumem::tb {

struct CosimOptions {
  std::string config;               // YAML file
  std::string block = "translator";  // translator | tlb
  uint64_t transactions = 1'000'000;
  uint64_t seed = 1;
  bool count_all = false;     // count every mismatch instead of stopping at the first
  uint64_t hang_cycles = kDefaultHangCycles;  // the watchdog: cycles without a handshake while the bench waits
  std::string waves = "waves";  // folder for the FST and replay files of a mismatch
  std::string waves_when = "failure";  // failure, or always: a passing run's last window too
  // A folder for the RTL's code coverage (Verilator line coverage, merged
  // with the runs already there into lcov's .info and genhtml's HTML), or "".
  std::string code_coverage;
  // fast: the --cc model clocked from C++ (regressions); pin: the --sc model
  // under an sc_clock (debugging; runs the SystemC kernel, once per process).
  std::string mode = "fast";
  // A user's RTL of the block's port contract (docs/cosim.md), verilated at
  // run time; `top` its top module (default the project's module name).
  std::vector<std::string> rtl;
  std::string top;
  unsigned max_latency = 0;  // with --rtl: the latency bound (0: the default, none but the watchdog)
  // With --rtl or --contract: the translator schemes the RTL implements, as
  // "none,xor,matrix" ("": what its parameters declare).
  std::string schemes;
  bool contract = false;     // print the block's port contract for the config and stop
  std::string json;          // the run's summary and coverage as JSON (gpumem sweep merges it), or ""
  std::string junit;         // the run as a JUnit XML test case (CI reads it), or ""
  bool no_timing = false;    // the report without the host's time (a verilation's seconds, from the cache or not)

  bool require_all = false;  // refuse a config of which the RTL leaves something unchecked
};

// Exit status: 0 agreement, 1 mismatch, RTL assertion, protocol violation or
// hang (report, waves and replay written).
// Config errors and a config the RTL was not built for throw gpumem::InputError.
int run_cosim(const CosimOptions& options, std::ostream& out);

}  // namespace gpumem::tb
