// One memory channel: a sparse backing store of its share of memory (indexed
// by the channel-local address) and its timing (one access per service_cycles;
// a request starts at the earliest free slot at or after its arrival).
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/ring_buffer.hpp"

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

  // Serves an access at the earliest `service_cycles` slot at or after its
  // arrival that no earlier reservation holds. Arrivals need not come in
  // order: a page-table walk calls at a later cycle than the next request's
  // first access, which must still be served in the gap before it rather
  // than queue behind it. `horizon` is a cycle no later call can arrive
  // before (its request's issue cycle; issue cycles never decrease), so
  // reservations that end by then are forgotten.
  Slot schedule(uint64_t arrival, uint64_t horizon) {
    ++accesses_;
    while (!held_.empty() && held_.front().finish <= horizon) held_.drop_front();
    // Reservations are by start and do not overlap, so their finishes ascend
    // too: those still busy at the arrival are a suffix, from index `k`.
    size_t k = held_.size();
    if (!held_.empty() && held_.back().finish > arrival) {
      size_t lo = 0, hi = held_.size() - 1;
      while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (held_[mid].finish <= arrival) lo = mid + 1;
        else hi = mid;
      }
      k = lo;
    }
    unsigned depth = 1;
    for (size_t d = k; d < held_.size(); ++d) depth += held_[d].arrival <= arrival;
    uint64_t start = arrival;
    while (k < held_.size() && start + service_cycles_ > held_[k].start) start = held_[k++].finish;
    const uint64_t finish = start + service_cycles_;
    held_.insert(k, {arrival, start, finish});
    return {start, finish, depth};
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

  uint64_t accesses() const { return accesses_; }  // data and page-table accesses alike
  size_t reservations_held() const { return held_.size(); }  // not yet forgotten: bounded by the requests in flight

 private:
  struct Reservation {
    uint64_t arrival, start, finish;
  };
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
    if (!slot) slot = std::make_unique<uint8_t[]>(kPageBytes);  // value-initialised: zeros
    return slot.get();
  }

  unsigned service_cycles_;
  uint64_t accesses_ = 0;
  // Reservations by start cycle, non-overlapping; arrivals in order append,
  // so an insert before the back is rare.
  RingBuffer<Reservation> held_{64};
  std::unordered_map<uint64_t, std::unique_ptr<Block>> blocks_;
  uint64_t last_block_key_ = ~uint64_t{0};
  Block* last_block_ = nullptr;
};

}  // namespace gpumem
