// A TLB's pins for one cycle and what its edge did, in the model's terms:
// what the stimulus drives, the benches put on the ports (TlbBlock::drive)
// and sample from them (TlbBlock::sample), and the scoreboard compares.
#pragma once
#include <cstdint>
#include <string>

#include "mmu/tlb.hpp"
#include "tb/common/protocol_checker.hpp"

namespace gpumem::tb {

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
struct TlbEdge : EdgeHandshakes {
  TlbResponse rsp;  // the response pins, decoded while rsp_valid
};

}  // namespace gpumem::tb
