#include "prefetch/stride_prefetcher.hpp"

namespace gpumem {

StridePrefetcher::StridePrefetcher(const StrideParams& params, unsigned line_bytes, uint64_t page_bytes)
    : params_(params), line_bytes_(line_bytes), page_bytes_(page_bytes) {}

const StridePrefetcher::Entry* StridePrefetcher::entry(uint64_t pc, uint32_t warp) const {
  const auto it = index_.find({pc, warp});
  return it == index_.end() ? nullptr : &it->second->second;
}

void StridePrefetcher::on_demand_read(const DemandRead& read, std::vector<PrefetchRequest>& out) {
  const Key key{read.pc, read.warp};
  auto it = index_.find(key);
  if (it == index_.end()) {
    // A new stream: the least recently used entry makes room.
    if (lru_.size() >= params_.table_entries) {
      index_.erase(lru_.back().first);
      lru_.pop_back();
    }
    lru_.emplace_front(key, Entry{read.address, 0, 0});
    index_[key] = lru_.begin();
    return;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  Entry& e = lru_.front().second;
  const int64_t stride = static_cast<int64_t>(read.address - e.last);
  if (stride == e.stride && stride != 0) {
    if (e.confidence < params_.confidence) ++e.confidence;
  } else {
    e.stride = stride;
    e.confidence = 0;
  }
  e.last = read.address;
  if (e.confidence < params_.confidence) return;
  PrefetchRequest p;
  p.cycle = read.completion_cycle;
  p.warp = read.warp;
  uint64_t last_line = ~uint64_t{0};
  for (unsigned k = 0; k < params_.degree; ++k) {
    const uint64_t a = read.address + static_cast<uint64_t>(e.stride * static_cast<int64_t>(params_.distance + k));
    p.address = a & ~uint64_t{line_bytes_ - 1};
    if (a / page_bytes_ != read.address / page_bytes_) break;  // further ones are beyond it too
    if (p.address == last_line) continue;  // a small stride: one line for several
    last_line = p.address;
    out.push_back(p);
  }
}

}  // namespace gpumem
