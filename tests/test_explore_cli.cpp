// gpumem explore end to end: CN115422098A's table 1 found from the identity
// config, and a recommendation that gpumem run reproduces to the last bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

// The config's translator.tasks list replaced by the explorer's snippet.
std::string with_tasks(const std::string& config, const std::string& snippet) {
  const size_t a = config.find("  tasks:\n");
  size_t end = a + 9;  // past the list: its lines are indented four spaces
  while (end < config.size() && config.compare(end, 4, "    ") == 0) end = config.find('\n', end) + 1;
  std::string indented;
  for (size_t p = 0; p < snippet.size();) {
    const size_t nl = snippet.find('\n', p);
    const std::string line = snippet.substr(p, nl - p);
    if (!line.empty() && line[0] != '#') indented += "  " + line + "\n";
    p = nl + 1;
  }
  return config.substr(0, a) + indented + config.substr(end);
}

// The mean of a "series" object's points weighted by their window counts,
// and its requests per channel summed (docs/explorer.md, "Series").
struct SeriesSums {
  double mean = 0;
  uint64_t windows = 0;
  std::vector<uint64_t> per_channel;
};

SeriesSums sums(const nlohmann::json& series) {
  SeriesSums s;
  double weighted = 0;
  for (const auto& p : series.at("points")) {
    const uint64_t w = p.at("windows");
    EXPECT_EQ(p.at("first_window").get<uint64_t>(), s.windows) << "consecutive runs of windows";
    weighted += p.at("entropy").get<double>() * static_cast<double>(w);
    s.windows += w;
    const auto& pc = p.at("per_channel");
    s.per_channel.resize(pc.size(), 0);
    for (size_t c = 0; c < pc.size(); ++c) s.per_channel[c] += pc[c].get<uint64_t>();
  }
  EXPECT_LE(series.at("points").size(), series.at("max_points").get<size_t>());
  s.mean = s.windows ? weighted / static_cast<double>(s.windows) : 0;
  return s;
}

