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
// answered it, reports its completion with issued(). Defined here, inline:
// the SMs' loop calls it for every request and tick (out of line, lt's
// host instructions grew by 2 %).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
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

namespace detail {
inline constexpr uint64_t kNeverIssues = std::numeric_limits<uint64_t>::max();
}  // namespace detail

inline SmIssueOrder::SmIssueOrder(const FrontendParams& params, L1SequenceGenerator& sequence)
    : issue_timing_(params.issue_timing),
      mshr_entries_(params.mshr_entries),
      max_queued_(params.max_queued),
      sequence_(sequence),
      sms_(params.num_sms),
      front_tree_(params.num_sms),
      tick_tree_(params.num_sms) {
  for (SmState& st : sms_) st.warp_wait.resize(size_t{params.blocks_per_sm} * kMaxWarpsPerBlock);
}

inline void SmIssueOrder::start(uint64_t start_cycle) {
  start_cycle_ = start_cycle;
  for (unsigned s = 0; s < sms_.size(); ++s) refresh(s);
}

inline uint64_t SmIssueOrder::earliest_issue(unsigned s, uint64_t* mshr_wait, uint64_t* dependency_wait) {
  SmState& st = sms_[s];
  const L1Request& r = st.queue.front();
  const uint64_t slot = issue_timing_ == IssueTiming::kOrdering ? start_cycle_ + r.slot : 0;
  const uint64_t ordered = std::max(slot, st.next_free);
  uint64_t c = ordered;
  const WarpWait& wait = st.warp_wait[r.warp_slot];
  c = std::max(c, starts_instruction(r) ? std::max(wait.before, wait.current) : wait.before);
  *dependency_wait = c - ordered;
  const uint64_t before_mshr = c;
  c = mshr_free(st, c);
  *mshr_wait = c - before_mshr;
  return c;
}

inline uint64_t SmIssueOrder::issue_lower_bound(unsigned s) const {
  // mshr_free(max(tick, next_free)) for every tick: the earliest
  // completion holds an issue back only while all MSHRs are taken, and then
  // only until it.
  const SmState& st = sms_[s];
  const bool full = st.outstanding.size() >= mshr_entries_;
  return std::max(st.next_free, full ? st.outstanding.top() : 0);
}

inline void SmIssueOrder::refresh(unsigned s) {
  SmState& st = sms_[s];
  foreign_fronts_ -= st.foreign_front;
  st.foreign_front = false;
  if (st.queue.empty()) {
    front_tree_.set(s, detail::kNeverIssues);
    tick_tree_.set(s, sequence_.idle_until_kernel_ends(s) ? detail::kNeverIssues : issue_lower_bound(s));
    return;
  }
  tick_tree_.set(s, detail::kNeverIssues);
  st.front_issue = earliest_issue(s, &st.front_mshr_wait, &st.front_dependency_wait);
  st.foreign_front = st.queue.front().kernel != kernel_;
  foreign_fronts_ += st.foreign_front;
  front_tree_.set(s, st.foreign_front ? detail::kNeverIssues : st.front_issue);
}

inline uint64_t SmIssueOrder::mshr_free(SmState& st, uint64_t c) const {
  // Completions by c have freed their MSHRs (no later issue is earlier).
  while (!st.outstanding.empty() && st.outstanding.top() <= c) st.outstanding.pop();
  return st.outstanding.size() >= mshr_entries_ ? std::max(c, st.outstanding.top()) : c;
}

inline SmIssueOrder::Next SmIssueOrder::next() {
  for (;;) {
    const Next n = earliest();
    if (n.kind != Next::Kind::kTick) return n;
    tick();
  }
}

