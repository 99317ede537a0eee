#include "params/block_params.hpp"

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
