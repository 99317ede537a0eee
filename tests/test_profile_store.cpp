// The profile store (docs/explorer.md, "Profile store"): the file read back
// as written, its checks against the config, the task type each
// recommendation is given, and the verdict rules on hand-made requests.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "params/block_params.hpp"
#include "params/profile_store.hpp"
#include "temporary_file.hpp"
#include "explorer/profile.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

// Two applications on 16 channels (channel bits 8-11), through the MMU.
const std::string kConfig = R"(memory: {address_bits: 40, channels: 16, service_cycles: 4, max_outstanding: 64}
mmu: {page_sizes: [4096, 65536]}
translator:
  channel_bits: [8, 9, 10, 11]
  candidate_bits: [12, 13, 14, 15, 16, 17, 18, 19]
  tasks:
    - {task_type: 0, scheme: none}
    - {task_type: 2, scheme: xor, xor_vectors: [0x1, 0x2, 0x4, 0x8]}
address_space:
  va_bits: 40
  applications:
    - {name: transpose, process: 0, task_type: 0, regions: [{name: m, va: 0x0, size: 0x100000, page: large}]}
    - {name: stream, process: 1, task_type: 2, regions: [{name: b, va: 0x10000000, size: 0x100000, page: large}]}
)";


ApplicationProfile profile(const std::string& name, ProfileVerdict v, std::optional<TaskMapping> m) {
  ApplicationProfile p;
  p.name = name;
  p.runs = 3;
  p.task_type = 0;
  p.window = 64;
  p.measured.requests = 60000;
  p.measured.bytes = 3840000;
  p.measured.active_cycles = 93045;
  p.measured.windows = 937;
  p.measured.mean_window_entropy = 3.9876543210987654;
  p.verdict = v;
  p.configured_entropy = 0.125;
  p.predicted_entropy = 4;
  p.mapping = m;
  return p;
}

TaskMapping xor_mapping(std::vector<uint32_t> v) {
  TaskMapping m;
  m.scheme = Scheme::kXor;
  m.xor_vectors = std::move(v);
  return m;
}

TEST(ProfileStore, ReadsBackWhatItWrites) {
  const Config cfg = config_from(kConfig);
  ProfileStore store = empty_profile_store(cfg);
  store.record(profile("transpose", ProfileVerdict::kImproved, xor_mapping({0x11, 0x22, 0x44, 0x88})));
  TaskMapping ipoly;
  ipoly.scheme = Scheme::kMatrix;
  ipoly.baseline = "ipoly";
  store.record(profile("stream \"two\"", ProfileVerdict::kNoGain, std::nullopt));
  store.record(profile("third", ProfileVerdict::kBalanced, ipoly));
  const std::string path = temporary_file("store-roundtrip.yaml", profile_store_yaml(store));
  const ProfileStore back = read_profile_store(path, cfg);
  ASSERT_EQ(back.applications.size(), 3u);
  EXPECT_EQ(profile_store_yaml(back), profile_store_yaml(store)) << "every value round-trips, the double too";
  EXPECT_EQ(back.applications[1].name, "stream \"two\"");
  EXPECT_FALSE(back.applications[1].mapping);
  EXPECT_EQ(back.applications[2].mapping->matrix_rows.size(), 4u) << "a baseline's rows are made at load";
  EXPECT_DOUBLE_EQ(back.applications[0].measured.mean_window_entropy, 3.9876543210987654);

  store.record(profile("transpose", ProfileVerdict::kSparse, TaskMapping{}));
  EXPECT_EQ(store.applications.size(), 3u) << "a second record of a name replaces the first";
  EXPECT_EQ(store.applications[0].verdict, ProfileVerdict::kSparse);
}

