// The gpumem executable end to end: exit codes, where errors point, and the
// files a run writes, as a user or a script sees them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_helpers.hpp"
#include "wave_layout.hpp"

namespace gpumem::test {
namespace {

const std::string kIdentity = kSource + "/configs/examples/table1-identity.yaml";
const std::string kXor = kSource + "/configs/examples/table1-xor.yaml";

std::vector<uint64_t> busy_channels(const nlohmann::json& j) {
  std::vector<uint64_t> counts;
  for (const auto& c : j.at("channels"))
    if (c.at("requests").get<uint64_t>()) counts.push_back(c.at("requests").get<uint64_t>());
  return counts;
}

TEST_F(Cli, Table1WithoutMappingTakesSevenCycles) {
  const Result r = run({"run", "--config", kIdentity, "--stats-json", path("s.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("s.json");
  EXPECT_EQ(j.at("makespan"), 7);
  EXPECT_EQ(j.at("requests"), 7);
  EXPECT_EQ(busy_channels(j), std::vector<uint64_t>{7}) << "all seven granules on one channel";
  EXPECT_EQ(j.at("complete"), true);
  EXPECT_NE(r.out.find("makespan            7 cycles"), std::string::npos) << r.out;
}

TEST_F(Cli, Table1WithXorMappingTakesOneCycle) {
  const Result r = run({"run", "--config", kXor, "--stats-json", path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "") << "--quiet prints nothing on success";
  const auto j = json("s.json");
  EXPECT_EQ(j.at("makespan"), 1);
  EXPECT_EQ(busy_channels(j), std::vector<uint64_t>(7, 1)) << "seven channels with one request each";
}

TEST_F(Cli, DefaultConfigAccountsForEveryRequest) {
  const Result r = run({"run", "--config", kDefault, "--quiet", "--stats-json", path("s.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const auto j = json("s.json");
  EXPECT_EQ(j.at("complete"), true);
  EXPECT_EQ(j.at("requests"), 600000);
  ASSERT_EQ(j.at("channels").size(), 16u);
  uint64_t sum = 0;
  for (const auto& c : j.at("channels")) sum += c.at("requests").get<uint64_t>();
  EXPECT_EQ(sum, j.at("requests").get<uint64_t>());
  uint64_t per_task = 0;
  for (const auto& t : j.at("tasks")) per_task += t.at("requests").get<uint64_t>();
  EXPECT_EQ(per_task, sum);
}

// The queue figures of every shipped config that runs on its own: simple
// channels behind an MMU (walk reads out of order, the page tables' channel
// busiest), strided requests, an L1, DRAM in both modes. The mean, over the
// makespan, never above the most accesses in the channel at once.
TEST_F(Cli, EveryShippedConfigsChannelsMeanQueueDepthIsAtMostItsMax) {
  std::vector<std::string> configs = {kDefault};
  for (const auto& e : std::filesystem::directory_iterator(kSource + "/configs/examples"))
    if (e.path().extension() == ".yaml") configs.push_back(e.path().string());
  unsigned ran = 0;
  for (const std::string& c : configs) {
    if (slurp(c).find("\nworkload:") == std::string::npos) continue;  // needs --trace or --threads
    const Result r = run({"run", "--config", c, "--quiet", "--stats-json", path("s.json").string()});
    ASSERT_EQ(r.exit_code, 0) << c << ": " << r.err;
    ++ran;
    double most_mean = 0;
    const auto j = json("s.json");
    for (const auto& ch : j.at("channels")) {
      EXPECT_LE(ch.at("mean_queue_depth").get<double>(), ch.at("max_queue_depth").get<double>()) << c << ", channel " << ch.at("channel");
      most_mean = std::max(most_mean, ch.at("mean_queue_depth").get<double>());
    }
    EXPECT_GT(most_mean, 0.0) << c;
  }
  EXPECT_GE(ran, 10u);
}

TEST_F(Cli, TransactionLogHasTheDocumentedColumnsAndOneLinePerRequest) {
  const Result r = run({"run", "--config", kIdentity, "--quiet", "--txn-log", path("t.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream log(slurp(path("t.csv")));
  std::string line;
  ASSERT_TRUE(std::getline(log, line));
  EXPECT_EQ(line,
            "id,process,task_type,op,size,va,pa,scheme,mapped,channel,local,tlb,walk_reads,fault,issue_cycle,start_cycle,"
            "completion_cycle,sm,warp,l1");
  std::set<std::string> ids;
  while (std::getline(log, line)) {
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 19) << line;
    ids.insert(line.substr(0, line.find(',')));
  }
  EXPECT_EQ(ids, (std::set<std::string>{"0", "1", "2", "3", "4", "5", "6"}));
}

// Two streams and random writes on two DDR4 channels of two ranks, closed
// page, in either timing mode: every command type, refreshes included.
std::string dram_commands_config(const char* timing) {
  return std::string("memory: {address_bits: 32, channels: 2, preset: ddr4, dram: {page_policy: closed}}\n"
                     "translator: {channel_bits: [8]}\n"
                     "simulation: {cycle_ns: 0.625, timing: ") +
         timing +
         "}\n"
         "workload:\n"
         "  - {kind: strided, base: 0, stride: 64, range: 0x100000, count: 6000, size: 64, issue_interval: 2}\n"
         "  - {kind: random, base: 0x4000000, range: 0x4000000, count: 3000, size: 64, write_fraction: 1, seed: 3}\n";
}

TEST_F(Cli, DramCommandsListEveryCommandOfTheRunInEachChannelsCycleOrder) {
  for (const char* timing : {"lt", "at"}) {
    SCOPED_TRACE(timing);
    const auto cfg = write(std::string("c-") + timing + ".yaml", dram_commands_config(timing));
    const Result r = run({"run", "--config", cfg.string(), "--quiet", "--stats-json", path("s.json").string(),
                          "--dram-commands", path("d.csv").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream in(slurp(path("d.csv")));
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(line, "cycle,channel,rank,bank_group,bank,row,column,command,request");
    std::map<std::string, uint64_t> count;               // by command and channel: "RDA 0"
    std::map<std::string, uint64_t> last_cycle;          // by channel
    std::set<std::string> requests;
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::stringstream fields(line);
      for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
      if (line.back() == ',') f.emplace_back();
      ASSERT_EQ(f.size(), 9u) << line;
      const uint64_t cycle = std::stoull(f[0]);
      EXPECT_GE(cycle, last_cycle[f[1]]) << "channel " << f[1] << " goes back at: " << line;
      last_cycle[f[1]] = cycle;
      ++count[f[7] + " " + f[1]];
      if (f[7] == "REF") {
        EXPECT_TRUE(f[3].empty() && f[4].empty() && f[5].empty() && f[8].empty()) << line;
      }
      if (f[7] == "RDA" || f[7] == "WRA") {
        EXPECT_FALSE(f[6].empty()) << line;
        requests.insert(f[8]);
      }
      EXPECT_TRUE(f[7] == "ACT" || f[7] == "PRE" || f[7] == "RDA" || f[7] == "WRA" || f[7] == "REF") << line;
    }
    // The stats count the same commands; every request reached a column command.
    const auto dram = json("s.json").at("dram").at("channels");
    for (const auto& ch : dram) {
      const std::string c = std::to_string(ch.at("channel").get<unsigned>());
      EXPECT_EQ(count["RDA " + c], ch.at("reads").get<uint64_t>());
      EXPECT_EQ(count["WRA " + c], ch.at("writes").get<uint64_t>());
      EXPECT_EQ(count["ACT " + c], ch.at("activates").get<uint64_t>());
      EXPECT_EQ(count["REF " + c], ch.at("refreshes").get<uint64_t>());
      EXPECT_GT(count["REF " + c], 0u);
      EXPECT_EQ(count["PRE " + c] + count["RDA " + c] + count["WRA " + c], ch.at("precharges").get<uint64_t>());
    }
    EXPECT_EQ(requests.size(), 9000u - json("s.json").at("dram").at("channels")[0].at("forwarded_reads").get<uint64_t>() -
                                   json("s.json").at("dram").at("channels")[1].at("forwarded_reads").get<uint64_t>());
    // A second run writes the same bytes.
    const std::string first = slurp(path("d.csv"));
    ASSERT_EQ(run({"run", "--config", cfg.string(), "--quiet", "--dram-commands", path("d2.csv").string()}).exit_code, 0);
    EXPECT_TRUE(first == slurp(path("d2.csv"))) << "a rerun wrote other commands";
  }
}

TEST_F(Cli, TraceRunUsesTheTraceInsteadOfTheWorkload) {
  const auto trace = write("t.csv", "cycle,task_type,op,address,size\n0,0,R,0x0,64\n0,0,W,0x100,64\n0,0,R,0x200,64\n");
  const Result r = run({"run", "--config", kIdentity, "--trace", trace.string(), "--quiet", "--stats-json",
                        path("s.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("s.json");
  EXPECT_EQ(j.at("requests"), 3);
  EXPECT_EQ(j.at("trace"), trace.string());
  EXPECT_EQ(busy_channels(j), std::vector<uint64_t>(3, 1));
}

TEST_F(Cli, BadConfigExitsTwoNamingFileLineAndKey) {
  const auto cfg = write("bad.yaml", "memory:\n  channels: 1\n  colour: blue\n");
  const Result r = run({"run", "--config", cfg.string(), "--stats-json", path("s.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(cfg.string() + ":3: memory.colour: unknown key"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(Cli, BadTraceExitsTwoAndStillWritesWhatCompleted) {
  const auto trace = write("t.csv",
                           "cycle,task_type,op,address,size\n"
                           "# two good records, then a misaligned one\n"
                           "0,0,R,0x0,64\n"
                           "1,0,W,0x100,64\n"
                           "2,0,R,0x210,64\n"
                           "3,0,R,0x300,64\n");
  const Result r = run({"run", "--config", kIdentity, "--trace", trace.string(), "--stats-json",
                        path("s.json").string(), "--txn-log", path("log.csv").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(trace.string() + ":5: address:"), std::string::npos) << r.err;
  const auto j = json("s.json");
  EXPECT_EQ(j.at("complete"), false);
  EXPECT_EQ(j.at("requests"), 2);
  EXPECT_NE(j.at("error").get<std::string>().find(":5: address:"), std::string::npos) << j.dump();
  const std::string log = slurp(path("log.csv"));
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 3) << "header and the two completed requests:\n" << log;
}

// With the MMU: what the MMU measured before the stop is in the JSON too.
TEST_F(Cli, BadTraceAfterAFaultKeepsTheMmuReport) {
  const auto trace = write("v.csv",
                           "cycle,process,op,va,size\n"
                           "0,1,R,0x10000000,64\n"
                           "1,1,R,0x30000000,64\n"  // nobody's: a fault
                           "2,1,R,zz,64\n");
  const Result r = run({"run", "--config", kSource + "/configs/examples/nested-pages.yaml", "--trace", trace.string(),
                        "--stats-json", path("s.json").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto j = json("s.json");
  EXPECT_EQ(j.at("complete"), false);
  EXPECT_EQ(j.at("requests"), 2);
  EXPECT_EQ(j.at("mmu").at("faults"), 1);
  ASSERT_EQ(j.at("fault_records").size(), 1u);
  EXPECT_EQ(j.at("fault_records")[0].at("va"), 0x30000000u);
  EXPECT_EQ(j.at("channels")[0].count("accesses"), 1u);
}

TEST_F(Cli, MissingTraceFileExitsTwo) {
  const Result r = run({"run", "--config", kIdentity, "--trace", path("none.csv").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("none.csv"), std::string::npos) << r.err;
}

TEST_F(Cli, UnwritableStatsPathFailsBeforeRunning) {
  const std::string bad = path("no-such-dir/s.json").string();
  const Result r = run({"run", "--config", kIdentity, "--stats-json", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("makespan"), std::string::npos) << "the run must not start:\n" << r.out;
  const Result log = run({"run", "--config", kIdentity, "--txn-log", bad});
  EXPECT_EQ(log.exit_code, 2);
  EXPECT_EQ(log.out.find("makespan"), std::string::npos) << log.out;
}

TEST_F(Cli, CommandLineMistakesExitNonzero) {
  EXPECT_NE(run({"run", "--config", kIdentity, "--no-such-flag"}).exit_code, 0);
  EXPECT_NE(run({"run"}).exit_code, 0) << "--config is required";
  EXPECT_NE(run({}).exit_code, 0) << "a subcommand is required";
  EXPECT_NE(run({"frobnicate"}).exit_code, 0);
  EXPECT_NE(run({"regmap", "--format", "vhdl"}).exit_code, 0);
  EXPECT_NE(run({"check-config"}).exit_code, 0);
}

TEST_F(Cli, HelpListsTheSubcommands) {
  const Result r = run({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* sub : {"run", "regmap", "check-config"}) EXPECT_NE(r.out.find(sub), std::string::npos) << r.out;
  const Result run_help = run({"run", "--help"});
  EXPECT_EQ(run_help.exit_code, 0);
  EXPECT_NE(run_help.out.find("--stats-json"), std::string::npos) << run_help.out;
}

// The build's `git describe` (the one a sweep hashes into each point's
// identity), or "unknown" outside a git clone.
TEST_F(Cli, VersionNamesTheBuild) {
  const Result r = run({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_match(r.out, std::regex("gpumem ([0-9a-f]{7,}|v?[0-9][^ ]*|unknown)(-dirty)?\n"))) << r.out;
}

// The version is the sources' describe when built, not when CMake last
// configured: cli/version.cmake runs at every build and writes the header
// only when the text changed (an unchanged tree recompiles nothing).
TEST_F(Cli, TheVersionScriptWritesTheSourcesDescribeOnlyWhenItChanged) {
  std::string head;
  if (FILE* git = popen(("git -C '" + kSource + "' describe --always --dirty 2>/dev/null").c_str(), "r")) {
    char line[256];
    if (fgets(line, sizeof line, git)) head = line;
    pclose(git);
  }
  const std::string header = path("v.hpp").string();
  const std::string script = "cmake -DSOURCE_DIR='" + kSource + "' -DOUT='" + header + "' -P '" + kSource + "/cli/version.cmake'";
  ASSERT_EQ(std::system(script.c_str()), 0);
  const std::string text = slurp(header);
  if (head.empty()) {
    EXPECT_NE(text.find("#define GPUMEM_VERSION \"unknown\""), std::string::npos) << text;
  } else {
    head.pop_back();
    EXPECT_NE(text.find("#define GPUMEM_VERSION \"" + head + "\""), std::string::npos) << text;
  }
  write("v.hpp", text);  // the same text, written again: a new modification time
  const auto before = fs::last_write_time(header);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(std::system(script.c_str()), 0);
  EXPECT_EQ(fs::last_write_time(header), before) << "unchanged: not rewritten";
  write("v.hpp", "stale\n");
  ASSERT_EQ(std::system(script.c_str()), 0);
  EXPECT_EQ(slurp(header), text) << "changed: rewritten";
}

TEST_F(Cli, CheckConfig) {
  const Result good = run({"check-config", kDefault});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find(kDefault + ": ok"), std::string::npos) << good.out;
  const auto bad = write("bad.yaml",
                         "memory:\n  channels: 8\ntranslator:\n  channel_bits: [8, 9, 12]\n");
  const Result r = run({"check-config", bad.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad.string() + ":4: translator.channel_bits[2]: channel bit 12"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4096 bytes"), std::string::npos) << r.err;
  EXPECT_EQ(run({"check-config", path("missing.yaml").string()}).exit_code, 2);
}

// A config from before the task type had one name: one line naming file,
// line, key and the new key; exit 2; `run` writes no output file.
TEST_F(Cli, ConfigWithTheOldTaskKeyIsRefusedNamingTheNewOne) {
  const auto old = write("old.yaml",
                         "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - {task: 1, scheme: none}\n");
  const Result r = run({"check-config", old.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(old.string() + ":5: translator.tasks[0].task: unknown key"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'task' is now 'task_type'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const auto json = path("old-stats.json");
  EXPECT_EQ(run({"run", "--config", old.string(), "--stats-json", json.string()}).exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(json));
}

TEST_F(Cli, RegmapPrintsTheRtlPackage) {
  const Result sv = run({"regmap", "--format", "sv"});
  ASSERT_EQ(sv.exit_code, 0) << sv.err;
  for (const char* s : {"package gpumem_pkg;", "} pte_t;", "} scheme_e;", "} tlb_result_e;", "TASK_TYPE_COUNT = 16;",
                        "XOR_VECTOR_OFFSET = 32'h00000100;"})
    EXPECT_NE(sv.out.find(s), std::string::npos) << s << " not in:\n" << sv.out;
  EXPECT_NE(sv.out.find("endpackage"), std::string::npos);
  const Result md = run({"regmap"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("package"), std::string::npos) << "markdown is the default";
  EXPECT_NE(md.out.find('|'), std::string::npos) << md.out;
}

// Issue 3's "done when": two applications of different task types, one
// nesting small pages into the other's large frame.
TEST_F(Cli, NestedPagesExampleShowsApplicationsTlbAndFragmentation) {
  const Result r = run({"run", "--config", kSource + "/configs/examples/nested-pages.yaml", "--stats-json",
                        path("s.json").string(), "--txn-log", path("t.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* shown : {"application", "render", "compute", "nested", "with nesting", "frames used"})
    EXPECT_NE(r.out.find(shown), std::string::npos) << shown;
  const auto j = nlohmann::json::parse(slurp(path("s.json")));
  ASSERT_EQ(j.at("applications").size(), 2u);
  EXPECT_NE(j.at("applications")[0].at("task_type"), j.at("applications")[1].at("task_type"));
  for (const auto& app : j.at("applications")) {
    EXPECT_GT(app.at("requests").get<uint64_t>(), 0u);
    EXPECT_EQ(app.at("per_channel").size(), 8u);
  }
  EXPECT_GT(j.at("mmu").at("nested").get<uint64_t>(), 0u);
  EXPECT_GT(j.at("mmu").at("misses").get<uint64_t>(), 0u);
  EXPECT_GT(j.at("mmu").at("hits").at("large").get<uint64_t>(), 0u);
  EXPECT_EQ(j.at("address_space").at("with_nesting").at("frames_used"), 3u);
  EXPECT_EQ(j.at("address_space").at("without_nesting").at("frames_used"), 4u);
  EXPECT_EQ(j.at("faults"), 0u);
  // The log shows how each result came about: some request walked a nested region.
  const std::string log = slurp(path("t.csv"));
  EXPECT_NE(log.find(",nested,3,none,"), std::string::npos);
}

// The transaction log as rows of column -> value.
std::vector<std::map<std::string, std::string>> log_rows(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::stringstream ss(l);
    std::string x;
    while (std::getline(ss, x, ',')) f.push_back(x);
    if (!l.empty() && l.back() == ',') f.push_back("");
    return f;
  };
  if (std::getline(in, line)) header = split(line);
  while (std::getline(in, line)) {
    const auto f = split(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < f.size(); ++i) row[header[i]] = f[i];
    rows.push_back(row);
  }
  return rows;
}

// Issue 29: two reads of one page. The first misses the TLB and walks three
// levels, so it reaches the router at cycle 7; the second, issued a cycle
// later, hits the entry the walk filled and reaches it at cycle 2. The
// performance counters span the arrivals in cycle order, 2 to 7, not in
// issue order (7 to 2, once 2^64 - 4 cycles).
TEST_F(Cli, PerformanceSpanIsChronologicalWhenATlbHitOvertakesAWalk) {
  const auto cfg = write("c.yaml",
                         "memory: {channels: 1}\n"
                         "address_space:\n  applications:\n"
                         "    - {name: a, process: 0, task_type: 0, regions: [{va: 0x0, size: 0x1000, page: small}]}\n");
  const auto trace = write("t.csv", "cycle,process,op,va,size\n0,0,R,0x0,64\n1,0,R,0x40,64\n");
  const Result r = run({"run", "--config", cfg.string(), "--trace", trace.string(), "--quiet", "--stats-json",
                        path("s.json").string(), "--txn-log", path("log.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = log_rows(slurp(path("log.csv")));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("tlb"), "miss");
  EXPECT_EQ(rows[0].at("start_cycle"), "7") << "one channel, idle: served as it arrives";
  EXPECT_EQ(rows[1].at("tlb"), "hit_small");
  EXPECT_EQ(rows[1].at("start_cycle"), "2");
  const auto j = json("s.json");
  const auto& perf = j.at("applications")[0].at("performance");
  EXPECT_EQ(perf.at("requests"), 2);
  EXPECT_EQ(perf.at("active_cycles"), 6) << "cycles 2 to 7";
  EXPECT_LE(perf.at("active_cycles").get<uint64_t>(), j.at("makespan").get<uint64_t>() + 1);
  EXPECT_DOUBLE_EQ(perf.at("bandwidth").get<double>(), 128.0 / 6.0);
  EXPECT_DOUBLE_EQ(perf.at("density").get<double>(), 2.0 / 6.0);
}

// Issue 8's reproducers, each a config check-config used to accept, as a
// user runs them: refused with the key to change, or run correctly.
TEST_F(Cli, ConfigsThatCorruptedDataAreRefusedOrRunCorrectly) {
  const std::string space =
      "address_space:\n  va_bits: 32\n  applications:\n"
      "    - {name: a, process: 0, task_type: 0, regions: [{name: r, va: 0x10000, size: 0x10000, page: large}]}\n";
  struct Refused {
    const char* what;
    std::string yaml;
    const char* error;
  } refused[] = {
      {"4-byte granule with page tables", "memory: {address_bits: 32, channels: 2}\ntranslator: {channel_bits: [2]}\n" + space,
       ":2: translator.channel_bits[0]: channel bit 2 gives a 4-byte interleave granule"},
      {"prime before the MMU on 3 channels",
       "memory: {address_bits: 32, channels: 3}\ntranslator: {granule_bytes: 2048, prime: 5, default_scheme: prime, "
       "position: before_mmu}\n" + space,
       ":2: translator.default_scheme: before the MMU the prime scheme with 3 channels"},
      {"two schemes on 3 channels with interleave off (was a model error, exit 3)",
       "memory: {channels: 3}\ntranslator: {granule_bytes: 64, prime: 5, interleave_enable: false, "
       "tasks: [{task_type: 1, scheme: prime}]}\n",
       ":2: translator.tasks: with 3 channels a row of granules crosses pages"},
      {"candidate bit inside the granule", "memory: {channels: 2}\ntranslator: {channel_bits: [1], candidate_bits: [0]}\n",
       ":2: translator.candidate_bits[0]: candidate bit 0 lies inside the 2-byte interleave granule"},
  };
  for (const Refused& c : refused) {
    SCOPED_TRACE(c.what);
    const auto cfg = write("c.yaml", c.yaml);
    for (const char* command : {"check-config", "run"}) {
      const bool is_run = std::string(command) == "run";
      const Result r = is_run ? run({"run", "--config", cfg.string(), "--stats-json", path("s.json").string(), "--txn-log",
                                     path("l.csv").string()})
                              : run({command, cfg.string()});
      EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
      EXPECT_NE(r.err.find(cfg.string() + c.error), std::string::npos) << command << ": " << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_FALSE(fs::exists(path("s.json"))) << "a refused config simulates nothing and writes no JSON";
    }
  }

  // Case 2: the write to PA 0xF800 lands in its row of 3 granules (0xF000-0x107FF)
  // and no longer on the root table, so the later read walks all 3 levels to an
  // invalid PTE (it used to stop at level 0 on the overwritten root).
  const auto prime = write("prime.yaml", "memory: {address_bits: 32, channels: 3}\n"
                                         "translator: {granule_bytes: 2048, prime: 5, default_scheme: prime}\n" + space);
  const auto trace = write("t.csv", "cycle,process,op,va,size,data\n0,0,W,0x1f800,8,0x00ff0000000000e1\n1,0,R,0x20000,8,\n");
  Result r = run({"run", "--config", prime.string(), "--trace", trace.string(), "--quiet", "--txn-log", path("l.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = log_rows(slurp(path("l.csv")));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["pa"], "0xf800");
  EXPECT_EQ(rows[0]["mapped"], "0x10000") << "moved inside its row, past the last data frame";
  EXPECT_EQ(rows[0]["fault"], "none");
  EXPECT_EQ(rows[1]["fault"], "unmapped");
  EXPECT_EQ(rows[1]["walk_reads"], "3");

  // Case 3: 2^58 granules of 64 bytes leave an incomplete last row of 5; the
  // top granule stays in place instead of wrapping onto address 0.
  const auto wide = write("wide.yaml", "memory: {address_bits: 64, channels: 5}\nmmu: {page_sizes: [4096]}\n"
                                       "translator: {granule_bytes: 64, prime: 3, default_scheme: prime}\n");
  const auto top = write("top.csv", "cycle,task_type,op,address,size\n0,0,W,0xffffffffffffffc0,64\n1,0,R,0x0,64\n");
  r = run({"run", "--config", wide.string(), "--trace", top.string(), "--quiet", "--txn-log", path("w.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rows = log_rows(slurp(path("w.csv")));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["mapped"], "0xffffffffffffffc0");
  EXPECT_EQ(rows[1]["mapped"], "0x0");
  EXPECT_NE(std::make_pair(rows[0]["channel"], rows[0]["local"]), std::make_pair(rows[1]["channel"], rows[1]["local"]))
      << "two addresses share one storage location";
}

// In 256 KiB of physical memory the example fits only with nesting: the
// run goes on and the comparison says why it has no figures.
TEST_F(Cli, ComparisonAllocationThatDoesNotFitDoesNotStopTheRun) {
  std::string yaml = slurp(kSource + "/configs/examples/nested-pages.yaml");
  auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = yaml.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    yaml.replace(at, from.size(), to);
  };
  replace("address_bits: 32", "address_bits: 18");
  replace("[12, 13, 14, 15, 16, 17, 18, 19]", "[12, 13, 14, 15]");
  replace("[0x09, 0x12, 0x24]", "[0x09, 0x02, 0x04]");
  const Result r = run({"run", "--config", write("small.yaml", yaml).string(), "--stats-json", path("s.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("without nesting does not fit"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(path("s.json")));
  EXPECT_EQ(j.at("address_space").at("with_nesting").at("frames_used"), 3u);
  EXPECT_NE(j.at("address_space").at("without_nesting").at("error").get<std::string>().find("address_bits"), std::string::npos);
}

// The fast co-simulation of the translator RTL from the command line.
TEST_F(Cli, CosimTranslatorAgreesOnTheDefaultConfig) {
  // 200 000: the TASK_SCHEME write cross's rarest bin (an above-3 value over
  // staged rows of a task type in the matrix scheme) needs more than 100 000 on this seed.
  const Result r = run({"cosim", "--config", kSource + "/configs/default.yaml", "--block", "translator",
                        "--transactions", "200000", "--seed", "9"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compared     200000 transactions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unhit bins   none"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result       agreement"), std::string::npos) << r.out;
}

// --junit: the run as the one test case of a JUnit XML report, as CI
// servers read it; a failure's message is its first divergence (here the
// watchdog's, set to one cycle), its text the report.
TEST_F(Cli, CosimWritesItsRunAsAJUnitTestCase) {
  const std::string config = kSource + "/configs/default.yaml";
  // A name with XML's special characters, escaped in the report.
  const std::string special = write("a&b<c>.yaml", slurp(config)).string();
  const Result pass = run({"cosim", "--config", special, "--block", "translator", "--transactions", "1000", "--junit",
                           path("pass.xml").string(), "--no-timing"});
  ASSERT_EQ(pass.exit_code, 0) << pass.out << pass.err;
  EXPECT_EQ(slurp(path("pass.xml")),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
            "  <testsuite name=\"gpumem cosim\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
            "    <testcase classname=\"cosim.translator\" name=\"" + path("a&amp;b&lt;c&gt;.yaml").string() +
                " seed 1\"/>\n"
            "  </testsuite>\n</testsuites>\n");
  const Result fail = run({"cosim", "--config", config, "--block", "tlb", "--transactions", "1000", "--hang-cycles", "1",
                           "--waves", path("w").string(), "--junit", path("fail.xml").string()});
  ASSERT_EQ(fail.exit_code, 1) << fail.out << fail.err;
  const std::string x = slurp(path("fail.xml"));
  for (const char* s : {"failures=\"1\"", "<testcase classname=\"cosim.tlb\"", " time=\"",
                        "<failure message=\"HANG (the watchdog stopped the run): tlb hang: operation ",
                        "  rule:   hang: no handshake for 1 cycle\n", "</failure>\n    </testcase>\n"})
    EXPECT_NE(x.find(s), std::string::npos) << s << " not in:\n" << x;
}

// --waves-when always: a passing run's last 1000 cycles, with its layout
// and a replay file that repeats it, as a failure's are (a reference for a
// waveform diff against a failing RTL, or a look at a run that passed).
TEST_F(Cli, CosimWritesAPassingRunsWavesWhenAskedAlways) {
  const std::string config = kSource + "/configs/default.yaml";
  const Result plain = run({"cosim", "--config", config, "--transactions", "3000", "--waves", path("none").string()});
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  EXPECT_FALSE(fs::exists(path("none"))) << "a passing run writes no waves by default";
  const Result r = run({"cosim", "--config", config, "--transactions", "3000", "--waves", path("w").string(),
                        "--waves-when", "always"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const fs::path fst = path("w") / "translator-seed1.fst", view = path("w") / "translator-seed1.gtkw",
                 replay = path("w") / "translator-seed1.replay";
  EXPECT_NE(r.out.find("waves        " + fst.string() + " (the run's last 1000 cycles: --waves-when always)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("open         gtkwave " + view.string() + "   (the layout, opened on the run's last edge)\nresult       agreement\n"),
            std::string::npos)
      << r.out;
  ASSERT_TRUE(fs::is_regular_file(fst));
  EXPECT_GT(fs::file_size(fst), 100u);
  const std::string text = slurp(replay);
  EXPECT_NE(text.find("It passed; its last cycle "), std::string::npos) << text;
  EXPECT_NE(text.find(" --waves-when always\n"), std::string::npos) << text;
  EXPECT_NE(slurp(view).find("opened on the run's last cycle ("), std::string::npos);
  // The replay repeats the run: the same waves, byte for byte.
  const std::string before = slurp(fst);
  const std::string bash = "bash '" + replay.string() + "' >'" + path("replay.out").string() + "' 2>&1";
  ASSERT_EQ(std::system(bash.c_str()), 0) << slurp(path("replay.out"));
  EXPECT_EQ(slurp(fst), before);
}

// One million transactions hit every bin, the matrix class's included
// (issue 32; a stimulus that could not draw acceptable rows once crashed here).
TEST_F(Cli, CosimTranslatorMillionTransactionsHitEveryMatrixBin) {
  const Result r = run({"cosim", "--config", kSource + "/configs/default.yaml", "--block", "translator",
                        "--transactions", "1000000", "--seed", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const size_t at = r.out.find("coverage     matrix class: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find("\ncoverage ", at) - at);  // and the lines it goes on over
  for (const char* bin : {"baseline ipoly", "identity-like", "other accepted", "singular refused", "empty row refused",
                          "granule refused", "beyond refused", "re-commit in use", "commit with a request",
                          "staged rows unused"})
    EXPECT_NE(line.find(bin + std::string(" ")), std::string::npos) << bin << ": " << line;
  EXPECT_NE(r.out.find("unhit bins   none"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result       agreement\n"), std::string::npos) << r.out;
}

// A co-simulation never passes what it did not check (issues 29, 32): task 0
// on ipoly is a matrix, which the project's RTL translator implements, so
// the firmware's load of the config puts task 0 on it first and the summary
// counts the requests compared on it; nothing is left unchecked, so
// --require-all passes. (A user's RTL without MATRIX: test_cosim_rtl_cli.cpp.)
TEST_F(Cli, CosimChecksTheConfigsOwnBaselineMapping) {
  const std::string file = write("ipoly.yaml", default_config_with_tasks("{task_type: 0, scheme: ipoly}")).string();
  const Result r = run({"cosim", "--config", file, "--block", "translator", "--transactions", "2000", "--require-all"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("unchecked"), std::string::npos) << r.out;
  const std::string key = "on the config's own mapping (written first, as firmware does): task type 0 ipoly ";
  const size_t at = r.out.find(key);
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_GT(std::stoul(r.out.substr(at + key.size())), 0u) << r.out;
  EXPECT_NE(r.out.find("result       agreement\n"), std::string::npos) << r.out;
}

// A run too short to hit every bin still agrees and names what it missed:
// the first unhit bins, then how many more (the JSON has every bin).
TEST_F(Cli, CosimNamesTheUnhitBins) {
  for (const char* block : {"translator", "tlb"}) {
    const std::string file = std::string(block) + ".json";
    const Result r = run({"cosim", "--config", kSource + "/configs/default.yaml", "--block", block, "--transactions",
                          "3", "--json", path(file).string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json j = json(file);
    std::set<std::string> zero;
    for (const auto& g : j["coverage"])
      for (const auto& b : g["bins"])
        if (b[1] == 0) zero.insert(g["group"].get<std::string>() + ":" + b[0].get<std::string>());
    const size_t at = r.out.find("\nunhit bins   ");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    EXPECT_LE(line.size(), 160u) << line;
    const std::string more = " more unhit bins (--json lists every bin)";
    ASSERT_GT(line.size(), more.size()) << line;
    ASSERT_EQ(line.compare(line.size() - more.size(), more.size(), more), 0) << line;
    const size_t and_at = line.rfind(" ... and ");
    ASSERT_NE(and_at, std::string::npos) << line;
    // The bins named first are unhit; with those counted after them, every one.
    const std::string listed = line.substr(13, and_at - 13) + " ";
    size_t named = 0;
    for (const std::string& bin : zero) named += (" " + listed).find(" " + bin + " ") != std::string::npos;
    EXPECT_GT(named, 0u) << line;
    EXPECT_EQ(named + std::stoul(line.substr(and_at + 9)), zero.size()) << line;
  }
}

// The pin-level mode (SystemC clock): the same pins as fast mode for one seed,
// so the same summary line by line but the mode.
TEST_F(Cli, CosimPinModeAgreesAndMatchesFastMode) {
  const std::vector<std::string> args = {"cosim", "--config", kSource + "/configs/default.yaml", "--transactions",
                                         "20000", "--seed", "9"};
  std::vector<std::string> pin_args = args;
  pin_args.insert(pin_args.end(), {"--mode", "pin"});
  const Result pin = run(pin_args);
  ASSERT_EQ(pin.exit_code, 0) << pin.out << pin.err;
  EXPECT_NE(pin.out.find("pin-level mode"), std::string::npos) << pin.out;
  EXPECT_NE(pin.out.find("result       agreement"), std::string::npos) << pin.out;
  const Result fast = run(args);
  ASSERT_EQ(fast.exit_code, 0) << fast.out << fast.err;
  auto from_seed = [](const std::string& s) { return s.substr(s.find("seed")); };
  EXPECT_EQ(from_seed(pin.out), from_seed(fast.out));
  EXPECT_TRUE(pin.err.empty()) << pin.err;  // no SystemC banner or stop message

  const Result bad = run({"cosim", "--config", kSource + "/configs/default.yaml", "--mode", "slow"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
}

// The watchdog's limit: a number of cycles, at least one.
TEST_F(Cli, CosimHangCyclesIsCheckedAndUsed) {
  for (const char* bad : {"0", "-3", "many"}) {
    const Result r = run({"cosim", "--config", kSource + "/configs/default.yaml", "--hang-cycles", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << r.out << r.err;
    EXPECT_NE(r.err.find("--hang-cycles"), std::string::npos) << bad << ": " << r.err;
    EXPECT_EQ(r.out.find("result"), std::string::npos) << "nothing ran";
  }
  // A watchdog shorter than the longest legal wait stops a healthy RTL: the
  // option reaches the checker (the random back-pressure holds a response
  // for a few cycles, so two is too short within 20000 transactions).
  const Result r = run({"cosim", "--config", kSource + "/configs/default.yaml", "--transactions", "20000",
                        "--hang-cycles", "2", "--waves", path("w").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("HANG (the watchdog stopped the run)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("translator hang: transaction "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rule:   hang: no handshake for 2 cycles"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("replay       "), std::string::npos) << r.out;
  EXPECT_NE(slurp(path("w/translator-seed1.replay")).find("--hang-cycles 2"), std::string::npos);
  // The project's RTL: its saved layout, every row of it in the waves.
  EXPECT_NE(r.out.find("\nlayout       " + path("w/translator-seed1.gtkw").string() +
                       " (the contract's 16 ports, then 4 signals of the project's RTL)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(layout_file_check(path("w/translator-seed1.gtkw").string(), path("w/translator-seed1.fst").string()), "");
  // The pin-level mode stops at the same edge: its waves come from a fast
  // re-run of the same pins, which hangs there too.
  const Result pin = run({"cosim", "--config", kSource + "/configs/default.yaml", "--block", "tlb", "--mode", "pin",
                          "--transactions", "20000", "--hang-cycles", "2", "--waves", path("p").string()});
  EXPECT_EQ(pin.exit_code, 1) << pin.out << pin.err;
  EXPECT_NE(pin.out.find("tlb hang: operation 1, cycle 5, seed 1"), std::string::npos) << pin.out;
  EXPECT_NE(pin.out.find("which fails at the same cycle"), std::string::npos) << pin.out;
  EXPECT_NE(slurp(path("p/tlb-seed1.replay")).find("--mode pin --hang-cycles 2"), std::string::npos);
  EXPECT_EQ(layout_file_check(path("p/tlb-seed1.gtkw").string(), path("p/tlb-seed1.fst").string()), "");
}

// What no RTL of a block can run with (any other geometry is verilated:
// test_cosim_rtl_cli.cpp), in either mode.
TEST_F(Cli, CosimRefusesAConfigTheBlockCannotRun) {
  for (const char* mode : {"fast", "pin"}) {
    const Result no_mmu = run({"cosim", "--config", kIdentity, "--block", "tlb", "--mode", mode});
    EXPECT_EQ(no_mmu.exit_code, 2);
    EXPECT_NE(no_mmu.err.find("mmu: the config has no MMU (address_space section)"), std::string::npos) << no_mmu.err;
  }
  const fs::path before = write("before.yaml", "memory: {channels: 4}\ntranslator: {position: before_mmu, channel_bits: [8, 9]}\n"
                                               "address_space:\n  va_bits: 32\n  applications:\n    - name: a\n      process: 0\n      task_type: 0\n      regions:\n"
                                               "        - {name: r, va: 0x0, size: 0x10000, page: large}\n");
  const Result r = run({"cosim", "--config", before.string()});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("translator: position: the RTL translator sits after the MMU only"), std::string::npos) << r.err;
}

// The TLB's pin-level mode: the same pins as fast mode for one seed, so the
// same summary line by line but the mode.
TEST_F(Cli, CosimTlbPinModeAgreesAndMatchesFastMode) {
  const std::vector<std::string> args = {"cosim", "--config", kSource + "/configs/default.yaml", "--block", "tlb",
                                         "--transactions", "20000", "--seed", "9"};
  std::vector<std::string> pin_args = args;
  pin_args.insert(pin_args.end(), {"--mode", "pin"});
  const Result pin = run(pin_args);
  ASSERT_EQ(pin.exit_code, 0) << pin.out << pin.err;
  EXPECT_NE(pin.out.rfind("block        tlb (", 0), std::string::npos) << pin.out;
  EXPECT_NE(pin.out.find("pin-level mode"), std::string::npos) << pin.out.substr(0, pin.out.find('\n'));
  EXPECT_NE(pin.out.find("translations 20000 ("), std::string::npos) << pin.out;
  EXPECT_NE(pin.out.find("result       agreement"), std::string::npos) << pin.out;
  const Result fast = run(args);
  ASSERT_EQ(fast.exit_code, 0) << fast.out << fast.err;
  auto from_config = [](const std::string& s) { return s.substr(s.find("config")); };
  EXPECT_EQ(from_config(pin.out), from_config(fast.out));
  EXPECT_TRUE(pin.err.empty()) << pin.err;  // no SystemC banner or stop message
}

TEST_F(Cli, CosimTlbAgreesOnTheDefaultConfigWithEveryBinHit) {
  const Result r = run({"cosim", "--config", kSource + "/configs/default.yaml", "--block", "tlb", "--transactions", "50000",
                        "--seed", "3"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("translations 50000 ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unhit bins   none"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result       agreement"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpumem::test
