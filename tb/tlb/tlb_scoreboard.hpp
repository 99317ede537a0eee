// Scoreboard of the TLB co-simulation: every RTL response is compared with
// gpumem::Tlb (sc_models/tlb.hpp), which receives the same operations at the
// same clock edges: result, set, way, physical address, the entry that hit,
// the way a fill wrote and the entry it evicted.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/ring_buffer.hpp"
#include "mmu/tlb.hpp"
#include "tb/tlb/tlb_driver.hpp"

namespace gpumem::tb {

// What the test bench knows about an operation beyond its pins: which
// translation it belongs to and how that translation got here.
struct TlbOpContext {
  uint64_t translation = 0;  // 0-based, in the order translations started
  unsigned attempt = 0;      // lookups of this translation before this one
  unsigned walk_reads = 0;   // page-table reads of the walk that produced a fill
};

struct TlbMismatch {
  uint64_t operation;  // 0-based, in acceptance order
  uint64_t cycle;      // cycle whose rising edge took the response
  uint64_t seed;
  bool fill;
  uint64_t va, pte;
  TlbOpContext context;
  std::vector<TlbEntry> set_before;  // the model's set when the operation was accepted
  std::vector<unsigned> replacement_before;  // LRU ages per way, or PLRU bits per node (1..ways-1)
  bool plru;
  TlbResponse expected, actual;
  std::string report() const;  // model and RTL side by side
};

class TlbScoreboard {
 public:
  TlbScoreboard(const TlbParams& cfg, uint64_t seed);

  // One rising edge (`cycle`, counted from 1 with the reset) with the pins
  // driven before it and the handshakes it resolved: the calls below, in edge order.
  // Both modes call this, so they feed the model alike.
  void edge(const TlbPins& pins, const TlbEdge& e, const TlbOpContext& context, uint64_t cycle);
  // After a reset of the RTL: its response stage is empty.
  void reset_handshake() { rsp_pending_ = false; }

  // Call in edge order: the response taken, then the operation accepted, then
  // a flush of the same edge (the operation sees the state before the flush).
  // Returns false on a mismatch; the first one is kept.
  bool response_taken(const TlbResponse& actual, uint64_t cycle);
  void operation_accepted(const TlbPins& pins, const TlbOpContext& context);
  void flushed(bool operation_in_flight);
  void response_stalled() { ++stalled_cycles; }

  // The model TLB: the test bench reads it (never changes it) to avoid filling
  // a page that is cached already, as the MMU's miss handling guarantees.
  const Tlb& model() const { return model_; }
  bool cached(uint64_t va, bool large) const { return model_.way_holding(va, large) >= 0; }

  const std::optional<TlbMismatch>& first_mismatch() const { return first_mismatch_; }
  uint64_t compared() const { return compared_; }
  uint64_t mismatches() const { return mismatches_; }
  size_t outstanding() const { return pending_.size(); }

  // Functional coverage of the compared operations (model values).
  std::array<uint64_t, 4> per_result{};      // lookups, by TlbResult
  std::array<uint64_t, 2> fills_by_size{};   // [0] small, [1] large
  std::array<uint64_t, 5> large_by_flag{};   // large-entry lookups by nested flag 0000, 0001, 0010, 0100, 1000
  uint64_t large_flagged_outside = 0;        // hit_large with a flag: outside the nested region
  uint64_t large_flagged_inside = 0;         // nested: inside it
  std::array<uint64_t, 16> hits_by_task{};   // hits by the entry's task type
  std::vector<uint64_t> evictions_by_way;    // fills that replaced a valid entry, per way
  uint64_t flushes = 0, flushes_in_flight = 0;
  uint64_t stalled_cycles = 0;               // responses held by back-pressure

 private:
  struct Pending {
    uint64_t operation;
    TlbPins pins;
    TlbOpContext context;
    TlbResponse expected;
    // The set for the report; a slot's vectors are sized once, so no
    // operation allocates.
    std::vector<TlbEntry> set_before;
    std::vector<unsigned> replacement_before;
  };
  void cover_lookup(const TlbResponse& e);

  uint64_t seed_;
  Tlb model_;
  // Operations in flight, oldest first (the TLB holds one; more only if the
  // RTL broke its handshake).
  RingBuffer<Pending> pending_;
  bool rsp_pending_ = false;  // the bench's view: the response stage holds a response
  uint64_t operations_ = 0, compared_ = 0, mismatches_ = 0;
  std::optional<TlbMismatch> first_mismatch_;
};

}  // namespace gpumem::tb
