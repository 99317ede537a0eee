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
#include "tb/common/coverage.hpp"
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
  void response_stalled() { coverage_.back_pressure.hit(0); }

  // The model TLB: the test bench reads it (never changes it) to avoid filling
  // a page that is cached already, as the MMU's miss handling guarantees.
  const Tlb& model() const { return model_; }
  bool cached(uint64_t va, bool large) const { return model_.way_holding(va, large) >= 0; }

  const std::optional<TlbMismatch>& first_mismatch() const { return first_mismatch_; }
  uint64_t compared() const { return compared_; }
  uint64_t mismatches() const { return mismatches_; }
  size_t outstanding() const { return pending_.size(); }

  // Functional coverage of the compared operations (model values).
  struct Coverage {
    explicit Coverage(unsigned ways) : evicted_way(CoverageGroup::indexed("evicted way", ways)) {}
    CoverageGroup lookup = CoverageGroup::named("lookup", kTlbResultNames);
    CoverageGroup fill{"fill", {"small", "large"}};  // by the leaf's page size
    // Large-entry lookups by nested flag: none, then each one-hot flag.
    CoverageGroup large_entry_flag{"large-entry flag", {"0000", "0001", "0010", "0100", "1000"}};
    // Lookups of a flagged large page: hit_large outside the nested region, nested inside it.
    CoverageGroup flagged_large_page{"flagged large page", {"outside", "inside"}};
    CoverageGroup hit_task_type = CoverageGroup::indexed("hit task type", kMaxTaskTypes);
    CoverageGroup evicted_way;  // fills that replaced a valid entry
    CoverageGroup flush{"flush", {"in-flight"}};            // flushes with an operation in flight
    CoverageGroup back_pressure{"back-pressure", {"stalled"}};  // cycles a response was held
    std::vector<const CoverageGroup*> groups() const {
      return {&lookup, &fill, &large_entry_flag, &flagged_large_page, &hit_task_type, &evicted_way, &flush,
              &back_pressure};
    }
  };
  const Coverage& coverage() const { return coverage_; }
  uint64_t flushes() const { return flushes_; }

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
  uint64_t operations_ = 0, compared_ = 0, mismatches_ = 0, flushes_ = 0;
  Coverage coverage_;
  std::optional<TlbMismatch> first_mismatch_;
};

}  // namespace gpumem::tb
