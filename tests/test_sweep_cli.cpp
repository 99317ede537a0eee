// `gpumem sweep` on this machine (docs/sweeps.md): every point runs as its
// own process into an output that is whole or absent, reruns are
// byte-identical, --resume runs only what is missing, a failing point is
// recorded with its stderr without stopping the others, and merge refuses
// a sweep with holes unless told.
#include <signal.h>

#include <chrono>
#include <functional>
#include <thread>

#include "base/child_process.hpp"
#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

const char* const kBase =
    "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n  - {kind: strided, count: 2000, stride: 4096}\n";

std::vector<fs::path> point_folders(const fs::path& sweep) {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(sweep / "points")) v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

TEST_F(Cli, SweepRunsEveryPointResumesAndMergesOneTable) {
  write("base.yaml", kBase);
  const std::string spec = write("s.yaml",
                                 "base: base.yaml\n"
                                 "axes:\n"
                                 "  workload[0].stride: [256, 4096, 65536]\n"
                                 "zip:\n"
                                 "  - {memory.channels: [2, 4], translator.channel_bits: [[8], [8, 9]]}\n"
                                 "metrics: [requests, channel_imbalance]\n")
                               .string();
  const Result r = run({"sweep", spec, "--jobs", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("6 ran, 0 already whole, 0 failed of 6 points"), std::string::npos) << r.out;
  const std::vector<fs::path> folders = point_folders(path("s.sweep"));
  ASSERT_EQ(folders.size(), 6u);
  for (const char* f : {"config.yaml", "stats.json", "point.json", "log.txt", "stderr.txt"})
    EXPECT_TRUE(fs::is_regular_file(folders[0] / f)) << f;

  const Result merged = run({"sweep", "merge", spec, "--out", path("r.csv").string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const std::string csv = slurp(path("r.csv"));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "index,hash,workload[0].stride,memory.channels,translator.channel_bits,requests,channel_imbalance");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  // 256-byte stride over 2 channels spreads evenly; 4096 lands on one channel of 4.
  EXPECT_NE(csv.find(",256,2,[8],2000,1.0\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",4096,4,\"[8, 9]\",2000,4.0\n"), std::string::npos) << csv;
  ASSERT_EQ(run({"sweep", "merge", spec, "--out", path("r.json").string(), "--metrics", "channels[0].requests"}).exit_code, 0);
  const nlohmann::json j = json("r.json");
  ASSERT_EQ(j.size(), 6u);
  EXPECT_EQ(j[0]["memory.channels"], 2);
  EXPECT_EQ(j[0]["channels[0].requests"], 1000);
  // A slip in a metric's path: the nearest path of a point's stats JSON.
  const Result slip = run({"sweep", "merge", spec, "--out", path("s.csv").string(), "--metrics", "channels[0].requsts"});
  EXPECT_EQ(slip.exit_code, 2);
  EXPECT_EQ(slip.err, "gpumem: error: " + spec + ": --metrics: 'channels[0].requsts' is in no point's stats JSON (a dotted path such as "
                      "channels[0].requests); did you mean 'channels[0].requests'?\n");

  // A rerun replaces every point with the same bytes, its report too (--no-timing).
  std::map<std::string, std::string> before;
  for (const fs::path& f : folders)
    for (const char* name : {"config.yaml", "stats.json", "point.json", "log.txt", "stderr.txt"})
      before[(f / name).string()] = slurp(f / name);
  EXPECT_NE(slurp(folders[0] / "log.txt").find("\nsimulated 2000 requests\n"), std::string::npos) << slurp(folders[0] / "log.txt");
  ASSERT_EQ(run({"sweep", spec, "--jobs", "2"}).exit_code, 0);
  for (const auto& [file, text] : before) EXPECT_TRUE(slurp(file) == text) << file << " differs after a rerun";

  // --resume: nothing to do; one point removed is the only one run again.
  const Result resumed = run({"sweep", spec, "--resume"});
  EXPECT_NE(resumed.out.find("0 ran, 6 already whole, 0 failed of 6 points"), std::string::npos) << resumed.out;
  fs::remove_all(folders[3]);
  const Result status = run({"sweep", "status", spec});
  EXPECT_NE(status.out.find("6 points: 5 done, 0 failed, 1 missing\n"), std::string::npos) << status.out;
  const Result again = run({"sweep", spec, "--resume"});
  EXPECT_NE(again.out.find("1 ran, 5 already whole, 0 failed of 6 points"), std::string::npos) << again.out;
  EXPECT_EQ(slurp(folders[3] / "stats.json"), before[(folders[3] / "stats.json").string()]);
}

// A point that fails (here a flag its command does not have) is retried,
// then recorded with its exit status and stderr; the others finish; merge
// refuses the hole unless --allow-partial; a folder left by a killed point
// is never taken for a whole output.
TEST_F(Cli, SweepRecordsAFailedPointAndNeverReadsAPartialOne) {
  write("base.yaml", kBase);
  const std::string spec =
      write("s.yaml", "base: base.yaml\naxes:\n  workload[0].stride: [256, 4096]\n  flags: ['', '--colour red']\n").string();
  const Result r = run({"sweep", spec, "--jobs", "2", "--retries", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("2 ran, 0 already whole, 2 failed of 4 points"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("failed       point 1 (workload[0].stride=256 flags=--colour red): exit 2: gpumem: error: unknown option "
                       "'--colour' (gpumem run --help)\n"),
            std::string::npos)
      << r.out;
  const Result status = run({"sweep", "status", spec});
  EXPECT_NE(status.out.find("4 points: 2 done, 2 failed, 0 missing\n"), std::string::npos) << status.out;
  const Result merge = run({"sweep", "merge", spec, "--out", path("r.csv").string(), "--metrics", "requests"});
  EXPECT_EQ(merge.exit_code, 2);
  EXPECT_NE(merge.err.find("2 of 4 points have no output; failed: 1 (workload[0].stride=256 flags=--colour red); 3 ("),
            std::string::npos)
      << merge.err;
  EXPECT_FALSE(fs::exists(path("r.csv")));
  ASSERT_EQ(run({"sweep", "merge", spec, "--out", path("r.csv").string(), "--metrics", "requests", "--allow-partial"}).exit_code,
            0);
  const std::string csv = slurp(path("r.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;

  // What a point killed mid-write leaves: its partial folder, with a stats file.
  const std::vector<fs::path> whole = point_folders(path("s.sweep"));
  ASSERT_EQ(whole.size(), 2u);
  fs::remove_all(whole[0]);
  fs::create_directories(whole[0].string() + ".partial-999-1");
  std::ofstream(whole[0].string() + ".partial-999-1/stats.json") << "{\"requests\": 1";
  const Result after = run({"sweep", "status", spec});
  EXPECT_NE(after.out.find("4 points: 1 done, 2 failed, 1 missing\n"), std::string::npos) << after.out;
}

// gpumem sweep started as an interactive shell starts a command (SIGINT and
// SIGTERM at their defaults), its stdout and stderr to files in the folder.
pid_t start_sweep(const fs::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv{GPUMEM_BINARY, "sweep"};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildSetup setup;
  setup.in = "/dev/null";
  setup.out = (dir / "out.txt").string();
  setup.err = (dir / "err.txt").string();
  setup.folder = dir.string();
  setup.default_signals = true;
  return start_child(argv, setup);
}

// Until `ready` holds, at most 60 s. Its first true is the answer: asked
// again, a predicate over a folder the sweep is changing may say otherwise.
bool wait_until(const std::function<bool()>& ready) {
  for (int i = 0; i < 6000; ++i) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return ready();
}

// Whether a point of the sweep is whole, from one listing of its points
// (two listings, one for all and one for the partial, race a point's start).
bool a_point_is_whole(const fs::path& sweep) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sweep / "points", ec))
    if (e.path().filename().string().find(".partial") == std::string::npos) return true;
  return false;
}

// The processes that run in `dir` or below it: a sweep's points run in their folders.
std::vector<pid_t> processes_in(const fs::path& dir) {
  std::vector<pid_t> pids;
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::error_code ec;
    const std::string cwd = fs::read_symlink(e.path() / "cwd", ec).string();
    if (!ec && cwd.rfind(dir.string() + "/", 0) == 0) pids.push_back(std::atoi(e.path().filename().c_str()));
  }
  return pids;
}

// A failed test must not leave endless points running.
void kill_processes_in(const fs::path& dir) {
  for (const pid_t pid : processes_in(dir)) kill(pid, SIGKILL);
}

// Its exit code, or -1 after killing it when it has not ended in `seconds`.
int exit_within(pid_t pid, double seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > seconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return exit_code(status);
}

// Ctrl-C on a sweep: the finished points stay whole, the running one is
// killed and its partial folder removed, and --resume runs the rest.
TEST_F(Cli, SweepInterruptedLeavesFinishedPointsWholeAndNothingPartial) {
  write("base.yaml",
        "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n  - {kind: strided, count: 3000000, stride: 256}\n");
  const std::string spec = write("s.yaml", "base: base.yaml\naxes:\n  memory.max_outstanding: [8, 9, 10, 11, 12, 13, 14, 15]\n").string();
  const pid_t pid = start_sweep(dir_, {"s.yaml", "--jobs", "1"});
  ASSERT_GT(pid, 0);
  // SIGINT once its first point is whole.
  ASSERT_TRUE(wait_until([&] { return a_point_is_whole(path("s.sweep")); }));
  kill(pid, SIGINT);
  EXPECT_EQ(wait_child(pid), 1) << slurp(path("out.txt")) << slurp(path("err.txt"));
  EXPECT_NE(slurp(path("out.txt")).find("interrupted  the finished points are whole; gpumem sweep --resume runs the rest"),
            std::string::npos)
      << slurp(path("out.txt"));
  size_t whole = 0;
  for (const fs::path& f : point_folders(path("s.sweep"))) {
    EXPECT_EQ(f.filename().string().find(".partial"), std::string::npos) << f << " left behind";
    whole += fs::is_regular_file(f / "point.json");
  }
  EXPECT_GE(whole, 1u);
  EXPECT_LT(whole, 8u);
  EXPECT_TRUE(fs::is_empty(path("s.sweep/failed"))) << "an interrupted point is not a failed one";
  const Result status = run({"sweep", "status", spec});
  EXPECT_NE(status.out.find("8 points: " + std::to_string(whole) + " done, 0 failed, " + std::to_string(8 - whole) + " missing"),
            std::string::npos)
      << status.out;
}

// A sweep of four points that never end, two at a time, once both run and
// the sweep waits for them; its pid, or -1 (the test's failure said).
pid_t start_endless_sweep(const fs::path& dir) {
  std::ofstream(dir / "base.yaml")
      << "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n  - {kind: strided, count: 1000000000, stride: 256}\n";
  std::ofstream(dir / "s.yaml") << "base: base.yaml\naxes:\n  memory.max_outstanding: [8, 9, 10, 11]\n";
  const pid_t pid = start_sweep(dir, {"s.yaml", "--jobs", "2"});
  if (pid <= 0 || !wait_until([&] { return processes_in(dir / "s.sweep").size() == 2; })) {
    ADD_FAILURE() << "the sweep's two points did not start";
    if (pid > 0) kill(pid, SIGKILL);
    return -1;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  return pid;
}

// The stop does not wait for a running point to end: the sweep's wait for
// its points ends at the signal.
TEST_F(Cli, SweepStopsAtOnceWhilePointsRun) {
  const pid_t pid = start_endless_sweep(dir_);
  ASSERT_GT(pid, 0);
  kill(pid, SIGTERM);
  EXPECT_EQ(exit_within(pid, 10), 1) << "not ended 10 s after SIGTERM\n" << slurp(path("out.txt")) << slurp(path("err.txt"));
  EXPECT_NE(slurp(path("out.txt")).find("0 ran, 0 already whole, 0 failed of 4 points"), std::string::npos) << slurp(path("out.txt"));
  EXPECT_TRUE(point_folders(path("s.sweep")).empty()) << "partial folders left behind";
  EXPECT_TRUE(processes_in(path("s.sweep")).empty()) << "a point outlived the sweep";
  kill_processes_in(path("s.sweep"));
}

// A second signal while the sweep stops ends gpumem at once, as any command
// (docs/reliability.md), and its running points with it.
TEST_F(Cli, SweepEndsAtOnceOnASecondSignalAndItsPointsWithIt) {
  const pid_t pid = start_endless_sweep(dir_);
  ASSERT_GT(pid, 0);
  kill(pid, SIGINT);
  kill(pid, SIGTERM);
  EXPECT_EQ(exit_within(pid, 10), 128 + SIGTERM) << slurp(path("out.txt")) << slurp(path("err.txt"));
  EXPECT_NE(slurp(path("err.txt")).find("gpumem: interrupted by SIGTERM"), std::string::npos) << slurp(path("err.txt"));
  EXPECT_TRUE(wait_until([&] { return processes_in(path("s.sweep")).empty(); })) << "a point outlived gpumem";
  kill_processes_in(path("s.sweep"));
  // What it left is not an output: status counts every point missing.
  EXPECT_NE(run({"sweep", "status", path("s.yaml").string()}).out.find("4 points: 0 done, 0 failed, 4 missing"), std::string::npos);
}

// A soak over seeds reports coverage as one run would: merge adds every
// cosim point's bins (each point's `gpumem cosim --json`) and lists the bins
// no point hit.
TEST_F(Cli, SweepMergeOfCosimSeedsUnionsTheirCoverage) {
  const std::string spec = write("soak.yaml", "base: " + kSource + "/configs/default.yaml\ncommand: cosim\n"
                                 "flags: '--transactions 2000'\naxes:\n  seed: [1, 2, 3]\n").string();
  ASSERT_EQ(run({"sweep", spec, "--jobs", "2"}).exit_code, 0);
  const Result merged = run({"sweep", "merge", spec, "--out", path("soak.csv").string(), "--metrics", "transactions,result"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const std::string csv = slurp(path("soak.csv"));
  EXPECT_NE(csv.find(",1,2000,agreement\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",3,2000,agreement\n"), std::string::npos) << csv;
  // The union's counts are the points' sums; a bin is unhit only if no point hit it.
  uint64_t none = 0;
  std::map<std::string, uint64_t> bins;
  for (const fs::path& f : point_folders(path("soak.sweep"))) {
    const nlohmann::json j = nlohmann::json::parse(slurp(f / "stats.json"));
    EXPECT_EQ(j["result"], "agreement");
    for (const auto& g : j["coverage"])
      for (const auto& b : g["bins"]) bins[g["group"].get<std::string>() + ":" + b[0].get<std::string>()] += b[1].get<uint64_t>();
    none += j["coverage"][0]["bins"][0][1].get<uint64_t>();
  }
  EXPECT_NE(merged.out.find("coverage     scheme: none " + std::to_string(none) + " "), std::string::npos) << merged.out;
  const size_t unhit = merged.out.find("unhit bins   ");
  ASSERT_NE(unhit, std::string::npos) << merged.out;
  std::string listed = merged.out.substr(unhit, merged.out.find('\n', unhit) - unhit);
  // As in one run's report: at most 160 characters, the bins that do not fit counted.
  EXPECT_LE(listed.size(), 160u) << listed;
  size_t counted = 0;
  const size_t more = listed.find(" ... and ");
  if (more != std::string::npos) {
    counted = std::stoul(listed.substr(more + 9));
    EXPECT_NE(listed.find(" more unhit bins (each point's stats.json lists every bin)", more), std::string::npos) << listed;
    listed.erase(more);
  }
  size_t unhit_bins = 0, named = 0;
  for (const auto& [bin, n] : bins) {
    const std::string word = " " + bin;
    const bool at_end = listed.size() >= word.size() && listed.compare(listed.size() - word.size(), word.size(), word) == 0;
    const bool in_line = listed.find(word + " ") != std::string::npos || at_end;
    if (n == 0) {
      ++unhit_bins;
      named += in_line;
    } else if (bin.find(' ') == std::string::npos) {  // a name with blanks may match across two names
      EXPECT_FALSE(in_line) << bin << " hit " << n << " times; " << listed;
    }
  }
  EXPECT_GT(unhit_bins, 0u) << "2,000 transactions leave bins unhit";
  EXPECT_EQ(named + counted, unhit_bins) << "each unhit bin named or counted: " << listed;
}

// --junit: each point a JUnit XML test case, as CI reads them. A failed
// cosim point's message is its first divergence (its --json records it in
// the failure record); sweep merge writes the same report from the outputs,
// and a point without one is skipped.
TEST_F(Cli, SweepWritesItsPointsAsJUnitTestCases) {
  const std::string spec = write("soak.yaml", "base: " + kSource + "/configs/default.yaml\ncommand: cosim\n"
                                 "flags: '--transactions 1000 --block tlb'\naxes:\n  seed: [1, 2]\n"
                                 "  flags: ['', '--hang-cycles 1']\n").string();
  const Result r = run({"sweep", spec, "--jobs", "2", "--junit", path("sweep.xml").string()});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("failed       point 1 (seed=1 flags=--hang-cycles 1): exit 1: HANG (the watchdog stopped the run): "
                       "tlb hang: operation 1, cycle "),
            std::string::npos)
      << r.out;
  const std::string x = slurp(path("sweep.xml"));
  for (const char* s : {"<testsuite name=\"gpumem sweep soak.yaml\" tests=\"4\" failures=\"2\" errors=\"0\">\n",
                        "    <testcase classname=\"sweep.cosim\" name=\"point 0 (seed=1 flags=)\"/>\n",
                        "    <testcase classname=\"sweep.cosim\" name=\"point 3 (seed=2 flags=--hang-cycles 1)\">\n"
                        "      <failure message=\"HANG (the watchdog stopped the run): tlb hang: operation 1, cycle ",
                        "  rule:   hang: no handshake for 1 cycle\n", "</failure>\n    </testcase>\n"})
    EXPECT_NE(x.find(s), std::string::npos) << s << " not in:\n" << x;
  EXPECT_EQ(x.find(" time="), std::string::npos) << "the points ran with --no-timing: " << x;
  const Result status = run({"sweep", "status", spec});
  EXPECT_NE(status.out.find("failed   point 3 (seed=2 flags=--hang-cycles 1): exit 1: HANG (the watchdog stopped the run): "),
            std::string::npos)
      << status.out;

  // merge: the same report from the outputs, whether the merge then refuses the failed points or not.
  const Result refused = run({"sweep", "merge", spec, "--out", path("m.csv").string(), "--junit", path("merge.xml").string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_EQ(slurp(path("merge.xml")), x);
  const std::vector<fs::path> folders = point_folders(path("soak.sweep"));
  ASSERT_FALSE(folders.empty()) << "the sweep wrote no point folder";
  fs::remove_all(folders[0]);
  const Result partial = run({"sweep", "merge", spec, "--out", path("m.csv").string(), "--allow-partial", "--junit",
                              path("partial.xml").string()});
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  const std::string p = slurp(path("partial.xml"));
  EXPECT_NE(p.find("tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\">"), std::string::npos) << p;
  EXPECT_NE(p.find("<skipped message=\"no output\"/>"), std::string::npos) << p;
}

TEST_F(Cli, SweepRefusesABadPointBeforeRunningAny) {
  write("base.yaml", kBase);
  const std::string spec = write("s.yaml", "base: base.yaml\naxes:\n  memory.channels: [4, 8]\n").string();
  const Result r = run({"sweep", spec});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: " + spec +
                       ":3: memory.channels: point 1 (memory.channels=8): translator.channel_bits: 2 channel bits give 4 "
                       "channels but memory.channels is 8\n");
  EXPECT_FALSE(fs::exists(path("s.sweep")));
  const Result point = run({"sweep", write("t.yaml", "base: base.yaml\naxes:\n  memory.channels: [4]\n").string(), "--point", "1"});
  EXPECT_EQ(point.exit_code, 2);
  EXPECT_EQ(point.err, "gpumem: error: --point: 1 is beyond the sweep's 1 points (0 to 0)\n");
}

}  // namespace
}  // namespace gpumem::test
