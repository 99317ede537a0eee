// Zeroed 4 KB pages for SparseMemory, carved from chunks mapped in one call
// and never returned one by one (a sparse memory only grows). The chunks of
// a shared pool are 2 MiB, aligned and advised as huge pages: a model whose
// channels touch tens of MiB of simulated memory at random then takes one
// page fault and one host TLB entry per 2 MiB instead of per 4 KB
// (docs/performance.md, "What bounds the two ratios"). A memory of its own
// gets small chunks, so a few pages cost a few pages. Not thread-safe: one
// pool serves the memories of one simulation, which one thread runs.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace gpumem {

class PagePool {
 public:
  static constexpr size_t kPageBytes = 4096;
  static constexpr size_t kHugeChunkBytes = size_t{2} << 20;
  static constexpr size_t kSmallChunkBytes = size_t{64} << 10;

  // huge: 2 MiB chunks on 2 MiB boundaries, advised as huge pages (the
  // memories of a whole model); else 64 KiB chunks (one memory's own).
  explicit PagePool(bool huge) : chunk_bytes_(huge ? kHugeChunkBytes : kSmallChunkBytes), huge_(huge) {}
  PagePool(const PagePool&) = delete;
  PagePool& operator=(const PagePool&) = delete;
  ~PagePool() {
    for (const Chunk& c : chunks_) munmap(c.base, c.bytes);
  }

  // A page of zeros (anonymous mappings start zeroed), valid while the pool lives.
  uint8_t* new_page() {
    if (next_ == end_) add_chunk();
    uint8_t* p = next_;
    next_ += kPageBytes;
    return p;
  }

 private:
  struct Chunk {
    void* base;
    size_t bytes;
  };

  void add_chunk() {
    // A huge chunk is cut from a mapping one chunk larger, so that it can
    // start on a chunk boundary; the ends around it are unmapped again.
    const size_t map_bytes = huge_ ? 2 * chunk_bytes_ : chunk_bytes_;
    chunks_.reserve(chunks_.size() + 1);  // no throw between the mapping and its record
    void* m = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    uint8_t* base = static_cast<uint8_t*>(m);
    if (huge_) {
      const uintptr_t at = reinterpret_cast<uintptr_t>(base);
      const uintptr_t aligned = (at + chunk_bytes_ - 1) & ~uintptr_t{chunk_bytes_ - 1};
      const size_t head = aligned - at, tail = map_bytes - head - chunk_bytes_;
      if (head) munmap(base, head);
      if (tail) munmap(reinterpret_cast<uint8_t*>(aligned) + chunk_bytes_, tail);
      base = reinterpret_cast<uint8_t*>(aligned);
      madvise(base, chunk_bytes_, MADV_HUGEPAGE);  // advice only: without huge pages it still works
    }
    chunks_.push_back({base, chunk_bytes_});
    next_ = base;
    end_ = base + chunk_bytes_;
  }

  size_t chunk_bytes_;
  bool huge_;
  std::vector<Chunk> chunks_;
  uint8_t* next_ = nullptr;
  uint8_t* end_ = nullptr;
};

}  // namespace gpumem
