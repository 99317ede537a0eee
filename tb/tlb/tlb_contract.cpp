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

enum ConfigForm { kPlain, kPowerOfTwo, kReplacement, kPlacement };

// A parameter's value as the config says it.
std::string config_text(ConfigForm form, unsigned value) {
  switch (form) {
    case kPowerOfTwo: return std::to_string(uint64_t{1} << value);
    case kReplacement: return replacement_name(value ? Replacement::kPlru : Replacement::kLru);
    case kPlacement: return value ? "tail" : "head";
    case kPlain: break;
  }
  return std::to_string(value);
}
}  // namespace

std::string tlb_geometry_difference(const Config& cfg, const RtlTlbGeometry& rtl) {
  if (!cfg.has_mmu()) return "the config has no MMU (address_space section): the TLB has nothing to translate";
  const RtlTlbGeometry want = tlb_geometry_of_config(cfg);
  std::ostringstream s;
#define GPUMEM_TLB_DIFFERENCE(name, member, what, key, rtl_name, source, form)                                  \
  if (want.member != rtl.member)                                                                               \
    s << what << ": config " << key << " = " << config_text(form, want.member) << ", RTL " << rtl_name << " = " \
      << (form == kPowerOfTwo ? config_text(form, rtl.member) : std::to_string(rtl.member)) << "\n";
  GPUMEM_TLB_PARAMETERS(GPUMEM_TLB_DIFFERENCE)
#undef GPUMEM_TLB_DIFFERENCE
  std::string d = s.str();
  if (!d.empty()) d += "(the built-in variants have the geometries of configs/default.yaml and configs/examples/tlb-lru.yaml)";
  return d;
}

std::vector<RtlContractPort> tlb_port_table(const RtlTlbGeometry& g) { return GPUMEM_CONTRACT_PORTS(GPUMEM_TLB_PORTS); }

RtlContract tlb_contract(const RtlTlbGeometry& g) {
  RtlContract c = make_contract("tlb", kTlbModule, kTlbRtlFile, tlb_port_table(g));
  c.sc_shell = "gpumem::tb::TlbScShell";
  c.sc_shell_header = "tb/tlb/tlb_sc_shell.hpp";
  c.ports_header = "tb/tlb/tlb_ports.hpp";
  c.parameters = tlb_parameters(g);
  return c;
}

RtlContract tlb_contract(const Config& cfg) { return tlb_contract(tlb_geometry_of_config(cfg)); }

}  // namespace gpumem::tb
