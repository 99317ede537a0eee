// Scoreboard of the TLB co-simulation: every RTL response is compared with
// gpumem::Tlb (sc_models/mmu/tlb.hpp), which receives the same operations at the
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
#include "tb/common/protocol_checker.hpp"
#include "tb/common/toggle_coverage.hpp"
#include "mmu/tlb.hpp"
#include "tb/tlb/tlb_pins.hpp"

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

// The VA bits a TLB entry's tag compares beyond the set index: the small
// VPN's bits below the large page ([small_bits, large_bits)) and every VA bit
// above the set index. A VA that differs from a cached page in one of them
// alone must miss that entry.
std::vector<unsigned> tlb_tag_bits(const TlbParams& tlb, unsigned va_bits);

class TlbScoreboard {
 public:
  TlbScoreboard(const TlbParams& tlb, unsigned va_bits, uint64_t seed);

  // One rising edge (`cycle`, counted from 1 with the reset) with the pins
  // driven before it and the handshakes it resolved: the protocol checker,
  // then the calls below, in edge order. Both modes call this, so they feed
  // the model alike. After a protocol violation nothing more is compared.
  void edge(const TlbPins& pins, const TlbEdge& e, const TlbOpContext& context, uint64_t cycle);
  const std::optional<ProtocolViolation>& protocol_violation() const { return protocol_.violation(); }
  void set_hang_cycles(uint64_t n) { protocol_.set_hang_cycles(n); }
  void set_max_latency(unsigned n) { protocol_.set_max_latency(n); }
  // After a reset of the RTL before traffic: its response stage is empty.
  void reset_handshake() { rsp_pending_ = false; }
  // An edge with rst_ni low in the middle of traffic: the RTL's entries,
  // replacement state and response stage reset, so the model's do and the
  // operations in flight are discarded.
  void reset_edge();
  uint64_t discarded() const { return discarded_; }  // operations lost to resets

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
    Coverage(unsigned ways, const std::vector<unsigned>& tag_bits);
    CoverageGroup lookup = CoverageGroup::named("lookup", kTlbResultNames);
    CoverageGroup fill{"fill", {"small", "large"}};  // by the leaf's page size
    // Leaves a checking walker refuses (page_table_error), filled by the
    // bench's MMU anyway: the TLB's contract covers them (tlb.hpp).
    CoverageGroup malformed_fill{"malformed fill",
                                 {"reserved bits", "flag not one-hot", "small page with flag", "large frame unaligned"}};
    // Large-entry lookups by nested flag: every 4-bit value, one-hot or not.
    CoverageGroup large_entry_flag = flag_group();
    // Lookups of a flagged large page: hit_large outside the nested region, nested inside it.
    CoverageGroup flagged_large_page{"flagged large page", {"outside", "inside"}};
    CoverageGroup hit_task_type = CoverageGroup::indexed("hit task type", kMaxTaskTypes);
    CoverageGroup hit_permission{"hit permission", {"--", "r-", "-w", "rw"}};
    // Hits whose entry's pfn has bit b set: the bits seen are OR-ed into
    // frame_bits per hit and counted into the group when it is read.
    mutable CoverageGroup hit_frame_bit = frame_bit_group();
    uint64_t frame_bits = 0;
    // Lookups whose VA differs from a cached entry of its set in this one tag bit.
    CoverageGroup tag_alias;
    // Lookups whose VPN at one page size is a cached entry's of the other
    // size in its set (what a compare that ignores the entry's page size
    // would hit), by what the lookup found: a small lookup over a large
    // entry (its small VPN the entry's VPN), a large lookup over a small one.
    CoverageGroup size_alias{"size alias",
                             {"small over large, miss", "small over large, hit", "large over small, miss", "large over small, hit"}};
    CoverageGroup evicted_way;  // fills that replaced a valid entry
    CoverageGroup flush{"flush", {"in-flight"}};            // flushes with an operation in flight
    CoverageGroup back_pressure{"back-pressure", {"stalled"}};  // cycles a response was held
    // Resets in the middle of traffic, by what they interrupted.
    CoverageGroup reset{"reset", {"idle", "operation in flight", "response held", "entries cached"}};
    // Crosses (coverage.hpp), without the combinations that cannot happen.
    // Lookups: the translation's first or a later one (after its fill), the
    // result, and the nested flag of the entry that hit (a miss has none: 0000;
    // a nested result's large entry is one-hot; a small entry carries a flag
    // only when the bench filled a malformed leaf, a one-hot one). Ignored
    // too: a nested result again, which needs the small page just filled
    // evicted by another translation before the retry (once in a million on
    // cosim-8-channels.yaml, never on the default): no goal.
    CoverageGroup lookup_cross = CoverageGroup::cross(
        "lookup cross", {{"first", "again"}, {kTlbResultNames.begin(), kTlbResultNames.end()}, {"flag 0000", "one-hot", "not one-hot"}},
        [](const std::vector<size_t>& i) {
          return i[1] == 3 ? i[2] == 0 : i[1] == 2 ? i[0] == 0 && i[2] == 1 : i[1] == 0 ? i[2] < 2 : true;
        });
    // Fills: into a free way or over a valid entry, the leaf's page size and
    // its nested flag (a small leaf's only as the bench malforms it: one-hot).
    CoverageGroup fill_cross = CoverageGroup::cross(
        "fill cross", {{"way free", "valid evicted"}, {"small", "large"}, {"flag 0000", "one-hot", "not one-hot"}},
        [](const std::vector<size_t>& i) { return i[1] == 1 || i[2] < 2; });
    ToggleCoverage toggle;  // every bit of every port (toggle_coverage.hpp)
    std::vector<const CoverageGroup*> groups() const {
      for (size_t b = 0; b < hit_frame_bit.size(); ++b)
        if (((frame_bits >> b) & 1) && hit_frame_bit[b] == 0) hit_frame_bit.hit(b);
      std::vector<const CoverageGroup*> g{&lookup,         &fill,           &malformed_fill, &large_entry_flag,
                                          &flagged_large_page, &hit_task_type, &hit_permission, &hit_frame_bit,
                                          &tag_alias,      &size_alias,     &evicted_way,    &flush,          &back_pressure,
                                          &reset,          &lookup_cross,   &fill_cross};
      for (const CoverageGroup* t : toggle.groups()) g.push_back(t);
      return g;
    }
    static CoverageGroup flag_group();
    static CoverageGroup frame_bit_group();
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
    uint8_t size_alias = 0;  // a lookup's: 1 small over large, 2 large over small (bits)
  };
  void cover_lookup(const TlbResponse& e, uint8_t size_alias);
  void sample_toggles(const TlbPins& pins, const TlbEdge& e);
  // The toggle-coverage ports, by index into coverage_.toggle.
  struct TogglePorts {
    size_t handshake, req_fill, va_lookup, va_fill, pte, response_bits, result, set, way, pa, entry_vpn, entry_pfn,
        entry_flag, entry_task_type;
  };
  void cover_tag_alias(uint64_t va, const std::vector<TlbEntry>& set);
  uint8_t size_alias(uint64_t va, const std::vector<TlbEntry>& set) const;

  uint64_t seed_;
  Tlb model_;
  PageGeometry geo_;
  ProtocolChecker<TlbRequest, TlbResponse> protocol_;
  std::array<int8_t, 64> tag_bin_;  // by VA bit: its tag_alias bin, -1 if not a tag bit
  // Operations in flight, oldest first (the TLB holds one; more only if the
  // RTL broke its handshake).
  RingBuffer<Pending> pending_;
  bool rsp_pending_ = false;  // the bench's view: the response stage holds a response
  bool stalled_ = false;      // the last edge held a response (rsp_valid_o && !rsp_ready_i)
  bool filled_ = false;       // a fill since the last flush or reset
  bool in_reset_ = false;
  uint64_t operations_ = 0, compared_ = 0, mismatches_ = 0, flushes_ = 0, discarded_ = 0;
  Coverage coverage_;
  TogglePorts port_{};
  bool sets_ = false, ways_ = false;  // rsp_set_o / rsp_way_o carry a value (more than one set / way)
  std::optional<TlbMismatch> first_mismatch_;
};

}  // namespace gpumem::tb
