// Determinism and no lost data (docs/reliability.md, "Output files"): the
// same config and seed give byte-identical outputs, run after run and run
// beside run; a stopped run leaves whole files for what it simulated; a
// killed one leaves nothing half-written under a final name.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
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

// Sends `sig` and waits for the exit: its status and the seconds between.
struct Stopped {
  int exit_code;
  double seconds;
};
Stopped stop(const Process& p, int sig) {
  const auto t0 = std::chrono::steady_clock::now();
  kill(p.pid, sig);
  const int code = wait_for(p);
  return {code, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

// issue 50's bound is 0.1 s on an idle host; the tests allow for a loaded
// one (ctest -j2 beside a build) and a cold page cache.
constexpr double kPromptExitSeconds = 0.5;

// The process's children: the processes whose parent it is (/proc, Linux).
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string all;
    if (!std::getline(stat, all)) continue;
    std::istringstream after(all.substr(all.rfind(')') + 1));  // past the command's name, which may hold spaces
    std::string state;
    pid_t parent = 0;
    if (after >> state >> parent && parent == pid) out.push_back(std::stoi(name));
  }
  return out;
}

// A process gone, or a zombie nobody has reaped yet, within `seconds`.
bool gone_within(pid_t pid, double seconds) {
  for (int i = 0; i < seconds * 100; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string all;
    if (!std::getline(stat, all)) return true;
    const size_t close = all.rfind(')');
    if (close != std::string::npos && close + 2 < all.size() && all[close + 2] == 'Z') return true;
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

// Every example config, run once and then twice side by side (as under
// ctest -j2 or two users' jobs), each pair from another folder: the same
// bytes each time, so across runs too.
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
    fs::create_directories(path("a"));
    fs::create_directories(path("b"));
    const Process a = start(args("side-a"), path("a")), b = start(args("side-b"), path("b"));
    ASSERT_EQ(wait_for(a), 0) << config << slurp(path("a/stderr"));
    ASSERT_EQ(wait_for(b), 0) << config << slurp(path("b/stderr"));
    const std::string json = slurp(path("first.json")), log = slurp(path("first.csv"));
    EXPECT_NE(json.find("\"complete\": true"), std::string::npos) << config;
    EXPECT_GT(lines_of(log).size(), 1u) << config;
    for (const char* other : {"side-a", "side-b"}) {
      EXPECT_TRUE(slurp(path(std::string(other) + ".json")) == json) << config << ": " << other << ".json differs";
      EXPECT_TRUE(slurp(path(std::string(other) + ".csv")) == log) << config << ": " << other << ".csv differs";
    }
  }
}

