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
