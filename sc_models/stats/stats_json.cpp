#include "stats/stats_json.hpp"

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

}  // namespace

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