// --stats-json /dev/fd/1, as /dev/stdout (here stdout is a file, as
// `> file` makes it): the same JSON as into a file, beside the report, each
// whole; opened anew it would write over the report. (/dev/fd/1, not
// /dev/stdout: a build that renamed over it would fail here, not replace
// the host's /dev/stdout link as root.)
TEST_F(Outputs, StatsJsonToStdoutGoesBesideTheReport) {
  const std::string config = kSource + "/configs/default.yaml";
  ASSERT_EQ(run({"run", "--config", config, "--no-timing", "--stats-json", path("s.json").string()}).exit_code, 0);
  const std::string report = slurp(path("stdout"));
  const Result r = run({"run", "--config", config, "--no-timing", "--stats-json", "/dev/fd/1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = slurp(path("s.json"));
  EXPECT_TRUE(r.out == report + json || r.out == json + report) << "stdout holds the report and the stats JSON, each whole";
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

// Issue 50: Ctrl-C on a BFS `run --threads` ended 1.6 to 3 s later, always
// at the same request, because only the trace reader looked for it, and the
// blocks it had read held seconds of requests; the message counted the SMs'
// requests while the files count each element of a strided request. Now the
// SMs stop at the next request, in lt and at, and the message says both.
TEST_F(Outputs, AnInterruptedBfsRunEndsAtOnceAndItsMessageCountsWhatItsFilesCount) {
  ASSERT_EQ(run({"trace", "gen", "bfs", "--config", kSource + "/configs/examples/bfs.yaml", "--app", "bfs", "--region", "graph",
                 "--scale", "16", "--out", path("bfs16.bin").string(), "--quiet"})
                .exit_code,
            0);
  const std::string bfs = slurp(kSource + "/configs/examples/bfs.yaml");
  const std::string at = write("bfs-at.yaml", bfs + "simulation: {timing: at}\n").string();
  std::string with_memory_timing = slurp(at);
  const std::string sms = "frontend:\n";
  ASSERT_NE(with_memory_timing.find(sms), std::string::npos);
  with_memory_timing.insert(with_memory_timing.find(sms) + sms.size(), "  issue_timing: memory\n");
  write("bfs-at.yaml", with_memory_timing);
  for (const std::string& config : {kSource + "/configs/examples/bfs.yaml", at}) {
    const std::string json_path = path("s.json").string(), log_path = path("t.csv").string();
    fs::remove(json_path);
    fs::remove(log_path);
    const Process p = start({"run", "--config", config, "--threads", path("bfs16.bin").string(), "--stats-json", json_path,
                             "--txn-log", log_path},
                            dir_);
    // Well inside: 64 MB of the log's 400 (about 600 000 of 3.8 million requests).
    ASSERT_TRUE(wait_for_bytes(partial_path_of(log_path, p.pid), 64 << 20)) << config;
    const Stopped stopped = stop(p, SIGINT);
    EXPECT_EQ(stopped.exit_code, 130) << config << ": " << slurp(path("stderr"));
    EXPECT_LT(stopped.seconds, kPromptExitSeconds) << config << ": from SIGINT to the exit";

    const nlohmann::json j = json("s.json");
    ASSERT_FALSE(j.is_discarded()) << config;
    const uint64_t requests = j.at("requests").get<uint64_t>();
    uint64_t issued = 0;  // by the SMs; frontend.requests also counts those ordered but not yet issued
    for (const auto& sm : j.at("frontend").at("sms")) issued += sm.at("requests").get<uint64_t>();
    EXPECT_LT(requests, 3000000u) << config << ": the run was not stopped early";
    const std::vector<std::string> lines = lines_of(slurp(log_path));
    EXPECT_EQ(lines.size(), requests + 1) << config << ": one log line per request the JSON counts, after the header";
    std::string what = "interrupted by SIGINT after " + std::to_string(requests) + " requests";
    if (issued != requests)
      what += ", each element of a strided request counted as one (" + std::to_string(issued) + " as the SMs issued them)";
    EXPECT_EQ(j.at("error"), what) << config;
    EXPECT_EQ(slurp(path("stderr")), "gpumem: " + what + "; the report, " + json_path + " (\"complete\": false) and " +
                                         log_path + " hold those requests only\n")
        << config;
    EXPECT_TRUE(leftovers().empty()) << config;
  }
}

// gpumem cosim ends at the next cycle: its report for the transactions
// checked until then, `result interrupted`, and no JSON or waves (a part of
// a run would read as its result).
TEST_F(Outputs, AnInterruptedCosimReportsWhatItCheckedAndWritesNoFile) {
  for (const int sig : {SIGINT, SIGTERM}) {
    const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    const std::string json_path = path("c.json").string();
    const Process p = start({"cosim", "--config", kSource + "/configs/default.yaml", "--transactions", "1000000000",
                             "--json", json_path, "--waves", path("w").string()},
                            dir_);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const Stopped stopped = stop(p, sig);
    EXPECT_EQ(stopped.exit_code, 128 + sig) << name << ": " << slurp(path("stderr"));
    EXPECT_LT(stopped.seconds, kPromptExitSeconds) << name;
    const std::string out = slurp(path("stdout")), err = slurp(path("stderr"));
    std::smatch m;
    ASSERT_TRUE(std::regex_match(err, m, std::regex("gpumem: interrupted by " + name +
                                                    " after ([0-9]+) of 1000000000 transactions; the report holds those "
                                                    "only, " + json_path + " not written\n")))
        << err;
    EXPECT_GT(std::stoull(m[1]), 0u);
    EXPECT_NE(out.find("compared     " + m[1].str() + " transactions"), std::string::npos) << out;
    EXPECT_EQ(out.substr(out.rfind("result")), "result       interrupted\n") << out;
    EXPECT_FALSE(fs::exists(json_path));
    EXPECT_FALSE(fs::exists(path("w")) && !fs::is_empty(path("w")));
    EXPECT_TRUE(leftovers().empty());
  }
}

// Work with no loop that could end it cleanly (generating a trace, the
// mapping search, the prefetcher comparison's runs) exits at once, removes
// its temporary files, names what it did not write, and leaves no child
// running.
TEST_F(Outputs, OtherCommandsExitAtOnceOnASignalNamingWhatTheyDidNotWrite) {
  const std::string bfs = kSource + "/configs/examples/bfs-prefetch.yaml";
  ASSERT_EQ(run({"trace", "gen", "bfs", "--config", bfs, "--app", "bfs", "--region", "graph", "--scale", "16", "--out",
                 path("bfs16.bin").string(), "--quiet"})
                .exit_code,
            0);
  struct Case {
    std::vector<std::string> args;
    std::string not_written;  // the files the message names
    bool children;            // it runs child processes
    int sig = SIGINT;
  };
  const std::string gen = path("g.bin").string(), x = path("x.json").string(), y = path("x.yaml").string(),
                    cmp = path("cmp.json").string();
  const std::vector<Case> cases{
      {{"trace", "gen", "bfs", "--config", bfs, "--app", "bfs", "--region", "graph", "--scale", "18", "--out", gen}, gen, false},
      {{"explore", "--config", long_config().string(), "--json", x, "--emit-yaml", y}, x + ", " + y, false},
      {{"run", "--config", bfs, "--threads", path("bfs16.bin").string(), "--compare-prefetch", "--stats-json", cmp}, cmp, true},
      // A first verilation (a cache of its own): verilator, then make and
      // its compilers, which would otherwise compile on for a minute.
      {{"cosim", "--config", kSource + "/configs/default.yaml", "--rtl", kSource + "/tests/rtl/two_stage_translator.sv",
        "--top", "two_stage_translator", "--json", x},
       x,
       true,
       SIGTERM},
  };
  setenv("GPUMEM_RTL_CACHE", path("rtl-cache").c_str(), 1);
  // The compilers killed mid-build leave their empty temporary files
  // (cc*.s) behind: in the test's folder, not in /tmp.
  fs::create_directories(path("tmp"));
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string old_tmpdir = tmpdir ? tmpdir : "";
  setenv("TMPDIR", path("tmp").c_str(), 1);
  for (const Case& c : cases) {
    const Process p = start(c.args, dir_);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    std::vector<pid_t> children = children_of(p.pid);
    for (int i = 0; c.children && children.empty() && i < 3000; ++i) {  // a slow (sanitized) build loads longer
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      children = children_of(p.pid);
    }
    if (c.children) {
      EXPECT_FALSE(children.empty()) << c.args[0] << ": no child running at the signal";
    }
    const Stopped stopped = stop(p, c.sig);
    EXPECT_EQ(stopped.exit_code, 128 + c.sig) << c.args[0] << ": " << slurp(path("stderr"));
    EXPECT_LT(stopped.seconds, kPromptExitSeconds) << c.args[0];
    EXPECT_EQ(slurp(path("stderr")),
              std::string("gpumem: interrupted by ") + (c.sig == SIGINT ? "SIGINT" : "SIGTERM") + "; not written: " + c.not_written + "\n");
    for (const pid_t child : children) {
      EXPECT_TRUE(gone_within(child, 2)) << c.args[0] << ": child " << child << " outlived it";
      // Its own children too (make's compilers): a child that leads a process group takes it along.
      for (int i = 0; i < 200 && kill(-child, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      EXPECT_NE(kill(-child, 0), 0) << c.args[0] << ": the process group of child " << child << " outlived it";
    }
    EXPECT_TRUE(leftovers().empty()) << c.args[0];
  }
  unsetenv("GPUMEM_RTL_CACHE");
  if (tmpdir) setenv("TMPDIR", old_tmpdir.c_str(), 1);
  else unsetenv("TMPDIR");
}

// Ctrl-C typed on a terminal (script(1) gives one; the byte 0x03 it is
// fed is the key) while a run with nothing on its terminal (--quiet: no
// progress line to clear) simulates: the terminal echoes ^C, and the
// line gpumem ends with starts a line of its own.
TEST_F(Outputs, CtrlCOnATerminalLeavesTheLastLineOnALineOfItsOwn) {
  if (std::system("script --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  ASSERT_EQ(run({"trace", "gen", "bfs", "--scale", "16", "--out", path("bfs16.bin").string(), "--quiet"}).exit_code, 0);
  const std::string cmd = "(sleep 1; printf '\\003'; sleep 2) | script -qec \"'" + std::string(GPUMEM_BINARY) +
                          "' run --config '" + kSource + "/configs/default.yaml' --threads '" + path("bfs16.bin").string() +
                          "' --quiet\" /dev/null > '" + path("tty").string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string tty = slurp(path("tty"));
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << tty.substr(0, 2000);
  ASSERT_NE(tty.find("^C"), std::string::npos) << "the terminal echoed the key\n" << tty.substr(0, 2000);
  const size_t at = tty.find("gpumem: interrupted by SIGINT");
  ASSERT_NE(at, std::string::npos) << tty.substr(0, 2000);
  EXPECT_TRUE(at == 0 || tty[at - 1] == '\n') << "the line does not start a line:\n" << tty.substr(0, 2000);
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
