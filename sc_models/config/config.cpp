// The Config's own queries, and parse_config: which sections there are and
// in what order they are read and cross-checked (each section's reading is
// in config_<section>.cpp).
#include "config/config.hpp"

#include <fstream>
#include <sstream>

#include "base/input_file.hpp"
#include "config/config_reader.hpp"

namespace gpumem {

uint64_t MmuConfig::smallest_page() const {
  return *std::min_element(page_sizes.begin(), page_sizes.end());
}

uint64_t MmuConfig::largest_page() const {
  return *std::max_element(page_sizes.begin(), page_sizes.end());
}

PageGeometry MmuConfig::geometry() const {
  PageGeometry g;
  g.small_bits = log2_exact(smallest_page());
  g.large_bits = log2_exact(largest_page());
  g.placement = nested_placement;
  return g;
}

unsigned Config::granule_shift() const {
  if (translator.granule_bytes) return log2_exact(translator.granule_bytes);
  if (!translator.channel_bits.empty())
    return *std::min_element(translator.channel_bits.begin(), translator.channel_bits.end());
  return log2_exact(mmu.smallest_page());  // one channel: the granule is irrelevant
}

const TaskMapping* Config::task_mapping(unsigned task) const {
  for (const auto& t : translator.tasks)
    if (t.task_type == task) return &t;
  return nullptr;
}

using namespace config_yaml;


namespace {

void read_stats(const config_yaml::Reader& r, const YAML::Node& s, const std::string& k, Config& cfg) {
  config_yaml::Section(r, s, k)
      .uint("entropy_window", cfg.stats.entropy_window, 1, 1u << 24)
      .key("epoch_cycles",
           [&](const YAML::Node& v, const std::string& key) {
             if (cfg.memory.model != MemoryModel::kDram) r.fail(v, key, "applies to memory.model: dram only");
             cfg.stats.epoch_cycles = r.to_u64_in(v, key, 1, uint64_t{1} << 40);
           })
      .read();
}

}  // namespace

Config parse_config(const std::string& text, const std::string& source) {
  Reader r(source);
  const YAML::Node loaded = parse_yaml(text, source);
  const YAML::Node& root = loaded;  // const: operator[] must never insert keys
  Config cfg;
  cfg.source = source;
  if (!root || root.IsNull()) throw InputError(source, 0, "", "empty config");
  YAML::Node tn;  // the translator section, when given
  bool translator_given = false;
  // Where a translator check's error points: its section, or the top when it is absent.
  const auto translator_or_root = [&] { return translator_given ? tn : root; };
  Section(r, root, "")
      .text("description", cfg.description)
      .key("memory", [&](const YAML::Node& m, const std::string&) { read_memory(r, m, cfg.memory); },
           [&] { r.fail(root, "memory", "missing value: the memory section is required"); })
      .key("mmu", [&](const YAML::Node& m, const std::string&) { read_mmu(r, m, cfg.mmu); })
      .key("translator",
           [&](const YAML::Node& t, const std::string&) {
             tn = t;
             translator_given = true;
             read_translator(r, t, cfg, cfg.translator);
           },
           [&] { default_channel_layout(r, root, cfg, cfg.translator); })
      .then([&] { check_translator(r, translator_or_root(), cfg); })
      .key("simulation",
           [&](const YAML::Node& s, const std::string& k) {
             SimulationConfig& sim = cfg.simulation;
             Section(r, s, k)
                 .key("cycle_ns",
                      [&](const YAML::Node& v, const std::string& key) {
                        sim.cycle_ns = r.to_double(v, key);
                        if (!(sim.cycle_ns > 0)) r.fail(v, key, "must be positive");
                        // The DRAM converts between its clock and the model's in whole picoseconds.
                        if (cfg.memory.model == MemoryModel::kDram && !(sim.cycle_ns >= 0.001 && sim.cycle_ns <= 1e6))
                          r.fail(v, key, "with memory.model: dram the cycle is from 0.001 to 1000000 ns");
                      })
                 .uint("quantum_cycles", sim.quantum_cycles, 1, uint64_t{1} << 40)
                 .choice("timing", sim.timing, {{"lt", TimingMode::kLt}, {"at", TimingMode::kAt}}, &sim.timing_line)
                 .read();
           })
      .key("stats", [&](const YAML::Node& s, const std::string& k) { read_stats(r, s, k, cfg); })
      .key("address_space", [&](const YAML::Node& a, const std::string&) { read_address_space(r, a, root["mmu"], cfg); })
      .then([&] {
        if (cfg.translator.position == TranslatorPosition::kBeforeMmu && !cfg.has_mmu())
          r.fail(tn["position"], "translator.position", "before_mmu needs an address_space section (there is no MMU without one)");
        if (cfg.has_mmu()) check_translator_with_mmu(r, translator_or_root(), cfg);
        check_translator_matrices(r, translator_or_root(), cfg);
      })
      .key("frontend", [&](const YAML::Node& f, const std::string&) { read_frontend(r, f, cfg, cfg.frontend); })
      .key("l1", [&](const YAML::Node& c, const std::string&) { read_l1(r, c, cfg, cfg.l1); })
      .key("prefetch", [&](const YAML::Node& p, const std::string&) { read_prefetch(r, p, cfg, cfg.prefetch); })
      .key("workload", [&](const YAML::Node& w, const std::string&) { read_workload(r, w, cfg, cfg.workload); })
      .read();
  if (cfg.simulation.timing != TimingMode::kAt && cfg.memory.dram.prefetch_drop_cycles) {
    const YAML::Node d = root["memory"]["dram"]["prefetch_drop_cycles"];
    r.fail(d, "memory.dram.prefetch_drop_cycles", "applies to simulation.timing: at only (lt plans each prefetch on arrival)");
  }
  if (cfg.simulation.timing != TimingMode::kAt && cfg.memory.dram.active_buffer)
    r.fail(root["memory"]["dram"]["active_buffer"], "memory.dram.active_buffer",
           "applies to simulation.timing: at only (lt plans each request on arrival)");
  if (const YAML::Node m = root["memory"]; cfg.simulation.timing != TimingMode::kAt && m && m.IsMap() && m["dram"] && m["dram"].IsMap() &&
                                            m["dram"]["prefetch_priority"])
    r.fail(m["dram"]["prefetch_priority"], "memory.dram.prefetch_priority",
           "applies to simulation.timing: at only (lt plans each prefetch on arrival, as any read)");
  if (const YAML::Node m = root["memory"]; cfg.simulation.timing != TimingMode::kAt && m && m.IsMap() && m["dram"] && m["dram"].IsMap() &&
                                            m["dram"]["row_commands"])
    r.fail(m["dram"]["row_commands"], "memory.dram.row_commands",
           "applies to simulation.timing: at only (lt plans each request's commands on arrival)");
  if (cfg.simulation.timing != TimingMode::kAt && cfg.frontend.scheduler != WarpScheduler::kLrr)
    r.fail(root["frontend"]["scheduler"], "frontend.scheduler",
           "gto applies to simulation.timing: at only (lt issues each SM's requests in CN106407063B's order)");
  if (cfg.simulation.timing != TimingMode::kAt && cfg.l1.allocate == L1Allocate::kOnFill)
    r.fail(root["l1"]["allocate"], "l1.allocate", "fill applies to simulation.timing: at only (lt places a missed line at the miss)");
  return cfg;
}

Config load_config(const std::string& path) {
  return parse_config(read_input_file(path, "config"), path);
}

}  // namespace gpumem
