// Pin-level driver of the Verilated nested-page TLB (rtl/gpumem_nested_tlb.sv),
// clocked directly from C++ (the fast co-simulation path: no SystemC kernel).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mmu/tlb.hpp"
#include "tb/common/rtl_abi.h"
#include "tb/common/wave_window.hpp"

namespace gpumem::tb {

// The RTL's elaboration parameters, read back from a Verilated model.
struct RtlTlbGeometry {
  std::string variant;  // "plru" (configs/default.yaml) or "lru" (configs/examples/tlb-lru.yaml)
  unsigned va_bits, small_bits, large_bits, entries, ways;
  bool plru, nested_tail;
};
// Every variant verilated (verilator/CMakeLists.txt, gpumem_verilate_tlb):
// one per replacement policy, so both are proven against the model.
const std::vector<RtlTlbGeometry>& rtl_tlb_variants();
// From a Verilated model's parameter class (the parameters are `verilator public`).
template <typename Params>
RtlTlbGeometry tlb_geometry_of(const char* variant) {
  return {variant,     Params::VA_BITS, Params::SMALL_BITS, Params::LARGE_BITS, Params::ENTRIES,
          Params::WAYS, Params::PLRU != 0, Params::NESTED_TAIL != 0};
}

// Inputs driven for one clock cycle.
struct TlbPins {
  bool reset = false;  // rst_ni low for this cycle (a reset in the middle of traffic); nothing else counts
  bool flush = false;
  bool req_valid = false;
  bool req_fill = false;  // false: lookup
  uint64_t req_va = 0;
  uint64_t req_pte = 0;   // fill: the leaf PTE as the walker read it
  bool rsp_ready = true;
};

// One response, in the model's terms: the RTL's pins are decoded into it and
// the scoreboard computes the expected one from gpumem::Tlb.
struct TlbResponse {
  bool fill = false;
  TlbResult result = TlbResult::kMiss;  // lookups; kMiss for fills
  unsigned set = 0, way = 0;
  uint64_t pa = 0;       // lookup hit_small / hit_large
  bool evicted = false;  // fill
  TlbEntry entry;        // lookup: the entry that hit; fill: the victim when evicted
  bool operator==(const TlbResponse& o) const {
    return fill == o.fill && result == o.result && set == o.set && way == o.way && pa == o.pa && evicted == o.evicted &&
           entry == o.entry;
  }
  bool operator!=(const TlbResponse& o) const { return !(*this == o); }
};

// The entry ports carry no valid bit: a hit, a nested result or an eviction
// shows a valid entry, anything else shows zeros. Both modes decode with it.
inline bool tlb_response_has_entry(const TlbResponse& r) { return r.fill ? r.evicted : r.result != TlbResult::kMiss; }

// The request payload, which must stay stable while the request is stalled.
struct TlbRequest {
  bool fill = false;
  uint64_t va = 0, pte = 0;
  bool operator==(const TlbRequest& o) const { return fill == o.fill && va == o.va && pte == o.pte; }
};
inline TlbRequest tlb_request(const TlbPins& p) { return {p.req_fill, p.req_va, p.req_fill ? p.req_pte : 0}; }
std::string describe(const TlbRequest& r);
std::string describe(const TlbResponse& r);

// What happened at the rising edge that ends the cycle.
struct TlbEdge {
  bool req_ready = false;     // req_ready_o
  bool req_accepted = false;  // req_valid_i && req_ready_o
  bool rsp_valid = false;     // rsp_valid_o
  bool rsp_taken = false;     // rsp_valid_o && rsp_ready_i
  bool rsp_stalled = false;   // rsp_valid_o && !rsp_ready_i
  TlbResponse rsp;            // the response pins, decoded while rsp_valid
};

class TlbDriver {
 public:
  // `variant` is one of rtl_tlb_variants(), or with `rtl` (a model
  // verilated at run time, rtl_library.hpp) the geometry it was verilated
  // for; the flops' initial values are drawn from `seed` (rtl_adapter.hpp).
  TlbDriver(const RtlTlbGeometry& variant, uint64_t seed, const WaveWindow& waves = {},
            const GpumemRtlApi* rtl = nullptr);
  ~TlbDriver();
  TlbDriver(const TlbDriver&) = delete;
  TlbDriver& operator=(const TlbDriver&) = delete;

  // Holds rst_ni low for two cycles; all inputs idle.
  void reset();
  // One cycle: drive `in` with the clock low, sample the handshakes, then the
  // rising edge (entries, replacement state and flush update there).
  TlbEdge cycle(const TlbPins& in);
  uint64_t cycles() const { return cycles_; }
  // An RTL assertion has failed (Verilator printed which, at the waves' time,
  // tb/common/cycle_time.hpp); it does not abort the process, so the
  // co-simulation can report it.
  bool assertion_failed() const;

 private:
  struct Impl;
  template <typename Rtl>
  struct ImplOf;
  std::unique_ptr<Impl> impl_;
  uint64_t cycles_ = 0;  // the harness's count, mirrored: read every cycle
};

}  // namespace gpumem::tb