// The store shown in docs/explorer.md, "Profile store", is one this gpumem reads.
TEST(ProfileStore, TheDocumentedStoreIsReadable) {
  std::ifstream in(std::string(GPUMEM_SOURCE_DIR) + "/docs/explorer.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const size_t section = doc.find("## Profile store");
  ASSERT_NE(section, std::string::npos);
  const size_t begin = doc.find("```yaml\n", section);
  ASSERT_NE(begin, std::string::npos);
  const size_t end = doc.find("```", begin + 8);
  const std::string path = temporary_file("store-doc.yaml", doc.substr(begin + 8, end - begin - 8));
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/profile-transpose.yaml");
  const ProfileStore store = read_profile_store(path, cfg);
  ASSERT_EQ(store.applications.size(), 1u);
  EXPECT_EQ(store.applications[0].verdict, ProfileVerdict::kImproved);
}

TEST(ProfileStore, BadStoresNameFileLineAndKey) {
  const Config cfg = config_from(kConfig);
  ProfileStore good = empty_profile_store(cfg);
  good.record(profile("transpose", ProfileVerdict::kImproved, xor_mapping({0x11, 0x22, 0x44, 0x88})));
  const std::string text = profile_store_yaml(good);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  struct Case {
    std::string text;
    int line;
    std::string key, fragment;
  };
  const std::vector<Case> cases = {
      {with("channels: 16", "channels: 8"), 4, "geometry", "written for another translator"},
      {with("verdict: improved", "verdict: better"), 11, "applications[0].verdict", "unknown verdict 'better'"},
      {with("    mapping: {scheme: xor, xor_vectors: [0x11, 0x22, 0x44, 0x88]}\n", ""), 6, "applications[0].mapping",
       "a improved record names its mapping"},
      {with("0x88]", "0x188]"), 14, "applications[0].mapping.xor_vectors[3]", "beyond the 8 configured"},
      {with("scheme: xor, xor_vectors: [0x11, 0x22, 0x44, 0x88]", "scheme: matrix, matrix: [[8], [8], [10], [11]]"), 14,
       "applications[0].mapping.matrix", "not invertible"},
      {with("version: 1", "version: 2"), 3, "version", "unknown profile store version"},
      {with("    runs: 3\n", "    runs: 3\n    colour: blue\n"), 8, "applications[0].colour", "unknown key"},
      {text + text.substr(text.find("  - name")), 15, "applications[1].name", "recorded twice"},
      {with("applications:", "applications: ["), 6, "", "YAML syntax error"},
      {"", 0, "", "empty profile store"},
  };
  for (const Case& c : cases) {
    const std::string path = temporary_file("store-bad.yaml", c.text);
    EXPECT_TRUE(input_error_at([&] { read_profile_store(path, cfg); }, path, c.line, c.key, c.fragment)) << c.text;
  }
}

// A scheme the register bank cannot serve here: prime with channel bits
// that are not one ascending field.
TEST(ProfileStore, ASchemeTheBankRefusesIsABadStore) {
  std::string yaml = kConfig;
  yaml.replace(yaml.find("channel_bits: [8, 9, 10, 11]"), 28, "channel_bits: [8, 9, 11, 10]\n  prime: 3");
  const Config cfg = config_from(yaml);
  TaskMapping prime;
  prime.scheme = Scheme::kPrime;
  ProfileStore store = empty_profile_store(cfg);
  store.record(profile("transpose", ProfileVerdict::kImproved, prime));
  const std::string path = temporary_file("store-prime.yaml", profile_store_yaml(store));
  EXPECT_TRUE(input_error_at([&] { read_profile_store(path, cfg); }, path, 14, "applications[0].mapping.scheme",
                             "refuses scheme prime"));
}

TEST(ProfileStore, RecommendationTakesATaskTypeWithThatMappingOrAFreeOne) {
  const Config cfg = config_from(kConfig);
  ProfileStore store = empty_profile_store(cfg);
  // transpose: task type 2's mapping exists already; stream: a new mapping.
  store.record(profile("transpose", ProfileVerdict::kImproved, xor_mapping({0x1, 0x2, 0x4, 0x8})));
  store.record(profile("stream", ProfileVerdict::kImproved, xor_mapping({0x11, 0x22, 0x44, 0x88})));
  store.record(profile("absent", ProfileVerdict::kImproved, xor_mapping({0x3, 0x2, 0x4, 0x8})));
  std::vector<std::string> notes;
  const Config out = apply_profile_store(cfg, store, notes);
  EXPECT_EQ(out.address_space.applications[0].selected_task_type, std::optional<unsigned>(2u));
  EXPECT_EQ(out.address_space.applications[1].selected_task_type, std::optional<unsigned>(1u))
      << "the lowest task type no application, region or listed mapping uses";
  ASSERT_EQ(out.translator.tasks.size(), 3u);
  EXPECT_EQ(out.translator.tasks[2].task_type, 1u);
  EXPECT_EQ(out.translator.tasks[2].xor_vectors, (std::vector<uint32_t>{0x11, 0x22, 0x44, 0x88}));
  EXPECT_EQ(notes.size(), 2u);
  EXPECT_EQ(registers_from_config(out).effective_task(1, 2), 1u) << "the driver's selection reaches the translator";

  // A record that keeps the configured mapping, or recommends it, selects nothing.
  ProfileStore same = empty_profile_store(cfg);
  same.record(profile("stream", ProfileVerdict::kNoGain, std::nullopt));
  same.record(profile("transpose", ProfileVerdict::kBalanced, TaskMapping{}));
  notes.clear();
  const Config unchanged = apply_profile_store(cfg, same, notes);
  EXPECT_FALSE(unchanged.address_space.applications[0].selected_task_type);
  EXPECT_FALSE(unchanged.address_space.applications[1].selected_task_type);
  EXPECT_TRUE(notes.empty());
}

TEST(ProfileStore, NoFreeTaskTypeKeepsTheConfiguredOneAndSaysSo) {
  std::string yaml = kConfig;
  yaml.replace(yaml.find("    - {task_type: 2,"), 0, [] {
    std::string s;
    for (unsigned t = 3; t < 16; ++t) s += "    - {task_type: " + std::to_string(t) + ", scheme: none}\n";
    return s + "    - {task_type: 1, scheme: none}\n";
  }());
  const Config cfg = config_from(yaml);
  ProfileStore store = empty_profile_store(cfg);
  store.record(profile("transpose", ProfileVerdict::kImproved, xor_mapping({0x11, 0x22, 0x44, 0x88})));
  std::vector<std::string> notes;
  const Config out = apply_profile_store(cfg, store, notes);
  EXPECT_FALSE(out.address_space.applications[0].selected_task_type);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("none is free"), std::string::npos) << notes[0];
}

