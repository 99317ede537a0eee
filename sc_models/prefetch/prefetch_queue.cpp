#include "prefetch/prefetch_queue.hpp"

#include <algorithm>

namespace gpumem {

PrefetchStats& PrefetchStats::operator+=(const PrefetchStats& o) {
  generated += o.generated;
  redundant += o.redundant;
  dropped += o.dropped;
  issued += o.issued;
  faulted += o.faulted;
  useful += o.useful;
  late += o.late;
  for (size_t i = 0; i < issued_by_array.size(); ++i) issued_by_array[i] += o.issued_by_array[i];
  return *this;
}

void PrefetchQueue::retire(uint64_t now) {
  held_.erase(std::remove_if(held_.begin(), held_.end(), [&](const Span& s) { return s.to <= now; }), held_.end());
}

bool PrefetchQueue::has_room(uint64_t cycle) const {
  unsigned busy = 0;
  for (const Span& s : held_) busy += s.from <= cycle && cycle < s.to;
  return busy < entries_;
}

}  // namespace gpumem
