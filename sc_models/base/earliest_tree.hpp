// A key per slot (an SM), kept in a tournament tree of minima, answering
// "which slot can act first": the slot with the smallest max(key, floor),
// the lowest slot on a tie. The floor is what holds every slot alike (the
// last issue, a kernel's start), so a slot's own key changes only when
// something happens to that slot, and the question costs a walk down the
// tree, not a visit to every slot.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace gpumem {

class EarliestTree {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();  // the slot is not a candidate

  explicit EarliestTree(size_t slots) {
    while (leaves_ < slots) leaves_ *= 2;
    min_.assign(2 * leaves_, kNever);
  }

  uint64_t key(size_t slot) const { return min_[leaves_ + slot]; }

  void set(size_t slot, uint64_t key) {
    size_t n = leaves_ + slot;
    if (min_[n] == key) return;
    min_[n] = key;
    for (n /= 2; n > 0; n /= 2) {
      const uint64_t m = std::min(min_[2 * n], min_[2 * n + 1]);
      if (min_[n] == m) break;  // nothing above changes
      min_[n] = m;
    }
  }

  struct Found {
    uint64_t at = kNever;  // max(key, floor); kNever: no slot
    size_t slot = 0;
  };

  // The slot with the smallest max(key, floor), the lowest on a tie: the
  // leftmost slot whose key is at most the best value any slot can have,
  // found in one walk down.
  Found earliest(uint64_t floor) const {
    if (min_[1] == kNever) return {};
    const uint64_t at = std::max(min_[1], floor);
    size_t n = 1;
    while (n < leaves_) n = 2 * n + (min_[2 * n] > at);
    return {at, n - leaves_};
  }

 private:
  size_t leaves_ = 1;
  std::vector<uint64_t> min_;  // 1 the root, n's children 2n and 2n+1, slot i at leaves_ + i
};

}  // namespace gpumem
