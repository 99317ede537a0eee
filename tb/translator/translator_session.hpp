// `gpumem cosim --block translator`: the CosimSession of both translator
// benches (TranslatorCosim, TranslatorPinCosim).
#pragma once
#include <cstdint>
#include <memory>

#include "config/config.hpp"
#include "tb/common/cosim_session.hpp"
#include "tb/common/rtl_library.hpp"

namespace gpumem::tb {

// Throws std::invalid_argument when cfg's translator is not the RTL's geometry.
// `rtl`: a model verilated at run time (rtl_library.hpp), fast mode only;
// null, the built-in one.
std::unique_ptr<CosimSession> make_translator_session(const Config& cfg, uint64_t seed, bool pin_level,
                                                      const LoadedRtl* rtl = nullptr);

}  // namespace gpumem::tb
