// `gpumem sweep --slurm` on a real one-node Slurm cluster
// (scripts/slurm-local.sh: Debian's slurm-wlm and munge, started for this
// test in a folder of its own): a 12-point sweep as a job array merges to
// the same bytes as the same sweep run locally; an array task cancelled
// with scancel leaves its point missing, status says so, and --resume
// --slurm submits that point alone; a failing point reports its stderr.
// CTest label `slurm` (docs/sweeps.md, "On a cluster").
#include <chrono>
#include <thread>

#include "cli_helpers.hpp"
#include "readme_commands.hpp"

namespace gpumem::test {
namespace {

const char* const kBase =
    "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n  - {kind: strided, count: 2000, stride: 4096}\n";
const char* const kAxes =
    "axes:\n"
    "  workload[0].stride: [256, 4096, 65536]\n"
    "  memory.max_outstanding: [8, 16]\n"
    "zip:\n"
    "  - {memory.channels: [2, 4], translator.channel_bits: [[8], [8, 9]]}\n"
    "metrics: [requests, channel_imbalance, makespan]\n";

class Slurm : public Cli {
 protected:
  void SetUp() override {
    Cli::SetUp();
    cluster_ = (dir_ / "cluster").string();
    const std::string cmd = kSource + "/scripts/slurm-local.sh start '" + cluster_ + "' > '" + (dir_ / "start.txt").string() + "' 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(dir_ / "start.txt");
    env_ = "SLURM_CONF=" + cluster_ + "/slurm.conf";
  }
  void TearDown() override {
    const std::string cmd = kSource + "/scripts/slurm-local.sh stop '" + cluster_ + "' >/dev/null 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    Cli::TearDown();
  }
  Result sweep(std::vector<std::string> args) const {
    args.insert(args.begin(), "sweep");
    return run_env({env_}, args);
  }
  // A Slurm client command's output.
  std::string client(const std::string& command) const {
    const std::string out = (dir_ / "client.txt").string();
    EXPECT_EQ(std::system((env_ + " " + command + " > '" + out + "' 2>&1").c_str()), 0) << command << ": " << slurp(out);
    return slurp(out);
  }
  // Until squeue no longer lists the job (at most a minute).
  void wait_for(const std::string& job) const {
    for (int i = 0; i < 600; ++i) {
      if (client("squeue -h -j " + job + " -o %i").empty()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "job " << job << " still queued after a minute";
  }
  static std::string job_of(const Result& r) {
    const std::string key = "submitted    job ";
    const size_t at = r.out.find(key);
    EXPECT_NE(at, std::string::npos) << r.out << r.err;
    return at == std::string::npos ? "" : r.out.substr(at + key.size(), r.out.find(':', at) - at - key.size());
  }
  std::string cluster_, env_;
};

TEST_F(Slurm, AJobArrayMergesToTheBytesOfALocalRun) {
  write("base.yaml", kBase);
  const std::string local = write("local.yaml", std::string("base: base.yaml\n") + kAxes).string();
  const std::string cluster = write("cluster.yaml", std::string("base: base.yaml\n") + kAxes).string();
  ASSERT_EQ(sweep({local, "--jobs", "2"}).exit_code, 0);
  const Result submitted = sweep({cluster, "--slurm", "--throttle", "4"});
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out << submitted.err;
  EXPECT_NE(submitted.out.find(": 12 array tasks for 12 points"), std::string::npos) << submitted.out;
  wait_for(job_of(submitted));
  const Result status = sweep({"status", cluster});
  EXPECT_NE(status.out.find("12 points: 12 done, 0 failed, 0 missing"), std::string::npos) << status.out;
  ASSERT_EQ(sweep({"merge", local, "--out", path("local.csv").string()}).exit_code, 0);
  ASSERT_EQ(sweep({"merge", cluster, "--out", path("cluster.csv").string()}).exit_code, 0);
  const std::string table = slurp(path("local.csv"));
  EXPECT_EQ(slurp(path("cluster.csv")), table);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 13);
  // Chunks: 12 points in 3 array tasks of 5, 5 and 2.
  const std::string chunked = write("chunked.yaml", std::string("base: base.yaml\n") + kAxes).string();
  const Result chunks = sweep({chunked, "--slurm", "--points-per-task", "5"});
  EXPECT_NE(chunks.out.find(": 3 array tasks for 12 points"), std::string::npos) << chunks.out;
  wait_for(job_of(chunks));
  ASSERT_EQ(sweep({"merge", chunked, "--out", path("chunked.csv").string()}).exit_code, 0);
  EXPECT_EQ(slurp(path("chunked.csv")), slurp(path("local.csv")));
}

TEST_F(Slurm, ACancelledTaskIsMissingAndResumeSubmitsItAlone) {
  // Points long enough (a few tenths of a second) to cancel one before it ends.
  write("base.yaml", "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n"
                     "  - {kind: strided, count: 3000000, stride: 256}\n");
  const std::string spec = write("s.yaml", "base: base.yaml\naxes:\n  memory.max_outstanding: [8, 9, 10, 11]\n").string();
  const Result submitted = sweep({spec, "--slurm", "--throttle", "1"});
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out << submitted.err;
  const std::string job = job_of(submitted);
  client("scancel " + job + "_2");  // pending behind the throttle, or running
  const Result queued = sweep({"status", spec});
  EXPECT_NE(queued.out.find(" queued, "), std::string::npos) << queued.out;
  wait_for(job);
  const Result status = sweep({"status", spec});
  EXPECT_NE(status.out.find("4 points: 3 done, 0 failed, 1 missing\nmissing  point 2 (memory.max_outstanding=10)\n"),
            std::string::npos)
      << status.out;
  const Result resumed = sweep({spec, "--slurm", "--resume"});
  EXPECT_NE(resumed.out.find(": 1 array task for 1 points"), std::string::npos) << resumed.out;
  EXPECT_NE(slurp(path("s.sweep/slurm/sweep-2.sbatch")).find("#SBATCH --array=2\n"), std::string::npos);
  wait_for(job_of(resumed));
  EXPECT_NE(sweep({"status", spec}).out.find("4 points: 4 done, 0 failed, 0 missing"), std::string::npos);
}

TEST_F(Slurm, AFailingPointReportsItsStderr) {
  write("base.yaml", kBase);
  const std::string spec = write("s.yaml", "base: base.yaml\naxes:\n  flags: ['', '--colour red']\n").string();
  const Result submitted = sweep({spec, "--slurm"});
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out << submitted.err;
  wait_for(job_of(submitted));
  const Result status = sweep({"status", spec});
  EXPECT_NE(status.out.find("2 points: 1 done, 1 failed, 0 missing\nfailed   point 1 (flags=--colour red): exit 2: gpumem: "
                            "error: unknown option '--colour' (gpumem run --help)\n"),
            std::string::npos)
      << status.out;
}

// README.md's --slurm line, as written, from the page (the other lines of
// its "Using it" block run in Readme.EveryUsingItLineRuns): every point of
// its spec done when the array ends.
TEST_F(Slurm, TheReadmesSlurmLineRunsAsAJobArray) {
  std::vector<ReadmeCommand> lines;
  for (const ReadmeCommand& c : readme_commands())
    if (c.command.find(" --slurm") != std::string::npos) lines.push_back(c);
  ASSERT_EQ(lines.size(), 1u) << "README.md's \"Using it\" lines with --slurm";
  const ReadmeCommand& line = lines[0];
  ASSERT_GE(line.words.size(), 3u);
  ASSERT_EQ(line.words[1], "sweep") << line.text;
  const fs::path root = dir_ / "repo";
  stage_readme_inputs(root, lines);
  const ReadmeRun r = run_readme_command(line.command, root, dir_, env_);
  ASSERT_EQ(r.exit_code, 0) << "README.md:" << line.line << ": " << line.command << "\n" << r.out << r.err;
  wait_for(job_of({r.exit_code, r.out, r.err}));
  const Result status = sweep({"status", (root / line.words[2]).string()});
  EXPECT_NE(status.out.find(" done, 0 failed, 0 missing"), std::string::npos) << status.out;
}

}  // namespace
}  // namespace gpumem::test
