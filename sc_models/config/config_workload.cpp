// The workload section: synthetic generators.
#include "config/config_reader.hpp"

namespace gpumem::config_yaml {

namespace {

// A generator must stay inside the regions of its own application: a request
// outside them would fault, which a trace can ask for but a workload should not.
void check_generator_mapped(const Reader& r, const YAML::Node& e, const std::string& key, const Config& cfg,
                            const GeneratorConfig& g, uint64_t end) {
  const ApplicationConfig* app = cfg.address_space.application(g.process);
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const auto& reg : app->regions) spans.emplace_back(reg.va, reg.va + reg.size);
  std::sort(spans.begin(), spans.end());
  uint64_t covered = g.base;
  for (const auto& sp : spans)
    if (sp.first <= covered && sp.second > covered) covered = sp.second;
  if (covered < end) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "touches VA 0x%llx, which no region of application '%s' maps",
                  static_cast<unsigned long long>(covered), app->name.c_str());
    r.fail(e, key, buf);
  }
}

// A generator's values together: request size, range, alignment, reach.
void check_generator(const Reader& r, const YAML::Node& e, const std::string& key, const Config& cfg, const GeneratorConfig& g) {
  const unsigned abits = cfg.has_mmu() ? cfg.address_space.va_bits : cfg.memory.address_bits;
  const YAML::Node size_at = e["size"] ? e["size"] : e;
  if (!is_pow2(g.size) || g.size > cfg.max_request_bytes())
    r.fail(size_at, key + ".size", "request size " + std::to_string(g.size) +
           " must be a power of two no larger than the interleave granule (" + std::to_string(cfg.max_request_bytes()) + " bytes)");
  if (g.kind == GeneratorConfig::Kind::kRandom && !e["range"])
    r.fail(e, key + ".range", "missing value: a random generator needs its address range in bytes");
  if (e["range"] && g.range < g.size)
    r.fail(e["range"], key + ".range", "range must hold at least one request");
  if (e["range"] && g.range % g.size)
    r.fail(e["range"], key + ".range", "range must be a multiple of the request size");
  if (g.base % g.size) r.fail(e["base"] ? e["base"] : e, key + ".base", "base must be aligned to the request size");
  if (g.kind == GeneratorConfig::Kind::kStrided && g.stride % g.size)
    r.fail(e["stride"] ? e["stride"] : e, key + ".stride", "stride must be a multiple of the request size");
  const unsigned __int128 end = g.range ? (unsigned __int128)g.base + g.range
                                        : (unsigned __int128)g.base + (unsigned __int128)g.stride * (g.count - 1) + g.size;
  if (end > ((unsigned __int128)1 << abits))
    r.fail(e, key, "addresses reach past the " + std::to_string(abits) + "-bit " + (cfg.has_mmu() ? "virtual" : "physical") +
                       " address space");
  if (cfg.has_mmu()) check_generator_mapped(r, e, key, cfg, g, static_cast<uint64_t>(end));
}

}  // namespace

void read_workload(const Reader& r, const YAML::Node& n, const Config& cfg, std::vector<GeneratorConfig>& out) {
  if (!n.IsSequence()) r.fail(n, "workload", "expected a list of generators");
  for (size_t i = 0; i < n.size(); ++i) {
    const auto e = n[i];
    const std::string key = "workload[" + std::to_string(i) + "]";
    GeneratorConfig g;
    g.line = e.Mark().line + 1;
    Section(r, e, key)
        .choice_of("generator", "kind", g.kind, {{"strided", GeneratorConfig::Kind::kStrided}, {"random", GeneratorConfig::Kind::kRandom}})
        .required("missing value (strided or random)")
        .key("task_type",
             [&](const YAML::Node& v, const std::string& k) {
               if (cfg.has_mmu()) r.fail(v, k, "with an address space the task type comes from the page tables: name the process");
               g.task_type = static_cast<unsigned>(r.to_u64_in(v, k, 0, kMaxTaskTypes - 1));
             })
        .key("process",
             [&](const YAML::Node& v, const std::string& k) {
               if (!cfg.has_mmu()) r.fail(v, k, "a process needs an address_space section; without one, give the task type");
               g.process = static_cast<unsigned>(r.to_u64_in(v, k, 0, kMaxProcesses - 1));
             })
        .then([&] {
          if (cfg.has_mmu() && !cfg.address_space.application(g.process))
            r.fail(e["process"] ? e["process"] : e, key + ".process", "no application has process id " + std::to_string(g.process));
        })
        .uint("base", g.base, 0, ~uint64_t{0})
        .uint("stride", g.stride, 0, ~uint64_t{0})
        .uint("range", g.range, 1, ~uint64_t{0})
        .uint("count", g.count, 1, uint64_t{1} << 40)
        .uint("size", g.size, 1, kMaxRequestBytes)
        .key("write_fraction",
             [&](const YAML::Node& v, const std::string& k) {
               g.write_fraction = r.to_double(v, k);
               if (!(g.write_fraction >= 0 && g.write_fraction <= 1)) r.fail(v, k, "must lie in [0, 1]");
             })
        .uint("seed", g.seed, 0, ~uint64_t{0})
        .uint("start_cycle", g.start_cycle, 0, uint64_t{1} << 50)
        .uint("issue_interval", g.issue_interval, 0, uint64_t{1} << 30)
        .read();
    check_generator(r, e, key, cfg, g);
    out.push_back(g);
  }
  // With an address space the PTEs carry the task types; nothing to check here.
  if (cfg.has_mmu()) return;
  // Isolation from the other side: two task types must not share a page.
  const uint64_t page = cfg.mmu.smallest_page();
  auto span = [&](const GeneratorConfig& g) {
    const uint64_t last = g.range ? g.base + g.range - 1 : g.base + g.stride * (g.count - 1) + g.size - 1;
    return std::pair<uint64_t, uint64_t>{g.base / page, last / page};
  };
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      if (out[i].task_type == out[j].task_type) continue;
      const auto a = span(out[i]), b = span(out[j]);
      if (a.first <= b.second && b.first <= a.second)
        r.fail(n[i], "workload[" + std::to_string(i) + "]", "shares pages with workload[" + std::to_string(j) +
               "] under a different task type; a page carries one task type");
    }
}

}  // namespace gpumem::config_yaml
