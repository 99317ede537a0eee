// A config that sets nothing must give every block the parameters its
// struct defaults to. Each default is written once, in base/: the config
// section is made of the struct there (TlbGeometry, MmuTiming, L1Params,
// PrefetchUnitParams, FrontendOptions, MemoryOptions, TranslatorOptions,
// SimulationOptions), and a block parameter that params/ derives from a key
// takes that struct's default. This holds params/ to mapping each field.
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
  EXPECT_EQ(player.quantum_cycles, player_default.quantum_cycles);
  EXPECT_EQ(player.max_outstanding, player_default.max_outstanding);
  EXPECT_EQ(player.timing, player_default.timing);
}

TEST(ParamsDefaults, KeysLeftOutGiveTheTranslatorRegistersDriverAndChannelsTheirStructsDefaults) {
  const Config cfg = config_from("memory: {channels: 4}\ntranslator: {channel_bits: [8, 9]}\n");

  const TranslatorParams translator = translator_params(cfg), translator_default;
  EXPECT_EQ(translator.prime, translator_default.prime);
  EXPECT_EQ(translator.address_bits, translator_default.address_bits);
  EXPECT_EQ(translator.before_mmu, translator_default.before_mmu);
  EXPECT_EQ(translator.small_page_bits, translator_default.small_page_bits);

  const RegisterParams regs = register_params(cfg), regs_default;
  EXPECT_EQ(regs.prime, regs_default.prime);
  EXPECT_EQ(regs.default_scheme, regs_default.default_scheme);
  EXPECT_EQ(regs.position, regs_default.position);
  EXPECT_EQ(regs.address_bits, regs_default.address_bits);
  EXPECT_EQ(regs.entropy_window, regs_default.entropy_window) << "memory.max_outstanding, when stats.entropy_window is left out";

  const FirmwareParams firmware = firmware_params(cfg), firmware_default;
  EXPECT_EQ(firmware.interleave_enable, firmware_default.interleave_enable);
  EXPECT_EQ(firmware.dynamic_selection, firmware_default.dynamic_selection);
  EXPECT_EQ(firmware.position, firmware_default.position);
  EXPECT_EQ(firmware.small_page_bits, firmware_default.small_page_bits);

  const AllocatorParams allocator = allocator_params(cfg), allocator_default;
  EXPECT_EQ(allocator.address_bits, allocator_default.address_bits);
  EXPECT_EQ(allocator.address_space.va_bits, allocator_default.address_space.va_bits);

  const MmuParams mmu = mmu_params(cfg), mmu_default;
  EXPECT_EQ(mmu.va_bits, mmu_default.va_bits);

  const ChannelParams channel = channel_params(cfg), channel_default;
  EXPECT_EQ(channel.model, channel_default.model);
  EXPECT_EQ(channel.timing, channel_default.timing);
  EXPECT_EQ(channel.service_cycles, channel_default.service_cycles);
  EXPECT_EQ(channel.latency_cycles, channel_default.latency_cycles);
  EXPECT_EQ(channel.dram.cycle_ps, channel_default.dram.cycle_ps);

  const FrontendParams fe = frontend_params(cfg), fe_default;
  EXPECT_EQ(fe.quantum_cycles, fe_default.quantum_cycles);
  EXPECT_EQ(fe.limits.address_bits, fe_default.limits.address_bits);
  EXPECT_EQ(fe.limits.page_bytes, fe_default.limits.page_bytes);
}

}  // namespace
}  // namespace gpumem::test
