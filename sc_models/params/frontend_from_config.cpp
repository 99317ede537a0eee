#include "params/frontend_from_config.hpp"

#include "sources/workload.hpp"

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
  FrontendParams p;
  static_cast<FrontendOptions&>(p) = cfg.frontend;
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
