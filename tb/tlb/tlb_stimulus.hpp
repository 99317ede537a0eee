// The seeded random traffic of a TLB co-simulation run: the rest of the MMU
// around the TLB, one cycle of pins at a time. Translations in flight, each a
// lookup, on a miss or a nested-region hit a walk with the model's walker
// over random page tables, a fill and the lookup again; random back-pressure;
// flushes, half of them with a switch to the other page-table image; resets
// in the middle of traffic. The fast and the pin-level modes both draw their
// pins from it, so one seed is one run in either mode, cycle for cycle.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "base/ring_buffer.hpp"
#include "base/sparse_memory.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "mmu/mmu.hpp"
#include "mmu/page_table.hpp"
#include "tb/common/protocol_checker.hpp"
#include "tb/tlb/tlb_pins.hpp"
#include "tb/tlb/tlb_scoreboard.hpp"

namespace gpumem::tb {

// What the TLB's stimulus is built with: the model's parameter structs
// (tlb_bench_params maps a config onto them; the stimulus never sees it).
struct TlbBenchParams {
  MmuParams mmu;              // the TLB's geometry and its pages, the VA width, a walk's cycles
  AllocatorParams allocator;  // the driver's: random_page_tables replaces its address space
};
TlbBenchParams tlb_bench_params(const Config& cfg);

// Page tables the stimulus draws from: random regions of both page sizes,
// every task type, small regions nested in large pages' VA tails with every
// nested flag, in the config's geometry; built by the model's allocator
// (build_address_space) with nesting on (image 0) and off (image 1), so the
// two images map the same VAs to different frames and flags. Then made
// rougher than the allocator writes them: each image's tables moved to a
// random physical base, every leaf given a random permission combination and
// most a frame number across the whole PFN width, and some leaves malformed
// (every flag that is not one-hot, reserved bits, a small page with a flag,
// an unaligned large frame), which the walker refuses (page_table_error).
// Beside them, size-alias pairs: a large page at VA A and a small page at
// A >> (large_bits - small_bits), whose small VPN is the large page's VPN,
// in the same TLB set: each page's entry is what a compare that ignores an
// entry's page size would take for the other's (CVA6 issue 2952).
struct TlbSizeAlias {
  uint64_t large_va, small_va;
};
struct TlbPageTables {
  std::vector<AddressSpaceImage> images;
  std::vector<SparseMemory> memory;  // per image: its PTEs as the walker reads them
  std::vector<TlbSizeAlias> aliases;
};
TlbPageTables random_page_tables(const TlbBenchParams& base, uint64_t seed);

struct TlbRandomRun {
  uint64_t transactions = 1'000'000;   // translations to finish
  unsigned max_in_flight = 4;          // translations started and not finished
  unsigned start_per_256 = 205;        // a new translation in ~80% of cycles with room
  unsigned rsp_ready_per_256 = 179;    // ~70%: random back-pressure
  unsigned flush_per_65536 = 40;       // ~1 cycle in 1600
  unsigned reset_per_65536 = 16;       // ~1 cycle in 4096 starts a two-cycle reset in the middle of traffic
  uint64_t hang_cycles = kDefaultHangCycles;
  bool stop_at_first_mismatch = true;
};

// What a run's stimulus counted.
struct TlbCounts {
  uint64_t transactions = 0;  // translations finished (translated or faulted)
  uint64_t faults = 0, walks = 0;
  uint64_t image_switches = 0;  // flushes with a switch to the other page-table image
  uint64_t resets = 0;          // in the middle of traffic
  // Malformed leaves the bench's MMU filled although the walker refused them.
  uint64_t malformed_fills = 0;
  TlbCounts& operator+=(const TlbCounts& o) {
    transactions += o.transactions;
    faults += o.faults;
    walks += o.walks;
    image_switches += o.image_switches;
    resets += o.resets;
    malformed_fills += o.malformed_fills;
    return *this;
  }
};

class TlbStimulus {
 public:
  // Reads `scoreboard`'s model TLB (never changes it) in next(): a finished
  // walk whose page another translation filled meanwhile looks up again
  // instead of filling, as an MMU's miss handling does (the TLB never holds a
  // page twice). Translation ids start at `first_id`.
  TlbStimulus(const TlbBenchParams& p, uint64_t seed, const TlbRandomRun& run, const TlbScoreboard& scoreboard,
              uint64_t first_id = 0);
  ~TlbStimulus();
  TlbStimulus(const TlbStimulus&) = delete;
  TlbStimulus& operator=(const TlbStimulus&) = delete;

