#include "tb/translator/translator_contract.hpp"

#include <sstream>
#include <stdexcept>

#include "driver/firmware.hpp"
#include "mmu/pte.hpp"

namespace gpumem::tb {

namespace {
std::string list(const std::vector<unsigned>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
}  // namespace

RtlTranslatorGeometry translator_geometry_of_config(const Config& cfg) {
  const auto& t = cfg.translator;
  return {cfg.memory.address_bits, t.channel_bits, t.candidate_bits, t.prime, cfg.granule_shift(), true};
}

std::string translator_geometry_difference(const Config& cfg, const RtlTranslatorGeometry& rtl) {
  std::ostringstream s;
  const auto& t = cfg.translator;
  if (cfg.memory.address_bits != rtl.address_bits)
    s << "address bits: config memory.address_bits = " << cfg.memory.address_bits << ", RTL ADDRESS_BITS = " << rtl.address_bits << "\n";
  if (t.channel_bits != rtl.channel_bits)
    s << "channel bits: config translator.channel_bits = " << list(t.channel_bits)
      << ", RTL CHANNEL_BITS = " << list(rtl.channel_bits) << "\n";
  if (t.candidate_bits != rtl.candidate_bits)
    s << "candidate bits: config translator.candidate_bits = " << list(t.candidate_bits)
      << ", RTL CANDIDATE_BITS = " << list(rtl.candidate_bits) << "\n";
  if (t.prime != rtl.prime) s << "prime: config translator.prime = " << t.prime << ", RTL PRIME = " << rtl.prime << "\n";
  if (rtl.matrix && cfg.granule_shift() != rtl.granule_shift)
    s << "interleave granule: config " << cfg.granule_bytes() << " bytes (translator.granule_bytes, else the lowest channel bit), "
      << "RTL GRANULE_SHIFT = " << rtl.granule_shift << "\n";
  if (cfg.memory.channels != (1u << rtl.channel_bits.size()))
    s << "channels: config memory.channels = " << cfg.memory.channels << ", RTL 2^CHANNEL_BIT_COUNT = " << (1u << rtl.channel_bits.size())
      << "\n";
  if (const std::string why = translator_unfit(cfg); !why.empty()) s << why << "\n";
  std::string d = s.str();
  if (!d.empty()) d += "(the RTL parameters are set in verilator/CMakeLists.txt, GPUMEM_RTL_TRANSLATOR_*)";
  return d;
}

RtlTranslatorGeometry matching_translator_geometry(const Config& cfg, const RtlTranslatorGeometry& built_in) {
  if (const std::string d = translator_geometry_difference(cfg, built_in); !d.empty())
    throw std::invalid_argument("config and RTL translator differ:\n" + d);
  return built_in;
}

std::vector<RtlContractPort> translator_port_table(const RtlTranslatorGeometry& g) {
  return GPUMEM_CONTRACT_PORTS(GPUMEM_TRANSLATOR_PORTS);
}

RtlContract translator_contract(const RtlTranslatorGeometry& g) {
  RtlContract c =
      make_contract("translator", kTranslatorModule, kTranslatorRtlFile, translator_port_table(g));
  c.sc_shell = "gpumem::tb::TranslatorScShell";
  c.sc_shell_header = "tb/translator/translator_sc_shell.hpp";
  c.ports_header = "tb/translator/translator_ports.hpp";
  c.parameters = {
      {"ADDRESS_BITS", std::to_string(g.address_bits), "`memory.address_bits`"},
      {"CHANNEL_BIT_COUNT", std::to_string(g.channel_bits.size()), "number of `translator.channel_bits`"},
      {"CANDIDATE_BIT_COUNT", std::to_string(g.candidate_bits.size()), "number of `translator.candidate_bits`"},
      {"CHANNEL_BITS", packed_positions(g.channel_bits), "`translator.channel_bits`, 8 bits each, c_0 lowest"},
      {"CANDIDATE_BITS", packed_positions(g.candidate_bits), "`translator.candidate_bits`, 8 bits each, p_0 lowest"},
      {"PRIME", std::to_string(g.prime), "`translator.prime` (0: none)"},
      {"MATRIX", g.matrix ? "1" : "0", "1: the matrix scheme (MATRIX_ROW_LO/HI, TASK_SCHEME 3); an RTL that declares no MATRIX is checked without it"},
      {"GRANULE_SHIFT", std::to_string(g.granule_shift), "log2 of the interleave granule (`translator.granule_bytes`, else the lowest channel bit): no matrix row may read below it"},
  };
  return c;
}

RtlContract translator_contract(const Config& cfg) { return translator_contract(translator_geometry_of_config(cfg)); }

std::vector<std::pair<uint32_t, uint32_t>> translator_firmware_writes(const Config& cfg) {
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  program_registers(firmware_params(cfg), nullptr, [&](uint32_t offset, uint32_t value) {
    if (translator_port_register_index(register_at(offset)) >= 0) writes.emplace_back(offset, value);
    return true;
  });
  return writes;
}

std::string translator_unchecked(const Config& cfg, const RtlTranslatorGeometry& g) {
  if (g.matrix) return "";
  std::string tasks, schemes;
  unsigned n = 0;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    if (cfg.scheme_of(t) != Scheme::kMatrix) continue;
    const TaskMapping* m = cfg.task_mapping(t);
    const std::string name = m && !m->baseline.empty() ? m->baseline : "matrix";
    tasks += (n ? ", " : "") + std::to_string(t);
    schemes += (n ? ", " : "") + name;
    ++n;
  }
  if (n == 0) return "";
  return std::string(n == 1 ? "task type " : "task types ") + tasks + ": not checked, scheme" + (n == 1 ? " " : "s ") + schemes;
}

}  // namespace gpumem::tb
