// A hash map from 64-bit keys to small values in one array (open
// addressing, linear probing, at most three quarters full): a node map's allocation
// and pointer chase per key cost more than the work around them where a
// map gains an entry for nearly every record read (a page-striding trace's
// pages). Entries are never erased.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/bits.hpp"

namespace gpumem {

template <typename V>
class FlatMap64 {
 public:
  size_t size() const { return size_; }

  // The value under `key` and false, or `value` put under it and true.
  std::pair<V*, bool> try_emplace(uint64_t key, const V& value) {
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    size_t i = home(key) & mask;
    while (used(i)) {
      if (slots_[i].key == key) return {&slots_[i].value, false};
      i = (i + 1) & mask;
    }
    slots_[i] = {key, value};
    used_[i / 64] |= uint64_t{1} << (i % 64);
    ++size_;
    return {&slots_[i].value, true};
  }

 private:
  struct Slot {
    uint64_t key;
    V value;
  };
  // Keys that differ in their low four bits only start in neighbouring
  // slots: a trace walking pages touches a few cache lines, not one per page.
  static size_t home(uint64_t key) { return static_cast<size_t>(splitmix64(key >> 4) << 4 | (key & 15)); }
  // Which slots hold an entry, a bit each: a flag in the slot would pad it.
  bool used(size_t i) const { return (used_[i / 64] >> (i % 64)) & 1; }
  void grow() {
    const size_t slots = slots_.empty() ? 64 : 2 * slots_.size();
    const std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slots));
    const std::vector<uint64_t> old_used = std::exchange(used_, std::vector<uint64_t>(slots / 64));
    size_ = 0;
    for (size_t i = 0; i < old.size(); ++i)
      if ((old_used[i / 64] >> (i % 64)) & 1) try_emplace(old[i].key, old[i].value);
  }

  std::vector<Slot> slots_;
  std::vector<uint64_t> used_;
  size_t size_ = 0;
};

}  // namespace gpumem