// The verdicts on hand-made requests: 64 requests per window, 16 channels.
class Recommend : public ::testing::Test {
 protected:
  Config cfg = config_from(kConfig);
  const ApplicationConfig& transpose = cfg.address_space.applications[0];
  PerfReading dense(uint64_t requests) const {
    PerfReading m;
    m.requests = requests;
    m.active_cycles = requests;  // one request a cycle: four channels' worth
    return m;
  }
};

TEST_F(Recommend, ColumnWalkIsImprovedByAMapping) {
  std::vector<uint64_t> column;
  for (uint64_t r = 0; r < 4096; ++r) column.push_back(r * 4096);
  const ApplicationProfile p = recommend(cfg, transpose, dense(column.size()), 0, column, nullptr);
  EXPECT_EQ(p.verdict, ProfileVerdict::kImproved);
  EXPECT_EQ(p.configured_entropy, 0.0) << "identity puts every row on one channel";
  EXPECT_EQ(p.predicted_entropy, 4.0);
  ASSERT_TRUE(p.mapping);
  EXPECT_NE(p.mapping->scheme, Scheme::kNone);
  EXPECT_EQ(p.runs, 1u);
}

// The verdict is the configured mapping's, whatever task type the requests
// ran with: run 2, moved to task type 2 (whose vectors spread the column),
// must not find "no gain" over its own selection and drop it for run 3.
TEST_F(Recommend, TheVerdictDoesNotDependOnTheTaskTypeItRanWith) {
  std::vector<uint64_t> column;
  for (uint64_t r = 0; r < 4096; ++r) column.push_back(r * 4096);
  const ApplicationProfile first = recommend(cfg, transpose, dense(column.size()), 0, column, nullptr);
  const ApplicationProfile second = recommend(cfg, transpose, dense(column.size()), 2, column, &first);
  EXPECT_EQ(second.verdict, ProfileVerdict::kImproved);
  ASSERT_TRUE(second.mapping);
  EXPECT_TRUE(same_mapping(*second.mapping, *first.mapping));
  EXPECT_EQ(second.configured_entropy, 0.0);
  EXPECT_EQ(second.task_type, 2u);
}

TEST_F(Recommend, BalancedStaysIdentity) {
  std::vector<uint64_t> stream;
  for (uint64_t r = 0; r < 4096; ++r) stream.push_back(r * 256);
  const ApplicationProfile p = recommend(cfg, transpose, dense(stream.size()), 0, stream, nullptr);
  EXPECT_EQ(p.verdict, ProfileVerdict::kBalanced);
  ASSERT_TRUE(p.mapping);
  EXPECT_EQ(p.mapping->scheme, Scheme::kNone);
}

TEST_F(Recommend, FewOrSparseRequestsGetNoMapping) {
  std::vector<uint64_t> column;
  for (uint64_t r = 0; r < 4096; ++r) column.push_back(r * 4096);
  const std::vector<uint64_t> few(column.begin(), column.begin() + 4 * 64 - 1);
  EXPECT_EQ(recommend(cfg, transpose, dense(few.size()), 0, few, nullptr).verdict, ProfileVerdict::kSparse)
      << "fewer than four windows";
  PerfReading sparse = dense(column.size());
  sparse.active_cycles = column.size() * 17;  // one request per 17 cycles: under a quarter of one channel (4 cycles each)
  const ApplicationProfile p = recommend(cfg, transpose, sparse, 0, column, nullptr);
  EXPECT_EQ(p.verdict, ProfileVerdict::kSparse);
  EXPECT_EQ(p.mapping->scheme, Scheme::kNone);
  sparse.active_cycles = column.size() * 15;  // just over a quarter
  EXPECT_EQ(recommend(cfg, transpose, sparse, 0, column, nullptr).verdict, ProfileVerdict::kImproved);
}

TEST_F(Recommend, NoGainKeepsTheConfiguredMapping) {
  // Application stream runs task type 2 (channel bit j flipped by candidate
  // bit j): rows of 4 KB then spread already; nothing beats it by 0.05 bit.
  std::vector<uint64_t> column;
  for (uint64_t r = 0; r < 4096; ++r) column.push_back(0x10000000 + r * 4096);
  ApplicationProfile previous;
  previous.runs = 4;
  const ApplicationProfile p = recommend(cfg, cfg.address_space.applications[1], dense(column.size()), 2, column, &previous);
  EXPECT_EQ(p.verdict, ProfileVerdict::kNoGain);
  EXPECT_FALSE(p.mapping);
  EXPECT_EQ(p.predicted_entropy, p.configured_entropy);
  EXPECT_EQ(p.runs, 5u);
  EXPECT_EQ(p.task_type, 2u);
}

}  // namespace
}  // namespace gpumem::test
