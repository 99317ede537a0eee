// Sparse memory: a byte-addressed store that holds only what was written
// (unwritten bytes read as zero), in 4 KB pages found through a two-level
// table. The one sparse memory of the model and the test bench: each
// channel's backing store and the TLB bench's page-table images. The pages
// come from a PagePool: the model's, shared by its channels, or the
// memory's own.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "base/page_pool.hpp"

namespace gpumem {

class SparseMemory {
 public:
  // `pool`: where the pages come from, which must outlive the memory; null,
  // a pool of the memory's own.
  explicit SparseMemory(PagePool* pool = nullptr) : pool_(pool) {}
  SparseMemory(const SparseMemory&) = delete;  // owns its page table (and its own pool)
  SparseMemory& operator=(const SparseMemory&) = delete;
  SparseMemory(SparseMemory&&) = default;
  SparseMemory& operator=(SparseMemory&&) = default;

  void read(uint64_t address, uint8_t* dst, unsigned len) const {
    while (len) {
      const unsigned off = static_cast<unsigned>(address & (kPageBytes - 1));
      const unsigned n = len < kPageBytes - off ? len : kPageBytes - off;
      if (const uint8_t* p = find_page(address)) copy(dst, p + off, n);
      else std::memset(dst, 0, n);  // never written: reads as zero
      address += n, dst += n, len -= n;
    }
  }

  void write(uint64_t address, const uint8_t* src, unsigned len) {
    while (len) {
      const unsigned off = static_cast<unsigned>(address & (kPageBytes - 1));
      const unsigned n = len < kPageBytes - off ? len : kPageBytes - off;
      copy(page_for_write(address) + off, src, n);
      address += n, src += n, len -= n;
    }
  }

  // Starts fetching the host cache lines that hold [address, address + len)
  // when they are stored, so that a read or write issued some work later
  // does not wait for them. No effect on the contents.
  void prefetch(uint64_t address, unsigned len, bool for_write) const {
    const uint8_t* p = find_page(address);
    if (!p) return;
    const unsigned off = static_cast<unsigned>(address & (kPageBytes - 1));
    const unsigned last = std::min(off + (len ? len - 1 : 0), kPageBytes - 1);
    for (unsigned o = off & ~63u; o <= last; o += 64) {
      if (for_write) __builtin_prefetch(p + o, 1);
      else __builtin_prefetch(p + o, 0);
    }
  }

  // A 64-bit word in host byte order (little-endian on the supported hosts),
  // as a page-table entry is stored.
  uint64_t read_u64(uint64_t address) const {
    uint64_t v;
    read(address, reinterpret_cast<uint8_t*>(&v), 8);
    return v;
  }
  void write_u64(uint64_t address, uint64_t value) { write(address, reinterpret_cast<const uint8_t*>(&value), 8); }

  size_t pages() const { return pages_; }  // 4 KB pages written so far

 private:
  static constexpr unsigned kPageBytes = PagePool::kPageBytes;
  static constexpr unsigned kPagesPerBlock = 1024;

  // Fixed-size copies compile to a few vector moves; a variable-length
  // memcpy of 64 bytes costs several times more.
  static void copy(uint8_t* dst, const uint8_t* src, unsigned n) {
    switch (n) {
      case 128: std::memcpy(dst, src, 128); return;
      case 64: std::memcpy(dst, src, 64); return;
      case 32: std::memcpy(dst, src, 32); return;
      case 16: std::memcpy(dst, src, 16); return;
      case 8: std::memcpy(dst, src, 8); return;
      case 4: std::memcpy(dst, src, 4); return;
      default: std::memcpy(dst, src, n);
    }
  }

  // Two levels: a hash of blocks (each covering kPagesPerBlock pages) and a
  // pointer array inside the block. A working set usually sits in a few
  // blocks, so most accesses skip the hash (whose node chase misses cache).
  struct Block {
    uint8_t* pages[kPagesPerBlock] = {};  // in the pool
  };

  Block* find_block(uint64_t block_key, bool create) const {
    if (block_key == last_block_key_ && last_block_) return last_block_;
    const auto it = blocks_.find(block_key);
    Block* b = nullptr;
    if (it != blocks_.end()) b = it->second.get();
    else if (create) b = (blocks_[block_key] = std::make_unique<Block>()).get();
    if (b) last_block_key_ = block_key, last_block_ = b;
    return b;
  }
  const uint8_t* find_page(uint64_t address) const {
    const uint64_t page = address / kPageBytes;
    const Block* b = find_block(page / kPagesPerBlock, false);
    return b ? b->pages[page % kPagesPerBlock] : nullptr;
  }
  uint8_t* page_for_write(uint64_t address) {
    const uint64_t page = address / kPageBytes;
    auto& slot = find_block(page / kPagesPerBlock, true)->pages[page % kPagesPerBlock];
    if (!slot) {
      if (!pool_) {
        own_pool_ = std::make_unique<PagePool>(false);
        pool_ = own_pool_.get();
      }
      slot = pool_->new_page();  // zeros
      ++pages_;
    }
    return slot;
  }

  PagePool* pool_;
  std::unique_ptr<PagePool> own_pool_;  // when no pool was given, made at the first write
  // mutable: a read remembers the last block it found (a cache, not state).
  mutable std::unordered_map<uint64_t, std::unique_ptr<Block>> blocks_;
  mutable uint64_t last_block_key_ = ~uint64_t{0};
  mutable Block* last_block_ = nullptr;
  size_t pages_ = 0;
};

}  // namespace gpumem
