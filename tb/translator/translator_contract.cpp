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
  if (!d.empty()) d += "(the built-in RTL has configs/default.yaml's geometry)";
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
  c.parameters = translator_parameters(g);
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

TranslatorBenchParams translator_bench_params(const Config& cfg, const RtlTranslatorGeometry& g) {
  TranslatorBenchParams p{translator_params(cfg), translator_port_register_params(cfg, g), cfg.channel_layout(),
                          translator_firmware_writes(cfg), {}};
  for (unsigned t = 0; t < kMaxTaskTypes; ++t)
    if (const TaskMapping* m = cfg.task_mapping(t)) p.baselines[t] = m->baseline;
  return p;
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
