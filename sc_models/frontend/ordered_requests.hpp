// A per-thread trace as one stream of requests: the front end schedules,
// coalesces and orders it (l1_sequence.hpp) with its drawn latencies, and
// each tick's requests follow in SM order, a strided request's elements one
// request each, as gpumem run --threads's observers see them (a write
// without its data: the stream is for addresses). No memory
// system takes part, so the stream is the ordering's, not a run's issue
// order, and the requests an L1 would answer are in it. What gpumem explore
// --threads scores (docs/explorer.md, "gpumem explore").
#pragma once
#include <cstdint>
#include <vector>

#include "frontend/l1_sequence.hpp"
#include "payload/request.hpp"

namespace gpumem {

class OrderedRequests : public RequestSource {
 public:
  // `source` must outlive this. Its instructions are ordered as
  // frontend.issue_timing orders them in a run (instruction_order()).
  OrderedRequests(const FrontendParams& params, ThreadTraceSource& source);
  bool next(Request& r) override;

 private:
  const bool virtual_addresses_;
  L1SequenceGenerator sequence_;
  std::vector<L1Request> issued_;  // the last tick's
  size_t next_ = 0;                // the first of issued_ not handed out whole
  unsigned element_ = 0;           // of issued_[next_] when it is strided
  uint64_t id_ = 0;                // requests handed out, as a run numbers them
};

}  // namespace gpumem
