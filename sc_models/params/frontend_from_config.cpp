#include "params/frontend_from_config.hpp"

#include "frontend/workload.hpp"

namespace gpumem {

RequestLimits request_limits(const Config& cfg) {
  RequestLimits l;
  l.virtual_addresses = cfg.has_mmu();
  l.address_bits = cfg.has_mmu() ? cfg.address_space.va_bits : cfg.memory.address_bits;
  l.max_request_bytes = cfg.max_request_bytes();
  l.page_bytes = cfg.mmu.smallest_page();
  for (const ApplicationConfig& a : cfg.address_space.applications) l.processes.set(a.process);
  return l;
}

FrontendParams frontend_params(const Config& cfg) {
  const FrontendConfig& fe = cfg.frontend;
  FrontendParams p;
  p.num_sms = fe.num_sms;
  p.blocks_per_sm = fe.blocks_per_sm;
  p.warps_per_block = fe.warps_per_block;
  p.line_bytes = fe.line_bytes;
  p.mshr_entries = fe.mshr_entries;
  p.latency_min = fe.latency_min;
  p.latency_sigma = fe.latency_sigma;
  p.seed = fe.seed;
  p.strided_requests = fe.strided_requests;
  p.max_queued = fe.max_queued;
  p.issue_timing = fe.issue_timing;
  p.scheduler = fe.scheduler;
  p.max_records_in_memory = fe.max_records_in_memory;
  p.quantum_cycles = cfg.simulation.quantum_cycles;
  p.timing = cfg.simulation.timing;
  p.limits = request_limits(cfg);
  return p;
}

TracePlayerParams trace_player_params(const Config& cfg) {
  TracePlayerParams p;
  p.quantum_cycles = cfg.simulation.quantum_cycles;
  p.max_outstanding = cfg.memory.max_outstanding;
  p.timing = cfg.simulation.timing;
  return p;
}

std::unique_ptr<RequestSource> make_workload(const Config& cfg) { return make_workload(cfg.workload); }

Placement region_placement(const Config& cfg, const std::string& app, const std::string& region) {
  return region_placement(cfg.address_space, cfg.source, app, region);
}

}  // namespace gpumem
