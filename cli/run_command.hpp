// gpumem run: a workload through the model; the report, the stats JSON, the
// transaction log and the profile store (docs/trace-format.md,
// docs/explorer.md "Profile store"), or three prefetchers side by side
// (--compare-prefetch, docs/prefetch.md).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "trace_inputs.hpp"

namespace gpumem::cli {

struct RunArgs {
  std::string config;
  TraceInputArgs input;
  std::string stats_json;
  std::string txn_log;
  std::string dram_commands;
  std::string profile_store;
  bool compare_prefetch = false;
  std::string plot;
  bool quiet = false;
  bool no_timing = false;  // leave out the host's time, so that two runs' outputs compare byte for byte
};

// Declares `run` and its options on `app`, filling `args` when parsed.
CLI::App* add_run_command(CLI::App& app, RunArgs& args);

// 0, or 128 + the signal that stopped the run (its outputs then hold what
// ran); errors throw, with the outputs written first where a run began.
int run_command(const RunArgs& a);

}  // namespace gpumem::cli
