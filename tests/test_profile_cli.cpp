// gpumem run --profile-store end to end (issue 12, item 5): the second run
// of an application takes the task type its first run recommended, and does
// better; a bad store stops the run and is left as it was.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

const std::string kTranspose = kSource + "/configs/examples/profile-transpose.yaml";

// The transpose reads down the columns of its matrix: one channel under
// identity. The stream beside it is balanced already and keeps identity.
TEST_F(Cli, SecondRunTakesTheRecommendedTaskTypeAndDoesBetter) {
  const std::string store = path("store.yaml").string();
  const Result first = run({"run", "--config", kTranspose, "--profile-store", store, "--stats-json", path("1.json").string()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string recorded = slurp(store);
  EXPECT_NE(recorded.find("verdict: improved"), std::string::npos) << recorded;
  EXPECT_NE(recorded.find("verdict: balanced"), std::string::npos) << recorded;

  const Result second = run({"run", "--config", kTranspose, "--profile-store", store, "--stats-json", path("2.json").string()});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("profile store: transpose runs with task type 1"), std::string::npos) << second.out;
  const nlohmann::json a = json("1.json"), b = json("2.json");
  std::cout << "first run:  mean window entropy " << a["mean_window_entropy"] << ", makespan " << a["makespan"] << "\n"
            << "second run: mean window entropy " << b["mean_window_entropy"] << ", makespan " << b["makespan"] << "\n";
  // The figures docs/explorer.md, "Profile store", quotes.
  EXPECT_NEAR(a["mean_window_entropy"].get<double>(), 2.829, 0.0005);
  EXPECT_EQ(a["makespan"], 319539);
  EXPECT_EQ(b["mean_window_entropy"], 4.0);
  EXPECT_EQ(b["makespan"], 93045);
  EXPECT_GT(b["mean_window_entropy"].get<double>(), a["mean_window_entropy"].get<double>());
  EXPECT_LT(b["makespan"].get<uint64_t>(), a["makespan"].get<uint64_t>());
  const nlohmann::json& transpose = b["applications"][0];
  EXPECT_EQ(transpose["selected_task_type"], 1);
  EXPECT_FALSE(b["applications"][1].contains("selected_task_type")) << "balanced under identity: nothing to select";
  EXPECT_EQ(transpose["performance"]["mean_window_entropy"], 4.0);
  EXPECT_EQ(a["applications"][0]["performance"]["mean_window_entropy"], 0.0);
  EXPECT_EQ(transpose["profile"]["predicted_entropy"], transpose["performance"]["mean_window_entropy"])
      << "the store's prediction is what the second run achieved";
  EXPECT_EQ(b["tasks"][1]["task_type"], 1) << "the transpose's requests ran as task type 1";

  // The recommendation depends only on the requests: a third run is the second again.
  const Result third = run({"run", "--config", kTranspose, "--profile-store", store, "--stats-json", path("3.json").string()});
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_EQ(json("3.json")["makespan"], b["makespan"]);
  EXPECT_NE(slurp(store).find("runs: 3"), std::string::npos);
}

// CTRL bit 1 off: the store is recorded and its selection written to
// APP_TASK_SELECT, but the translator ignores it.
TEST_F(Cli, DynamicSelectionOffKeepsTheConfiguredTaskTypes) {
  std::string text = slurp(kTranspose);
  text.replace(text.find("  tasks:"), 0, "  dynamic_selection: false\n");
  const std::string cfg = write("off.yaml", text).string();
  const std::string store = path("store.yaml").string();
  ASSERT_EQ(run({"run", "--config", cfg, "--profile-store", store, "--stats-json", path("1.json").string()}).exit_code, 0);
  const Result second = run({"run", "--config", cfg, "--profile-store", store, "--stats-json", path("2.json").string()});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("translator.dynamic_selection is false, so not applied"), std::string::npos) << second.out;
  EXPECT_EQ(json("2.json")["makespan"], json("1.json")["makespan"]);
  EXPECT_EQ(json("2.json")["mean_window_entropy"], json("1.json")["mean_window_entropy"]);
}

TEST_F(Cli, BadStoreStopsTheRunAndStaysAsItWas) {
  const std::string bad = "version: 1\ngeometry: {channels: 16}\napplications: []\n";
  const fs::path store = write("store.yaml", bad);
  const Result r = run({"run", "--config", kTranspose, "--profile-store", store.string(), "--stats-json", path("s.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: " + store.string() + ":2: geometry.channel_bits: missing value\n");
  EXPECT_EQ(slurp(store), bad);
  EXPECT_FALSE(fs::exists(path("s.json"))) << "nothing ran";
}

// A run that stops on a bad trace line records nothing: the store from the
// run before is left byte for byte.
TEST_F(Cli, RunStoppedByABadTraceLeavesTheStoreAsItWas) {
  const std::string store = path("store.yaml").string();
  ASSERT_EQ(run({"run", "--config", kTranspose, "--profile-store", store, "--quiet"}).exit_code, 0);
  const std::string before = slurp(store);
  std::string trace = "cycle,process,op,va,size\n";
  for (int i = 0; i < 300; ++i) trace += std::to_string(i) + ",0,R," + std::to_string(i * 4096) + ",64\n";
  trace += "300,0,R,0xZZ,64\n";
  const fs::path t = write("bad.csv", trace);
  const Result r = run({"run", "--config", kTranspose, "--trace", t.string(), "--profile-store", store, "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(t.string() + ":302: va:"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(store), before);
  for (const auto& e : fs::directory_iterator(path("")))
    EXPECT_EQ(e.path().filename().string().find("store.yaml."), std::string::npos) << "a temporary left: " << e.path();
}

}  // namespace
}  // namespace gpumem::test
