#include "params/frontend_params.hpp"

#include "base/input_error.hpp"

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
  p.max_records_in_memory = fe.max_records_in_memory;
  p.quantum_cycles = cfg.simulation.quantum_cycles;
  p.limits = request_limits(cfg);
  return p;
}

TracePlayerParams trace_player_params(const Config& cfg) {
  TracePlayerParams p;
  p.quantum_cycles = cfg.simulation.quantum_cycles;
  p.max_outstanding = cfg.memory.max_outstanding;
  return p;
}

std::vector<GeneratorParams> workload_params(const Config& cfg) {
  std::vector<GeneratorParams> out;
  for (const GeneratorConfig& g : cfg.workload) {
    GeneratorParams p;
    p.kind = g.kind == GeneratorConfig::Kind::kRandom ? GeneratorParams::Kind::kRandom : GeneratorParams::Kind::kStrided;
    p.task_type = g.task_type;
    p.process = g.process;
    p.base = g.base;
    p.stride = g.stride;
    p.range = g.range;
    p.count = g.count;
    p.size = g.size;
    p.write_fraction = g.write_fraction;
    p.seed = g.seed;
    p.start_cycle = g.start_cycle;
    p.issue_interval = g.issue_interval;
    out.push_back(p);
  }
  return out;
}

Placement region_placement(const Config& cfg, const std::string& app, const std::string& region) {
  const AddressSpaceConfig& as = cfg.address_space;
  if (!cfg.has_mmu()) throw InputError(cfg.source, 0, "address_space", "the config has no address space to find application '" + app + "' in");
  std::string apps;
  for (size_t i = 0; i < as.applications.size(); ++i) {
    const ApplicationConfig& a = as.applications[i];
    apps += (i ? ", " : "") + a.name;
    if (a.name != app) continue;
    std::string regions;
    for (const RegionConfig& r : a.regions) {
      regions += (regions.empty() ? "" : ", ") + r.name;
      if (r.name != region) continue;
      Placement p;
      p.process = a.process;
      p.base = r.va;
      p.last = r.va + (r.size - 1);
      p.writable = r.writable;
      p.file = cfg.source;
      p.line = r.line;
      p.region_key = as.region_key(&r);
      return p;
    }
    throw InputError(cfg.source, a.line, "address_space.applications[" + std::to_string(i) + "].regions",
                     "application '" + app + "' has no region '" + region + "' (its regions: " + regions + ")");
  }
  throw InputError(cfg.source, 0, "address_space.applications", "no application '" + app + "' (applications: " + apps + ")");
}

}  // namespace gpumem
