// A FIFO on a ring of 2^n slots that doubles when full, so that a steady
// state allocates nothing: requests in flight in the scoreboards, accepted
// operations in the TLB stimulus, a channel's reservations.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace gpumem {

template <typename T>
class RingBuffer {
 public:
  explicit RingBuffer(size_t capacity = 4) : slots_(round_up(capacity)), mask_(slots_.size() - 1) {}

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // i-th from the oldest.
  T& operator[](size_t i) { return slots_[(head_ + i) & mask()]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & mask()]; }
  T& front() { return (*this)[0]; }
  T& back() { return (*this)[count_ - 1]; }

  // The new last element (reused storage: assign every field).
  T& push_back() {
    grow_if_full();
    return (*this)[count_++];
  }
  void push_back(T value) { push_back() = std::move(value); }
  T pop_front() {
    T value = std::move(front());
    head_ = (head_ + 1) & mask();
    --count_;
    return value;
  }
  void drop_front() {
    head_ = (head_ + 1) & mask();
    --count_;
  }
  // Inserts before the i-th; cheap near the back, where in-order use inserts.
  void insert(size_t i, T value) {
    grow_if_full();
    for (size_t k = count_; k > i; --k) (*this)[k] = std::move((*this)[k - 1]);
    (*this)[i] = std::move(value);
    ++count_;
  }

 private:
  static size_t round_up(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
  }
  size_t mask() const { return mask_; }
  void grow_if_full() {
    if (count_ < slots_.size()) return;
    std::vector<T> bigger(slots_.size() * 2);
    for (size_t i = 0; i < count_; ++i) bigger[i] = std::move((*this)[i]);
    slots_.swap(bigger);
    mask_ = slots_.size() - 1;
    head_ = 0;
  }

  std::vector<T> slots_;
  size_t mask_;  // slots_.size() - 1, kept: every access masks
  size_t head_ = 0, count_ = 0;
};

}  // namespace gpumem
