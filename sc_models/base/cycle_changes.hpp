// Changes to a count, given at their cycles in any order from a bound on,
// summed per cycle and visited in cycle order once no change before a
// cycle can still come. Each change costs a few instructions and no
// sorting: it waits in a ring of cycles (a bit per cycle marks those that
// hold one), which grows to the furthest change given ahead, up to a
// bound; one further still waits in a heap until the ring reaches it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpumem {

class CycleChanges {
 public:
  // `max_slots`: the most cycles the ring grows to (a power of two, at least 64).
  explicit CycleChanges(uint64_t max_slots = uint64_t{1} << 16) : max_slots_(max_slots) { resize(1024); }

  // No change before this cycle may come: the last visit's bound.
  uint64_t bound() const { return base_; }

  // A change at `cycle`, which must not be before bound() (std::logic_error).
  void add(uint64_t cycle, int64_t delta) {
    if (cycle - base_ > mask_) return add_far(cycle, delta);
    put(cycle, delta);
  }

  // visit(cycle, sum) for each cycle before `bound` with changes, in cycle
  // order, then forgets them: no change before `bound` may come after.
  template <typename Visit>
  void visit_before(uint64_t bound, Visit&& visit) {
    while (base_ < bound) {
      if (held_ == 0) {  // nothing in the ring: jump to the next change held apart
        if (far_.empty() || far_.top().cycle >= bound) {
          base_ = bound;
          return;
        }
        base_ = far_.top().cycle;
      }
      while (!far_.empty() && far_.top().cycle - base_ <= mask_) {  // within the ring now
        put(far_.top().cycle, far_.top().delta);
        far_.pop();
      }
      const uint64_t end = std::min(bound, base_ + mask_ + 1);
      visit_ring(end, visit);
      base_ = end;
    }
  }

 private:
  struct Far {
    uint64_t cycle;
    int64_t delta;
    bool operator>(const Far& o) const { return cycle > o.cycle; }
  };

  void put(uint64_t cycle, int64_t delta) {
    const uint64_t slot = cycle & mask_;
    uint64_t& word = marked_[slot >> 6];
    const uint64_t bit = uint64_t{1} << (slot & 63);
    if (!(word & bit)) {
      word |= bit;
      ++held_;
    }
    sums_[slot] += delta;
  }

  void add_far(uint64_t cycle, int64_t delta) {
    if (cycle < base_)
      throw std::logic_error("a change at cycle " + std::to_string(cycle) + " after the cycles before " +
                             std::to_string(base_) + " were visited");
    uint64_t slots = mask_ + 1;
    while (cycle - base_ >= slots && slots < max_slots_) slots *= 2;
    if (slots != mask_ + 1 && cycle - base_ < slots) {  // a change further still costs no ring
      // Every cycle held moves to its slot in the larger ring.
      std::vector<int64_t> sums = std::move(sums_);
      std::vector<uint64_t> marked = std::move(marked_);
      const uint64_t old_mask = mask_;
      resize(slots);
      held_ = 0;
      for (uint64_t w = 0; w < marked.size(); ++w)
        for (uint64_t bits = marked[w]; bits; bits &= bits - 1) {
          const uint64_t slot = w * 64 + uint64_t(__builtin_ctzll(bits));
          put(base_ + ((slot - base_) & old_mask), sums[slot]);
        }
    }
    if (cycle - base_ <= mask_) put(cycle, delta);
    else far_.push({cycle, delta});
  }

  // The cycles from base_ to `end` (within one ring's length), a word of marks at a time.
  template <typename Visit>
  void visit_ring(uint64_t end, Visit& visit) {
    for (uint64_t cycle = base_; cycle < end && held_;) {
      const uint64_t slot = cycle & mask_;
      const uint64_t first = slot & 63;
      const uint64_t n = std::min<uint64_t>(64 - first, end - cycle);
      uint64_t& word = marked_[slot >> 6];
      const uint64_t range = (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << first;
      for (uint64_t bits = word & range; bits; bits &= bits - 1) {
        const uint64_t s = (slot & ~uint64_t{63}) + uint64_t(__builtin_ctzll(bits));
        visit(cycle - first + (s & 63), sums_[s]);
        sums_[s] = 0;
        --held_;
      }
      word &= ~range;
      cycle += n;
    }
  }

  void resize(uint64_t slots) {
    mask_ = slots - 1;
    sums_.assign(slots, 0);
    marked_.assign(slots / 64, 0);
  }

  uint64_t max_slots_;
  uint64_t base_ = 0;  // no change before it is held; the ring holds cycles base_ to base_ + mask_
  uint64_t mask_ = 0;
  uint64_t held_ = 0;  // cycles marked in the ring
  std::vector<int64_t> sums_;     // per slot: the changes at its cycle
  std::vector<uint64_t> marked_;  // a bit per slot holding a change
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
};

}  // namespace gpumem
