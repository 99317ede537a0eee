// The address_space section: applications, regions, nesting.
#include "config/config_reader.hpp"

namespace gpumem::config_yaml {

namespace {

// Page sizes belong to the mmu section, which may be absent (then: the address space's own line).
void check_address_space_pages(const Reader& r, const YAML::Node& n, const YAML::Node& mmu_node, const Config& cfg) {
  const AddressSpaceConfig& as = cfg.address_space;
  const MmuConfig& mmu = cfg.mmu;
  const YAML::Node ps_at = mmu_node && mmu_node["page_sizes"] ? mmu_node["page_sizes"] : n;
  if (mmu.page_sizes.size() != 2 || mmu.smallest_page() == mmu.largest_page())
    r.fail(ps_at, "mmu.page_sizes", "an address space needs two page sizes: the small and the large page");
  const PageGeometry geo = mmu.geometry();
  if (geo.units_per_large() < 16)
    r.fail(ps_at, "mmu.page_sizes", "the large page must hold at least 16 small pages (the largest nested flag covers 8)");
  if (geo.units_per_large() > geo.small_bytes() / kPteBytes)
    r.fail(ps_at, "mmu.page_sizes", "a large page's PTEs must fit one leaf table of one small page");
  if (as.va_bits <= geo.large_bits)
    r.fail(n["va_bits"] ? n["va_bits"] : n, "address_space.va_bits", "must be wider than the large page offset");
  if (as.pa_base % geo.large_bytes())
    r.fail(n["pa_base"], "address_space.pa_base", "must be aligned to the large page");
  if (cfg.translator.position == TranslatorPosition::kBeforeMmu && as.va_bits > 32 + geo.small_bits)
    r.fail(n["va_bits"], "address_space.va_bits", "before the MMU the VA-range registers hold VA >> small page bits in 32 bits");
}

RegionConfig read_region(const Reader& r, const YAML::Node& g, const std::string& rk, size_t k, const ApplicationConfig& app,
                         const Config& cfg, std::set<std::string>& region_names) {
  const AddressSpaceConfig& as = cfg.address_space;
  const PageGeometry geo = cfg.mmu.geometry();
  RegionConfig reg;
  reg.line = g.Mark().line + 1;
  reg.task_type = app.task_type;
  Section(r, g, rk)
      .text("name", reg.name)
      .then([&] {
        if (!g["name"]) reg.name = app.name + "." + std::to_string(k);
        if (!region_names.insert(reg.name).second) r.fail(g["name"] ? g["name"] : g, rk + ".name", "region '" + reg.name + "' declared twice");
      })
      .uint("va", reg.va, 0, ~uint64_t{0})
      .required()
      .uint("size", reg.size, 1, ~uint64_t{0})
      .required()
      .choice_of("page size", "page", reg.large_page, {{"small", false}, {"large", true}})
      .required("missing value (small or large)")
      .uint("task_type", reg.task_type, 0, kMaxTaskTypes - 1)
      .boolean("writable", reg.writable)
      .key("nest_into",
           [&](const YAML::Node& v, const std::string& key) {
             reg.nest_into = r.to_string(v, key);
             if (reg.large_page) r.fail(v, key, "only a small-page region nests into a large frame");
             if (!as.nesting) r.fail(v, key, "needs address_space.nesting: true");
             if (geo.placement != NestedPlacement::kTail)
               r.fail(v, key, "needs mmu.nested_placement: tail (a head region would cover the large page's data)");
           })
      .then([&] {
        const uint64_t align = reg.large_page ? geo.large_bytes() : geo.small_bytes();
        if (reg.va % align) r.fail(g["va"], rk + ".va", "must be aligned to its page size (" + std::to_string(align) + " bytes)");
        if ((unsigned __int128)reg.va + reg.size > ((unsigned __int128)1 << as.va_bits))
          r.fail(g, rk, "reaches past the " + std::to_string(as.va_bits) + "-bit virtual address space");
      })
      .read();
  return reg;
}

ApplicationConfig read_application(const Reader& r, const YAML::Node& a, const std::string& key, const Config& cfg,
                                   std::set<std::string>& region_names) {
  ApplicationConfig app;
  app.line = a.Mark().line + 1;
  Section(r, a, key)
      .text("name", app.name)
      .required()
      .uint("process", app.process, 0, kMaxProcesses - 1)
      .required("missing value: the process id traces and generators use")
      .uint("task_type", app.task_type, 0, kMaxTaskTypes - 1)
      .required("missing value: the task type written into the application's PTEs")
      .then([&] {
        for (const auto& other : cfg.address_space.applications) {
          if (other.name == app.name) r.fail(a["name"], key + ".name", "application '" + app.name + "' declared twice");
          if (other.process == app.process)
            r.fail(a["process"], key + ".process", "process id " + std::to_string(app.process) + " already belongs to '" + other.name + "'");
        }
      })
      .key("regions",
           [&](const YAML::Node& regs, const std::string& rk) {
             if (!regs.IsSequence() || regs.size() == 0) r.fail(regs, rk, "expected a non-empty list of regions");
             for (size_t k = 0; k < regs.size(); ++k)
               app.regions.push_back(read_region(r, regs[k], rk + "[" + std::to_string(k) + "]", k, app, cfg, region_names));
           })
      .required("expected a non-empty list of regions")
      .read();
  return app;
}

// The regions together: VA-range registers, overlaps and nesting targets.
void check_address_space_regions(const Reader& r, const Config& cfg) {
  const AddressSpaceConfig& as = cfg.address_space;
  const PageGeometry geo = cfg.mmu.geometry();
  // Before the MMU a region with a task type of its own needs a VA-range
  // register (the driver programs one per such region).
  if (cfg.translator.position == TranslatorPosition::kBeforeMmu) {
    unsigned ranges = 0;
    for (const auto& app : as.applications)
      for (const auto& reg : app.regions) {
        if (reg.task_type != app.task_type && ++ranges > kMaxVaRanges)
          throw InputError(r.file(), reg.line, as.region_key(&reg) + ".task_type",
                           "before the MMU each region with its own task type takes a VA-range register; all " +
                               std::to_string(kMaxVaRanges) + " are taken");
      }
  }

  // Region overlap. A large region owns whole large pages; a small region may
  // sit in the unused tail of a large region's last page (it then nests there
  // in the virtual address space too), inside the largest nested region.
  struct Span { const RegionConfig* reg; const ApplicationConfig* app; uint64_t lo, hi; };
  std::vector<Span> spans;
  for (const auto& app : as.applications)
    for (const auto& reg : app.regions) {
      const uint64_t unit = reg.large_page ? geo.large_bytes() : geo.small_bytes();
      spans.push_back({&reg, &app, reg.va, reg.va + (reg.size + unit - 1) / unit * unit});
    }
  auto region_key = [&](const Span& s) { return as.region_key(s.reg); };
  for (const Span& a : spans) {
    for (const Span& b : spans) {
      if (&a == &b || !(a.lo < b.hi && b.lo < a.hi)) continue;
      if (!a.reg->large_page && b.reg->large_page) {
        // a nests in b's last page if it lies past b's data and inside the largest nested region.
        const uint64_t last_page = b.hi - geo.large_bytes();
        const uint64_t data_end = b.reg->va + (b.reg->size + geo.small_bytes() - 1) / geo.small_bytes() * geo.small_bytes();
        const uint64_t nest_lo = b.hi - 8 * geo.small_bytes();
        if (a.lo >= last_page && a.lo >= data_end && a.lo >= nest_lo && a.hi <= b.hi) {
          if (geo.placement != NestedPlacement::kTail)
            throw InputError(r.file(), a.reg->line, region_key(a), "nests in the tail of large region '" + b.reg->name +
                                                    "', which needs mmu.nested_placement: tail");
          continue;
        }
      }
      if (a.reg->large_page && !b.reg->large_page) continue;  // reported from b's side
      throw InputError(r.file(), a.reg->line, region_key(a),
                       "region '" + a.reg->name + "' overlaps region '" + b.reg->name + "' in the virtual address space" +
                           (!a.reg->large_page && b.reg->large_page ? " (a small region may only nest in the tail of a large region's last page, past its data, within the largest nested region of 8 small pages)" : ""));
    }
  }
  for (const Span& s : spans)
    if (!s.reg->nest_into.empty()) {
      const Span* target = nullptr;
      for (const Span& t : spans)
        if (t.reg->name == s.reg->nest_into) target = &t;
      if (!target || !target->reg->large_page)
        throw InputError(r.file(), s.reg->line, region_key(s) + ".nest_into",
                         "'" + s.reg->nest_into + "' is not a large-page region");
    }
}

}  // namespace

void read_address_space(const Reader& r, const YAML::Node& n, const YAML::Node& mmu_node, Config& cfg) {
  AddressSpaceConfig& as = cfg.address_space;
  as.present = true;
  std::set<std::string> region_names;
  Section(r, n, "address_space")
      .uint("va_bits", as.va_bits, 20, 44)
      .uint("pa_base", as.pa_base, 0, ~uint64_t{0})
      .boolean("nesting", as.nesting)
      .then([&] { check_address_space_pages(r, n, mmu_node, cfg); })
      .key("applications",
           [&](const YAML::Node& apps, const std::string& k) {
             if (!apps.IsSequence() || apps.size() == 0) r.fail(apps, k, "expected a non-empty list of applications");
             for (size_t i = 0; i < apps.size(); ++i)
               as.applications.push_back(read_application(r, apps[i], k + "[" + std::to_string(i) + "]", cfg, region_names));
           })
      .required("expected a non-empty list of applications")
      .read();
  check_address_space_regions(r, cfg);
}

}  // namespace gpumem::config_yaml
