// Which SM issues next, and at which cycle, when the SMs are loosely timed
// (simulation.timing: lt; docs/frontend.md, "Running a per-thread trace"):
// always the request with the earliest issue cycle, the lower SM on a tie,
// so issue cycles never go back (the channels' timing relies on it) and a run
// does not depend on the kernel's process scheduling.
//
// An SM issues its ordered sequence in order, at most one request a cycle,
// no request before its tick in the ordering (issue_timing: ordering), only
// while fewer than mshr_entries of its requests are outstanding, and after
// the completion of the dependent requests its warp waits for. Kernels are a
// barrier: none of the next kernel's requests issues before every request of
// this one has completed. The ordering is ticked only when a tick could give
// a request that issues before the best one known, and not while the queues
// hold max_queued requests (a tick would run the ordering ahead of the SMs
// the memory holds back).
//
// What an SM's next request waits for on its own (its slot, its MSHRs, its
// warp's dependent requests) changes only when that SM issues or gets a new
// queue front, so it is kept per SM in a tree (base/earliest_tree.hpp) and
// recomputed then; what holds all SMs alike (the last issue, the kernel's
// start) is applied when the tree is asked.
//
// Plain C++: the caller (SmArrayTlm, or a test with a memory of its own)
// asks next(), take()s the request it names and, once the memory has
// answered it, reports its completion with issued().
#pragma once
#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

#include "base/earliest_tree.hpp"
#include "frontend/frontend_params.hpp"
#include "frontend/l1_sequence.hpp"

namespace gpumem {

class SmIssueOrder {
 public:
  SmIssueOrder(const FrontendParams& params, L1SequenceGenerator& sequence);

  // The run's first cycle: the ordering's tick t is cycle start + t.
  void start(uint64_t start_cycle);

  struct Next {
    enum class Kind { kDone, kTick, kIssue } kind = Kind::kDone;
    unsigned sm = 0;     // the SM whose queue front issues (for kTick: that may get a request)
    uint64_t cycle = 0;  // at this cycle
  };
  // The next issue, the ordering ticked as far as it needs; kDone when every
  // request has issued.
  Next next();

  struct Issue {
    L1Request request;
    uint64_t cycle = 0;
    bool new_kernel = false;  // the first request of a kernel after the first
    // Cycles it waited for a free MSHR, and for its warp's dependent requests.
    uint64_t mshr_wait = 0, dependency_wait = 0;
  };
  // The front of next's SM, taken off its queue to issue at next's cycle.
  Issue take(const Next& next);
  // The memory answered `issue` at `completion`: frees its issue slot, holds
  // its MSHR until then, and its warp's later requests if it is dependent.
  void issued(const Issue& issue, uint64_t completion);

  // The most requests ordered but not yet issued at once, over all SMs.
  uint64_t queued_max() const { return queued_max_; }
  // Ticks held back because the queues held max_queued requests.
  uint64_t queue_limit_holds() const { return queue_limit_holds_; }

 private:
  // When a warp's next request may issue: the latest completion of the
  // dependent requests of its instructions before the current one, and of the
  // current one's (with ordering each request counts as an instruction).
  struct WarpWait {
    uint64_t before = 0, current = 0;
  };
  struct SmState {
    std::deque<L1Request> queue;
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> outstanding;  // completion cycles
    uint64_t next_free = 0;  // one issue a cycle
    // Each warp's dependent requests, this kernel, by warp slot (zero: none):
    // a slot holds one warp from its first request to its last
    // (L1Request::warp_slot), so a vector indexed by it replaces a map.
    std::vector<WarpWait> warp_wait;
    // earliest_issue() of the queue front, and the waits it counted.
    uint64_t front_issue = 0, front_mshr_wait = 0, front_dependency_wait = 0;
    bool foreign_front = false;  // the front is of a later kernel than kernel_
  };

  // The earliest event: an issue, or a tick of the ordering that may give a
  // request issuing earlier.
  Next earliest();
  // Runs the ordering one tick and queues what it gave.
  void tick();
  uint64_t earliest_issue(unsigned s, uint64_t* mshr_wait, uint64_t* dependency_wait);
  // Whether r starts an instruction for the dependency rule (docs/frontend.md).
  bool starts_instruction(const L1Request& r) const {
    return issue_timing_ == IssueTiming::kOrdering || r.first_of_instruction;
  }
  // No request the ordering gives SM s from its next tick on issues before
  // max(this, the tick's cycle).
  uint64_t issue_lower_bound(unsigned s) const;
  // After SM s issued or its queue changed front: its keys in the trees.
  void refresh(unsigned s);
  // The first cycle from c on with an MSHR of st free.
  uint64_t mshr_free(SmState& st, uint64_t c) const;

  const IssueTiming issue_timing_;
  const unsigned mshr_entries_;
  const uint64_t max_queued_;
  L1SequenceGenerator& sequence_;
  std::vector<SmState> sms_;
  // front_issue of each SM whose queue front is of the running kernel, and
  // issue_lower_bound of each SM with an empty queue.
  EarliestTree front_tree_, tick_tree_;
  unsigned foreign_fronts_ = 0;  // SMs whose front is of a later kernel
  uint64_t idle_epoch_ = 0;      // the ordering's when tick_tree_ was last brought up to date
  uint64_t queued_ = 0, queued_max_ = 0, queue_limit_holds_ = 0;
  // kernel_done: the latest completion so far; kernel_start: that of the
  // kernels before the running one, which holds for all its requests, not
  // only its first.
  uint64_t queued_this_kernel_ = 0, kernel_done_ = 0, kernel_start_ = 0;
  bool sequence_done_ = false;
  // The last issue cycle: no later issue is earlier (a held-back tick's SM
  // issues no earlier than the request issued in its place).
  uint64_t last_issue_ = 0;
  uint32_t kernel_ = 0;
  uint64_t start_cycle_ = 0;
  std::vector<L1Request> produced_;
};

}  // namespace gpumem