inline SmIssueOrder::Next SmIssueOrder::earliest() {
  unsigned best = 0, ticker = 0;
  uint64_t best_cycle = detail::kNeverIssues, tick_cycle = detail::kNeverIssues;
  if (queued_this_kernel_ > 0) {
    const EarliestTree::Found f = front_tree_.earliest(std::max(kernel_start_, last_issue_));
    best = static_cast<unsigned>(f.slot);
    best_cycle = f.at;
  } else if (foreign_fronts_ > 0) {
    // The running kernel's requests are all issued: the next kernel's
    // first waits for all of them to complete (once a kernel, so a scan).
    for (unsigned s = 0; s < sms_.size(); ++s) {
      if (!sms_[s].foreign_front) continue;
      const uint64_t c = std::max({sms_[s].front_issue, kernel_done_, last_issue_});
      if (c < best_cycle) {
        best = s;
        best_cycle = c;
      }
    }
  }
  if (!sequence_done_) {
    // An SM with an empty queue: a tick of the ordering may give it a
    // request. It is needed only if that request could issue before the
    // best one known: not for an SM without work until the kernel ends,
    // nor before the SM's own earliest possible issue (its MSHRs full in
    // real time).
    const uint64_t tick_at = issue_timing_ == IssueTiming::kOrdering ? start_cycle_ + sequence_.now() : 0;
    if (sequence_.idle_epoch() != idle_epoch_) {
      idle_epoch_ = sequence_.idle_epoch();
      for (unsigned s = 0; s < sms_.size(); ++s)
        if (sms_[s].queue.empty()) refresh(s);
    }
    const EarliestTree::Found f = tick_tree_.earliest(std::max({tick_at, kernel_start_, last_issue_}));
    ticker = static_cast<unsigned>(f.slot);
    tick_cycle = f.at;
  }
  if (best_cycle == detail::kNeverIssues && tick_cycle == detail::kNeverIssues) return {};
  // The earliest event first, the lower SM on a tie.
  bool tick = tick_cycle < best_cycle || (tick_cycle == best_cycle && ticker < best);
  if (tick && best_cycle != detail::kNeverIssues && queued_ >= max_queued_) {
    tick = false;
    ++queue_limit_holds_;
  }
  if (tick) return {Next::Kind::kTick, ticker, tick_cycle};
  return {Next::Kind::kIssue, best, best_cycle};
}

inline void SmIssueOrder::tick() {
  produced_.clear();
  if (!sequence_.tick(produced_)) sequence_done_ = true;
  for (L1Request& r : produced_) {
    queued_this_kernel_ += r.kernel == kernel_;
    SmState& st = sms_[r.sm];
    st.queue.push_back(std::move(r));
    if (st.queue.size() == 1) refresh(st.queue.back().sm);
  }
  queued_ += produced_.size();
  queued_max_ = std::max(queued_max_, queued_);
}

inline SmIssueOrder::Issue SmIssueOrder::take(const Next& next) {
  SmState& st = sms_[next.sm];
  Issue out{std::move(st.queue.front()), next.cycle, false, st.front_mshr_wait, st.front_dependency_wait};
  st.queue.pop_front();
  // The queues can hold many requests (frontend.max_queued), made long
  // before they issue: the SM's next front, read when it becomes front
  // right after this issue, is fetched now, and the one after it, read
  // at the SM's next issue, a round of the other SMs' issues ahead.
  for (size_t i = 0; i < 2 && i < st.queue.size(); ++i) {
    const char* q = reinterpret_cast<const char*>(&st.queue[i]);
    for (size_t at = 0; at < sizeof(L1Request) + 63; at += 64) __builtin_prefetch(q + at);
  }
  --queued_;
  const L1Request& r = out.request;
  out.new_kernel = r.kernel != kernel_;
  if (out.new_kernel) {
    for (SmState& s : sms_) std::fill(s.warp_wait.begin(), s.warp_wait.end(), WarpWait{});
    kernel_ = r.kernel;
    kernel_start_ = kernel_done_;
    queued_this_kernel_ = 0;
    for (const SmState& other : sms_)
      for (const L1Request& q : other.queue) queued_this_kernel_ += q.kernel == kernel_;
    ++queued_this_kernel_;  // r itself
  }
  --queued_this_kernel_;
  last_issue_ = out.cycle;
  if (st.outstanding.size() >= mshr_entries_) st.outstanding.pop();  // the one whose completion it waited for
  return out;
}

inline void SmIssueOrder::issued(const Issue& issue, uint64_t completion) {
  const L1Request& r = issue.request;
  SmState& st = sms_[r.sm];
  st.outstanding.push(completion);
  st.next_free = issue.cycle + 1;
  WarpWait& w = st.warp_wait[r.warp_slot];
  if (starts_instruction(r)) {
    w.before = std::max(w.before, w.current);
    w.current = 0;
  }
  if (r.access.dependent) w.current = std::max(w.current, completion);
  kernel_done_ = std::max(kernel_done_, completion);
  // Nothing more of this warp: its slot is free for the SM's next warp there.
  if (r.last_of_warp) w = WarpWait{};
  // A new kernel changed every SM's front class and emptied their warp waits.
  if (issue.new_kernel)
    for (unsigned s = 0; s < sms_.size(); ++s) refresh(s);
  else
    refresh(r.sm);
}

}  // namespace gpumem
