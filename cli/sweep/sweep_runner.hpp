// Running a sweep's points on this machine (docs/sweeps.md): one `gpumem`
// process per point, at most `jobs` at a time, each writing into a folder
// of its own that is renamed into place only when the point succeeded, so a
// point's output is whole or absent whatever stops the sweep.
//
// <output>/points/<hash>/   config.yaml (as run), stats.json (the command's
//                           JSON, where it writes one), log.txt (stdout),
//                           stderr.txt, point.json (index, axis values,
//                           command line); nothing of the host's clock in
//                           any of them (--no-timing), so a rerun is
//                           byte-identical
// <output>/failed/<hash>.json  a point whose last attempt failed: its exit
//                           status, the last lines of its stderr and, for a
//                           cosim point, its first divergence and report
#pragma once
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "sweep/sweep_spec.hpp"

namespace gpumem::sweep {

struct RunOptions {
  std::string gpumem;      // the binary each point runs
  unsigned jobs = 1;       // points at once
  unsigned retries = 0;    // more attempts of a failed point
  bool resume = false;     // run only the points without a whole output
  std::ostream* progress = nullptr;  // a terminal: one line, rewritten
};

struct RunSummary {
  size_t ran = 0, skipped = 0, failed = 0;
  bool interrupted = false;             // SIGINT or SIGTERM: finished points are whole, the rest absent
  std::vector<std::string> failures;    // "point 3 (memory.channels=8): exit 2: <last stderr line>"
};

std::string point_folder(const SweepSpec& spec, const Point& p);   // <output>/points/<hash>
std::string failure_file(const SweepSpec& spec, const Point& p);   // <output>/failed/<hash>.json
bool point_is_whole(const SweepSpec& spec, const Point& p);

// The arguments after the binary's name, as the point runs them in its own
// folder: the command, config.yaml, the trace (an absolute path), seed and
// flags, and the command's JSON output, stats.json. Relative names, so that
// the outputs, which name their config, are the same wherever a sweep runs.
std::vector<std::string> point_arguments(const SweepSpec& spec, const Point& p);

RunSummary run_points(const SweepSpec& spec, const std::vector<Point>& points, const RunOptions& options);

}  // namespace gpumem::sweep
