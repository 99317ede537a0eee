// The memory and mmu sections, and scheme names.
#include "config/config_reader.hpp"

#include "base/baselines.hpp"
#include "base/nearest_name.hpp"
#include "base/tlb_geometry.hpp"

namespace gpumem::config_yaml {

Scheme read_scheme(const Reader& r, const YAML::Node& n, const std::string& key, bool baselines) {
  const std::string s = r.to_string(n, key);
  for (size_t v = 0; v < kSchemeNames.size(); ++v)
    if (s == kSchemeNames[v]) return static_cast<Scheme>(v);
  std::vector<std::string> names(kSchemeNames.begin(), kSchemeNames.end());
  std::string choices = "none, xor, prime or matrix";
  if (baselines) {
    choices = "none, xor, prime, matrix or a baseline:";
    for (const std::string& b : baseline_names()) {
      choices += (names.size() > kSchemeNames.size() ? ", " : " ") + b;
      names.push_back(b);
    }
  }
  r.fail(n, key, "unknown scheme '" + s + "' (" + choices + ")" + did_you_mean(s, names));
}

namespace {

void read_dram_timing(const Reader& r, const YAML::Node& n, DramTiming& t) {
  const std::string k = "memory.dram.timing";
  std::vector<const char*> keys;
  for (const DramTimingRow& row : kDramTimingRows) keys.push_back(row.name);
  r.expect_map(n, k, keys);
  for (const DramTimingRow& row : kDramTimingRows) r.opt_uint(n, k, row.name, t.*row.member, row.least, row.most);
}

// The standard's own relations between timings, each refused with its name.
void check_dram_timing(const Reader& r, const YAML::Node& timing, const YAML::Node& memory, const DramTiming& t) {
  const DramTimingProblem p = dram_timing_problem(t);
  if (!p.name) return;
  r.fail(timing && timing[p.name] ? timing[p.name] : timing ? timing : memory, std::string("memory.dram.timing.") + p.name, p.what);
}

// After the organisation and address order, which place the bank bits.
void read_bank_xor(const Reader& r, const YAML::Node& x, DramSpec& d) {
  const std::string k = "memory.dram.bank_xor";
  const std::vector<unsigned> bank_bits = dram_bank_address_bits(d);
  if (!x.IsSequence()) r.fail(x, k, "expected a list: for each bank address bit, the list of address bits XORed into it");
  if (x.size() > bank_bits.size())
    r.fail(x, k, std::to_string(x.size()) + " lists for " + std::to_string(bank_bits.size()) +
                     " bank address bits (the bank's, then the bank group's)");
  d.bank_xor.clear();
  for (size_t j = 0; j < x.size(); ++j) {
    const std::string kj = k + "[" + std::to_string(j) + "]";
    const std::vector<unsigned> terms = r.uint_list(x[j], kj, 64);
    for (size_t i = 0; i < terms.size(); ++i) {
      const unsigned b = terms[i];
      const std::string ki = kj + "[" + std::to_string(i) + "]";
      if (std::find(bank_bits.begin(), bank_bits.end(), b) != bank_bits.end())
        r.fail(x[j][i], ki, "bit " + std::to_string(b) + " is itself a bank or bank group bit: the split would not be a bijection");
      if (b < dram_offset_bits(d))
        r.fail(x[j][i], ki, "bit " + std::to_string(b) + " lies inside one access (" +
                                std::to_string(d.org.access_bytes()) + " bytes): it never changes between accesses");
    }
    d.bank_xor.push_back(terms);
  }
}

void read_dram(const Reader& r, const YAML::Node& n, const YAML::Node& memory, DramSpec& d) {
  const std::string k = "memory.dram";
  // Copied, not assigned: assigning an absent key's node to a Node throws.
  // Not a map: expect_map below says so (operator[] on a scalar would throw first).
  const YAML::Node timing = n && n.IsMap() ? n["timing"] : YAML::Node(YAML::NodeType::Undefined);
  if (n) {
    std::vector<const char*> keys = {"tck_ps"};
    for (const DramOrganizationRow& row : kDramOrganizationRows) keys.push_back(row.name);
    for (const char* key : {"address_order", "page_policy", "refresh", "dual_command_bus", "read_queue", "bank_queue", "write_queue", "write_high",
                            "write_low", "row_hit_cap", "active_buffer", "prefetch_drop_cycles", "prefetch_priority", "row_commands", "bank_xor", "timing"})
      keys.push_back(key);
    r.expect_map(n, k, keys);
    r.opt_uint(n, k, "tck_ps", d.tck_ps, 1, 1000000);
    DramOrganization& o = d.org;
    for (const DramOrganizationRow& row : kDramOrganizationRows) {
      unsigned& v = o.*row.member;
      r.opt_uint(n, k, row.name, v, 1, row.most);
      if (n[row.name] && !is_pow2(v)) r.fail(n[row.name], Reader::join(k, row.name), std::to_string(v) + " is not a power of two");
    }
    if (n["bus_bits"] && o.bus_bits < 8) r.fail(n["bus_bits"], k + ".bus_bits", "a data bus of at least 8 bits");
    if (o.columns < o.burst_length)
      r.fail(n["columns"] ? n["columns"] : n["burst_length"], k + (n["columns"] ? ".columns" : ".burst_length"),
             std::to_string(o.columns) + " columns hold no burst of " + std::to_string(o.burst_length));
    if (const auto a = n["address_order"]) {
      const std::string text = r.to_string(a, k + ".address_order");
      std::vector<DramField> order;
      size_t from = 0;
      while (from <= text.size()) {
        const size_t dash = text.find('-', from);
        const std::string name = text.substr(from, dash == std::string::npos ? std::string::npos : dash - from);
        int found = -1;
        for (int f = 0; f < 5; ++f)
          if (name == kDramFieldNames[f]) found = f;
        if (found < 0)
          r.fail(a, k + ".address_order",
                 "unknown field '" + name + "' (row, rank, bankgroup, bank, column, most significant first, joined by '-')");
        if (std::find(order.begin(), order.end(), DramField(found)) != order.end())
          r.fail(a, k + ".address_order", "field '" + name + "' given twice");
        order.push_back(DramField(found));
        if (dash == std::string::npos) break;
        from = dash + 1;
      }
      if (order.size() != 5)
        r.fail(a, k + ".address_order", "name every field once: row, rank, bankgroup, bank, column");
      d.address_order = order;
    }
    if (const auto p = n["page_policy"]) {
      const std::string v = r.to_string(p, k + ".page_policy");
      if (v == "open") d.page_policy = PagePolicy::kOpen;
      else if (v == "closed") d.page_policy = PagePolicy::kClosed;
      else r.fail(p, k + ".page_policy", "'" + v + "' is not one of: open, closed");
    }
    if (const auto p = n["refresh"]) {
      const std::string v = r.to_string(p, k + ".refresh");
      if (v == "all_bank") d.refresh = RefreshMode::kAllBank;
      else if (v == "per_bank") d.refresh = RefreshMode::kPerBank;
      else r.fail(p, k + ".refresh", "'" + v + "' is not one of: all_bank, per_bank");
    }
    if (n["dual_command_bus"]) d.dual_command_bus = r.to_bool(n["dual_command_bus"], k + ".dual_command_bus");
    r.opt_uint(n, k, "read_queue", d.read_queue, 1, 1u << 16);
    r.opt_uint(n, k, "bank_queue", d.bank_queue, 0, 1u << 16);
    r.opt_uint(n, k, "write_queue", d.write_queue, 1, 1u << 16);
    r.opt_uint(n, k, "write_high", d.write_high, 1, 1u << 16);
    r.opt_uint(n, k, "write_low", d.write_low, 0, 1u << 16);
    r.opt_uint(n, k, "row_hit_cap", d.row_hit_cap, 0, 1u << 16);
    r.opt_uint(n, k, "active_buffer", d.active_buffer, 0, 1u << 16);
    if (d.active_buffer && d.bank_queue)
      r.fail(n["active_buffer"], k + ".active_buffer",
             "needs bank_queue: 0 (it stands beside the one shared read buffer, as Ramulator 2's does)");
    r.opt_uint(n, k, "prefetch_drop_cycles", d.prefetch_drop_cycles, 0, 1u << 30);
    if (const auto pp = n["prefetch_priority"]) {
      const std::string v = r.to_string(pp, k + ".prefetch_priority");
      if (v == "low") d.prefetch_below_demand = true;
      else if (v == "equal") d.prefetch_below_demand = false;
      else r.fail(pp, k + ".prefetch_priority", "'" + v + "' is not one of: low, equal");
    }
    if (const auto rc = n["row_commands"]) {
      const std::string v = r.to_string(rc, k + ".row_commands");
      if (v == "oldest") d.row_commands_any = false;
      else if (v == "any") d.row_commands_any = true;
      else r.fail(rc, k + ".row_commands", "'" + v + "' is not one of: oldest, any");
    }
    const YAML::Node wq = n["write_high"] ? n["write_high"] : n["write_queue"] ? n["write_queue"] : n;
    if (d.write_high > d.write_queue)
      r.fail(wq, k + ".write_high", "high watermark " + std::to_string(d.write_high) + " above the write queue's " +
                                        std::to_string(d.write_queue) + " entries");
    if (d.write_low >= d.write_high)
      r.fail(n["write_low"] ? n["write_low"] : wq, k + ".write_low",
             "low watermark " + std::to_string(d.write_low) + " not below the high watermark " + std::to_string(d.write_high));
    if (timing) read_dram_timing(r, timing, d.timing);
    if (const auto x = n["bank_xor"]) read_bank_xor(r, x, d);
  }
  check_dram_timing(r, timing, n ? n : memory, d.timing);
  if (d.refresh == RefreshMode::kPerBank && d.timing.tREFI && d.timing.tREFI < d.org.banks())
    r.fail(n ? n : memory, k + ".refresh", "per-bank refresh needs tREFI of at least one cycle per bank");
}

}  // namespace

void read_memory(const Reader& r, const YAML::Node& n, MemoryConfig& m) {
  r.expect_map(n, "memory", {"address_bits", "channels", "model", "service_cycles", "latency_cycles", "max_outstanding",
                             "preset", "dram"});
  r.opt_uint(n, "memory", "address_bits", m.address_bits, 16, 64);
  r.opt_uint(n, "memory", "channels", m.channels, 1, kMaxChannels);
  r.opt_uint(n, "memory", "latency_cycles", m.latency_cycles, 0, 1u << 20);
  r.opt_uint(n, "memory", "max_outstanding", m.max_outstanding, 1, 1u << 20);
  // A preset or a dram section without a model means the dram model.
  if (n["preset"] || n["dram"]) m.model = MemoryModel::kDram;
  if (const auto v = n["model"]) {
    const std::string s = r.to_string(v, "memory.model");
    if (s == "simple") m.model = MemoryModel::kSimple;
    else if (s == "dram") m.model = MemoryModel::kDram;
    else r.fail(v, "memory.model", "'" + s + "' is not one of: simple, dram");
  }
  if (m.model == MemoryModel::kSimple) {
    for (const char* k : {"preset", "dram"})
      if (n[k]) r.fail(n[k], std::string("memory.") + k, "applies to memory.model: dram only");
    r.opt_uint(n, "memory", "service_cycles", m.service_cycles, 1, 1u << 20);
    return;
  }
  if (n["service_cycles"])
    r.fail(n["service_cycles"], "memory.service_cycles", "applies to memory.model: simple only (dram has its timing)");
  std::string preset = "hbm2";
  if (const auto p = n["preset"]) preset = r.to_string(p, "memory.preset");
  const DramSpec* spec = dram_preset(preset);
  if (!spec) {
    std::string list;
    for (const auto& name : dram_preset_names()) list += (list.empty() ? "" : ", ") + name;
    r.fail(n["preset"], "memory.preset", "unknown preset '" + preset + "' (" + list + ")");
  }
  m.dram = *spec;
  read_dram(r, n["dram"], n, m.dram);
}

void read_mmu(const Reader& r, const YAML::Node& n, MmuConfig& m) {
  r.expect_map(n, "mmu", {"page_sizes", "nested_placement", "tlb", "walk_level_cycles"});
  if (const auto p = n["nested_placement"]) {
    const std::string v = r.to_string(p, "mmu.nested_placement");
    if (v == "tail") m.nested_placement = NestedPlacement::kTail;
    else if (v == "head") m.nested_placement = NestedPlacement::kHead;
    else r.fail(p, "mmu.nested_placement", "unknown placement '" + v + "' (tail or head)");
  }
  r.opt_uint(n, "mmu", "walk_level_cycles", m.walk_level_cycles, 0, 1u << 20);
  if (const auto t = n["tlb"]) {
    r.expect_map(t, "mmu.tlb", {"entries", "ways", "replacement", "hit_cycles"});
    r.opt_uint(t, "mmu.tlb", "entries", m.tlb_entries, 1, 1u << 16);
    r.opt_uint(t, "mmu.tlb", "ways", m.tlb_ways, 1, 1u << 16);
    r.opt_uint(t, "mmu.tlb", "hit_cycles", m.tlb_hit_cycles, 0, 1u << 20);
    if (const auto rp = t["replacement"]) {
      const std::string v = r.to_string(rp, "mmu.tlb.replacement");
      if (v == "lru") m.replacement = Replacement::kLru;
      else if (v == "plru") m.replacement = Replacement::kPlru;
      else r.fail(rp, "mmu.tlb.replacement", "unknown replacement '" + v + "' (lru or plru)");
    }
    if (const std::string why = tlb_geometry_problem(m.tlb_entries, m.tlb_ways, m.replacement); !why.empty())
      r.fail(t["ways"] ? t["ways"] : t, "mmu.tlb.ways", why);
  }
  if (const auto ps = n["page_sizes"]) {
    if (!ps.IsSequence() || ps.size() == 0) r.fail(ps, "mmu.page_sizes", "expected a non-empty list of page sizes in bytes");
    m.page_sizes.clear();
    for (size_t i = 0; i < ps.size(); ++i) {
      const std::string k = "mmu.page_sizes[" + std::to_string(i) + "]";
      const uint64_t v = r.to_u64(ps[i], k);
      if (!is_pow2(v) || v < 1024) r.fail(ps[i], k, "page size must be a power of two of at least 1024 bytes");
      m.page_sizes.push_back(v);
    }
    if (m.page_sizes.size() > 2) r.fail(ps, "mmu.page_sizes", "at most two page sizes: the small and the large page");
  }
}

}  // namespace gpumem::config_yaml
