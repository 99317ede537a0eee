// The memory and mmu sections, and scheme names.
#include "config/config_reader.hpp"

#include "base/baselines.hpp"
#include "base/nearest_name.hpp"
#include "base/text.hpp"
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
  Section timing(r, n, "memory.dram.timing");
  for (const DramTimingRow& row : kDramTimingRows) timing.uint(row.name, t.*row.member, row.least, row.most);
  timing.read();
}

void read_dram_power(const Reader& r, const YAML::Node& n, DramPower& p) {
  Section power(r, n, "memory.dram.power");
  for (const DramPowerRow& row : kDramPowerRows)
    power.key(row.name, [&r, &p, &row](const YAML::Node& v, const std::string& key) {
      const double x = r.to_double(v, key);
      if (!(x >= row.least && x <= row.most))
        r.fail(v, key, decimal_text(x) + " is out of range [" + decimal_text(row.least) + ", " + decimal_text(row.most) + "]");
      p.*row.member = x;
    });
  power.read();
}

// The IDD model's relations, each refused with the figure it is charged to.
void check_dram_power(const Reader& r, const YAML::Node& power, const YAML::Node& memory, const DramSpec& d) {
  const DramTimingProblem p = dram_power_problem(d.power, d.timing);
  if (!p.name) return;
  r.fail(power && power[p.name] ? power[p.name] : power ? power : memory, std::string("memory.dram.power.") + p.name, p.what);
}

// The standard's own relations between timings, each refused with its name.
void check_dram_timing(const Reader& r, const YAML::Node& timing, const YAML::Node& memory, const DramSpec& d) {
  const DramTimingProblem p = dram_timing_problem(d.timing, d.refresh);
  if (!p.name) return;
  r.fail(timing && timing[p.name] ? timing[p.name] : timing ? timing : memory, std::string("memory.dram.timing.") + p.name, p.what);
}

