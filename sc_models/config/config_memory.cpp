// The memory and mmu sections, and scheme names.
#include "config/config_reader.hpp"

namespace gpumem::config_yaml {

Scheme read_scheme(const Reader& r, const YAML::Node& n, const std::string& key) {
  const std::string s = r.to_string(n, key);
  for (size_t v = 0; v < kSchemeNames.size(); ++v)
    if (s == kSchemeNames[v]) return static_cast<Scheme>(v);
  r.fail(n, key, "unknown scheme '" + s + "' (none, xor or prime)");
}

void read_memory(const Reader& r, const YAML::Node& n, MemoryConfig& m) {
  r.expect_map(n, "memory", {"address_bits", "channels", "service_cycles", "max_outstanding"});
  r.opt_uint(n, "memory", "address_bits", m.address_bits, 16, 64);
  r.opt_uint(n, "memory", "channels", m.channels, 1, kMaxChannels);
  r.opt_uint(n, "memory", "service_cycles", m.service_cycles, 1, 1u << 20);
  r.opt_uint(n, "memory", "max_outstanding", m.max_outstanding, 1, 1u << 20);
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
    const YAML::Node at = t["ways"] ? t["ways"] : t;
    if (m.tlb_ways > m.tlb_entries || m.tlb_entries % m.tlb_ways)
      r.fail(at, "mmu.tlb.ways", std::to_string(m.tlb_ways) + " ways do not divide " + std::to_string(m.tlb_entries) + " entries");
    if (!is_pow2(m.tlb_entries / m.tlb_ways))
      r.fail(at, "mmu.tlb.ways", "entries / ways = " + std::to_string(m.tlb_entries / m.tlb_ways) + " sets: must be a power of two");
    if (m.replacement == Replacement::kPlru && !is_pow2(m.tlb_ways))
      r.fail(at, "mmu.tlb.ways", "tree-PLRU needs a power-of-two number of ways");
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
