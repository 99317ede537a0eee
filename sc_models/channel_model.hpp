// One memory channel: a sparse backing store of its share of memory (indexed
// by the channel-local address) and its timing (one access per service_cycles,
// a request starts at max(arrival, busy_until)).
#pragma once
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <unordered_map>

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
    while (!in_flight_.empty() && in_flight_.front() <= arrival) in_flight_.pop_front();
    const uint64_t start = arrival > busy_until_ ? arrival : busy_until_;
    busy_until_ = start + service_cycles_;
    in_flight_.push_back(busy_until_);
    const unsigned depth = static_cast<unsigned>(in_flight_.size());
    return {start, busy_until_, depth};
  }

  void read(uint64_t local, uint8_t* dst, unsigned len) {
    while (len) {
      const unsigned off = static_cast<unsigned>(local & (kPageBytes - 1));
      const unsigned n = len < kPageBytes - off ? len : kPageBytes - off;
      if (const uint8_t* p = find_page(local)) std::memcpy(dst, p + off, n);
      else std::memset(dst, 0, n);  // never written: reads as zero
      local += n, dst += n, len -= n;
    }
  }

  void write(uint64_t local, const uint8_t* src, unsigned len) {
    while (len) {
      const unsigned off = static_cast<unsigned>(local & (kPageBytes - 1));
      const unsigned n = len < kPageBytes - off ? len : kPageBytes - off;
      std::memcpy(page_for_write(local) + off, src, n);
      local += n, src += n, len -= n;
    }
  }

  uint64_t busy_until() const { return busy_until_; }
  size_t pages_allocated() const { return pages_.size(); }

 private:
  static constexpr unsigned kPageBytes = 4096;

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
  std::deque<uint64_t> in_flight_;  // finish cycles of requests not yet done
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  uint64_t last_key_ = ~uint64_t{0};
  uint8_t* last_page_ = nullptr;
};

}  // namespace gpumem
