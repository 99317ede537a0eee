// What any translator RTL under `gpumem cosim` must do beyond the mapping
// itself (docs/cosim.md, "The port contract"): the register port's rules. The
// scoreboard and the DPI-C library (tb/dpi/) answer register writes by them.
#pragma once
#include <array>
#include <cstdint>

#include "config/block_params.hpp"
#include "config/config.hpp"
#include "regs/register_map.hpp"

namespace gpumem::tb {

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

}  // namespace gpumem::tb
