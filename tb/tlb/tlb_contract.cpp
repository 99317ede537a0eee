#include "tb/tlb/tlb_contract.hpp"

#include <sstream>

#include "mmu/pte.hpp"

namespace gpumem::tb {

namespace {
unsigned index_bits(unsigned n) {  // $clog2(n), at least 1, as the RTL's SetBits and WayBits
  unsigned b = 0;
  while ((1u << b) < n) ++b;
  return b ? b : 1;
}
}  // namespace

RtlTlbGeometry tlb_geometry_of_config(const Config& cfg) {
  const PageGeometry geo = cfg.mmu.geometry();
  return {"runtime",        cfg.address_space.va_bits, geo.small_bits, geo.large_bits, cfg.mmu.tlb.entries,
          cfg.mmu.tlb.ways, cfg.mmu.tlb.replacement == Replacement::kPlru, geo.placement == NestedPlacement::kTail};
}

std::string tlb_geometry_difference(const Config& cfg, const RtlTlbGeometry& rtl) {
  if (!cfg.has_mmu()) return "the config has no MMU (address_space section): the TLB has nothing to translate";
  std::ostringstream s;
  const PageGeometry geo = cfg.mmu.geometry();
  auto differ = [&](const char* what, const std::string& key, uint64_t config, const char* param, uint64_t rtl_value) {
    if (config != rtl_value)
      s << what << ": config " << key << " = " << config << ", RTL " << param << " = " << rtl_value << "\n";
  };
  differ("VA bits", "address_space.va_bits", cfg.address_space.va_bits, "VA_BITS", rtl.va_bits);
  differ("small page", "mmu.page_sizes[0]", geo.small_bytes(), "2^SMALL_BITS", uint64_t{1} << rtl.small_bits);
  differ("large page", "mmu.page_sizes[1]", geo.large_bytes(), "2^LARGE_BITS", uint64_t{1} << rtl.large_bits);
  differ("entries", "mmu.tlb.entries", cfg.mmu.tlb.entries, "ENTRIES", rtl.entries);
  differ("ways", "mmu.tlb.ways", cfg.mmu.tlb.ways, "WAYS", rtl.ways);
  const bool plru = cfg.mmu.tlb.replacement == Replacement::kPlru;
  if (plru != rtl.plru)
    s << "replacement: config mmu.tlb.replacement = " << replacement_name(cfg.mmu.tlb.replacement) << ", RTL PLRU = " << rtl.plru
      << "\n";
  const bool tail = geo.placement == NestedPlacement::kTail;
  if (tail != rtl.nested_tail)
    s << "nested placement: config mmu.nested_placement = " << (tail ? "tail" : "head")
      << ", RTL NESTED_TAIL = " << rtl.nested_tail << "\n";
  std::string d = s.str();
  if (!d.empty()) d += "(the RTL parameters are set in verilator/CMakeLists.txt, gpumem_verilate_tlb)";
  return d;
}

std::vector<RtlContractPort> tlb_port_table(const RtlTlbGeometry& g) { return GPUMEM_CONTRACT_PORTS(GPUMEM_TLB_PORTS); }

RtlContract tlb_contract(const RtlTlbGeometry& g) {
  RtlContract c = make_contract("tlb", kTlbModule, kTlbRtlFile, tlb_port_table(g));
  c.sc_shell = "gpumem::tb::TlbScShell";
  c.sc_shell_header = "tb/tlb/tlb_sc_shell.hpp";
  c.ports_header = "tb/tlb/tlb_ports.hpp";
  c.parameters = {
      {"VA_BITS", std::to_string(g.va_bits), "`address_space.va_bits`"},
      {"SMALL_BITS", std::to_string(g.small_bits), "log2 of `mmu.page_sizes[0]`"},
      {"LARGE_BITS", std::to_string(g.large_bits), "log2 of `mmu.page_sizes[1]`"},
      {"ENTRIES", std::to_string(g.entries), "`mmu.tlb.entries`"},
      {"WAYS", std::to_string(g.ways), "`mmu.tlb.ways`"},
      {"PLRU", g.plru ? "1" : "0", "`mmu.tlb.replacement` (1: plru, 0: lru)"},
      {"NESTED_TAIL", g.nested_tail ? "1" : "0", "`mmu.nested_placement` (1: tail, 0: head)"},
  };
  return c;
}

RtlContract tlb_contract(const Config& cfg) { return tlb_contract(tlb_geometry_of_config(cfg)); }

}  // namespace gpumem::tb
