// The L1 data cache model (sc_models/cache/l1_cache.hpp) against hand-worked
// traces: hits, misses, MSHR merges and stalls, evictions and the LRU order,
// write-through, invalidation; and its config's checks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "cache/l1_cache.hpp"
#include "params/block_params.hpp"
#include "test_helpers.hpp"

namespace gpumem {
namespace {

// 2 sets x 2 ways of 64-byte lines: line address bit 6 picks the set.
Config l1_config(const std::string& l1 = "{size_bytes: 256, line_bytes: 64, ways: 2, mshrs: 2, hit_latency: 1}") {
  return test::config_from(test::base_yaml("translator: {channel_bits: [8, 9, 10]}\nfrontend: {line_bytes: 64}\nl1: " + l1));
}

std::vector<uint8_t> line_of(uint8_t fill) { return std::vector<uint8_t>(64, fill); }

TEST(L1Cache, HitsMissesMergesAndEvictionsOnAHandWorkedTrace) {
  L1Cache c(l1_params(l1_config()));
  ASSERT_EQ(c.set_of(0x000), 0u);
  ASSERT_EQ(c.set_of(0x040), 1u);
  ASSERT_EQ(c.set_of(0x080), 0u);
  // Cycle 0: miss on A (set 0); its fill is ready at 10.
  EXPECT_EQ(c.read(0, 0x000, 0).result, L1Result::kMiss);
  EXPECT_EQ(c.mshr_free(0, 1), 1u);
  c.fill(0, 0x000, 0, 10, line_of(0xA).data());
  // Cycle 5: A again, in flight: merges, ready at 10.
  const L1Cache::Lookup merge = c.read(0, 0x004, 5);
  EXPECT_EQ(merge.result, L1Result::kMerge);
  EXPECT_EQ(merge.ready, 10u);
  // Cycle 12: A is there.
  EXPECT_EQ(c.read(0, 0x03c, 12).result, L1Result::kHit);
  // B and C miss in set 0 too; C evicts the least recently used: A was used at 12, B at 20.
  EXPECT_EQ(c.read(0, 0x080, 20).result, L1Result::kMiss);
  EXPECT_FALSE(c.fill(0, 0x080, 20, 30, line_of(0xB).data()).evicted);
  EXPECT_EQ(c.read(0, 0x000, 31).result, L1Result::kHit);  // A is now the most recent
  EXPECT_EQ(c.lru_order(0), (std::vector<uint64_t>{0x000, 0x080}));
  EXPECT_EQ(c.read(0, 0x100, 40).result, L1Result::kMiss);
  const L1Cache::Fill f = c.fill(0, 0x100, 40, 50, line_of(0xC).data());
  EXPECT_TRUE(f.evicted);
  EXPECT_EQ(f.victim_line, 0x080u) << "B, the least recently used";
  EXPECT_EQ(c.lru_order(0), (std::vector<uint64_t>{0x100, 0x000}));
  EXPECT_EQ(c.read(0, 0x080, 60).result, L1Result::kMiss) << "B was evicted";
  // Set 1 is untouched; another address space never hits A's line.
  EXPECT_TRUE(c.lru_order(1).empty());
  EXPECT_EQ(c.read(1, 0x000, 61).result, L1Result::kMiss);
  const L1Stats& s = c.stats();
  EXPECT_EQ(s.reads, 8u);
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.mshr_merges, 1u);
  EXPECT_EQ(s.misses, 5u);
  EXPECT_EQ(s.fills, 3u);
  EXPECT_EQ(s.evictions, 1u);
  EXPECT_DOUBLE_EQ(s.miss_rate(), 5.0 / 8);
}

TEST(L1Cache, AMissWaitsForAFreeMshr) {
  L1Cache c(l1_params(l1_config()));  // 2 MSHRs
  c.fill(0, 0x000, 0, 100, line_of(1).data());
  c.fill(0, 0x040, 1, 60, line_of(2).data());
  // Both in flight at cycle 2: a third miss waits for the earlier to end (60).
  EXPECT_EQ(c.mshr_free(2, 3), 60u);
  EXPECT_EQ(c.stats().mshr_full_stalls, 1u);
  EXPECT_EQ(c.stats().mshr_stall_cycles, 57u);
  c.fill(0, 0x080, 2, 90, line_of(3).data());
  // At 70 the fill ending at 60 is gone, but 90 and 100 are in flight.
  EXPECT_EQ(c.mshr_free(70, 70), 90u);
  // Not counted as busy once it ended: at 95 one MSHR is free.
  EXPECT_EQ(c.mshr_free(95, 95), 95u);
  EXPECT_EQ(c.stats().mshr_full_stalls, 2u);
}

TEST(L1Cache, WritesGoThroughAndUpdateAPresentLineOnly) {
  L1Cache c(l1_params(l1_config()));
  c.fill(0, 0x000, 0, 1, line_of(0).data());
  const uint8_t data[4] = {1, 2, 3, 4};
  const uint8_t enables[4] = {0xff, 0, 0xff, 0};
  EXPECT_TRUE(c.write(0, 0x010, data, enables, 4, 5));
  EXPECT_FALSE(c.write(0, 0x040, data, nullptr, 4, 6)) << "no write-allocate";
  EXPECT_FALSE(c.holds(0, 0x040));
  const L1Cache::Lookup at = c.read(0, 0x010, 7);
  ASSERT_EQ(at.result, L1Result::kHit);
  uint8_t out[4];
  c.copy_out(at, 0x010, out, 4);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), (std::vector<uint8_t>{1, 0, 3, 0})) << "only the enabled bytes";
  EXPECT_EQ(c.stats().writes, 2u);
  EXPECT_EQ(c.stats().write_hits, 1u);
  EXPECT_THROW(c.fill(0, 0x020, 8, 9, line_of(0).data()), std::logic_error) << "a line is never in two ways";
}

