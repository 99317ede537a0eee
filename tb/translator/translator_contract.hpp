// What any translator RTL under `gpumem cosim` must be (docs/cosim.md, "The
// port contract"): its ports (the table in translator_ports.hpp) and their
// widths at a geometry, the elaboration parameters that make the geometry,
// and its register port's rules. The scoreboard and the DPI-C library
// (tb/dpi/) answer register writes by those rules.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "params/block_params.hpp"
#include "config/config.hpp"
#include "regs/register_map.hpp"
#include "tb/common/port_table.hpp"
#include "tb/common/rtl_contract.hpp"
#include "tb/translator/translator_parameters.hpp"
#include "tb/translator/translator_ports.hpp"

namespace gpumem::tb {

GPUMEM_PORT_INDICES(TranslatorIn, TranslatorOut, GPUMEM_TRANSLATOR_PORTS)
inline constexpr const char* kTranslatorModule = "gpumem_xor_translator";  // the project's RTL
inline constexpr const char* kTranslatorRtlFile = "rtl/gpumem_xor_translator.sv";

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

// What the translator's scoreboard and stimulus are built with: the model's
// parameter structs for a config and an RTL geometry. They know nothing of
// the config; translator_bench_params maps one onto them.
struct TranslatorBenchParams {
  TranslatorParams translator;
  RegisterParams registers;  // the bank as the RTL's register port answers
  ChannelLayout layout;      // the config's: the model's channel decoder
  std::vector<std::pair<uint32_t, uint32_t>> firmware_writes;  // translator_firmware_writes
  std::array<std::string, kMaxTaskTypes> baselines;            // each task type's baseline mapping by name; "" where none
};
TranslatorBenchParams translator_bench_params(const Config& cfg, const RtlTranslatorGeometry& g);

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