// gpumem run's series: every full window once, the mean its mean window
// entropy, the requests per channel the channel table's less the trailing
// partial window's.
TEST_F(Cli, RunSeriesSumsToTheRun) {
  const Result r = run({"run", "--config", kSource + "/configs/default.yaml", "--quiet", "--stats-json", path("s.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("s.json");
  const SeriesSums s = sums(j.at("series"));
  EXPECT_EQ(s.windows, j.at("entropy_windows").get<uint64_t>());
  EXPECT_NEAR(s.mean, j.at("mean_window_entropy").get<double>(), 1e-12);
  const uint64_t window = j.at("series").at("window");
  uint64_t served = 0, in_series = 0;
  for (size_t c = 0; c < s.per_channel.size(); ++c) {
    const uint64_t requests = j.at("channels")[c].at("requests");
    EXPECT_LE(s.per_channel[c], requests);
    served += requests;
    in_series += s.per_channel[c];
  }
  EXPECT_EQ(in_series, s.windows * window);
  EXPECT_EQ(served - in_series, served % window) << "only the trailing partial window is left out";
  EXPECT_GT(j.at("series").at("points").size(), 100u);
}

TEST_F(Cli, ExploreFindsTable1sMappingFromIdentity) {
  const Result r = run({"explore", "--config", kSource + "/configs/examples/table1-identity.yaml", "--json", path("x.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("x.json");
  EXPECT_EQ(j.at("configured").at("makespan_bound"), 7) << "seven granules on one channel";
  EXPECT_EQ(j.at("recommended").at("makespan_bound"), 1) << "one granule on each of seven channels";
  // log2 7 to the fixed point's rounding (docs/explorer.md, "The score").
  EXPECT_NEAR(j.at("recommended").at("mean_window_entropy").get<double>(), std::log2(7.0), 1e-7);
  bool searched = false;
  for (const auto& c : j.at("tasks")[0].at("ranked"))
    if (c.at("name") == "xor search") searched = c.at("makespan_bound") == 1;
  EXPECT_TRUE(searched) << "the exhaustive search finds a one-cycle mapping too";
  EXPECT_NE(r.out.find("identity"), std::string::npos);
}

// The demo: three task types, 600 000 requests through the MMU. The
// explorer's prediction is gpumem run's figure, exactly.
TEST_F(Cli, RunReproducesTheExplorersPredictionExactly) {
  const std::string config = kSource + "/configs/default.yaml";
  const Result x = run({"explore", "--config", config, "--json", path("x.json").string(), "--emit-yaml", path("tasks.yaml").string()});
  ASSERT_EQ(x.exit_code, 0) << x.err;
  EXPECT_TRUE(x.err.empty()) << "no progress line without a terminal: " << x.err;
  const auto xj = json("x.json");
  EXPECT_GT(xj.at("recommended").at("mean_window_entropy").get<double>(), xj.at("configured").at("mean_window_entropy").get<double>());
  const std::string recommended = with_tasks(slurp(config), slurp(path("tasks.yaml")));
  write("recommended.yaml", recommended);
  const Result r = run({"run", "--config", path("recommended.yaml").string(), "--stats-json", path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err << recommended;
  EXPECT_EQ(json("s.json").at("mean_window_entropy").get<double>(), xj.at("recommended").at("mean_window_entropy").get<double>());
  const Result c = run({"run", "--config", config, "--stats-json", path("c.json").string(), "--quiet"});
  EXPECT_EQ(json("c.json").at("mean_window_entropy").get<double>(), xj.at("configured").at("mean_window_entropy").get<double>());
  // The explorer's series are the runs' own, point for point.
  EXPECT_EQ(xj.at("series").at("recommended"), json("s.json").at("series"));
  EXPECT_EQ(xj.at("series").at("configured"), json("c.json").at("series"));
  const SeriesSums identity = sums(xj.at("series").at("identity"));
  EXPECT_NEAR(identity.mean, xj.at("identity").at("mean_window_entropy").get<double>(), 1e-12);
  EXPECT_EQ(identity.per_channel.size(), 16u);
}

// Every example config with a workload: the recommendation scores at least
// as high as identity, the configured mapping and every candidate of every
// task type (prime, each baseline defined on the layout, the XOR search),
// each scored on the whole stream. The explorer's tables are printed.
TEST_F(Cli, OnEveryExampleTheRecommendationScoresAtLeastEveryCandidate) {
  for (const std::string name : {"default.yaml", "examples/nested-pages.yaml", "examples/profile-transpose.yaml",
                                 "examples/table1-identity.yaml", "examples/table1-xor.yaml", "examples/tlb-lru.yaml"}) {
    SCOPED_TRACE(name);
    const Result r = run({"explore", "--config", kSource + "/configs/" + name, "--json", path("x.json").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::cout << "== configs/" << name << "\n" << r.out;
    const auto j = json("x.json");
    const double recommended = j.at("recommended").at("mean_window_entropy");
    EXPECT_GE(recommended, j.at("identity").at("mean_window_entropy").get<double>());
    EXPECT_GE(recommended, j.at("configured").at("mean_window_entropy").get<double>());
    for (const auto& task : j.at("tasks")) {
      std::vector<std::string> names;
      for (const auto& c : task.at("ranked")) {
        names.push_back(c.at("name"));
        EXPECT_GE(recommended, c.at("mean_window_entropy").get<double>()) << c.at("name") << " of task type " << task.at("task_type");
      }
      // ipoly and pae are defined on some channel counts only (docs/explorer.md, "Baselines").
      for (const char* must : {"identity", "configured", "xor search", "bitwise_xor", "random"})
        EXPECT_TRUE(std::find(names.begin(), names.end(), must) != names.end()) << must << " not scored";
    }
  }
}

// A page-striding trace (eight warps, each its own page stride, as
// gpumem_bench_explorer's) repeats its windows up to one XOR on the channels
// and one on the patterns, so the search scores each distinct window once
// with its count. Its prediction must still be what the chosen mapping
// scores: explore stops with a model error otherwise.
TEST_F(Cli, ExploreOnRepeatingWindowsPredictsWhatTheMappingScores) {
  write("k12.yaml",
        "memory: {address_bits: 40, channels: 16, service_cycles: 1, max_outstanding: 64}\n"
        "translator:\n  channel_bits: [8, 9, 10, 11]\n"
        "  candidate_bits: [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]\n");
  std::string csv = "cycle,task_type,op,address,size\n";
  uint64_t page[8];
  for (unsigned w = 0; w < 8; ++w) page[w] = uint64_t{w} << 20;
  char line[64];
  for (unsigned i = 0; i < 40000; ++i) {
    page[i % 8] += 1 + i % 8;
    std::snprintf(line, sizeof line, "0,0,R,0x%llx,64\n",
                  static_cast<unsigned long long>(page[i % 8] << 12 | ((i / 8) & 15) << 8));
    csv += line;
  }
  write("strided.csv", csv);
  for (const char* window : {"64", "32"}) {
    SCOPED_TRACE(window);
    const Result r = run({"explore", "--config", path("k12.yaml").string(), "--trace", path("strided.csv").string(),
                          "--window", window, "--json", path("x.json").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = json("x.json");
    EXPECT_EQ(j.at("recommended").at("mean_window_entropy").get<double>(),
              j.at("tasks").at(0).at("ranked").at(0).at("mean_window_entropy").get<double>());
    EXPECT_GT(j.at("recommended").at("mean_window_entropy").get<double>(),
              j.at("identity").at("mean_window_entropy").get<double>());
  }
}

TEST_F(Cli, ExploreRefusesBadInputBeforeSearching) {
  Result r = run({"explore", "--config", kSource + "/configs/default.yaml", "--window", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--window"), std::string::npos) << r.err;
  write("six.yaml", "memory: {channels: 6}\ntranslator: {granule_bytes: 256}\nworkload:\n  - {kind: strided, count: 10}\n");
  r = run({"explore", "--config", path("six.yaml").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("memory.channels: the explorer maps per task type, which needs a power-of-two channel count"), std::string::npos)
      << r.err;
  r = run({"explore", "--config", kSource + "/configs/default.yaml", "--json", path("no/such/dir/x.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--json"), std::string::npos) << r.err;
}

// A per-thread trace through --threads: the requests the front end's
// ordering gives the SMs, the stream `trace convert --to dramsim3` writes of
// the same trace, so exploring that DRAMsim3 trace with --trace scores the
// same to the last bit. The CSV form and --jobs 2 change nothing either.
TEST_F(Cli, ExploreReadsAPerThreadTraceInTheFrontEndsOrder) {
  write("c.yaml",
        "memory: {address_bits: 32, channels: 16, max_outstanding: 64}\n"
        "translator: {channel_bits: [8, 9, 10, 11], candidate_bits: [12, 13, 14, 15, 16, 17, 18, 19]}\n"
        "frontend: {num_sms: 4}\n");
  const std::string cfg = path("c.yaml").string();
  ASSERT_EQ(run({"trace", "gen", "transpose", "--rows", "64", "--cols", "128", "--out", path("tr.bin").string()}).exit_code, 0);
  ASSERT_EQ(run({"trace", "convert", path("tr.bin").string(), path("tr.csv").string(), "--quiet"}).exit_code, 0);
  ASSERT_EQ(run({"trace", "convert", path("tr.bin").string(), path("tr.trc").string(), "--to", "dramsim3", "--config", cfg,
                 "--quiet"}).exit_code, 0);
  Result r = run({"explore", "--config", cfg, "--threads", path("tr.bin").string(), "--json", path("bin.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tr.bin: per-thread trace, ordered by the front end on 4 SMs"), std::string::npos) << r.out;
  auto bin = json("bin.json");
  EXPECT_EQ(bin.at("trace"), path("tr.bin").string());
  EXPECT_GT(bin.at("requests").get<uint64_t>(), 64u * 128 / 32) << "every line read and written";
  auto without_trace = [](nlohmann::json j) {
    j.erase("trace");
    return j;
  };
  r = run({"explore", "--config", cfg, "--trace", path("tr.trc").string(), "--trace-format", "dramsim3", "--json",
           path("trc.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(without_trace(json("trc.json")), without_trace(bin)) << "the DRAMsim3 form of the front end's requests";
  r = run({"explore", "--config", cfg, "--threads", path("tr.csv").string(), "--jobs", "2", "--json", path("csv.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(without_trace(json("csv.json")), without_trace(bin));
}

// A strided request's elements are requests of their own to the entropy,
// as in a run, and those in one interleave granule one access to the
// makespan bound, as the channel serves them: a warp reading 128 bytes in
// 32-byte lines is one strided request of 32 elements in one 256-byte
// granule, and a second warp's the same a page further.
TEST_F(Cli, ExploreCountsAStridedRequestsElementsInOneGranuleAsOneAccess) {
  write("c.yaml",
        "memory: {address_bits: 32, channels: 2, service_cycles: 1, max_outstanding: 64}\n"
        "translator: {channel_bits: [8], candidate_bits: [12], granule_bytes: 256}\n"
        "frontend: {num_sms: 1, line_bytes: 32}\n");
  std::string t = "thread,pc,op,address,width,dependent\nkernel,k,0\n";
  for (unsigned w = 0; w < 2; ++w)
    for (unsigned lane = 0; lane < 32; ++lane)
      t += std::to_string(32 * w + lane) + ",0x10,R," + std::to_string(0x1000 * w + 4 * lane) + ",4,0\n";
  write("t.csv", t);
  const Result r = run({"explore", "--config", path("c.yaml").string(), "--threads", path("t.csv").string(), "--json",
                        path("x.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("x.json");
  EXPECT_EQ(j.at("requests"), 64u) << "every element";
  EXPECT_EQ(j.at("identity").at("makespan_bound"), 2u) << "two accesses, both on channel 0";
}

// --threads names a per-thread trace in every subcommand; the search's
// worker threads are --jobs, and the old `--threads N` says so.
TEST_F(Cli, ExploresOldThreadCountIsRefusedNamingJobs) {
  const std::string cfg = kSource + "/configs/examples/table1-xor.yaml";
  Result r = run({"explore", "--config", cfg, "--threads", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: --threads: names a per-thread trace, as in run, and 3 is no file: the search's worker "
                   "threads are --jobs 3 (gpumem explore --help)\n");
  r = run({"explore", "--config", cfg, "--jobs", "3", "--json", path("x.json").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // A file that happens to be called 3 is a trace.
  write("3", "thread,pc,op,address,width,dependent\nkernel,k,0\n0,0x10,R,0x1000,4,0\n");
  r = run_in(dir_.string(), {"explore", "--config", cfg, "--threads", "3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("3: per-thread trace"), std::string::npos) << r.out;
}

// The makespan bound says what it assumes. On a DRAM config a channel's
// access takes the data bus at its peak, tBL memory cycles, in the model's
// cycles: 8 requests on one channel in two windows of 4 take 8 x 1 cycle on
// simple channels of service_cycles 1, 8 x 2 on HBM2 (tBL 2 of 1 ns), 8 x
// 2.5 on DDR4 (tBL 4 of 0.625 ns); on HBM3, whose access is 32 bytes, each
// 64-byte request is two accesses (docs/memory.md, "Address split"): 16 x
// 1.25 (tBL 2 of 0.625 ns).
TEST_F(Cli, ExploresMakespanBoundSaysWhatItAssumes) {
  std::string trace = "cycle,task_type,op,address,size\n";
  for (unsigned i = 0; i < 8; ++i) trace += "0,0,R," + std::to_string(0x400 * i) + ",64\n";
  write("t.csv", trace);
  const struct {
    const char* memory;
    double per_access;
    uint64_t bound;
    const char* says;
  } cases[] = {
      {"service_cycles: 1", 1, 8, "x 1 cycle (memory.service_cycles), summed: a window's requests all outstanding, each channel serving"},
      {"preset: hbm2", 2, 16, "(hbm2: one 64-byte access per tBL = 2 tCK of 1000 ps); banks, rows, refresh and bus turnarounds are ignored"},
      {"preset: ddr4", 2.5, 20, "x 2.5 cycles, summed: a window's requests all outstanding, each channel's data bus at its peak (ddr4: one "
                                "64-byte access per tBL = 4 tCK of 625 ps)"},
      {"preset: hbm3", 1.25, 20, "(hbm3: one 32-byte access per tBL = 2 tCK of 625 ps)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.memory);
    write("c.yaml", std::string("memory: {address_bits: 32, channels: 4, max_outstanding: 4, ") + c.memory +
                        "}\ntranslator: {channel_bits: [8, 9], candidate_bits: [12]}\n");
    const Result r = run({"explore", "--config", path("c.yaml").string(), "--trace", path("t.csv").string(), "--json",
                          path("x.json").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\nmakespan bound: per window, the busiest channel's accesses x "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(c.says), std::string::npos) << r.out;
    const auto j = json("x.json");
    EXPECT_EQ(j.at("makespan_bound").at("cycles_per_access").get<double>(), c.per_access);
    EXPECT_NE(j.at("makespan_bound").at("assumes").get<std::string>().find(c.says), std::string::npos);
    EXPECT_EQ(j.at("identity").at("makespan_bound").get<uint64_t>(), c.bound) << "every request on channel 0";
  }
}

// CN115422098A [0075]: addresses 0000, 0001, 0011, 0111 (here in bits 12 to
// 15) give bits 0 to 3 the entropies 0.811, 1, 0.811 and 0. Task type 1's
// two requests are fewer than a window and scored as that partial window.
TEST_F(Cli, ExplorePrintsEachTaskTypesCandidateBitEntropy) {
  write("c.yaml",
        "memory: {address_bits: 32, channels: 2, max_outstanding: 4}\n"
        "translator: {channel_bits: [8], candidate_bits: [12, 13, 14, 15]}\n");
  write("t.csv",
        "cycle,task_type,op,address,size\n"
        "0,0,R,0x0000,64\n0,0,R,0x1000,64\n0,1,R,0x10000,64\n0,0,R,0x3000,64\n0,1,R,0x11000,64\n0,0,R,0x7000,64\n");
  const Result r = run({"explore", "--config", path("c.yaml").string(), "--trace", path("t.csv").string(), "--json",
                        path("x.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  candidate bit entropy, mean over 1 windows of this task type's requests:\n"
                       "  bit          12     13     14     15\n"
                       "  entropy   0.811  1.000  0.811  0.000\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  candidate bit entropy, over its 2 requests (fewer than a window):\n"
                       "  bit          12     13     14     15\n"
                       "  entropy   1.000  0.000  0.000  0.000\n"),
            std::string::npos)
      << r.out;
  const auto j = json("x.json");
  const double h = -(0.25 * std::log2(0.25) + 0.75 * std::log2(0.75));
  const double want[2][4] = {{h, 1, h, 0}, {1, 0, 0, 0}};
  ASSERT_EQ(j.at("tasks").size(), 2u);
  for (unsigned t = 0; t < 2; ++t) {
    const auto& e = j.at("tasks")[t].at("candidate_bit_entropy");
    EXPECT_EQ(j.at("tasks")[t].at("task_type"), t) << "most requests first";
    EXPECT_EQ(e.at("windows"), t == 0 ? 1u : 0u);
    ASSERT_EQ(e.at("bits").size(), 4u);
    for (unsigned b = 0; b < 4; ++b) {
      EXPECT_EQ(e.at("bits")[b].at("bit"), 12 + b);
      EXPECT_NEAR(e.at("bits")[b].at("entropy").get<double>(), want[t][b], 1e-6) << "task type " << t << " bit " << 12 + b;
    }
  }
}

// On a terminal (script(1) gives one), a long explore says where it is on
// stderr and clears the line before the report.
TEST_F(Cli, ExploreShowsItsStageOnATerminal) {
  if (std::system("script --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  // The demo twice over (1.2 M requests, about 4 s; the demo alone shows
  // its first task type's line at 1 s): the line is rewritten at most twice
  // a second. Four times over cost 45 s under the sanitizers.
  std::string config = slurp(kSource + "/configs/default.yaml");
  config = std::regex_replace(config, std::regex("count: 200000"), "count: 400000");
  config = std::regex_replace(config, std::regex("count: 180000"), "count: 360000");
  write("long.yaml", config);
  const std::string cmd = "script -qec \"'" + std::string(GPUMEM_BINARY) + "' explore --config '" + path("long.yaml").string() +
                          "'\" /dev/null >'" + path("tty").string() + "' </dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string tty = slurp(path("tty"));
  EXPECT_NE(tty.find("\r\033[Ktask type "), std::string::npos) << tty.substr(0, 2000);
  EXPECT_NE(tty.find("requests"), std::string::npos);
  EXPECT_NE(tty.find("recommended  mean window entropy"), std::string::npos) << "the report follows";
}

}  // namespace
}  // namespace gpumem::test
