#include "sweep_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

#include "base/input_error.hpp"
#include "base/output_file.hpp"
#include "base/user_paths.hpp"
#include "plot_runner.hpp"
#include "sweep/sweep_merge.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_slurm.hpp"
#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

CLI::App* add_sweep_command(CLI::App& app, SweepArgs& args) {
  CLI::App* sweep = app.add_subcommand("sweep", "Run every point of a sweep spec (configs x traces x seeds) locally");
  set_examples(*sweep, {"gpumem sweep configs/examples/sweeps/channels.yaml --jobs 2",
                        "gpumem sweep configs/examples/sweeps/channels.yaml --slurm --points-per-task 10 --throttle 50"});
  sweep->require_subcommand(0, 1);
  sweep->add_option("spec", args.spec, "the sweep spec (YAML, docs/sweeps.md)")->check(kPath);
  sweep->add_option("--jobs", args.jobs, "points at once (default: the machine's cores)")->check(CLI::Range(1u, 4096u));
  sweep->add_option("--retries", args.retries, "more attempts of a failed point before it counts as failed (default 0)")
      ->check(CLI::Range(0u, 100u));
  sweep->add_flag("--resume", args.resume, "run only the points without a whole output");
  sweep->add_option("--point", args.point, "run point I alone (what a Slurm array task runs)")->check(CLI::Range(0L, 1L << 40));
  sweep->add_flag("--list", args.list, "print the points (validated, with their hashes) and run nothing");
  sweep->add_flag("--slurm", args.slurm, "submit the points as a Slurm job array (sbatch) instead of running them here");
  sweep->add_flag("--emit-only", args.emit_only, "with --slurm: write the sbatch script and do not submit it");
  sweep->add_option("--points-per-task", args.points_per_task,
                    "with --slurm: points per array task (default 1; more for sweeps beyond the cluster's MaxArraySize)")
      ->check(CLI::Range(1u, 1u << 20));
  sweep->add_option("--throttle", args.throttle, "with --slurm: array tasks at once (the array's %)")->check(CLI::Range(1u, 1u << 20));
  sweep->add_option("--partition", args.partition, "with --slurm: sbatch --partition");
  sweep->add_option("--time", args.time, "with --slurm: sbatch --time, per array task");
  sweep->add_option("--mem", args.mem, "with --slurm: sbatch --mem, per array task");
  sweep->add_option("--junit", args.junit, "after the run, the points run as a JUnit XML report's test cases (CI reads it)")
      ->check(kPath);
  sweep->add_option("--sbatch-arg", args.sbatch_args, "with --slurm: one more #SBATCH option, as sbatch takes it (repeat)");

  args.status = sweep->add_subcommand("status", "Say which points are done, failed and missing");
  set_examples(*args.status, {"gpumem sweep status configs/examples/sweeps/channels.yaml"});
  args.status->add_option("spec", args.spec, "the sweep spec")->required()->check(kPath);
  args.merge = sweep->add_subcommand("merge", "One table of every point's axis values and metrics (CSV, or JSON by --out's extension)");
  set_examples(*args.merge, {"gpumem sweep merge configs/examples/sweeps/channels.yaml --out results.csv"});
  args.merge->add_option("spec", args.spec, "the sweep spec")->required()->check(kPath);
  args.merge->add_option("--out", args.out, "the table to write: .csv or .json")->required()->check(kPath);
  args.merge->add_option("--metrics", args.metrics,
                         "dotted paths into each point's stats JSON (default: the spec's metrics)")
      ->delimiter(',');
  args.merge->add_flag("--allow-partial", args.allow_partial, "merge the points that have an output, leaving out the rest");
  args.merge->add_option("--plot", args.plot, "also draw metric --y against axis --x, a line per value of --lines (PNG; needs python3-matplotlib)")
      ->check(kPath);
  args.merge->add_option("--junit", args.junit,
                         "also every point as a JUnit XML report's test case: passed, failed (its first divergence) or skipped (no output)")
      ->check(kPath);
  args.merge->add_option("--x", args.x, "with --plot: the axis along the x axis");
  args.merge->add_option("--y", args.y, "with --plot: the metric drawn (one of the merge's metrics)");
  args.merge->add_option("--lines", args.lines, "with --plot: an axis whose values each get a line");
  return sweep;
}

