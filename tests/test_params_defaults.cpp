// A config that sets nothing must give every block the parameters its
// struct defaults to. The TLB's geometry, the MMU's timing, the L1's, the
// prefetch unit's and the front end's defaults are written once (base/:
// the config section and the block's parameters share the struct); this
// holds params/ to mapping each of their fields, and the trace player's,
// whose defaults are still written twice, equal.
#include <gtest/gtest.h>

#include "params/block_params.hpp"
#include "params/frontend_from_config.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

TEST(ParamsDefaults, AConfigThatSetsNothingGivesEveryBlockItsStructsDefaults) {
  const Config cfg = config_from("memory: {channels: 4}\ntranslator: {channel_bits: [8, 9]}\nl1: {}\n");

  const TlbParams tlb = tlb_params(cfg), tlb_default;
  EXPECT_EQ(tlb.entries, tlb_default.entries);
  EXPECT_EQ(tlb.ways, tlb_default.ways);
  EXPECT_EQ(tlb.replacement, tlb_default.replacement);

  const MmuParams mmu = mmu_params(cfg), mmu_default;
  EXPECT_EQ(mmu.tlb_hit_cycles, mmu_default.tlb_hit_cycles);
  EXPECT_EQ(mmu.walk_level_cycles, mmu_default.walk_level_cycles);

  const L1UnitParams unit = l1_unit_params(cfg), unit_default;
  EXPECT_EQ(unit.l1.size_bytes, unit_default.l1.size_bytes);
  EXPECT_EQ(unit.l1.line_bytes, unit_default.l1.line_bytes) << "frontend.line_bytes, when l1.line_bytes is left out";
  EXPECT_EQ(unit.l1.ways, unit_default.l1.ways);
  EXPECT_EQ(unit.l1.mshrs, unit_default.l1.mshrs);
  EXPECT_EQ(unit.l1.hit_latency, unit_default.l1.hit_latency);
  EXPECT_EQ(unit.l1.allocate, unit_default.l1.allocate);
  EXPECT_EQ(unit.kind, unit_default.kind);
  EXPECT_EQ(unit.queue_entries, unit_default.queue_entries);
  EXPECT_EQ(unit.fill, unit_default.fill);
  EXPECT_EQ(unit.buffer_lines, unit_default.buffer_lines);
  EXPECT_EQ(unit.edge_window, unit_default.edge_window);
  EXPECT_EQ(unit.stride.table_entries, unit_default.stride.table_entries);
  EXPECT_EQ(unit.stride.degree, unit_default.stride.degree);

  const FrontendParams fe = frontend_params(cfg), fe_default;
  EXPECT_EQ(fe.num_sms, fe_default.num_sms);
  EXPECT_EQ(fe.blocks_per_sm, fe_default.blocks_per_sm);
  EXPECT_EQ(fe.warps_per_block, fe_default.warps_per_block);
  EXPECT_EQ(fe.line_bytes, fe_default.line_bytes);
  EXPECT_EQ(fe.mshr_entries, fe_default.mshr_entries);
  EXPECT_EQ(fe.latency_min, fe_default.latency_min);
  EXPECT_EQ(fe.latency_sigma, fe_default.latency_sigma);
  EXPECT_EQ(fe.seed, fe_default.seed);
  EXPECT_EQ(fe.strided_requests, fe_default.strided_requests);
  EXPECT_EQ(fe.max_queued, fe_default.max_queued);
  EXPECT_EQ(fe.issue_timing, fe_default.issue_timing);
  EXPECT_EQ(fe.scheduler, fe_default.scheduler);
  EXPECT_EQ(fe.max_records_in_memory, fe_default.max_records_in_memory);
  EXPECT_EQ(fe.timing, fe_default.timing);

  const TracePlayerParams player = trace_player_params(cfg), player_default;
  EXPECT_EQ(player.max_outstanding, player_default.max_outstanding);
  EXPECT_EQ(player.timing, player_default.timing);
}

}  // namespace
}  // namespace gpumem::test
