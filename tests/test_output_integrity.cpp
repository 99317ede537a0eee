// Determinism and no lost data (docs/reliability.md, "Output files"): the
// same config and seed give byte-identical outputs, run after run and run
// beside run; a stopped run leaves whole files for what it simulated; a
// killed one leaves nothing half-written under a final name.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

struct Process {
  pid_t pid = -1;
};

// gpumem started with its output to files in `dir`, the way an interactive
// shell starts a command: SIGINT and SIGTERM at their defaults.
Process start(const std::vector<std::string>& args, const fs::path& dir) {
  Process p;
  p.pid = fork();
  if (p.pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
    if (!freopen(out.c_str(), "w", stdout) || !freopen(err.c_str(), "w", stderr)) _exit(126);
    std::vector<char*> argv{const_cast<char*>(GPUMEM_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(GPUMEM_BINARY, argv.data());
    _exit(127);
  }
  return p;
}

int wait_for(const Process& p) {
  int status = 0;
  waitpid(p.pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

// Until the file exists and holds `bytes`, at most 60 s.
bool wait_for_bytes(const fs::path& p, uintmax_t bytes) {
  for (int i = 0; i < 6000; ++i) {
    std::error_code ec;
    if (fs::exists(p, ec) && fs::file_size(p, ec) >= bytes) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

fs::path partial_path_of(const std::string& final_path, pid_t pid) {
  return final_path + ".partial-" + std::to_string(pid);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class Outputs : public Cli {
 protected:
  // The default config with a workload long enough to stop part-way
  // (tens of seconds): the same requests, a hundred times as many.
  fs::path long_config() const {
    std::string text = slurp(kSource + "/configs/default.yaml");
    const std::string from = "count: 200000,", to = "count: 20000000,";
    size_t n = 0;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()), ++n)
      text.replace(at, from.size(), to);
    EXPECT_GT(n, 0u) << "configs/default.yaml no longer has 'count: 200000,'; make the workload long another way";
    return write("long.yaml", text);
  }
  std::vector<std::string> leftovers() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename().string().find(".partial-") != std::string::npos) out.push_back(e.path().filename());
    return out;
  }
};

// Every example config, run twice one after the other and twice side by
// side (as under ctest -j2 or two users' jobs): the same bytes each time.
TEST_F(Outputs, StatsJsonAndTransactionLogAreByteIdenticalAcrossRunsAndSideBySide) {
  std::vector<std::string> configs{kSource + "/configs/default.yaml"};
  for (const auto& e : fs::directory_iterator(kSource + "/configs/examples"))
    if (e.path().extension() == ".yaml") configs.push_back(e.path().string());
  std::sort(configs.begin(), configs.end());
  for (const std::string& config : configs) {
    auto args = [&](const std::string& tag) {
      std::vector<std::string> a{"run", "--config", config, "--quiet", "--stats-json",
                                 path(tag + ".json").string(), "--txn-log", path(tag + ".csv").string()};
      // A config without a workload is for another simulator's trace (physical-addresses.yaml).
      if (slurp(config).find("\nworkload:") == std::string::npos)
        a.insert(a.end(), {"--trace", kSource + "/tests/data/importers/dramsim3.trace", "--trace-format", "dramsim3"});
      return a;
    };
    ASSERT_EQ(run(args("first")).exit_code, 0) << config;
    ASSERT_EQ(run(args("second")).exit_code, 0) << config;
    fs::create_directories(path("a"));
    fs::create_directories(path("b"));
    const Process a = start(args("side-a"), path("a")), b = start(args("side-b"), path("b"));
    ASSERT_EQ(wait_for(a), 0) << config << slurp(path("a/stderr"));
    ASSERT_EQ(wait_for(b), 0) << config << slurp(path("b/stderr"));
    const std::string json = slurp(path("first.json")), log = slurp(path("first.csv"));
    EXPECT_NE(json.find("\"complete\": true"), std::string::npos) << config;
    EXPECT_GT(lines_of(log).size(), 1u) << config;
    for (const char* other : {"second", "side-a", "side-b"}) {
      EXPECT_TRUE(slurp(path(std::string(other) + ".json")) == json) << config << ": " << other << ".json differs";
      EXPECT_TRUE(slurp(path(std::string(other) + ".csv")) == log) << config << ": " << other << ".csv differs";
    }
  }
}

// The waves of a failing co-simulation: the same bytes from two runs (the
// FST header's wall-clock date is replaced by the run's identity).
TEST_F(Outputs, MismatchWavesAreByteIdenticalAcrossRuns) {
  const std::vector<std::string> args{"cosim", "--config", kSource + "/configs/default.yaml", "--transactions", "20000",
                                      "--hang-cycles", "2", "--waves", path("w").string()};
  ASSERT_EQ(run(args).exit_code, 1);
  fs::rename(path("w"), path("first"));
  ASSERT_EQ(run(args).exit_code, 1);
  const std::string fst = slurp(path("w/translator-seed1.fst"));
  ASSERT_GT(fst.size(), 202u + 119u);
  EXPECT_EQ(fst.substr(202, 52), "gpumem cosim translator seed 1, first failure at cyc");
  for (const char* file : {"translator-seed1.fst", "translator-seed1.replay", "translator-seed1.gtkw"})
    EXPECT_TRUE(slurp(path("first") / file) == slurp(path("w") / file)) << file << " differs between two runs of one seed";
  for (const auto& e : fs::directory_iterator(path("w")))
    EXPECT_EQ(e.path().filename().string().find(".partial-"), std::string::npos) << e.path();
}

// SIGINT or SIGTERM part-way: the run ends at the next request, prints its
// report for what it simulated, says so on stderr, writes both files whole
// (the JSON marked incomplete, the log with exactly the simulated requests)
// and exits 128 + the signal.
TEST_F(Outputs, AnInterruptedRunWritesWholeFilesForWhatItSimulatedAndSaysSo) {
  const fs::path config = long_config();
  for (const int sig : {SIGINT, SIGTERM}) {
    const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    const std::string json_path = path(name + ".json").string(), log_path = path(name + ".csv").string();
    const Process p = start({"run", "--config", config.string(), "--stats-json", json_path, "--txn-log", log_path}, dir_);
    // Part-way: a megabyte of log written (about 10 000 of 80 million requests).
    ASSERT_TRUE(wait_for_bytes(partial_path_of(log_path, p.pid), 1 << 20)) << name;
    EXPECT_FALSE(fs::exists(json_path)) << "the JSON appeared before the run ended";
    EXPECT_FALSE(fs::exists(log_path)) << "the log appeared under its name before the run ended";
    kill(p.pid, sig);
    EXPECT_EQ(wait_for(p), 128 + sig) << name << ": " << slurp(path("stderr"));

    const nlohmann::json j = json(name + ".json");
    ASSERT_FALSE(j.is_discarded()) << name << ": the stats JSON does not parse";
    const uint64_t requests = j.at("requests").get<uint64_t>();
    EXPECT_GT(requests, 0u);
    EXPECT_LT(requests, 80000000u) << "the run was not stopped";
    EXPECT_EQ(j.at("complete"), false);
    const std::string what = "interrupted by " + name + " after " + std::to_string(requests) + " requests";
    EXPECT_EQ(j.at("error"), what);
    EXPECT_EQ(slurp(path("stderr")), "gpumem: " + what + "; the report, " + json_path + " (\"complete\": false) and " +
                                         log_path + " hold those requests only\n");
    EXPECT_NE(slurp(path("stdout")).find("simulated " + std::to_string(requests) + " requests"), std::string::npos);

    const std::string log = slurp(log_path);
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log.back(), '\n') << "the log ends part-way through a line";
    const std::vector<std::string> lines = lines_of(log);
    EXPECT_EQ(lines.size(), requests + 1) << "one line per simulated request after the header";
    EXPECT_EQ(std::count(lines.back().begin(), lines.back().end(), ','), 19) << lines.back();
    EXPECT_EQ(lines.back().substr(0, lines.back().find(',')), std::to_string(requests - 1));
    EXPECT_TRUE(leftovers().empty());
  }
}

// A run killed outright (SIGKILL: no handler runs, as in a crash) leaves
// the older files under the final names untouched; only its temporary
// files remain.
TEST_F(Outputs, AKilledRunLeavesNoHalfWrittenFileUnderAFinalName) {
  const fs::path config = long_config();
  const std::string json_path = path("s.json").string(), log_path = path("t.csv").string();
  write("s.json", "{\"older\": true}\n");
  write("t.csv", "older log\n");
  const Process p = start({"run", "--config", config.string(), "--stats-json", json_path, "--txn-log", log_path}, dir_);
  ASSERT_TRUE(wait_for_bytes(partial_path_of(log_path, p.pid), 1 << 20));
  kill(p.pid, SIGKILL);
  EXPECT_EQ(wait_for(p), 128 + SIGKILL);
  EXPECT_EQ(slurp(json_path), "{\"older\": true}\n");
  EXPECT_EQ(slurp(log_path), "older log\n");
  std::vector<std::string> left = leftovers();
  std::sort(left.begin(), left.end());
  const std::string pid = std::to_string(p.pid);
  EXPECT_EQ(left, (std::vector<std::string>{"s.json.partial-" + pid, "t.csv.partial-" + pid}));
}

}  // namespace
}  // namespace gpumem::test
