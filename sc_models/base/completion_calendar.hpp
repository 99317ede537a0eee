// The completion cycles of the requests an initiator has in flight, as a
// calendar queue (Brown, 1988): one counter per cycle on a ring of 2^n
// cycles. An initiator retires what has completed by its next issue and,
// when it may have no more in flight, waits for the earliest; both move a
// cursor forward over the ring, where a binary heap pays a sift of log n
// unpredictable branches per request (on a DRAM channel, whose completions
// spread over hundreds of cycles, that was a twentieth of a run).
//
// The ring grows to the span between the earliest and the latest cycle held,
// up to kMaxSpan; a cycle further out, or before the cursor, waits in a heap
// beside it, so any sequence of cycles is kept exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace gpumem {

class CompletionCalendar {
 public:
  static constexpr uint64_t kMaxSpan = uint64_t{1} << 20;  // 4 MiB of counters at most

  explicit CompletionCalendar(uint64_t span = 256) : counts_(round_up(span)), mask_(counts_.size() - 1) {}

  size_t size() const { return held_ + far_.size(); }
  bool empty() const { return size() == 0; }

  void add(uint64_t cycle) {
    if (held_ == 0) {
      cursor_ = latest_ = cycle;
    } else if (cycle < cursor_ || !fits(cycle)) {
      far_.push(cycle);
      return;
    }
    if (cycle > latest_) latest_ = cycle;
    ++counts_[cycle & mask_];
    ++held_;
  }

  // Forgets every cycle at or before `cycle`.
  void retire_through(uint64_t cycle) {
    while (held_ && cursor_ <= cycle) {
      uint32_t& n = counts_[cursor_ & mask_];
      held_ -= n;
      n = 0;
      ++cursor_;
    }
    while (!far_.empty() && far_.top() <= cycle) far_.pop();
  }

  // Removes and returns the earliest cycle held. Not empty.
  uint64_t take_earliest() {
    if (held_) {
      while (!counts_[cursor_ & mask_]) ++cursor_;
      if (far_.empty() || cursor_ <= far_.top()) {
        --counts_[cursor_ & mask_];
        --held_;
        return cursor_;
      }
    }
    const uint64_t c = far_.top();
    far_.pop();
    return c;
  }

 private:
  static size_t round_up(uint64_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
  }
  // Makes room for `cycle` (at or after the cursor) on the ring, growing it
  // within kMaxSpan; false: it stays beyond.
  bool fits(uint64_t cycle) {
    const uint64_t span = cycle - cursor_ + 1;
    if (span <= counts_.size()) return true;
    if (span > kMaxSpan) return false;
    std::vector<uint32_t> wider(round_up(span));
    const size_t wide_mask = wider.size() - 1;
    for (uint64_t c = cursor_; c <= latest_; ++c) wider[c & wide_mask] = counts_[c & mask_];
    counts_.swap(wider);
    mask_ = wide_mask;
    return true;
  }

  std::vector<uint32_t> counts_;  // per cycle mod the ring's size: completions in [cursor_, latest_]
  size_t mask_;
  uint64_t cursor_ = 0;  // no cycle on the ring is earlier
  uint64_t latest_ = 0;  // none is later
  size_t held_ = 0;      // on the ring
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> far_;
};

}  // namespace gpumem
