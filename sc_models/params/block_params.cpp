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
  t.entries = cfg.mmu.tlb_entries;
  t.ways = cfg.mmu.tlb_ways;
  t.replacement = cfg.mmu.replacement;
  t.geometry = cfg.mmu.geometry();
  return t;
}

MmuParams mmu_params(const Config& cfg) {
  MmuParams m;
  m.tlb = tlb_params(cfg);
  m.va_bits = cfg.address_space.va_bits;
  m.tlb_hit_cycles = cfg.mmu.tlb_hit_cycles;
  m.walk_level_cycles = cfg.mmu.walk_level_cycles;
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
  p.service_cycles = cfg.memory.service_cycles;
  p.latency_cycles = cfg.memory.latency_cycles;
  p.dram.spec = cfg.memory.dram;
  p.dram.cycle_ps = static_cast<uint64_t>(std::llround(cfg.simulation.cycle_ns * 1000.0));
  p.timing = cfg.simulation.timing;
  return p;
}

L1Params l1_params(const Config& cfg) {
  L1Params p;
  p.size_bytes = cfg.l1.size_bytes;
  p.line_bytes = cfg.l1.line_bytes;
  p.ways = cfg.l1.ways;
  p.mshrs = cfg.l1.mshrs;
  p.hit_latency = cfg.l1.hit_latency;
  p.allocate = cfg.l1.allocate;
  return p;
}

L1UnitParams l1_unit_params(const Config& cfg) {
  L1UnitParams p;
  p.l1 = l1_params(cfg);
  p.prefetcher = cfg.prefetch.kind;
  p.queue_entries = cfg.prefetch.queue_entries;
  p.fill = cfg.prefetch.fill;
  p.buffer_lines = cfg.prefetch.buffer_lines;
  p.edge_window = cfg.prefetch.edge_window;
  p.stride.table_entries = cfg.prefetch.stride.table_entries;
  p.stride.degree = cfg.prefetch.stride.degree;
  p.stride.distance = cfg.prefetch.stride.distance;
  p.stride.confidence = cfg.prefetch.stride.confidence;
  p.page_bytes = cfg.mmu.smallest_page();
  return p;
}

AllocatorParams allocator_params(const Config& cfg) {
  AllocatorParams p;
  p.source = cfg.source;
  p.address_space = &cfg.address_space;
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
  p.address_space = &cfg.address_space;
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