namespace {

// gpumem sweep merge: the points' outputs into one table, a JUnit report and a plot on demand.
int merge_points(const SweepArgs& a, const sweep::SweepSpec& spec, const std::vector<sweep::Point>& points) {
  const std::vector<std::string>& metrics = a.metrics.empty() ? spec.metrics : a.metrics;
  if (a.plot.empty() && (!a.x.empty() || !a.y.empty() || !a.lines.empty()))
    throw InputError("", 0, "--plot", "missing: --x, --y and --lines say what --plot draws");
  std::string python, plot_json;
  if (!a.plot.empty()) {
    if (a.x.empty() || a.y.empty()) throw InputError("", 0, a.x.empty() ? "--x" : "--y", "missing: --plot needs --x AXIS and --y METRIC");
    plot_json = sweep::sweep_plot_json(sweep::merged_table(spec, points, metrics, a.allow_partial), a.x, a.y, a.lines);
    python = plot_python();  // before the merge writes anything
  }
  if (!a.junit.empty())  // before the merge, which refuses a sweep with failed points unless --allow-partial
    write_output_file(a.junit, "--junit", sweep::sweep_junit(spec, points, sweep::sweep_status(spec, points)));
  const std::string coverage = sweep::merge_sweep(spec, points, metrics, a.allow_partial, a.out);
  std::cout << "merged       " << a.out << "\n" << coverage;
  if (!a.plot.empty()) {
    const TemporaryFile json(plot_json);
    run_plot_script(python, json.path(), a.plot);
    std::cout << "plot         " << a.plot << "\n";
  }
  return 0;

}

// gpumem sweep --slurm: the points not yet whole as a job array.
int submit_points(const SweepArgs& a, const sweep::SweepSpec& spec, const std::vector<sweep::Point>& points, const std::string& gpumem) {
  if (a.point >= 0) throw InputError("", 0, "--point", "runs here, in an array task; --slurm submits the array");
  sweep::SlurmOptions so;
  so.points_per_task = a.points_per_task;
  so.throttle = a.throttle;
  so.partition = a.partition;
  so.time = a.time;
  so.mem = a.mem;
  so.sbatch_args = a.sbatch_args;
  so.retries = a.retries;
  so.emit_only = a.emit_only;
  std::vector<size_t> todo;
  for (const sweep::Point& p : points)
    if (!a.resume || !sweep::point_is_whole(spec, p)) todo.push_back(p.index);
  if (todo.empty()) {
    std::cout << "sweep        every point is whole: nothing to submit\n";
    return 0;
  }
  const sweep::Submission sub = sweep::submit_array(spec, gpumem, sweep::chunks_of(todo, a.points_per_task), so);
  std::cout << "script       " << sub.script << "\n";
  if (sub.job.empty())
    std::cout << "not submitted (--emit-only): sbatch " << sub.script << "\n";
  else
    std::cout << "submitted    job " << sub.job << ": " << sub.tasks << " array task" << (sub.tasks == 1 ? "" : "s") << " for "
              << todo.size() << " points (gpumem sweep status " << a.spec << " follows it)\n";
  return 0;

}

// The points run here: all, or --point's chunk (an array task's).
int run_points_here(const SweepArgs& a, const sweep::SweepSpec& spec, const std::vector<sweep::Point>& points, const std::string& gpumem) {
  std::vector<sweep::Point> chosen = points;
  if (a.point >= 0) {
    const size_t first = static_cast<size_t>(a.point) * a.points_per_task;
    if (first >= points.size())
      throw InputError("", 0, "--point",
                       std::to_string(a.point) + " is beyond the sweep's " + std::to_string(points.size()) + " points" +
                           (a.points_per_task > 1 ? " in chunks of " + std::to_string(a.points_per_task) : "") + " (0 to " +
                           std::to_string((points.size() - 1) / a.points_per_task) + ")");
    chosen.assign(points.begin() + static_cast<long>(first),
                  points.begin() + static_cast<long>(std::min(points.size(), first + a.points_per_task)));
  } else if (a.points_per_task != 1) {
    throw InputError("", 0, "--points-per-task", "needs --slurm or --point");
  }
  sweep::RunOptions o;
  o.gpumem = gpumem;
  o.jobs = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  o.retries = a.retries;
  o.resume = a.resume;
  o.progress = isatty(STDERR_FILENO) ? &std::cerr : nullptr;
  std::optional<OutputFile> junit;  // opened now: an unwritable path stops the sweep before it runs
  if (!a.junit.empty()) junit.emplace(a.junit, "--junit");
  const sweep::RunSummary s = sweep::run_points(spec, chosen, o);
  if (junit) {
    std::fputs(sweep::sweep_junit(spec, chosen, sweep::sweep_status(spec, chosen)).c_str(), junit->stream());
    junit->commit();
  }
  std::cout << "sweep        " << s.ran << " ran, " << s.skipped << " already whole, " << s.failed << " failed of "
            << chosen.size() << " points\noutputs      " << spec.output << "/points\n";
  for (const std::string& f : s.failures) std::cout << "failed       " << f << "\n";
  if (s.interrupted) {
    std::cout << "interrupted  the finished points are whole; gpumem sweep --resume runs the rest\n";
    return 1;
  }
  return s.failed ? 1 : 0;
}

}  // namespace

int sweep_command(const SweepArgs& a) {
  if (a.spec.empty()) throw InputError("", 0, "spec", "missing: gpumem sweep SPEC.yaml (or sweep status / sweep merge SPEC.yaml)");
  const sweep::SweepSpec spec = sweep::load_sweep_spec(a.spec);
  // Every point is validated before anything runs; status and merge read
  // outputs and need only the points' identities.
  const bool reading = (a.status && *a.status) || (a.merge && *a.merge);
  const std::vector<sweep::Point> points = sweep::all_points(spec, !reading);

  if (a.status && *a.status) {
    std::cout << sweep::status_report(sweep::sweep_status(spec, points, sweep::queued_points(spec, points.size())), points);
    return 0;
  }
  if (a.merge && *a.merge) return merge_points(a, spec, points);
  if (!a.junit.empty() && (a.list || a.slurm))
    throw InputError("", 0, "--junit", std::string("reports points run here; with ") + (a.list ? "--list" : "--slurm") +
                                           " none are (gpumem sweep merge --junit reports a Slurm array's)");
  if (a.list) {
    for (const sweep::Point& p : points) std::cout << p.index << " " << p.hash << " " << p.label << "\n";
    return 0;
  }
  const std::string gpumem = running_program();
  const std::pair<bool, const char*> slurm_only[] = {{a.emit_only, "--emit-only"}, {a.throttle != 0, "--throttle"},
                                                     {!a.partition.empty(), "--partition"}, {!a.time.empty(), "--time"},
                                                     {!a.mem.empty(), "--mem"}, {!a.sbatch_args.empty(), "--sbatch-arg"}};
  for (const auto& [given, flag] : slurm_only)
    if (given && !a.slurm) throw InputError("", 0, flag, "needs --slurm (it shapes the job array)");
  if (a.slurm) return submit_points(a, spec, points, gpumem);
  return run_points_here(a, spec, points, gpumem);
}

}  // namespace gpumem::cli
