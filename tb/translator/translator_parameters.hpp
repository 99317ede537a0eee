// The translator RTL's elaboration parameters: its geometry (a config's,
// or read back from a Verilated model) and the -G values that make it. The
// port contract lists them (translator_contract.hpp), and the built-in RTL
// is verilated with configs/default.yaml's (verilator/CMakeLists.txt runs
// verilator/rtl_parameters_bootstrap.cpp over it at configure time), so the
// config, the contract and the build share this one mapping.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "config/config.hpp"
#include "tb/common/rtl_parameter.hpp"

namespace gpumem::tb {

// The schemes a translator RTL implements, a bit per Scheme. none is in
// every set: TASK_SCHEME resets to it and interleave off maps with it.
struct SchemeSet {
  unsigned bits = (1u << kSchemeNames.size()) - 1;  // all
  bool has(Scheme s) const { return (bits >> static_cast<unsigned>(s)) & 1u; }
  SchemeSet without(Scheme s) const { return {bits & ~(1u << static_cast<unsigned>(s))}; }
  bool operator==(const SchemeSet& o) const { return bits == o.bits; }
  std::string names() const;  // "none, xor, matrix"
};
inline constexpr SchemeSet kAllSchemes{};
// `gpumem cosim --schemes`: a comma-separated list of scheme names. Throws
// std::invalid_argument saying what is wrong with it.
SchemeSet parse_scheme_list(const std::string& list);

// The RTL's elaboration parameters: the built-in model's, read back from it
// (translator_driver.hpp), or a config's.
struct RtlTranslatorGeometry {
  unsigned address_bits;
  std::vector<unsigned> channel_bits;    // c_0..c_{M-1}
  std::vector<unsigned> candidate_bits;  // p_0..p_{K-1}
  uint64_t prime;
  unsigned granule_shift;  // log2 of the interleave granule: no matrix row reads below it
  SchemeSet schemes;       // the schemes built: a user's RTL may implement a subset (--schemes)
  bool builds(Scheme s) const { return schemes.has(s); }
};
// From a Verilated model's parameter class, --cc or --sc (the parameters
// are `verilator public`): the positions are packed 8 bits each, entry 0 in
// the low byte, as packed_positions writes them.
template <typename T>
std::vector<unsigned> unpack_positions(T packed, unsigned count) {
  static_assert(std::is_integral_v<T>, "more than 8 positions (a wide parameter) is not supported yet");
  std::vector<unsigned> v;
  for (unsigned i = 0; i < count; ++i) v.push_back(static_cast<unsigned>((uint64_t{packed} >> (8 * i)) & 0xFF));
  return v;
}
template <typename Params>
RtlTranslatorGeometry translator_geometry_of() {
  return {Params::ADDRESS_BITS,
          unpack_positions(Params::CHANNEL_BITS, Params::CHANNEL_BIT_COUNT),
          unpack_positions(Params::CANDIDATE_BITS, Params::CANDIDATE_BIT_COUNT),
          Params::PRIME,
          Params::GRANULE_SHIFT,
          Params::MATRIX != 0 ? kAllSchemes : kAllSchemes.without(Scheme::kMatrix)};
}
// A config's geometry, with the schemes given (the project's RTL builds all).
RtlTranslatorGeometry translator_geometry_of_config(const Config& cfg, SchemeSet schemes = kAllSchemes);
// The -G values that elaborate g, in the RTL's order.
std::vector<RtlContractParameter> translator_parameters(const RtlTranslatorGeometry& g);

}  // namespace gpumem::tb
