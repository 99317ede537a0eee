#include "stats/stats_json.hpp"

#include "channel/dram_energy.hpp"

#include <cmath>

namespace gpumem {

namespace {

// An application's performance counters, its selected task type and the
// profile store's verdict, beside RunStatistics' own figures of it.
void add_application(nlohmann::json& out, const ApplicationConfig& app, const PerfReading& m,
                     const std::vector<ApplicationProfile>& profiles) {
  out["performance"] = {{"requests", m.requests},       {"bytes", m.bytes},
                        {"active_cycles", m.active_cycles}, {"windows", m.windows},
                        {"mean_window_entropy", m.mean_window_entropy}, {"bandwidth", m.bandwidth()},
                        {"density", m.density()}};
  if (app.selected_task_type) out["selected_task_type"] = *app.selected_task_type;
  for (const ApplicationProfile& p : profiles)
    if (p.name == app.name)
      out["profile"] = {{"verdict", verdict_name(p.verdict)},
                        {"configured_entropy", p.configured_entropy},
                        {"predicted_entropy", p.predicted_entropy},
                        {"mapping", p.mapping ? task_mapping_yaml(*p.mapping) : std::string()}};
}

nlohmann::json allocations_json(const AllocationComparison& a) {
  auto fragmentation = [&](const Fragmentation* f) {
    return f ? fragmentation_json(*f) : nlohmann::json{{"error", a.error}};
  };
  return {{"nesting", a.nesting},
          {"with_nesting", fragmentation(a.with_nesting)},
          {"without_nesting", fragmentation(a.without_nesting)}};
}

nlohmann::json latency_json(const LatencyHistogram& h) {
  nlohmann::json bins = nlohmann::json::array();
  for (const auto& b : h.bins()) bins.push_back({{"lo", b.lo}, {"hi", b.hi}, {"count", b.count}});
  return {{"reads", h.count()},          {"mean", h.mean()},
          {"p50", h.percentile(0.50)},   {"p95", h.percentile(0.95)},
          {"p99", h.percentile(0.99)},   {"max", h.max()},
          {"histogram", bins}};
}

nlohmann::json energy_json(const DramEnergyParts& e) {
  return {{"activate_pj", e.activate},
          {"read_pj", e.read},
          {"write_pj", e.write},
          {"refresh_pj", e.refresh},
          {"active_standby_pj", e.active_standby},
          {"precharge_standby_pj", e.precharge_standby},
          {"total_pj", e.total()}};
}

// A channel's banks, and their sum into `sum`.
nlohmann::json banks_json(const DramSpec& spec, const DramCounters& d, const DramChannelEnergy& energy, DramBankCounters& sum) {
  nlohmann::json banks = nlohmann::json::array();
  for (size_t b = 0; b < d.banks.size(); ++b) {
    const DramBankCounters& n = d.banks[b];
    sum.reads += n.reads, sum.writes += n.writes, sum.row_hits += n.row_hits, sum.row_misses += n.row_misses;
    sum.row_conflicts += n.row_conflicts, sum.activates += n.activates, sum.precharges += n.precharges;
    const unsigned per_rank = spec.org.banks();
    banks.push_back({{"rank", b / per_rank},
                     {"bank_group", b % per_rank / spec.org.banks_per_group},
                     {"bank", b % spec.org.banks_per_group},
                     {"reads", n.reads},
                     {"writes", n.writes},
                     {"row_hits", n.row_hits},
                     {"row_misses", n.row_misses},
                     {"row_conflicts", n.row_conflicts},
                     {"activates", n.activates},
                     {"precharges", n.precharges},
                     {"energy_pj", energy.banks[b].total()}});
  }
  return banks;
}

nlohmann::json ranks_json(const DramCounters& d, const DramChannelEnergy& energy) {
  nlohmann::json ranks = nlohmann::json::array();
  for (size_t r = 0; r < d.ranks.size(); ++r)
    ranks.push_back({{"rank", r},
                     {"refreshes", d.ranks[r].refreshes},
                     {"active_cycles", d.ranks[r].active_cycles},
                     {"precharged_cycles", d.cycles - d.ranks[r].active_cycles},
                     {"energy", energy_json(energy.ranks[r])}});
  return ranks;
}

// A channel's epochs (stats.epoch_cycles): the figures of its counters per
// epoch, and its reads' latencies by the epoch of their last data.
nlohmann::json epochs_json(const Config& cfg, const DramCounters& d, const std::vector<LatencySummary>& latency) {
  using nlohmann::json;
  const DramSpec& spec = cfg.memory.dram;
  const double tck_ns = double(spec.tck_ps) / 1000.0;
  const size_t count = std::max(d.epochs.size(), latency.size());
  const DramCounters none;
  const LatencySummary no_reads;
  json out = json::array();
  for (size_t e = 0; e < count; ++e) {
    const DramCounters& n = e < d.epochs.size() ? d.epochs[e] : none;
    const LatencySummary& l = e < latency.size() ? latency[e] : no_reads;
    DramBankCounters sum;
    json accesses = json::array(), hits = json::array();
    for (const DramBankCounters& b : n.banks) {
      sum.reads += b.reads, sum.writes += b.writes, sum.row_hits += b.row_hits, sum.row_misses += b.row_misses;
      sum.row_conflicts += b.row_conflicts, sum.activates += b.activates;
      accesses.push_back(b.reads + b.writes);
      hits.push_back(b.row_hits);
    }
    const double span_ns = double(n.cycles) * tck_ns;
    const double bytes = double(n.data_bus_cycles) / spec.timing.tBL * spec.org.access_bytes();
    const DramChannelEnergy energy = n.banks.empty() ? DramChannelEnergy{} : dram_energy(spec, n);
    out.push_back({{"epoch", e},
                   {"start_cycle", uint64_t(e) * cfg.stats.epoch_cycles},
                   {"reads", sum.reads},
                   {"writes", sum.writes},
                   {"row_hits", sum.row_hits},
                   {"row_misses", sum.row_misses},
                   {"row_conflicts", sum.row_conflicts},
                   {"activates", sum.activates},
                   {"refreshes", n.refreshes},
                   {"bandwidth_gbps", span_ns > 0 ? bytes / span_ns : 0.0},
                   {"energy_pj", energy.all.total()},
                   {"average_power_mw", energy.average_power_mw},
                   {"read_latency",
                    {{"reads", l.count()}, {"mean", l.mean()}, {"p50", l.percentile(0.50)}, {"p95", l.percentile(0.95)},
                     {"p99", l.percentile(0.99)}, {"max", l.max()}}},
                   {"bank_accesses", accesses},
                   {"bank_row_hits", hits}});
  }
  return out;
}

// A DRAM with no power figures (DramPower::given) reports no energy: null
// wherever a run with them has a figure.
void without_energy(nlohmann::json& dram) {
  dram["energy_pj"] = nullptr;
  dram["average_power_mw"] = nullptr;
  for (auto& c : dram["channels"]) {
    c["energy"] = nullptr;
    c["average_power_mw"] = nullptr;
    for (auto& r : c["ranks"]) r["energy"] = nullptr;
    for (auto& b : c["banks"]) b["energy_pj"] = nullptr;
    if (c.contains("epochs"))
      for (auto& e : c["epochs"]) e["energy_pj"] = nullptr, e["average_power_mw"] = nullptr;
  }
}

}  // namespace

nlohmann::json dram_json(const Config& cfg, const RunStatistics& stats, const std::vector<DramCounters>& dram) {
  using nlohmann::json;
  const DramSpec& spec = cfg.memory.dram;
  const double ns_per_cycle = cfg.simulation.cycle_ns;
  const double tck_ns = double(spec.tck_ps) / 1000.0;
  // The run's span in memory cycles: what the bandwidth is shared over.
  const double span_ns = double(stats.makespan()) * ns_per_cycle;
  const double span_tck = span_ns / tck_ns;
  const double peak_gbps = double(spec.org.access_bytes()) / spec.timing.tBL / tck_ns;  // bytes per ns = GB/s
  json channels = json::array();
  double energy_pj = 0, power_mw = 0;
  for (size_t c = 0; c < dram.size(); ++c) {
    const DramCounters& d = dram[c];
    const DramChannelEnergy energy = dram_energy(spec, d);
    energy_pj += energy.all.total();
    power_mw += energy.average_power_mw;
    DramBankCounters sum;
    const json banks = banks_json(spec, d, energy, sum);
    const uint64_t accesses = sum.reads + sum.writes;
    const double bytes = double(d.data_bus_cycles) / spec.timing.tBL * spec.org.access_bytes();
    const double busy = double(d.data_bus_cycles);
    channels.push_back({{"channel", c},
                        {"reads", sum.reads},
                        {"writes", sum.writes},
                        {"forwarded_reads", d.forwarded_reads},
                        {"bytes_read", uint64_t(sum.reads) * spec.org.access_bytes()},
                        {"bytes_written", uint64_t(sum.writes) * spec.org.access_bytes()},
                        {"row_hits", sum.row_hits},
                        {"row_misses", sum.row_misses},
                        {"row_conflicts", sum.row_conflicts},
                        {"row_hit_rate", accesses ? double(sum.row_hits) / double(accesses) : 0.0},
                        {"activates", sum.activates},
                        {"precharges", sum.precharges},
                        {"refreshes", d.refreshes},
                        {"write_drains", d.write_drains},
                        {"busy_cycles", d.data_bus_cycles},
                        {"idle_cycles", span_tck > busy ? uint64_t(span_tck - busy) : 0},
                        {"bandwidth_gbps", span_ns > 0 ? bytes / span_ns : 0.0},
                        {"peak_share", span_tck > 0 ? busy / span_tck : 0.0},
                        {"mean_read_latency", stats.channel_mean_read_latency(c)},
                        {"energy", energy_json(energy.all)},
                        {"average_power_mw", energy.average_power_mw},
                        {"ranks", ranks_json(d, energy)},
                        {"banks", banks}});
    if (cfg.stats.epoch_cycles) channels.back()["epochs"] = epochs_json(cfg, d, stats.channel_epoch_read_latency(c));
  }
  json out = {{"preset", spec.preset},
          {"tck_ps", spec.tck_ps},
          {"address_order", address_order_text(spec.address_order)},
          {"page_policy", spec.page_policy == PagePolicy::kOpen ? "open" : "closed"},
          {"peak_gbps_per_channel", peak_gbps},
          {"read_latency", latency_json(stats.read_latency())},
          {"energy_pj", energy_pj},
          {"average_power_mw", power_mw},
          {"epoch_cycles", cfg.stats.epoch_cycles},
          {"channels", channels}};
  if (!spec.power.given()) without_energy(out);
  return out;
}

nlohmann::json stats_json(const Config& cfg, const RunStatistics& stats, const RunReport& run, bool complete,
                          const std::string& error) {
  nlohmann::json j = stats.to_json();
  if (j.contains("applications") && !run.application_performance.empty())
    for (size_t i = 0; i < cfg.address_space.applications.size(); ++i) {
      const auto& app = cfg.address_space.applications[i];
      add_application(j["applications"][i], app, run.application_performance[app.process], run.profiles);
    }
  j["config"] = run.config;
  j["trace"] = run.trace;
  if (run.frontend) j["frontend"] = frontend_json(*run.frontend);
  if (!run.l1.empty()) j["l1"] = l1_json(run.l1);
  if (!run.l1.empty()) j["prefetch"] = prefetch_json(run.prefetch, run.l1, cfg.prefetch.kind);
  for (size_t c = 0; c < run.channel_accesses.size(); ++c) j["channels"][c]["accesses"] = run.channel_accesses[c];
  for (size_t c = 0; c < run.channel_queues.size(); ++c) {
    j["channels"][c]["mean_queue_depth"] = stats.mean_queue_depth(run.channel_queues[c]);
    j["channels"][c]["max_queue_depth"] = run.channel_queues[c].max_depth;
  }
  if (cfg.memory.model == MemoryModel::kDram) {
    j["dram"] = dram_json(cfg, stats, run.dram);
    // The simple model's busy figure (requests x service_cycles) does not apply: the data bus's does.
    for (size_t c = 0; c < run.dram.size() && c < j["channels"].size(); ++c) {
      const double busy_model_cycles = double(run.dram[c].data_bus_cycles) * double(cfg.memory.dram.tck_ps) /
                                       (cfg.simulation.cycle_ns * 1000.0);
      j["channels"][c]["busy_cycles"] = uint64_t(std::ceil(busy_model_cycles));
      j["channels"][c]["utilisation"] = stats.makespan() ? busy_model_cycles / double(stats.makespan()) : 0.0;
    }
  }
  if (run.mmu) j["mmu"] = mmu_json(*run.mmu);
  if (run.address_space) {
    j["fault_records"] = faults_json(run.faults);
    j["address_space"] = allocations_json(*run.address_space);
  }
  j["complete"] = complete;
  if (!complete) j["error"] = error;
  return j;
}

}  // namespace gpumem
