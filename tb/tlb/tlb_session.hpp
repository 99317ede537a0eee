// `gpumem cosim --block tlb`: the CosimSession of both TLB benches (TlbCosim,
// TlbPinCosim), for the verilated variant the config's MMU selects.
#pragma once
#include <cstdint>
#include <memory>

#include "config/config.hpp"
#include "tb/common/cosim_session.hpp"

namespace gpumem::tb {

// Throws std::invalid_argument when no verilated variant has cfg's MMU geometry.
std::unique_ptr<CosimSession> make_tlb_session(const Config& cfg, uint64_t seed, bool pin_level);

}  // namespace gpumem::tb
