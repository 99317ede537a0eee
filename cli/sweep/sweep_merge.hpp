// A sweep's outputs read back (docs/sweeps.md, "Merging"): which points are
// done, failed or missing, and one table of every point's axis values and
// chosen metrics.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sweep/sweep_spec.hpp"

namespace gpumem::sweep {

struct SweepStatus {
  std::vector<size_t> done, failed, queued, missing;  // point indices
  std::vector<std::string> failure_lines;             // "point 3 (...): exit 2: <stderr's last line>"
  std::vector<std::string> queue_states;              // of each queued point: squeue's PENDING, RUNNING, ...
};
// `queued`: squeue's state by point (sweep_slurm.hpp); a point without an
// output that is in it counts as queued, not missing.
SweepStatus sweep_status(const SweepSpec& spec, const std::vector<Point>& points,
                         const std::map<size_t, std::string>& queued = {});
// The points as the test cases of a JUnit XML report (--junit on sweep and
// sweep merge; base/junit_report.hpp): class `sweep.<command>`, name "point
// I (label)"; a whole point passed, a failed one failed with its first
// divergence (a cosim point's) or its exit status and stderr's last line as
// the message, any other skipped ("no output").
std::string sweep_junit(const SweepSpec& spec, const std::vector<Point>& points, const SweepStatus& s);
// "12 points: 9 done, 1 failed, 1 queued, 1 missing" and a line per failed,
// queued and missing point.
std::string status_report(const SweepStatus& s, const std::vector<Point>& points);

// A JSON object's text with only the top-level members named in `keep`,
// found by skipping the others' values bracket by bracket without parsing
// them (a stats JSON's series is most of its bytes); the text unchanged when
// it is not an object this scan can read, for the parser to judge.
std::string top_level_members(const std::string& json_text, const std::set<std::string>& keep);

// A value of a JSON document by dotted path ("channels[2].requests",
// "dram.row_hits"), as text (a string unquoted, anything else as JSON);
// `found` false when the path leads nowhere.
std::string json_path_value(const std::string& json_text, const std::string& path, bool& found);

// The merged table: `header` is index, hash, the axes, then the metrics;
// a row per point with an output, in point order, each value as text.
struct MergedTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string coverage;  // cosim points: the union of their coverage (below)
  std::vector<size_t> done;  // the points merged (indices into the points)
};
MergedTable merged_table(const SweepSpec& spec, const std::vector<Point>& points, const std::vector<std::string>& metrics,
                         bool allow_partial);

// One row per point, in point order: index, hash, the axes, then the
// metrics. Throws InputError when a point is missing or failed and not
// `allow_partial` (naming them), or a metric is in no point's stats JSON.
// `out` ending in .json writes a JSON array of objects, else CSV.
// For `cosim` points, returns the union of every merged point's coverage in
// gpumem cosim's words ("coverage     <group>: ...", "unhit bins ..."):
// the bins no point hit; "" for other commands.
std::string merge_sweep(const SweepSpec& spec, const std::vector<Point>& points, const std::vector<std::string>& metrics,
                        bool allow_partial, const std::string& out);

// The plot script's input (scripts/plot_channels.py, a "sweep" object):
// metric `y` against axis `x`, a line per value of axis `lines` ("" for
// one line). Throws InputError naming --x, --y or --lines when it is not an
// axis or a metric of the table.
std::string sweep_plot_json(const MergedTable& t, const std::string& x, const std::string& y, const std::string& lines);

}  // namespace gpumem::sweep
