// What any translator RTL under `gpumem cosim` must be (docs/cosim.md, "The
// port contract"): its ports (the table in translator_ports.hpp) and their
// widths at a geometry, the elaboration parameters that make the geometry,
// and its register port's rules. The scoreboard and the DPI-C library
// (tb/dpi/) answer register writes by those rules.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "params/block_params.hpp"
#include "config/config.hpp"
#include "regs/register_map.hpp"
#include "tb/common/port_table.hpp"
#include "tb/common/rtl_contract.hpp"
#include "tb/translator/translator_ports.hpp"

namespace gpumem::tb {

GPUMEM_PORT_INDICES(TranslatorIn, TranslatorOut, GPUMEM_TRANSLATOR_PORTS)
inline constexpr const char* kTranslatorModule = "gpumem_xor_translator";  // the project's RTL
inline constexpr const char* kTranslatorRtlFile = "rtl/gpumem_xor_translator.sv";

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
// the low byte, as verilator/CMakeLists.txt passes them.
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

// The registers a translator holds; its register port refuses every other
// offset, as a bus decoder would never route them to it. MATRIX_ROW_LO/HI
// have no element where the matrix scheme is not built.
inline constexpr std::array<uint32_t, 5> kRtlTranslatorRegisters{kRegCtrl, kRegTaskScheme, kRegXorVector, kRegMatrixRowLo,
                                                                 kRegMatrixRowHi};

// The words one past the translator's arrays that it does not hold
// (MATRIX_ROW_LO's is MATRIX_ROW_HI[0][0]), each another block's register:
// a decode bound one too loose takes each for task type 0's (the index wraps).
inline constexpr std::array<uint32_t, 3> kWordsPastTranslatorArrays{
    kRegTaskScheme + 4 * kMaxTaskTypes, kRegXorVector + 4 * kMaxTaskTypes * kMaxChannelBits,
    kRegMatrixRowHi + 4 * kMaxTaskTypes * kMaxChannelBits};

// The index in kRtlTranslatorRegisters of the register `def`, or -1.
inline int translator_port_register_index(const RegisterDef* def) {
  for (size_t k = 0; def && k < kRtlTranslatorRegisters.size(); ++k)
    if (def->base == kRtlTranslatorRegisters[k]) return static_cast<int>(k);
  return -1;
}

// The bank as a translator's port answers: TASK_SCHEME refuses a scheme the
// RTL does not build, and XOR_VECTOR (without xor) and MATRIX_ROW (without
// matrix) have no elements.
inline RegisterParams translator_port_register_params(const Config& cfg, const RtlTranslatorGeometry& g) {
  RegisterParams p = register_params(cfg);
  p.xor_scheme = g.builds(Scheme::kXor);
  p.matrix_scheme = g.builds(Scheme::kMatrix);
  if (!g.builds(Scheme::kPrime)) p.prime = 0;
  return p;
}

// The writes the driver's firmware makes to a translator's own registers
// (program_registers, without the other blocks'), as (offset, value).
std::vector<std::pair<uint32_t, uint32_t>> translator_firmware_writes(const Config& cfg);

// Why no translator RTL can run with cfg ("" when one can): it sits after
// the MMU, and its ports and XOR control vectors are as wide as the channel
// and candidate bits (a zero-width parameter is no Verilog).
inline std::string translator_unfit(const Config& cfg) {
  if (cfg.translator.position != TranslatorPosition::kAfterMmu) return "position: the RTL translator sits after the MMU only";
  if (cfg.translator.channel_bits.empty())
    return "channel_bits: the RTL translator maps channel bits, and this config has none (" +
           std::to_string(cfg.memory.channels) + " channel" + (cfg.memory.channels == 1 ? "" : "s") +
           "): co-simulate a power-of-two channel count above 1";
  if (cfg.translator.candidate_bits.empty())
    return "candidate_bits: the RTL translator needs at least one candidate bit (its XOR control vectors are "
           "translator.candidate_bits wide); list the bits the xor scheme may read";
  return "";
}

// What a translator RTL of geometry g cannot check of cfg's own mappings
// ("" when nothing): the task types whose configured scheme it does not
// build, as "task types 0, 3: not checked, schemes ipoly, xor" (a baseline
// by its name).
std::string translator_unchecked(const Config& cfg, const RtlTranslatorGeometry& g);

// "" when the config's translator geometry equals the RTL's elaboration
// parameters, else a message naming both values.
std::string translator_geometry_difference(const Config& cfg, const RtlTranslatorGeometry& rtl);
// `built_in` when it is cfg's geometry; else throws std::invalid_argument
// with the difference.
RtlTranslatorGeometry matching_translator_geometry(const Config& cfg, const RtlTranslatorGeometry& built_in);

// The port table at a geometry, in the RTL's order.
std::vector<RtlContractPort> translator_port_table(const RtlTranslatorGeometry& g);
// The translator's ports and elaboration parameters at a geometry, or for a
// config's.
RtlContract translator_contract(const RtlTranslatorGeometry& g);
RtlContract translator_contract(const Config& cfg, SchemeSet schemes = kAllSchemes);

}  // namespace gpumem::tb
