// The stride prefetcher users know (CN109461113A's background; docs/prefetch.md,
// "Stride prefetcher"): a table of the last address, the stride between the
// last two and a confidence counter, per PC and warp (warps interleave, so
// one warp's stream is what has a stride). When the same stride is seen
// `confidence` times in a row, a read at A prefetches the lines of
// A + stride * (distance + k) for k < degree, those in A's page (the
// smallest page size: a prefetcher does not cross into a page the program
// may not have mapped).
#pragma once
#include <cstddef>
#include <cstdint>
#include <list>
#include <unordered_map>

#include "base/prefetch_params.hpp"
#include "prefetch/prefetcher.hpp"

namespace gpumem {


class StridePrefetcher : public Prefetcher {
 public:
  StridePrefetcher(const StrideParams& params, unsigned line_bytes, uint64_t page_bytes);

  void on_demand_read(const DemandRead& read, std::vector<PrefetchRequest>& out) override;
  void on_prefetch_fill(const PrefetchRequest&, uint64_t, const uint8_t*, uint64_t, std::vector<PrefetchRequest>&) override {}

  struct Entry {
    uint64_t last = 0;
    int64_t stride = 0;
    unsigned confidence = 0;
  };
  const Entry* entry(uint64_t pc, uint32_t warp) const;

 private:
  using Key = std::pair<uint64_t, uint32_t>;
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.first * 0x9E3779B97F4A7C15ull ^ k.second); }
  };
  const StrideParams params_;
  unsigned line_bytes_;
  uint64_t page_bytes_;
  std::list<std::pair<Key, Entry>> lru_;  // most recent first; at most params_.table_entries
  std::unordered_map<Key, std::list<std::pair<Key, Entry>>::iterator, KeyHash> index_;
};

}  // namespace gpumem
