#include "frontend/sm_issue_order.hpp"

#include <algorithm>
#include <limits>

namespace gpumem {

namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
}

SmIssueOrder::SmIssueOrder(const FrontendParams& params, L1SequenceGenerator& sequence)
    : issue_timing_(params.issue_timing),
      mshr_entries_(params.mshr_entries),
      max_queued_(params.max_queued),
      sequence_(sequence),
      sms_(params.num_sms),
      front_tree_(params.num_sms),
      tick_tree_(params.num_sms) {
  for (SmState& st : sms_) st.warp_wait.resize(size_t{params.blocks_per_sm} * kMaxWarpsPerBlock);
}

void SmIssueOrder::start(uint64_t start_cycle) {
  start_cycle_ = start_cycle;
  for (unsigned s = 0; s < sms_.size(); ++s) refresh(s);
}

uint64_t SmIssueOrder::earliest_issue(unsigned s, uint64_t* mshr_wait, uint64_t* dependency_wait) {
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

uint64_t SmIssueOrder::issue_lower_bound(unsigned s) const {
  // mshr_free(max(tick, next_free)) for every tick: the earliest
  // completion holds an issue back only while all MSHRs are taken, and then
  // only until it.
  const SmState& st = sms_[s];
  const bool full = st.outstanding.size() >= mshr_entries_;
  return std::max(st.next_free, full ? st.outstanding.top() : 0);
}

void SmIssueOrder::refresh(unsigned s) {
  SmState& st = sms_[s];
  foreign_fronts_ -= st.foreign_front;
  st.foreign_front = false;
  if (st.queue.empty()) {
    front_tree_.set(s, kNever);
    tick_tree_.set(s, sequence_.idle_until_kernel_ends(s) ? kNever : issue_lower_bound(s));
    return;
  }
  tick_tree_.set(s, kNever);
  st.front_issue = earliest_issue(s, &st.front_mshr_wait, &st.front_dependency_wait);
  st.foreign_front = st.queue.front().kernel != kernel_;
  foreign_fronts_ += st.foreign_front;
  front_tree_.set(s, st.foreign_front ? kNever : st.front_issue);
}

uint64_t SmIssueOrder::mshr_free(SmState& st, uint64_t c) const {
  // Completions by c have freed their MSHRs (no later issue is earlier).
  while (!st.outstanding.empty() && st.outstanding.top() <= c) st.outstanding.pop();
  return st.outstanding.size() >= mshr_entries_ ? std::max(c, st.outstanding.top()) : c;
}

SmIssueOrder::Next SmIssueOrder::next() {
  for (;;) {
    const Next n = earliest();
    if (n.kind != Next::Kind::kTick) return n;
    tick();
  }
}

SmIssueOrder::Next SmIssueOrder::earliest() {
  unsigned best = 0, ticker = 0;
  uint64_t best_cycle = kNever, tick_cycle = kNever;
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
  if (best_cycle == kNever && tick_cycle == kNever) return {};
  // The earliest event first, the lower SM on a tie.
  bool tick = tick_cycle < best_cycle || (tick_cycle == best_cycle && ticker < best);
  if (tick && best_cycle != kNever && queued_ >= max_queued_) {
    tick = false;
    ++queue_limit_holds_;
  }
  if (tick) return {Next::Kind::kTick, ticker, tick_cycle};
  return {Next::Kind::kIssue, best, best_cycle};
}

void SmIssueOrder::tick() {
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

SmIssueOrder::Issue SmIssueOrder::take(const Next& next) {
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

void SmIssueOrder::issued(const Issue& issue, uint64_t completion) {
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