// The refresh rate's room for activates (dram_refresh_problem), charged to tREFI.
void check_refresh_room(const Reader& r, const YAML::Node& timing, const YAML::Node& dram, const DramSpec& d) {
  const DramTimingProblem p = dram_refresh_problem(d);
  if (p.name) r.fail(timing && timing[p.name] ? timing[p.name] : dram, std::string("memory.dram.timing.") + p.name, p.what);
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

// Fields most significant first, joined by '-': row-bankgroup-bank-column, say.
std::vector<DramField> read_address_order(const Reader& r, const YAML::Node& a, const std::string& key) {
  const std::string text = r.to_string(a, key);
  std::vector<DramField> order;
  size_t from = 0;
  while (from <= text.size()) {
    const size_t dash = text.find('-', from);
    const std::string name = text.substr(from, dash == std::string::npos ? std::string::npos : dash - from);
    int found = -1;
    for (int f = 0; f < 5; ++f)
      if (name == kDramFieldNames[f]) found = f;
    if (found < 0)
      r.fail(a, key, "unknown field '" + name + "' (row, rank, bankgroup, bank, column, most significant first, joined by '-')");
    if (std::find(order.begin(), order.end(), DramField(found)) != order.end()) r.fail(a, key, "field '" + name + "' given twice");
    order.push_back(DramField(found));
    if (dash == std::string::npos) break;
    from = dash + 1;
  }
  if (order.size() != 5) r.fail(a, key, "name every field once: row, rank, bankgroup, bank, column");
  return order;
}

void read_dram(const Reader& r, const YAML::Node& n, const YAML::Node& memory, DramSpec& d) {
  const std::string k = "memory.dram";
  // Copied, not assigned: assigning an absent key's node to a Node throws.
  // Not a map: the Section below says so (operator[] on a scalar would throw first).
  const YAML::Node timing = n && n.IsMap() ? n["timing"] : YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node power = n && n.IsMap() ? n["power"] : YAML::Node(YAML::NodeType::Undefined);
  if (n) {
    DramOrganization& o = d.org;
    Section dram(r, n, k);
    dram.uint("tck_ps", d.tck_ps, 1, 1000000);
    for (const DramOrganizationRow& row : kDramOrganizationRows)
      dram.key(row.name, [&r, &o, &row](const YAML::Node& v, const std::string& key) {
        const uint64_t x = r.to_u64_in(v, key, 1, row.most);
        o.*row.member = static_cast<unsigned>(x);
        if (row.power_of_two && !is_pow2(x)) r.fail(v, key, std::to_string(x) + " is not a power of two");
      });
    dram.then([&] {
          if (n["bus_bits"] && o.bus_bits < 8) r.fail(n["bus_bits"], k + ".bus_bits", "a data bus of at least 8 bits");
          if (o.columns < o.burst_length)
            r.fail(n["columns"] ? n["columns"] : n["burst_length"], k + (n["columns"] ? ".columns" : ".burst_length"),
                   std::to_string(o.columns) + " columns hold no burst of " + std::to_string(o.burst_length));
        })
        .key("address_order", [&](const YAML::Node& a, const std::string& key) { d.address_order = read_address_order(r, a, key); })
        .choice("page_policy", d.page_policy, {{"open", PagePolicy::kOpen}, {"closed", PagePolicy::kClosed}})
        .choice("refresh", d.refresh, {{"all_bank", RefreshMode::kAllBank}, {"per_bank", RefreshMode::kPerBank}, {"same_bank", RefreshMode::kSameBank}})
        .boolean("dual_command_bus", d.dual_command_bus)
        .uint("read_queue", d.read_queue, 1, 1u << 16)
        .uint("bank_queue", d.bank_queue, 0, 1u << 16)
        .uint("write_queue", d.write_queue, 1, 1u << 16)
        .uint("write_high", d.write_high, 1, 1u << 16)
        .uint("write_low", d.write_low, 0, 1u << 16)
        .uint("row_hit_cap", d.row_hit_cap, 0, 1u << 16)
        .uint("active_buffer", d.active_buffer, 0, 1u << 16)
        .then([&] {
          if (d.active_buffer && d.bank_queue)
            r.fail(n["active_buffer"], k + ".active_buffer",
                   "needs bank_queue: 0 (it stands beside the one shared read buffer, as Ramulator 2's does)");
        })
        .uint("prefetch_drop_cycles", d.prefetch_drop_cycles, 0, 1u << 30)
        .choice("prefetch_priority", d.prefetch_below_demand, {{"low", true}, {"equal", false}})
        .choice("row_commands", d.row_commands_any, {{"oldest", false}, {"any", true}})
        .then([&] {
          const YAML::Node wq = n["write_high"] ? n["write_high"] : n["write_queue"] ? n["write_queue"] : n;
          if (d.write_high > d.write_queue)
            r.fail(wq, k + ".write_high", "high watermark " + std::to_string(d.write_high) + " above the write queue's " +
                                              std::to_string(d.write_queue) + " entries");
          if (d.write_low >= d.write_high)
            r.fail(n["write_low"] ? n["write_low"] : wq, k + ".write_low",
                   "low watermark " + std::to_string(d.write_low) + " not below the high watermark " + std::to_string(d.write_high));
        })
        .key("bank_xor", [&](const YAML::Node& x, const std::string&) { read_bank_xor(r, x, d); })
        .key("timing", [&](const YAML::Node& t, const std::string&) { read_dram_timing(r, t, d.timing); })
        .key("power", [&](const YAML::Node& p, const std::string&) { read_dram_power(r, p, d.power); })
        .read();
  }
  check_dram_timing(r, timing, n ? n : memory, d);
  check_dram_power(r, power, n ? n : memory, d);
  if (d.timing.tREFI && d.timing.tREFI < d.refreshes_per_round())
    r.fail(n ? n : memory, k + ".refresh",
           std::string(d.refresh == RefreshMode::kPerBank ? "per-bank refresh needs tREFI of at least one cycle per bank"
                                                          : "same-bank refresh needs tREFI of at least one cycle per bank of a group"));
  check_refresh_room(r, timing, n ? n : memory, d);
}

}  // namespace