  // The run's translations have all finished.
  bool done() const { return counts_.transactions >= run_.transactions; }
  // The pins of the next cycle. Call after the scoreboard has seen the edge
  // before: it reads the model's state as that edge left it.
  const TlbPins& next();
  // What the scoreboard records with the operation on the pins.
  const TlbOpContext& context() const { return context_; }
  // The edge that ended the cycle of the last next().
  void observe(const TlbEdge& e);

  const TlbCounts& counts() const { return counts_; }

 private:
  class VaSource;  // where VAs come from (tlb_stimulus.cpp)
  class WalkMemo;  // walks already made
  enum State { kFree, kNeedLookup, kWaitResponse, kWalking, kNeedFill, kStates };
  // One translation of the test bench's MMU, from its first lookup to a hit or a fault.
  struct Translation {
    State state = kFree;
    uint64_t id = 0, va = 0;
    unsigned attempt = 0;    // lookups issued
    uint64_t walk_done = 0;  // kWalking: the edge (count of observe calls) after which the leaf is there
    Pte leaf;
    uint64_t leaf_raw = 0;  // as read: a malformed leaf keeps its reserved bits
    unsigned walk_reads = 0;
  };
  // What a walk gives the test bench's MMU.
  struct Walked {
    bool fault;
    Pte leaf;  // also with a fault when `malformed`
    uint64_t raw;  // the leaf as read
    unsigned reads;
    // The walk reached a valid leaf and refused it (page_table_error): the
    // bench's MMU fills it in one case in two, as an MMU that does not check
    // would, because the TLB's contract (tlb.hpp) covers such entries.
    bool malformed;
  };
  int choose_operation();
  void abandon_all();  // a reset: every translation in flight is lost
  void set_state(size_t slot, State s) {
    in_state_[slots_[slot].state] &= ~(uint64_t{1} << slot);
    in_state_[s] |= uint64_t{1} << slot;
    slots_[slot].state = s;
  }
  const Walked& walk(uint64_t va);  // in the current image

  TlbRandomRun run_;
  const TlbScoreboard& scoreboard_;
  std::mt19937_64 rng_;
  TlbPageTables tables_;
  PageGeometry geo_;
  PageTableWalker walker_;
  unsigned leaf_level_reads_;  // reads of a walk that reached the leaf level
  unsigned walk_level_cycles_;
  std::unique_ptr<VaSource> source_;
  std::unique_ptr<WalkMemo> walked_;
  Walked last_fault_{};  // a faulting walk, not remembered
  unsigned image_ = 0;   // the page-table image the driver has installed

  std::vector<Translation> slots_;  // at most 64
  // The slots in each state, a bit per slot: choosing is a bit scan in slot
  // order, not a loop of unpredictable branches.
  uint64_t in_state_[kStates] = {};
  // Translations whose operation was accepted, oldest first (a translation
  // has one operation at a time, so at most slots_.size()).
  RingBuffer<size_t> in_order_;
  int held_ = -1;  // the translation whose operation is on the pins
  TlbPins pins_;
  TlbOpContext context_;
  uint64_t r_ = 0;      // this cycle's random draw
  uint64_t edges_ = 0;  // observe calls
  unsigned reset_cycles_left_ = 0;
  uint64_t started_ = 0, next_id_;
  TlbCounts counts_;
};

}  // namespace gpumem::tb
