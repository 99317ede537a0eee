// A hash map from 64-bit keys to small values in one array (open
// addressing, linear probing, at most three quarters full): a node map's allocation
// and pointer chase per key cost more than the work around them where a
// map gains an entry for nearly every record read (a page-striding trace's
// pages). Entries are never erased.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
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
    if (key == kNoKey) {  // the one key the slots cannot hold
      const bool inserted = !no_key_value_;
      if (inserted) no_key_value_ = std::make_unique<V>(value), ++size_;
      return {no_key_value_.get(), inserted};
    }
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    size_t i = home(key) & mask;
    while (slots_[i].key != kNoKey) {
      if (slots_[i].key == key) return {&slots_[i].value, false};
      i = (i + 1) & mask;
    }
    slots_[i] = {key, value};
    ++size_;
    return {&slots_[i].value, true};
  }

 private:
  // An empty slot's key: a probe reads one cache line, not a slot and a
  // bit of a separate occupancy map.
  static constexpr uint64_t kNoKey = ~uint64_t{0};
  struct Slot {
    uint64_t key = kNoKey;
    V value{};
  };
  // Keys that differ in their low four bits only start in neighbouring
  // slots: a trace walking pages touches a few cache lines, not one per page.
  static size_t home(uint64_t key) { return static_cast<size_t>(splitmix64(key >> 4) << 4 | (key & 15)); }
  void grow() {
    const size_t slots = slots_.empty() ? 64 : 2 * slots_.size();
    const std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slots));
    size_ = no_key_value_ ? 1 : 0;
    for (const Slot& s : old)
      if (s.key != kNoKey) try_emplace(s.key, s.value);
  }

  std::vector<Slot> slots_;
  std::unique_ptr<V> no_key_value_;  // the value under kNoKey, if any
  size_t size_ = 0;
};

}  // namespace gpumem
