// One memory channel: a sparse backing store of its share of memory (indexed
// by the channel-local address) and its timing (one access per service_cycles,
// a request starts at max(arrival, busy_until)).
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

namespace gpumem {

class ChannelModel {
 public:
  explicit ChannelModel(unsigned service_cycles) : service_cycles_(service_cycles) {}
  ChannelModel(const ChannelModel&) = delete;  // owns its memory
  ChannelModel& operator=(const ChannelModel&) = delete;
  ChannelModel(ChannelModel&&) = default;
  ChannelModel& operator=(ChannelModel&&) = default;

  struct Slot {
    uint64_t start;
    uint64_t finish;
    unsigned depth;  // requests in the channel when this one arrives, itself included
  };

  // Arrivals come in non-decreasing order per channel (one in-order initiator).
  Slot schedule(uint64_t arrival) {
    // FIFO service: finish cycles leave in the order they entered.
    while (in_flight_count_ && in_flight_[in_flight_head_] <= arrival) {
      in_flight_head_ = (in_flight_head_ + 1) & (in_flight_.size() - 1);
      --in_flight_count_;
    }
    const uint64_t start = arrival > busy_until_ ? arrival : busy_until_;
    busy_until_ = start + service_cycles_;
    if (in_flight_count_ == in_flight_.size()) grow_in_flight();
    in_flight_[(in_flight_head_ + in_flight_count_) & (in_flight_.size() - 1)] = busy_until_;
    ++in_flight_count_;
    return {start, busy_until_, static_cast<unsigned>(in_flight_count_)};
  }

  void read(uint64_t local, uint8_t* dst, unsigned len) {
    while (len) {
      const unsigned off = static_cast<unsigned>(local & (kPageBytes - 1));
      const unsigned n = len < kPageBytes - off ? len : kPageBytes - off;
      if (const uint8_t* p = find_page(local)) copy(dst, p + off, n);
      else std::memset(dst, 0, n);  // never written: reads as zero
      local += n, dst += n, len -= n;
    }
  }

  void write(uint64_t local, const uint8_t* src, unsigned len) {
    while (len) {
      const unsigned off = static_cast<unsigned>(local & (kPageBytes - 1));
      const unsigned n = len < kPageBytes - off ? len : kPageBytes - off;
      copy(page_for_write(local) + off, src, n);
      local += n, src += n, len -= n;
    }
  }

  uint64_t busy_until() const { return busy_until_; }
  size_t pages_allocated() const { return pages_.size(); }

 private:
  static constexpr unsigned kPageBytes = 4096;

  // Fixed-size copies compile to a few vector moves; a variable-length
  // memcpy of 64 bytes costs several times more.
  static void copy(uint8_t* dst, const uint8_t* src, unsigned n) {
    switch (n) {
      case 64: std::memcpy(dst, src, 64); return;
      case 32: std::memcpy(dst, src, 32); return;
      case 16: std::memcpy(dst, src, 16); return;
      case 8: std::memcpy(dst, src, 8); return;
      case 4: std::memcpy(dst, src, 4); return;
      default: std::memcpy(dst, src, n);
    }
  }

  void grow_in_flight() {
    std::vector<uint64_t> bigger(in_flight_.size() * 2);
    for (size_t i = 0; i < in_flight_count_; ++i) bigger[i] = in_flight_[(in_flight_head_ + i) & (in_flight_.size() - 1)];
    in_flight_.swap(bigger);
    in_flight_head_ = 0;
  }

  const uint8_t* find_page(uint64_t local) {
    const uint64_t key = local / kPageBytes;
    if (key == last_key_ && last_page_) return last_page_;
    const auto it = pages_.find(key);
    if (it == pages_.end()) return nullptr;
    last_key_ = key, last_page_ = it->second.get();
    return last_page_;
  }
  uint8_t* page_for_write(uint64_t local) {
    const uint64_t key = local / kPageBytes;
    if (key == last_key_ && last_page_) return last_page_;
    auto& slot = pages_[key];
    if (!slot) slot = std::make_unique<uint8_t[]>(kPageBytes);  // value-initialised: zeros
    last_key_ = key, last_page_ = slot.get();
    return last_page_;
  }

  unsigned service_cycles_;
  uint64_t busy_until_ = 0;
  std::vector<uint64_t> in_flight_ = std::vector<uint64_t>(64);  // ring of finish cycles, power-of-two size
  size_t in_flight_head_ = 0;
  size_t in_flight_count_ = 0;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  uint64_t last_key_ = ~uint64_t{0};
  uint8_t* last_page_ = nullptr;
};

}  // namespace gpumem
