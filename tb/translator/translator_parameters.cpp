#include "tb/translator/translator_parameters.hpp"

#include <stdexcept>

namespace gpumem::tb {

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

std::vector<RtlContractParameter> translator_parameters(const RtlTranslatorGeometry& g) {
  return {
      {"ADDRESS_BITS", std::to_string(g.address_bits), "`memory.address_bits`"},
      {"CHANNEL_BIT_COUNT", std::to_string(g.channel_bits.size()), "number of `translator.channel_bits`"},
      {"CANDIDATE_BIT_COUNT", std::to_string(g.candidate_bits.size()), "number of `translator.candidate_bits`"},
      {"CHANNEL_BITS", packed_positions(g.channel_bits), "`translator.channel_bits`, 8 bits each, c_0 lowest"},
      {"CANDIDATE_BITS", packed_positions(g.candidate_bits), "`translator.candidate_bits`, 8 bits each, p_0 lowest"},
      {"PRIME", std::to_string(g.prime), "`translator.prime` (0: none)"},
      {"MATRIX", g.builds(Scheme::kMatrix) ? "1" : "0", "1: the matrix scheme (MATRIX_ROW_LO/HI, TASK_SCHEME 3); an RTL that declares no MATRIX is checked without it unless `--schemes` names matrix"},
      {"GRANULE_SHIFT", std::to_string(g.granule_shift), "log2 of the interleave granule (`translator.granule_bytes`, else the lowest channel bit): no matrix row may read below it"},
  };
}

}  // namespace gpumem::tb
