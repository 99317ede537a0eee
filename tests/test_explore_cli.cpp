// gpumem explore end to end: seed 000's table 1 found from the identity
// config, and a recommendation that gpumem run reproduces to the last bit.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

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
  const auto xj = json("x.json");
  EXPECT_GT(xj.at("recommended").at("mean_window_entropy").get<double>(), xj.at("configured").at("mean_window_entropy").get<double>());
  const std::string recommended = with_tasks(slurp(config), slurp(path("tasks.yaml")));
  write("recommended.yaml", recommended);
  const Result r = run({"run", "--config", path("recommended.yaml").string(), "--stats-json", path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err << recommended;
  EXPECT_EQ(json("s.json").at("mean_window_entropy").get<double>(), xj.at("recommended").at("mean_window_entropy").get<double>());
  const Result c = run({"run", "--config", config, "--stats-json", path("c.json").string(), "--quiet"});
  EXPECT_EQ(json("c.json").at("mean_window_entropy").get<double>(), xj.at("configured").at("mean_window_entropy").get<double>());
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

}  // namespace
}  // namespace gpumem::test
