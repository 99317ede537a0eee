// The prefetch queue (docs/prefetch.md, "Queue"): a prefetch holds an entry
// from the cycle it is generated until its line is back. A prefetch
// generated while every entry is held is dropped (the newest goes: the
// older ones are nearer their use). Prefetches are generated with the cycle
// the data behind them came back, which a chain makes later than the
// request being served, so entries are kept as [generated, back) spans.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "prefetch/prefetcher.hpp"

namespace gpumem {

struct PrefetchStats {
  uint64_t generated = 0;   // asked for by the prefetcher
  uint64_t redundant = 0;   // its line already in the L1 or the buffer (there, or on its way)
  uint64_t dropped = 0;     // the queue full at its cycle
  uint64_t issued = 0;      // sent to memory
  uint64_t faulted = 0;     // of them, refused (a fault, an address outside memory): dropped
  uint64_t useful = 0;      // a demand read found its line before it left the cache
  uint64_t late = 0;        // of them, the demand came while the line was still on its way
  std::array<uint64_t, kGraphArrays + 1> issued_by_array{};  // worklist ... visitedlist, then stride (none)
  double accuracy() const { return issued ? static_cast<double>(useful) / static_cast<double>(issued) : 0.0; }
  PrefetchStats& operator+=(const PrefetchStats& o);
};

class PrefetchQueue {
 public:
  explicit PrefetchQueue(unsigned entries) : entries_(entries) {}

  // Entries that ended by `now` (the current demand's issue cycle, never
  // less than before) can hold nothing later: forgotten.
  void retire(uint64_t now);
  // Whether an entry is free at `cycle`.
  bool has_room(uint64_t cycle) const;
  // A prefetch takes an entry from `cycle` until `back`.
  void hold(uint64_t cycle, uint64_t back) { held_.push_back({cycle, back}); }
  size_t held() const { return held_.size(); }

 private:
  struct Span {
    uint64_t from, to;
  };
  unsigned entries_;
  std::vector<Span> held_;
};

}  // namespace gpumem
