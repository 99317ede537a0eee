#include "base/types.hpp"

namespace gpumem {

const char* replacement_name(Replacement r) { return r == Replacement::kLru ? "lru" : "plru"; }

const char* prefetch_kind_name(PrefetchKind k) {
  switch (k) {
    case PrefetchKind::kNone: return "none";
    case PrefetchKind::kStride: return "stride";
    case PrefetchKind::kBfs: return "bfs";
  }
  return "none";
}

}  // namespace gpumem
