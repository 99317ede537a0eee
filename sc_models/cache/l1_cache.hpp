// The L1 data cache of one SM (docs/cache.md): set-associative, true
// LRU, MSHRs that merge misses to a line in flight, write-through with no
// write-allocate. Plain C++: the TLM shell (tlm_l1_cache.hpp) asks it what
// a request does and sends the line fills; tests drive it directly.
//
// Lines are tagged with the address space they belong to (the process with
// an address space, as the L1 sits before the MMU and holds virtual
// addresses; 0 without one) and their line address. A line is filled when
// its miss is seen (the model reads the data then) but is only *ready* at
// the fill's completion cycle: a read before then merges into the MSHR.
#pragma once
#include <cstdint>
#include <vector>

#include "base/l1_params.hpp"
#include "base/types.hpp"
#include "payload/how.hpp"

namespace gpumem {


struct L1Stats {
  uint64_t reads = 0, hits = 0, misses = 0, mshr_merges = 0;
  uint64_t mshr_full_stalls = 0, mshr_stall_cycles = 0;  // misses that waited for a free MSHR, and how long
  uint64_t fills = 0, evictions = 0;
  uint64_t prefetch_fills = 0, unused_prefetch_evictions = 0;  // prefetched lines evicted before a demand read used them
  uint64_t buffer_hits = 0;  // misses the prefetch buffer answered (they did not go to memory)
  uint64_t writes = 0, write_hits = 0;
  uint64_t bypasses = 0;
  uint64_t invalidations = 0;  // kernel launches that emptied it
  double miss_rate() const { return reads ? static_cast<double>(misses) / static_cast<double>(reads) : 0.0; }
  uint64_t memory_misses() const { return misses - buffer_hits; }  // misses that went to memory
  L1Stats& operator+=(const L1Stats& o);
};

class L1Cache {
 public:
  explicit L1Cache(const L1Params& params);

  unsigned line_bytes() const { return line_bytes_; }
  unsigned mshrs() const { return mshrs_; }
  uint64_t line_of(uint64_t address) const { return address & ~uint64_t{line_bytes_ - 1}; }

  struct Lookup {
    L1Result result = L1Result::kMiss;  // kHit, kMerge or kMiss
    unsigned set = 0, way = 0;          // of the line (hit, merge)
    uint64_t ready = 0;                 // hit, merge: when its data is there
    bool prefetched = false;            // hit, merge: a prefetch brought the line and this is its first use
  };
  // A demand read of the line holding `address` at cycle `now`. A hit or a
  // merge counts as a use (LRU, prefetch usefulness); a miss changes nothing
  // until its fill is installed.
  Lookup read(unsigned space, uint64_t address, uint64_t now);

  // The first cycle at or after `at` with an MSHR free; `now` is the
  // current request's issue cycle (never less than before): fills done by
  // then are forgotten.
  uint64_t mshr_free(uint64_t now, uint64_t at);

  struct Fill {
    unsigned set = 0, way = 0;
    bool evicted = false;
    unsigned victim_space = 0;
    uint64_t victim_line = 0;
    bool victim_unused_prefetch = false;
  };
  // Installs the line holding `address`, its `line_bytes` of data, ready at
  // `ready`; a demand fill takes an MSHR until then, a prefetch does not
  // (its prefetch queue entry is what it holds). The line must be absent
  // (std::logic_error otherwise). The victim is an invalid way, else
  // the least recently used.
  Fill fill(unsigned space, uint64_t address, uint64_t now, uint64_t ready, const uint8_t* data, bool prefetch = false);

  // simulation.timing: at, where the L1's shell keeps the MSHRs (a fill's
  // completion is not known when it goes out). place() installs a line as
  // fill() does without taking an MSHR; a line placed with ready
  // kPendingReady merges every read until set_ready() says when its fill
  // completes (nothing, if the line has been evicted since).
  static constexpr uint64_t kPendingReady = ~uint64_t{0};
  Fill place(unsigned space, uint64_t address, uint64_t ready, const uint8_t* data, bool prefetch = false);
  void set_ready(unsigned space, uint64_t address, uint64_t ready);
  // A placed line whose fill faulted leaves again (if it is still there, pending).
  void drop_pending(unsigned space, uint64_t address);
  // A read that read() counted a miss merged into a fill the shell keeps
  // (l1.allocate: fill), and a miss that waited `cycles` for a free MSHR.
  void count_merge_not_miss() {
    --stats_.misses;
    ++stats_.mshr_merges;
  }
  void count_mshr_stall(uint64_t cycles) {
    ++stats_.mshr_full_stalls;
    stats_.mshr_stall_cycles += cycles;
  }

  // A write through: updates the enabled bytes of a present line (a use);
  // true when the line was there. `enables` may be null (all bytes).
  bool write(unsigned space, uint64_t address, const uint8_t* data, const uint8_t* enables, unsigned length, uint64_t now);
  // The same without counting a write: a strided write's elements, which
  // bypass the L1 and count once in `bypasses`, still update present lines.
  bool update(unsigned space, uint64_t address, const uint8_t* data, const uint8_t* enables, unsigned length, uint64_t now);

  // The `length` bytes at `address` from a present line.
  void copy_out(const Lookup& at, uint64_t address, uint8_t* out, unsigned length) const;

  // Whether the line is present (ready or in flight), without touching LRU.
  bool holds(unsigned space, uint64_t address) const;
  // The line's data and ready cycle (it must be present), and taking it out
  // (a prefetch buffer's line moving into the L1).
  const uint8_t* line_data(const Lookup& at) const { return data_of(at.set, at.way); }
  void drop(const Lookup& at);
  // The line at `at` is being read: no longer an unused prefetch.
  void mark_used(const Lookup& at) { lines_[size_t{at.set} * ways_ + at.way].prefetched = false; }

  // Every line invalid (a kernel launch); the MSHRs stay busy until their fills end.
  void invalidate_all();

  // Ways of set `set` from the most to the least recently used, as line
  // addresses (invalid ways left out): for tests of the LRU order.
  std::vector<uint64_t> lru_order(unsigned set) const;
  unsigned set_of(uint64_t address) const { return static_cast<unsigned>((address / line_bytes_) % sets_); }

  const L1Stats& stats() const { return stats_; }
  L1Stats& stats() { return stats_; }

 private:
  struct Line {
    bool valid = false;
    bool prefetched = false;  // filled by a prefetch, not yet read by a demand
    unsigned space = 0;
    uint64_t line = 0;
    uint64_t ready = 0;
    uint64_t last_use = 0;  // LRU stamp
  };
  Line* find(unsigned space, uint64_t line, unsigned& way);
  const Line* find(unsigned space, uint64_t line, unsigned& way) const;
  uint8_t* data_of(unsigned set, unsigned way) { return &data_[(size_t{set} * ways_ + way) * line_bytes_]; }
  const uint8_t* data_of(unsigned set, unsigned way) const { return &data_[(size_t{set} * ways_ + way) * line_bytes_]; }

  unsigned line_bytes_, sets_, ways_, mshrs_;
  std::vector<Line> lines_;  // set-major
  std::vector<uint8_t> data_;
  uint64_t stamp_ = 0;
  void retire_fills(uint64_t now);  // fills done by `now` (no later request is earlier) free their MSHRs
  std::vector<uint64_t> in_flight_;  // demand fills' ready cycles, at most mshrs of them
  L1Stats stats_;
};

}  // namespace gpumem
