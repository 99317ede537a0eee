// A vector that leaves from the front in amortised constant time and keeps
// its elements contiguous, so a scan over them is a plain loop the compiler
// unrolls (a ring's masked index is not): a channel's reservations, which
// leave oldest first and are scanned to find a slot.
#pragma once
#include <cstddef>
#include <vector>

namespace gpumem {

template <typename T>
class SlidingVector {
 public:
  explicit SlidingVector(size_t capacity = 64) { items_.reserve(capacity); }

  size_t size() const { return items_.size() - head_; }
  bool empty() const { return head_ == items_.size(); }
  T& operator[](size_t i) { return items_[head_ + i]; }
  const T& operator[](size_t i) const { return items_[head_ + i]; }
  const T& front() const { return items_[head_]; }
  const T& back() const { return items_.back(); }
  const T* begin() const { return items_.data() + head_; }
  const T* end() const { return items_.data() + items_.size(); }

  void drop_front() {
    if (++head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 64 && 2 * head_ >= items_.size()) {
      // Moved down once the dropped outnumber the kept: each element moves
      // at most once per drop of another, and the capacity is kept.
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  void insert(size_t i, const T& value) { items_.insert(items_.begin() + static_cast<std::ptrdiff_t>(head_ + i), value); }

 private:
  std::vector<T> items_;
  size_t head_ = 0;  // items_[head_] is the first kept
};

}  // namespace gpumem
