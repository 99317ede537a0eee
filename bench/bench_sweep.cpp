// gpumem sweep, measured in one run (docs/performance.md, "Sweeps"):
//   - 40 small points with --jobs 2 against --jobs 1 (goal: at least 1.8 on
//     two cores);
//   - the runner's own time per point: the --jobs 1 sweep against the same
//     40 commands run one after another without it (goal: under 20 ms);
//   - merging 10,000 point outputs (goal: under 5 s), the outputs made here
//     from one real point's files under each point's hash.
//   gpumem_bench_sweep [--requests N]
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <CLI/CLI.hpp>

#include "base/child_process.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_spec.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kGpumem = GPUMEM_BINARY;

// Seconds `argv` (gpumem and its arguments) takes in `folder`, its output dropped.
double timed(const std::vector<std::string>& argv, const std::string& folder = "") {
  gpumem::ChildSetup quiet;
  quiet.out = quiet.err = "/dev/null";
  quiet.folder = folder;
  const auto t0 = Clock::now();
  if (gpumem::run_child(argv, quiet) != 0) {
    std::string command;
    for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
    std::fprintf(stderr, "failed: %s%s\n", command.c_str(), folder.empty() ? "" : (" (in " + folder + ")").c_str());
    std::exit(1);
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long requests = 500000;
  CLI::App app{"gpumem sweep: parallel speed-up, the runner's own cost per point, and merging 10,000 points"};
  app.add_option("--requests", requests, "requests of each of the 40 points (default 500000)");
  CLI11_PARSE(app, argc, argv);

  char tmpl[] = "/tmp/gpumem-bench-sweep-XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const fs::path dir = tmpl;
  std::ofstream(dir / "base.yaml") << "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n"
                                   << "  - {kind: strided, count: " << requests << ", stride: 4096}\n";
  std::ofstream(dir / "forty.yaml") << "base: base.yaml\naxes:\n  workload[0].stride: [64, 128, 256, 512, 1024, 2048, 4096, "
                                       "8192, 16384, 32768]\n  memory.max_outstanding: [8, 16, 32, 64]\n";
  const std::string spec = (dir / "forty.yaml").string();

  // Each --jobs count twice, alternating, the sweep's folder emptied between.
  double one = 0, two = 0;
  for (int round = 0; round < 2; ++round) {
    fs::remove_all(dir / "forty.sweep");
    one += timed({kGpumem, "sweep", spec, "--jobs", "1"});
    fs::remove_all(dir / "forty.sweep");
    two += timed({kGpumem, "sweep", spec, "--jobs", "2"});
  }
  // The same 40 commands without the sweep, in the point folders the last run left.
  const gpumem::sweep::SweepSpec s = gpumem::sweep::load_sweep_spec(spec);
  const std::vector<gpumem::sweep::Point> points = gpumem::sweep::all_points(s);
  double direct = 0;
  for (int round = 0; round < 2; ++round)
    for (const gpumem::sweep::Point& p : points) {
      std::vector<std::string> argv{kGpumem};
      for (const std::string& a : gpumem::sweep::point_arguments(s, p)) argv.push_back(a);
      direct += timed(argv, gpumem::sweep::point_folder(s, p));
    }
  std::printf("40 points of %lu requests, two rounds each:\n", requests);
  std::printf("  --jobs 1        %7.2f s\n  --jobs 2        %7.2f s\n  without sweep   %7.2f s\n", one, two, direct);
  std::printf("  ratio_jobs2_to_jobs1: %.2f  (goal >= 1.8)\n", one / two);
  std::printf("  runner_ms_per_point: %.1f  (goal < 20)\n", (one - direct) / 80 * 1e3);

  // 10,000 outputs: one real point's files under each of 10,000 hashes.
  std::string values;
  for (int v = 1; v <= 100; ++v) values += (v > 1 ? ", " : "") + std::to_string(v * 64);
  std::ofstream(dir / "big.yaml") << "base: base.yaml\naxes:\n  workload[0].stride: [" << values << "]\n  workload[0].count: ["
                                  << values << "]\n";
  const gpumem::sweep::SweepSpec big = gpumem::sweep::load_sweep_spec((dir / "big.yaml").string());
  const fs::path model = gpumem::sweep::point_folder(s, points.front());
  const auto t0 = Clock::now();
  for (const gpumem::sweep::Point& p : gpumem::sweep::all_points(big, false)) {
    const fs::path f = gpumem::sweep::point_folder(big, p);
    fs::create_directories(f);
    for (const char* name : {"stats.json", "point.json", "config.yaml"}) fs::copy_file(model / name, f / name);
  }
  const double made = std::chrono::duration<double>(Clock::now() - t0).count();
  const double merge = timed({kGpumem, "sweep", "merge", (dir / "big.yaml").string(), "--out", (dir / "big.csv").string(),
                              "--metrics", "requests,makespan,channel_imbalance"});
  std::printf("10000 point outputs (made in %.1f s):\n  merge_seconds: %.2f  (goal < 5)\n", made, merge);
  fs::remove_all(dir);
  return 0;
}
