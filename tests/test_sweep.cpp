// Sweep specs (docs/sweeps.md) without processes: the points a spec makes
// (product, zip), their identity (point_hash), and bad specs named by file,
// line and key.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "base/input_error.hpp"
#include "sweep/sweep_merge.hpp"
#include "sweep/sweep_slurm.hpp"
#include "sweep/sweep_spec.hpp"

namespace gpumem::sweep {
namespace {

namespace fs = std::filesystem;

const char* const kBase =
    "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n  - {kind: strided, count: 100, stride: 4096}\n";

class SweepSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string d = ::testing::TempDir() + "sweep-XXXXXX";
    ASSERT_NE(mkdtemp(d.data()), nullptr);
    dir_ = d;
    write("base.yaml", kBase);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST_F(SweepSpecTest, PointsAreTheProductOfTheAxesWithAZipGroupCountingOnce) {
  const SweepSpec s = load_sweep_spec(write("s.yaml",
                                            "base: base.yaml\n"
                                            "axes:\n"
                                            "  workload[0].stride: [256, 4096, 65536]\n"
                                            "  memory.max_outstanding: [8, 16]\n"
                                            "zip:\n"
                                            "  - {memory.channels: [2, 4], translator.channel_bits: [[8], [8, 9]]}\n"));
  ASSERT_EQ(point_count(s), 12u);
  const std::vector<Point> p = all_points(s);
  // The first axis slowest, the zip group last and fastest, its members together.
  EXPECT_EQ(p[0].label, "workload[0].stride=256 memory.max_outstanding=8 memory.channels=2 translator.channel_bits=[8]");
  EXPECT_EQ(p[1].label, "workload[0].stride=256 memory.max_outstanding=8 memory.channels=4 translator.channel_bits=[8, 9]");
  EXPECT_EQ(p[2].label, "workload[0].stride=256 memory.max_outstanding=16 memory.channels=2 translator.channel_bits=[8]");
  EXPECT_EQ(p[11].label, "workload[0].stride=65536 memory.max_outstanding=16 memory.channels=4 translator.channel_bits=[8, 9]");
  std::set<std::string> hashes;
  for (const Point& q : p) {
    hashes.insert(q.hash);
    EXPECT_EQ(q.hash.size(), 16u);
  }
  EXPECT_EQ(hashes.size(), 12u) << "every point is another identity";
  EXPECT_NE(p[1].config_yaml.find("channel_bits: [8, 9]"), std::string::npos) << p[1].config_yaml;
  EXPECT_NE(p[1].config_yaml.find("stride: 256"), std::string::npos) << p[1].config_yaml;
}

TEST_F(SweepSpecTest, APointsIdentityChangesWithEveryInputAndNotWithKeyOrder) {
  const std::string config = canonical_yaml(kBase);
  const std::string h = point_hash("run", config, "", "", {});
  EXPECT_NE(point_hash("explore", config, "", "", {}), h);
  EXPECT_NE(point_hash("run", canonical_yaml(std::string(kBase) + "mmu: {page_sizes: [4096]}\n"), "", "", {}), h);
  EXPECT_NE(point_hash("run", config, "0,0,R,0x0,64\n", "", {}), h);
  EXPECT_NE(point_hash("run", config, "", "7", {}), h);
  EXPECT_NE(point_hash("run", config, "", "", {"--window", "32"}), h);
  EXPECT_NE(point_hash("run", config, "", "", {"--window32"}), point_hash("run", config, "", "", {"--window", "32"}));
  // The same config with its keys in another order, other layout and comments.
  EXPECT_EQ(canonical_yaml("translator: {channel_bits: [8, 9]}\n# a comment\nworkload:\n  - {stride: 4096, count: 100, "
                           "kind: strided}\nmemory: {channels: 4}\n"),
            config);
  // A spec with its axes in another order makes the same points (in another order).
  auto hashes = [&](const std::string& axes) {
    std::set<std::string> out;
    for (const Point& p : all_points(load_sweep_spec(write("o.yaml", "base: base.yaml\naxes:\n" + axes)))) out.insert(p.hash);
    return out;
  };
  EXPECT_EQ(hashes("  memory.max_outstanding: [8, 16]\n  workload[0].stride: [256, 4096]\n"),
            hashes("  workload[0].stride: [256, 4096]\n  memory.max_outstanding: [8, 16]\n"));
}

// A Slurm array over chunks of K points: the tasks that hold the points
// asked for, written as Slurm's --array takes them.
TEST(SweepSlurm, ChunksAndArraySpecs) {
  EXPECT_EQ(chunks_of({0, 1, 2, 3, 4, 5, 6}, 1), (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(chunks_of({0, 1, 2, 3, 4, 5, 6}, 5), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(chunks_of({3, 4, 12, 99}, 5), (std::vector<size_t>{0, 2, 19}));
  EXPECT_EQ(array_spec({0, 1, 2, 3}, 0), "0-3");
  EXPECT_EQ(array_spec({0, 1, 2, 3}, 2), "0-3%2");
  EXPECT_EQ(array_spec({0, 2, 19}, 0), "0,2,19");
  EXPECT_EQ(array_spec({1, 2, 3}, 4), "1,2,3%4");
}

// A point runs in its own folder: a flag naming a file from the spec's
// folder reaches it as an absolute path; other words are kept.
TEST_F(SweepSpecTest, AFlagNamingAFileIsPassedAbsolute) {
  write("t.bin", "x");
  const std::vector<Point> p =
      all_points(load_sweep_spec(write("s.yaml", "base: base.yaml\nflags: '--threads t.bin'\naxes:\n  flags: ['--window 32', '']\n")));
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].flags, (std::vector<std::string>{"--threads", fs::absolute(dir_ / "t.bin").lexically_normal().string(), "--window", "32"}));
  EXPECT_EQ(p[1].flags, (std::vector<std::string>{"--threads", fs::absolute(dir_ / "t.bin").lexically_normal().string()}));
}

// Merge reads only the members its metrics name: the others are skipped
// whole, strings with brackets, braces, quotes and backslashes in them too.
TEST(SweepMerge, TopLevelMembersSkipsTheRestWhole) {
  const std::string text = R"({"series": {"a": [1, "]}{[", {"b": "\"]"}], "c\\": "x"},
    "name": "q\"[", "requests": 2000, "channels": [{"requests": 7}], "tail": [[], {}]})";
  EXPECT_EQ(top_level_members(text, {"requests", "channels"}), R"({"requests":2000,"channels":[{"requests": 7}]})");
  EXPECT_EQ(top_level_members(text, {"name", "tail"}), R"({"name":"q\"[","tail":[[], {}]})");
  EXPECT_EQ(top_level_members(text, {}), "{}");
  bool found = false;
  EXPECT_EQ(json_path_value(top_level_members(text, {"channels"}), "channels[0].requests", found), "7");
  EXPECT_TRUE(found);
  EXPECT_EQ(top_level_members("[1, 2]", {"x"}), "[1, 2]") << "not an object: left to the parser";
  EXPECT_EQ(top_level_members(R"({"a": "unterminated)", {"a"}), R"({"a": "unterminated)");
}

// Each bad spec: one InputError naming the spec file, the line and the key.
TEST_F(SweepSpecTest, ABadSpecNamesItsFileLineAndKey) {
  write("t.csv", "cycle,task_type,op,address,size\n0,0,R,0x0,64\n");
  const struct {
    const char* text;
    const char* where;  // "LINE: KEY: " after the file
    const char* message;
  } cases[] = {
      {"axes:\n  memory.channels: [2]\n", "1: base: ", "missing: the config every point starts from"},
      {"base: nosuch.yaml\naxes: {memory.channels: [2]}\n", "1: base: ", "nosuch.yaml: no such file"},
      {"base: base.yaml\n", "1: axes: ", "missing: a sweep needs at least one axis"},
      {"base: base.yaml\ncolour: red\naxes: {seed: [1]}\n", "2: colour: ", "unknown key"},
      {"base: base.yaml\ncommand: simulate\naxes: {memory.channels: [2]}\n", "2: command: ", "unknown command 'simulate'"},
      {"base: base.yaml\naxes:\n  memory.channels: []\n", "3: memory.channels: ", "a non-empty list of values"},
      {"base: base.yaml\naxes:\n  seed: [1, 2]\n", "3: seed: ", "the run command takes no --seed"},
      {"base: base.yaml\ncommand: cosim\naxes:\n  trace: [t.csv]\n", "4: trace: ", "the cosim command takes no --trace"},
      {"base: base.yaml\naxes:\n  trace: [missing.csv]\n", "3: trace: ", "missing.csv: no such file"},
      {"base: base.yaml\naxes:\n  memory..channels: [2]\n", "3: memory..channels: ", "an empty name in the key"},
      {"base: base.yaml\naxes:\n  workload[x].stride: [2]\n", "3: workload[x].stride: ", "is not NAME or NAME[INDEX]"},
      {"base: base.yaml\naxes:\n  memory.channels: [2]\nzip:\n  - {memory.channels: [4, 8], translator.channel_bits: [[8], [8, 9]]}\n",
       "5: memory.channels: ", "axis given twice"},
      {"base: base.yaml\nzip:\n  - {memory.channels: [2, 4], translator.channel_bits: [[8]]}\n", "3: translator.channel_bits: ",
       "1 values, and memory.channels in its zip group has 2"},
      {"base: base.yaml\nzip:\n  - {memory.channels: [2, 4]}\n", "3: zip: ", "a group is a mapping of at least two axes"},
      {"base: base.yaml\naxes: [memory.channels]\n", "2: axes: ", "a mapping of axis to its list of values"},
  };
  for (const auto& c : cases) {
    const std::string spec = write("bad.yaml", c.text);
    try {
      all_points(load_sweep_spec(spec));
      ADD_FAILURE() << "accepted:\n" << c.text;
    } catch (const InputError& e) {
      const std::string expected = spec + ":" + c.where;
      EXPECT_EQ(std::string(e.what()).rfind(expected, 0), 0u) << e.what() << "\nexpected to start with " << expected;
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

// A value the config refuses is found before anything runs, naming the
// spec's line, the axis, the point and the config's own complaint.
TEST_F(SweepSpecTest, APointTheConfigRefusesIsNamedBeforeAnythingRuns) {
  const std::string spec = write("s.yaml", "base: base.yaml\naxes:\n  workload[0].count: [10, 20]\n  memory.channels: [4, 8]\n");
  try {
    all_points(load_sweep_spec(spec));
    FAIL() << "8 channels with two channel bits was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              spec + ":3: workload[0].count: point 1 (workload[0].count=10 memory.channels=8): translator.channel_bits: 2 "
                     "channel bits give 4 channels but memory.channels is 8");
  }
  const std::string index = write("i.yaml", "base: base.yaml\naxes:\n  workload[3].count: [10]\n");
  try {
    all_points(load_sweep_spec(index));
    FAIL() << "a list index beyond the base's list was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), index + ":3: workload[3].count: point 0 (10): workload[3]: the list has 1 entries");
  }
}

}  // namespace
}  // namespace gpumem::sweep
