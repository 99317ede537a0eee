// A sweep on a Slurm cluster (docs/sweeps.md, "On a cluster"): an sbatch
// script whose job array runs the points, `points_per_task` of them per
// array task, each task `gpumem sweep SPEC --point T --points-per-task K
// --resume` (the same runner as a local sweep, so outputs, failures and
// records are the same); the jobs submitted are kept in
// <output>/slurm/jobs.txt for `gpumem sweep status`.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "sweep/sweep_spec.hpp"

namespace gpumem::sweep {

struct SlurmOptions {
  unsigned points_per_task = 1;
  unsigned throttle = 0;  // the array's %: array tasks at once, 0 for Slurm's own limit
  std::string partition, time, mem;
  std::vector<std::string> sbatch_args;  // more #SBATCH options, passed through
  unsigned retries = 0;                  // each task's --retries
  bool emit_only = false;                // write the script, do not submit it
};

// The array tasks that hold `points` (indices), ascending: point / K.
std::vector<size_t> chunks_of(const std::vector<size_t>& points, unsigned points_per_task);
// "0-11" for a contiguous run from 0, else "3,7,9"; with "%N" when throttled.
std::string array_spec(const std::vector<size_t>& chunks, unsigned throttle);
// The script: #SBATCH lines, then the array task's gpumem command.
std::string sbatch_script(const SweepSpec& spec, const std::string& gpumem, const std::string& array,
                          const SlurmOptions& o);

struct Submission {
  std::string script;  // its path
  std::string job;     // the job ID sbatch returned, "" with emit_only
  size_t tasks = 0;
};
// Writes <output>/slurm/sweep-<n>.sbatch for the given chunks and submits
// it with sbatch (unless emit_only). Throws InputError when sbatch is
// missing or refuses, with its message.
Submission submit_array(const SweepSpec& spec, const std::string& gpumem, const std::vector<size_t>& chunks,
                        const SlurmOptions& o);

// The state squeue reports for the array tasks of the sweep's jobs, by
// point index ("PENDING", "RUNNING", ...); empty when no job is queued or
// squeue is not there.
std::map<size_t, std::string> queued_points(const SweepSpec& spec, size_t point_count);

}  // namespace gpumem::sweep
