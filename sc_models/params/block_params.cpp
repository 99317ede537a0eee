#include "params/block_params.hpp"

#include <cmath>

namespace gpumem {

TranslatorParams translator_params(const Config& cfg) {
  TranslatorParams p;
  p.layout = cfg.channel_layout();
  p.candidate_bits = cfg.translator.candidate_bits;
  p.prime = cfg.translator.prime;
  p.address_bits = cfg.translator_address_bits();
  p.before_mmu = cfg.has_mmu() && cfg.translator.position == TranslatorPosition::kBeforeMmu;
  p.small_page_bits = cfg.mmu.geometry().small_bits;
  return p;
}

TlbParams tlb_params(const Config& cfg) {
  TlbParams t;
  static_cast<TlbGeometry&>(t) = cfg.mmu.tlb;
  t.geometry = cfg.mmu.geometry();
  return t;
}

MmuParams mmu_params(const Config& cfg) {
  MmuParams m;
  m.tlb = tlb_params(cfg);
  m.va_bits = cfg.address_space.va_bits;
  static_cast<MmuTiming&>(m) = cfg.mmu.timing;
  m.sets_task_type = cfg.translator.position == TranslatorPosition::kAfterMmu;
  return m;
}

RegisterParams register_params(const Config& cfg) {
  RegisterParams r;
  r.layout = cfg.channel_layout();
  r.candidate_bit_count = static_cast<unsigned>(cfg.translator.candidate_bits.size());
  r.prime = cfg.translator.prime;
  r.default_scheme = cfg.translator.default_scheme;
  r.position = cfg.translator.position;
  r.address_bits = cfg.translator_address_bits();
  r.entropy_window = cfg.entropy_window();
  return r;
}

ChannelParams channel_params(const Config& cfg) {
  ChannelParams p;
  p.model = cfg.memory.model;
  static_cast<ChannelTiming&>(p) = cfg.memory;
  p.dram.spec = cfg.memory.dram;
  p.dram.cycle_ps = cfg.simulation.cycle_ps();
  p.dram.epoch_cycles = cfg.stats.epoch_cycles;
  p.timing = cfg.simulation.timing;
  return p;
}

L1Params l1_params(const Config& cfg) { return cfg.l1; }

L1UnitParams l1_unit_params(const Config& cfg) {
  L1UnitParams p;
  static_cast<PrefetchUnitParams&>(p) = cfg.prefetch;
  p.l1 = l1_params(cfg);
  p.page_bytes = cfg.mmu.smallest_page();
  return p;
}

AllocatorParams allocator_params(const Config& cfg) {
  AllocatorParams p;
  p.source = cfg.source;
  p.address_space = cfg.address_space;
  p.geometry = cfg.mmu.geometry();
  p.address_bits = cfg.memory.address_bits;
  p.bit_interleaved = cfg.bit_interleaved();
  p.channels = cfg.memory.channels;
  p.granule_bytes = cfg.granule_bytes();
  return p;
}

FirmwareParams firmware_params(const Config& cfg) {
  FirmwareParams p;
  p.source = cfg.source;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) p.schemes[t] = cfg.scheme_of(t);
  p.tasks = cfg.translator.tasks;
  p.interleave_enable = cfg.translator.interleave_enable;
  p.dynamic_selection = cfg.translator.dynamic_selection;
  p.position = cfg.translator.position;
  p.small_page_bits = cfg.mmu.geometry().small_bits;
  p.address_space = cfg.address_space;
  if (cfg.prefetch.ranges_given) p.prefetch_ranges = cfg.prefetch.ranges;
  return p;
}

DriverParams driver_params(const Config& cfg) {
  DriverParams p;
  p.firmware = firmware_params(cfg);
  p.max_request_bytes = cfg.max_request_bytes();
  p.virtual_addresses = cfg.has_mmu();
  return p;
}

AddressSpaceImage build_address_space(const Config& cfg, bool nesting) {
  return build_address_space(allocator_params(cfg), nesting);
}

void program_registers(const Config& cfg, const AddressSpaceImage* image, const RegisterWrite& write) {
  program_registers(firmware_params(cfg), image, write);
}

TranslatorRegisters registers_from_config(const Config& cfg) {
  TranslatorRegisters r;
  r.interleave_enable = cfg.translator.interleave_enable;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) r.scheme[t] = cfg.scheme_of(t);
  for (const auto& tm : cfg.translator.tasks) {
    for (size_t j = 0; j < tm.xor_vectors.size(); ++j) r.xor_vector[tm.task_type][j] = tm.xor_vectors[j];
    for (size_t j = 0; j < tm.matrix_rows.size(); ++j) r.matrix_row[tm.task_type][j] = tm.matrix_rows[j];
  }
  for (const auto& app : cfg.address_space.applications)
    if (app.selected_task_type) {
      r.selected_valid |= 1u << app.process;
      r.selected_task[app.process] = static_cast<uint8_t>(*app.selected_task_type);
      r.dynamic_selection = cfg.translator.dynamic_selection;
    }
  r.generation = 1;
  return r;
}

}  // namespace gpumem
