// `gpumem cosim --block tlb`: the CosimSession of both TLB benches (TlbCosim,
// TlbPinCosim), for the verilated variant the config's MMU selects.
#pragma once
#include <cstdint>
#include <memory>

#include "config/config.hpp"
#include "tb/common/cosim_session.hpp"
#include "tb/common/rtl_library.hpp"

namespace gpumem::tb {

// Throws std::invalid_argument when no verilated variant has cfg's MMU geometry.
// `rtl`: a model verilated at run time (rtl_library.hpp), fast mode only;
// null, the built-in variant of cfg's geometry.
std::unique_ptr<CosimSession> make_tlb_session(const Config& cfg, uint64_t seed, bool pin_level,
                                               const LoadedRtl* rtl = nullptr);

}  // namespace gpumem::tb
