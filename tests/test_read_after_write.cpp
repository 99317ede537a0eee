// Read after write with the plain classes (no kernel): translator ->
// decoder -> channel stores return the last written data for every scheme and
// mix of task types; and a mapping without page isolation corrupts data.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <memory>

#include "functional_path.hpp"
#include "random_mix.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

// Drives the same blocks the TLM shells wrap, in issue order.
uint64_t run_mix(const Config& cfg, RequestSource& src, ShadowScoreboard& sb) {
  FunctionalPath path(cfg);
  Request r;
  How how;
  uint8_t data[4096];
  uint64_t n = 0;
  while (src.next(r)) {
    if (r.op == Op::kWrite) fill_write_data(r, data);
    EXPECT_TRUE(path.access(r.task_type, r.address, r.op, data, r.size, how));
    sb.on_completion({r, how, data, r.cycle, r.cycle});
    ++n;
  }
  return n;
}

TEST(ReadAfterWrite, EverySchemeAndTaskMixOverManySeeds) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const Config cfg = config_from(mixed_scheme_yaml(rng));
    RandomMix mix(seed, random_pages(rng, 64, 4096, 32), 4096, 64, 20000);
    ShadowScoreboard sb;
    EXPECT_EQ(run_mix(cfg, mix, sb), 20000u);
    EXPECT_EQ(sb.mismatches(), 0u) << "seed " << seed;
    EXPECT_GT(sb.bytes_checked_written(), 10000u) << "the mix must read back written data";
  }
}

TEST(ReadAfterWrite, NonPowerOfTwoChannelsWithPrime) {
  std::mt19937_64 rng(99);
  const Config cfg = config_from(base_yaml("translator: {granule_bytes: 64, prime: 7, default_scheme: prime}", 6, 32));
  RandomMix mix(5, random_pages(rng, 64, 4096, 32), 4096, 64, 20000);
  ShadowScoreboard sb;
  run_mix(cfg, mix, sb);
  EXPECT_EQ(sb.mismatches(), 0u);
}

// The reason for the isolation rule: channel bits above the smallest page let
// two neighbouring pages with different mappings land on the same bytes.
TEST(ReadAfterWrite, WithoutPageIsolationDataIsCorrupted) {
  Config cfg;  // built directly: load_config would reject it
  cfg.memory.address_bits = 32;
  cfg.memory.channels = 8;
  cfg.translator.channel_bits = {12, 13, 14};  // at the 4 KB page boundary and above
  cfg.translator.candidate_bits = {15, 16, 17};
  cfg.translator.tasks = {{0, Scheme::kNone, {}, {}, "", 1}, {1, Scheme::kXor, {1, 2, 4}, {}, "", 1}};
  std::vector<TaggedPage> pages;
  for (uint64_t p = 0; p < 64; ++p) pages.push_back({p * 4096, static_cast<unsigned>(p % 2)});
  RandomMix mix(3, pages, 4096, 64, 20000);
  ShadowScoreboard sb;
  {
    // The scoreboard reports each mismatch as a failure; here they are the point.
    ::testing::TestPartResultArray expected_failures;
    ::testing::ScopedFakeTestPartResultReporter intercept(&expected_failures);
    run_mix(cfg, mix, sb);
  }
  EXPECT_GT(sb.mismatches(), 0u) << "a mapping that crosses pages must corrupt data";
}

}  // namespace
}  // namespace gpumem::test
