// The address_space section: applications, regions, nesting.
#include "config/config_reader.hpp"

namespace gpumem::config_yaml {

void read_address_space(const Reader& r, const YAML::Node& n, const YAML::Node& mmu_node, Config& cfg) {
  AddressSpaceConfig& as = cfg.address_space;
  as.present = true;
  r.expect_map(n, "address_space", {"va_bits", "pa_base", "nesting", "applications"});
  r.opt_uint(n, "address_space", "va_bits", as.va_bits, 20, 44);
  r.opt_uint(n, "address_space", "pa_base", as.pa_base, 0, ~uint64_t{0});
  if (n["nesting"]) as.nesting = r.to_bool(n["nesting"], "address_space.nesting");

  const MmuConfig& mmu = cfg.mmu;
  // Page sizes belong to the mmu section, which may be absent (then: here).
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

  const YAML::Node apps = n["applications"];
  if (!apps || !apps.IsSequence() || apps.size() == 0)
    r.fail(apps ? apps : n, "address_space.applications", "expected a non-empty list of applications");
  std::set<std::string> region_names;
  for (size_t i = 0; i < apps.size(); ++i) {
    const YAML::Node a = apps[i];
    const std::string key = "address_space.applications[" + std::to_string(i) + "]";
    r.expect_map(a, key, {"name", "process", "task_type", "regions"});
    ApplicationConfig app;
    app.line = a.Mark().line + 1;
    if (!a["name"]) r.fail(a, key + ".name", "missing value");
    app.name = r.to_string(a["name"], key + ".name");
    if (!a["process"]) r.fail(a, key + ".process", "missing value: the process id traces and generators use");
    r.opt_uint(a, key, "process", app.process, 0, kMaxProcesses - 1);
    if (!a["task_type"]) r.fail(a, key + ".task_type", "missing value: the task type written into the application's PTEs");
    r.opt_uint(a, key, "task_type", app.task_type, 0, kMaxTaskTypes - 1);
    for (const auto& other : as.applications) {
      if (other.name == app.name) r.fail(a["name"], key + ".name", "application '" + app.name + "' declared twice");
      if (other.process == app.process)
        r.fail(a["process"], key + ".process", "process id " + std::to_string(app.process) + " already belongs to '" + other.name + "'");
    }
    const YAML::Node regs = a["regions"];
    if (!regs || !regs.IsSequence() || regs.size() == 0) r.fail(regs ? regs : a, key + ".regions", "expected a non-empty list of regions");
    for (size_t k = 0; k < regs.size(); ++k) {
      const YAML::Node g = regs[k];
      const std::string rk = key + ".regions[" + std::to_string(k) + "]";
      r.expect_map(g, rk, {"name", "va", "size", "page", "task_type", "writable", "nest_into"});
      RegionConfig reg;
      reg.line = g.Mark().line + 1;
      reg.task_type = app.task_type;
      reg.name = g["name"] ? r.to_string(g["name"], rk + ".name") : app.name + "." + std::to_string(k);
      if (!region_names.insert(reg.name).second) r.fail(g["name"] ? g["name"] : g, rk + ".name", "region '" + reg.name + "' declared twice");
      if (!g["va"]) r.fail(g, rk + ".va", "missing value");
      if (!g["size"]) r.fail(g, rk + ".size", "missing value");
      if (!g["page"]) r.fail(g, rk + ".page", "missing value (small or large)");
      r.opt_uint(g, rk, "va", reg.va, 0, ~uint64_t{0});
      r.opt_uint(g, rk, "size", reg.size, 1, ~uint64_t{0});
      const std::string page = r.to_string(g["page"], rk + ".page");
      if (page == "large") reg.large_page = true;
      else if (page != "small") r.fail(g["page"], rk + ".page", "unknown page size '" + page + "' (small or large)");
      r.opt_uint(g, rk, "task_type", reg.task_type, 0, kMaxTaskTypes - 1);
      if (g["writable"]) reg.writable = r.to_bool(g["writable"], rk + ".writable");
      if (g["nest_into"]) {
        reg.nest_into = r.to_string(g["nest_into"], rk + ".nest_into");
        if (reg.large_page) r.fail(g["nest_into"], rk + ".nest_into", "only a small-page region nests into a large frame");
        if (!as.nesting) r.fail(g["nest_into"], rk + ".nest_into", "needs address_space.nesting: true");
        if (geo.placement != NestedPlacement::kTail)
          r.fail(g["nest_into"], rk + ".nest_into", "needs mmu.nested_placement: tail (a head region would cover the large page's data)");
      }
      const uint64_t align = reg.large_page ? geo.large_bytes() : geo.small_bytes();
      if (reg.va % align)
        r.fail(g["va"], rk + ".va", "must be aligned to its page size (" + std::to_string(align) + " bytes)");
      if ((unsigned __int128)reg.va + reg.size > ((unsigned __int128)1 << as.va_bits))
        r.fail(g, rk, "reaches past the " + std::to_string(as.va_bits) + "-bit virtual address space");
      app.regions.push_back(reg);
    }
    as.applications.push_back(app);
  }

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

}  // namespace gpumem::config_yaml
