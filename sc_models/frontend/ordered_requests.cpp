#include "frontend/ordered_requests.hpp"

namespace gpumem {

OrderedRequests::OrderedRequests(const FrontendParams& params, ThreadTraceSource& source)
    : virtual_addresses_(params.limits.virtual_addresses), sequence_(params, source, instruction_order(params.issue_timing)) {}

bool OrderedRequests::next(Request& r) {
  while (next_ == issued_.size()) {
    issued_.clear();
    next_ = 0;
    if (!sequence_.tick(issued_)) return false;
  }
  const L1Request& q = issued_[next_];
  describe_request(q, virtual_addresses_, r);
  r.id = id_;
  r.cycle = q.slot;
  if (q.access.strided()) {
    r.address = q.access.address + q.access.stride * element_;
    r.size = q.access.width;
    if (++element_ < q.access.elements) return true;
    element_ = 0;
  }
  ++id_;
  ++next_;
  return true;
}

}  // namespace gpumem
