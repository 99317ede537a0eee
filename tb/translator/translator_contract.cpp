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

std::string SchemeSet::names() const {
  std::string s;
  for (unsigned v = 0; v < kSchemeNames.size(); ++v)
    if (has(static_cast<Scheme>(v))) s += (s.empty() ? "" : ", ") + std::string(kSchemeNames[v]);
  return s;
}

SchemeSet parse_scheme_list(const std::string& list) {
  SchemeSet set{0};
  size_t from = 0;
  while (true) {
    const size_t comma = list.find(',', from);
    const std::string name = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    unsigned v = 0;
    while (v < kSchemeNames.size() && name != kSchemeNames[v]) ++v;
    if (name.empty()) throw std::invalid_argument("'" + list + "' has an empty name (a comma-separated list such as none,xor,matrix)");
    if (v == kSchemeNames.size())
      throw std::invalid_argument("unknown scheme '" + name + "' (none, xor, prime or matrix; a baseline such as ipoly is a matrix)");
    if (set.has(static_cast<Scheme>(v))) throw std::invalid_argument(name + " is named twice");
    set.bits |= 1u << v;
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (!set.has(Scheme::kNone))
    throw std::invalid_argument("'" + list + "' lacks none, which every translator builds (TASK_SCHEME resets to it, and "
                                "interleave off maps with it)");
  return set;
}

RtlTranslatorGeometry translator_geometry_of_config(const Config& cfg, SchemeSet schemes) {
  const auto& t = cfg.translator;
  return {cfg.memory.address_bits, t.channel_bits, t.candidate_bits, t.prime, cfg.granule_shift(), schemes};
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
  if (rtl.builds(Scheme::kMatrix) && cfg.granule_shift() != rtl.granule_shift)
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
      {"MATRIX", g.builds(Scheme::kMatrix) ? "1" : "0", "1: the matrix scheme (MATRIX_ROW_LO/HI, TASK_SCHEME 3); an RTL that declares no MATRIX is checked without it unless `--schemes` names matrix"},
      {"GRANULE_SHIFT", std::to_string(g.granule_shift), "log2 of the interleave granule (`translator.granule_bytes`, else the lowest channel bit): no matrix row may read below it"},
  };
  // What the register port answers for each scheme, built or not: a
  // refused write raises reg_error_o in its cycle and changes nothing.
  const char* answers[][2] = {
      {"TASK_SCHEME[t] = 0: accepted", ""},
      {"TASK_SCHEME[t] = 1 and XOR_VECTOR[t][j < m]: accepted",
       "TASK_SCHEME[t] = 1 and every XOR_VECTOR write: refused"},
      {"TASK_SCHEME[t] = 2: accepted where `PRIME` is not 0 and the channel bits are contiguous ascending, else refused",
       "TASK_SCHEME[t] = 2: refused"},
      {"MATRIX_ROW_LO/HI[t][j < m]: accepted (staged); TASK_SCHEME[t] = 3: accepted when the staged rows pass the "
       "acceptance rule (docs/register-map.md), else refused",
       "TASK_SCHEME[t] = 3 and every MATRIX_ROW_LO/HI write: refused"},
  };
  c.rules = "| scheme | built (`--schemes`) | the register port answers (refused: `reg_error_o` high, nothing changes) |\n"
            "|---|---|---|\n";
  for (unsigned v = 0; v < kSchemeNames.size(); ++v) {
    const bool built = g.builds(static_cast<Scheme>(v));
    c.rules += std::string("| ") + kSchemeNames[v] + " | " + (built ? "yes" : "no") + " | " + answers[v][built ? 0 : 1] + " |\n";
  }
  return c;
}

RtlContract translator_contract(const Config& cfg, SchemeSet schemes) {
  return translator_contract(translator_geometry_of_config(cfg, schemes));
}

std::vector<std::pair<uint32_t, uint32_t>> translator_firmware_writes(const Config& cfg) {
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  program_registers(firmware_params(cfg), nullptr, [&](uint32_t offset, uint32_t value) {
    if (translator_port_register_index(register_at(offset)) >= 0) writes.emplace_back(offset, value);
    return true;
  });
  return writes;
}

std::string translator_unchecked(const Config& cfg, const RtlTranslatorGeometry& g) {
  std::string tasks, schemes;
  unsigned n = 0;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    if (g.builds(cfg.scheme_of(t))) continue;
    const TaskMapping* m = cfg.task_mapping(t);
    const std::string name = m && !m->baseline.empty() ? m->baseline : scheme_name(cfg.scheme_of(t));
    tasks += (n ? ", " : "") + std::to_string(t);
    schemes += (n ? ", " : "") + name;
    ++n;
  }
  if (n == 0) return "";
  return std::string(n == 1 ? "task type " : "task types ") + tasks + ": not checked, scheme" + (n == 1 ? " " : "s ") + schemes;
}

}  // namespace gpumem::tb
