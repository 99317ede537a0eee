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
    ++accesses_;
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
  uint64_t accesses() const { return accesses_; }  // data and page-table accesses alike
  size_t pages_allocated() const { return pages_allocated_; }

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

  // Two levels: a hash of blocks (each covering kPagesPerBlock pages) and a
  // pointer array inside the block. A channel's working set usually sits in a
  // few blocks, so most accesses skip the hash (whose node chase misses cache).
  struct Block {
    std::unique_ptr<uint8_t[]> pages[1024];
  };
  static constexpr unsigned kPagesPerBlock = 1024;

  Block* find_block(uint64_t block_key, bool create) {
    if (block_key == last_block_key_ && last_block_) return last_block_;
    const auto it = blocks_.find(block_key);
    Block* b = nullptr;
    if (it != blocks_.end()) b = it->second.get();
    else if (create) b = (blocks_[block_key] = std::make_unique<Block>()).get();
    if (b) last_block_key_ = block_key, last_block_ = b;
    return b;
  }
  const uint8_t* find_page(uint64_t local) {
    const uint64_t page = local / kPageBytes;
    const Block* b = find_block(page / kPagesPerBlock, false);
    return b ? b->pages[page % kPagesPerBlock].get() : nullptr;
  }
  uint8_t* page_for_write(uint64_t local) {
    const uint64_t page = local / kPageBytes;
    auto& slot = find_block(page / kPagesPerBlock, true)->pages[page % kPagesPerBlock];
    if (!slot) {
      slot = std::make_unique<uint8_t[]>(kPageBytes);  // value-initialised: zeros
      ++pages_allocated_;
    }
    return slot.get();
  }

  unsigned service_cycles_;
  uint64_t busy_until_ = 0;
  uint64_t accesses_ = 0;
  std::vector<uint64_t> in_flight_ = std::vector<uint64_t>(64);  // ring of finish cycles, power-of-two size
  size_t in_flight_head_ = 0;
  size_t in_flight_count_ = 0;
  std::unordered_map<uint64_t, std::unique_ptr<Block>> blocks_;
  uint64_t last_block_key_ = ~uint64_t{0};
  Block* last_block_ = nullptr;
  size_t pages_allocated_ = 0;
};

}  // namespace gpumem