TEST(L1Cache, AKernelLaunchEmptiesItAndPrefetchedLinesCountWhenEvictedUnused) {
  L1Cache c(l1_params(l1_config()));
  c.fill(0, 0x000, 0, 1, line_of(0).data(), /*prefetch=*/true);
  c.fill(0, 0x080, 0, 1, line_of(0).data(), /*prefetch=*/true);
  EXPECT_EQ(c.read(0, 0x000, 2).result, L1Result::kHit);  // used: no longer "unused"
  c.fill(0, 0x100, 3, 4, line_of(0).data());  // evicts 0x080, never read
  c.fill(0, 0x180, 5, 6, line_of(0).data());  // evicts 0x000, read
  EXPECT_EQ(c.stats().prefetch_fills, 2u);
  EXPECT_EQ(c.stats().evictions, 2u);
  EXPECT_EQ(c.stats().unused_prefetch_evictions, 1u);
  c.invalidate_all();
  EXPECT_FALSE(c.holds(0, 0x100));
  EXPECT_EQ(c.read(0, 0x180, 7).result, L1Result::kMiss);
  EXPECT_EQ(c.stats().invalidations, 1u);
}

TEST(L1Cache, BadGeometryIsRefusedByKey) {
  EXPECT_TRUE(test::input_error_at([] { l1_config("{line_bytes: 96}"); }, "test.yaml", 4, "l1.line_bytes", "power of two"));
  EXPECT_TRUE(test::input_error_at([] { l1_config("{line_bytes: 32}"); }, "test.yaml", 4, "l1.line_bytes",
                                   "smaller than frontend.line_bytes (64)"));
  EXPECT_TRUE(test::input_error_at([] { l1_config("{size_bytes: 1000}"); }, "test.yaml", 4, "l1.size_bytes",
                                   "not a whole number of 64-byte lines"));
  EXPECT_TRUE(test::input_error_at([] { l1_config("{size_bytes: 384, ways: 4}"); }, "test.yaml", 4, "l1.ways",
                                   "4 ways do not divide the 6 lines"));
  EXPECT_TRUE(test::input_error_at([] { l1_config("{mshrs: 0}"); }, "test.yaml", 4, "l1.mshrs", "outside [1, 4096]"));
  EXPECT_TRUE(test::input_error_at([] { l1_config("{ways: 0}"); }, "test.yaml", 4, "l1.ways", "outside [1, 64]"));
  EXPECT_TRUE(test::input_error_at([] { l1_config("{sets: 4}"); }, "test.yaml", 4, "l1.sets", "unknown key"));
  const Config ok = l1_config("{}");
  EXPECT_TRUE(ok.l1.present);
  EXPECT_EQ(ok.l1.line_bytes, 64u) << "the frontend's line by default";
  EXPECT_EQ(ok.l1.sets(), 32768u / 64 / 4);
  EXPECT_FALSE(test::config_from(test::base_yaml("translator: {channel_bits: [8, 9, 10]}")).l1.present);
}

}  // namespace
}  // namespace gpumem