void read_memory(const Reader& r, const YAML::Node& n, MemoryConfig& m) {
  std::string preset = "hbm2";
  const auto dram_only = [&](const YAML::Node& v, const std::string& key) {
    if (m.model == MemoryModel::kSimple) r.fail(v, key, "applies to memory.model: dram only");
  };
  Section(r, n, "memory")
      .uint("address_bits", m.address_bits, 16, 64)
      .uint("channels", m.channels, 1, kMaxChannels)
      // A preset or a dram section without a model means the dram model.
      .then([&] {
        if (n["preset"] || n["dram"]) m.model = MemoryModel::kDram;
      })
      .choice("model", m.model, {{"simple", MemoryModel::kSimple}, {"dram", MemoryModel::kDram}})
      .key("service_cycles",
           [&](const YAML::Node& v, const std::string& key) {
             if (m.model != MemoryModel::kSimple) r.fail(v, key, "applies to memory.model: simple only (dram has its timing)");
             m.service_cycles = static_cast<unsigned>(r.to_u64_in(v, key, 1, 1u << 20));
           })
      .uint("latency_cycles", m.latency_cycles, 0, 1u << 20)
      .uint("max_outstanding", m.max_outstanding, 1, 1u << 20)
      .key("preset",
           [&](const YAML::Node& v, const std::string& key) {
             dram_only(v, key);
             preset = r.to_string(v, key);
           })
      .then([&] {
        if (m.model == MemoryModel::kSimple) return;
        const DramSpec* spec = dram_preset(preset);
        if (!spec) {
          std::string list;
          for (const auto& name : dram_preset_names()) list += (list.empty() ? "" : ", ") + name;
          r.fail(n["preset"], "memory.preset", "unknown preset '" + preset + "' (" + list + ")");
        }
        m.dram = *spec;
      })
      .key("dram",
           [&](const YAML::Node& v, const std::string& key) {
             dram_only(v, key);
             read_dram(r, v, n, m.dram);
           },
           [&] {
             if (m.model == MemoryModel::kDram) read_dram(r, YAML::Node(YAML::NodeType::Undefined), n, m.dram);
           })
      .read();
}

void read_mmu(const Reader& r, const YAML::Node& n, MmuConfig& m) {
  Section(r, n, "mmu")
      .key("page_sizes",
           [&](const YAML::Node& ps, const std::string& key) {
             if (!ps.IsSequence() || ps.size() == 0) r.fail(ps, key, "expected a non-empty list of page sizes in bytes");
             m.page_sizes.clear();
             for (size_t i = 0; i < ps.size(); ++i) {
               const std::string k = key + "[" + std::to_string(i) + "]";
               const uint64_t v = r.to_u64(ps[i], k);
               if (!is_pow2(v) || v < 1024) r.fail(ps[i], k, "page size must be a power of two of at least 1024 bytes");
               m.page_sizes.push_back(v);
             }
             if (m.page_sizes.size() > 2) r.fail(ps, key, "at most two page sizes: the small and the large page");
           })
      .choice_of("placement", "nested_placement", m.nested_placement,
                 {{"tail", NestedPlacement::kTail}, {"head", NestedPlacement::kHead}})
      .key("tlb",
           [&](const YAML::Node& t, const std::string& key) {
             Section(r, t, key)
                 .uint("entries", m.tlb.entries, 1, 1u << 16)
                 .uint("ways", m.tlb.ways, 1, 1u << 16)
                 .choice_of("replacement", "replacement", m.tlb.replacement, {{"lru", Replacement::kLru}, {"plru", Replacement::kPlru}})
                 .uint("hit_cycles", m.timing.tlb_hit_cycles, 0, 1u << 20)
                 .then([&] {
                   if (const std::string why = m.tlb.problem(); !why.empty())
                     r.fail(t["ways"] ? t["ways"] : t, "mmu.tlb.ways", why);
                 })
                 .read();
           })
      .uint("walk_level_cycles", m.timing.walk_level_cycles, 0, 1u << 20)
      .read();
}

}  // namespace gpumem::config_yaml
