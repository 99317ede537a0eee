// gpumem sweep (docs/sweeps.md): the points of a sweep spec run locally,
// their state, and their outputs merged into one table.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gpumem::cli {

struct SweepArgs {
  std::string spec;
  unsigned jobs = 0;     // 0: the machine's cores
  unsigned retries = 0;
  bool resume = false;
  long point = -1;       // --point I: that point alone, or chunk I of --points-per-task (what a Slurm array task runs)
  bool list = false;     // --list: the points, validated, and nothing run
  // --slurm: an sbatch job array instead of local processes
  bool slurm = false, emit_only = false;
  unsigned points_per_task = 1, throttle = 0;
  std::string partition, time, mem;
  std::vector<std::string> sbatch_args;
  // sweep status / sweep merge
  CLI::App* status = nullptr;
  CLI::App* merge = nullptr;
  std::string out;
  std::string plot, x, y, lines;  // merge --plot FILE --x AXIS --y METRIC [--lines AXIS]
  std::vector<std::string> metrics;
  bool allow_partial = false;
  std::string junit;  // --junit FILE (sweep and sweep merge): the points as a JUnit XML report
};

CLI::App* add_sweep_command(CLI::App& app, SweepArgs& args);
int sweep_command(const SweepArgs& a);

}  // namespace gpumem::cli
