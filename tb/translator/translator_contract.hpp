// What any translator RTL under `gpumem cosim` must be (docs/cosim.md, "The
// port contract"): its ports, and its register port's rules. The scoreboard
// and the DPI-C library (tb/dpi/) answer register writes by those rules.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "params/block_params.hpp"
#include "config/config.hpp"
#include "regs/register_map.hpp"
#include "tb/common/rtl_contract.hpp"
#include "tb/translator/translator_ports.hpp"


namespace gpumem::tb {

#define GPUMEM_PORT_INDEX(port) port,
enum class TranslatorIn : unsigned { GPUMEM_TRANSLATOR_INPUTS(GPUMEM_PORT_INDEX) };
enum class TranslatorOut : unsigned { GPUMEM_TRANSLATOR_OUTPUTS(GPUMEM_PORT_INDEX) };
#undef GPUMEM_PORT_INDEX

// The registers a translator holds; its register port refuses every other
// offset, as a bus decoder would never route them to it.
inline constexpr std::array<uint32_t, 3> kRtlTranslatorRegisters{kRegCtrl, kRegTaskScheme, kRegXorVector};

// The index in kRtlTranslatorRegisters of the register `def`, or -1.
inline int translator_port_register_index(const RegisterDef* def) {
  for (size_t k = 0; def && k < kRtlTranslatorRegisters.size(); ++k)
    if (def->base == kRtlTranslatorRegisters[k]) return static_cast<int>(k);
  return -1;
}

// The bank as a translator's port answers: without the matrix scheme (the
// RTL has none), so MATRIX_ROW is unmapped and TASK_SCHEME refuses 3.
inline RegisterParams translator_port_register_params(const Config& cfg) {
  RegisterParams p = register_params(cfg);
  p.matrix_scheme = false;
  return p;
}

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

// What the RTL translator cannot check of cfg's own mappings ("" when
// nothing): task types whose scheme is matrix or a baseline (the RTL has
// none, xor and prime only), as "task types 0, 3: not checked, schemes
// ipoly, matrix".
std::string translator_unchecked(const Config& cfg);

// The translator's ports and elaboration parameters for a config's geometry.
RtlContract translator_contract(const Config& cfg);

}  // namespace gpumem::tb
