#include "frontend/sm_array.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "base/stop_request.hpp"
#include "payload/issue_clock.hpp"
#include "payload/strided.hpp"

namespace gpumem {

namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
}

SmArrayTlm::SmArrayTlm(sc_core::sc_module_name name, const FrontendParams& params, L1SequenceGenerator& sequence, const Clock& clock)
    : sc_module(name),
      fe_(params),
      sequence_(sequence),
      clock_(clock),
      order_(params, sequence),
      warp_run_(params.num_sms, std::vector<WarpAccumulator>(size_t{params.blocks_per_sm} * kMaxWarpsPerBlock)),
      stats_(params.num_sms) {
  for (unsigned s = 0; s < params.num_sms; ++s) {
    sm.push_back(std::make_unique<tlm_utils::simple_initiator_socket<SmArrayTlm>>(("sm" + std::to_string(s)).c_str()));
    if (params.timing == TimingMode::kAt) sm.back()->register_nb_transport_bw(this, &SmArrayTlm::nb_transport_bw);
  }
  SC_HAS_PROCESS(SmArrayTlm);
  SC_THREAD(run);
}

void SmArrayTlm::run() {
  if (start_after_) wait(*start_after_);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    if (fe_.timing == TimingMode::kAt) issue_all_at();
    else issue_all();
  } catch (...) {
    failure_ = std::current_exception();
  }
  close_kernel();
  wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void SmArrayTlm::retire_warp(const WarpAccumulator& acc) {
  const double mean = static_cast<double>(acc.latency_sum) / acc.requests;
  WarpRunSummary& w = warp_summary_;
  w.requests_min = w.warps ? std::min(w.requests_min, acc.requests) : acc.requests;
  w.requests_max = std::max(w.requests_max, acc.requests);
  w.requests_total += acc.requests;
  w.mean_latency_min = w.warps ? std::min(w.mean_latency_min, mean) : mean;
  w.mean_latency_max = std::max(w.mean_latency_max, mean);
  latency_mean_sum_ += mean;
  ++w.warps;
}

void SmArrayTlm::close_kernel() {
  // Warps whose last request has not issued: only when a run stops early.
  for (std::vector<WarpAccumulator>& sm_warps : warp_run_)
    for (WarpAccumulator& acc : sm_warps)
      if (acc.requests) {
        retire_warp(acc);
        acc = WarpAccumulator{};
      }
}

WarpRunSummary SmArrayTlm::warp_summary() const {
  WarpRunSummary w = warp_summary_;
  w.mean_latency_mean = w.warps ? latency_mean_sum_ / w.warps : 0;
  return w;
}

void SmArrayTlm::prepare(const L1Request& r, uint64_t issue, uint64_t id, RequestPayload& payload, Request& req,
                         unsigned char* data, unsigned char* enables, StridedExtension& strided) const {
  tlm::tlm_generic_payload& trans = payload.trans;
  RequestExtension& ext = payload.ext;
  const CoalescedAccess& a = r.access;
  describe_request(r, fe_.limits.virtual_addresses, req);
  req.id = id;
  req.cycle = issue - start_cycle_;
  RequestInfo who;
  who.id = req.id;
  who.task_type = req.task_type;
  who.process = req.process;
  who.issue_cycle = issue;
  who.warp = r.warp;
  who.pc = a.pc;
  payload.begin(a.op == Op::kWrite ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, a.base(), data, a.bytes(), who, issue);
  ext.how.task_type = req.task_type;
  if (a.strided()) {
    // Whole elements, packed in element order.
    for (const WritePiece& p : a.writes)
      for (unsigned i = 0; i < p.width; ++i) data[p.offset + i] = static_cast<unsigned char>(p.value >> (8 * (i % 8)));
    strided.start({a.address, a.stride, a.elements, a.width}, ext.how);
    trans.set_extension(&strided);
  } else if (a.op == Op::kWrite) {
    // Only the bytes its threads wrote: byte enables for the rest.
    std::fill_n(enables, a.width, static_cast<unsigned char>(TLM_BYTE_DISABLED));
    for (const WritePiece& p : a.writes)
      for (unsigned i = 0; i < p.width; ++i) {
        data[p.offset + i] = static_cast<unsigned char>(p.value >> (8 * (i % 8)));
        enables[p.offset + i] = TLM_BYTE_ENABLED;
      }
    trans.set_byte_enable_ptr(enables);
    trans.set_byte_enable_length(a.width);
  }
}

void SmArrayTlm::account(const L1Request& r, const Request& req, How& how, const unsigned char* data, const unsigned char* enables,
                         StridedExtension& strided, uint64_t issue, uint64_t completion) {
  const CoalescedAccess& a = r.access;
  SmRunStats& ss = stats_[r.sm];
  ++ss.requests;
  ++(a.op == Op::kWrite ? ss.writes : ss.reads);
  ss.bytes += a.bytes();
  ss.faults += how.fault != FaultReason::kNone;
  ss.thread_accesses += a.threads;
  ss.latency_sum += completion - issue;
  ss.latency_max = std::max(ss.latency_max, completion - issue);
  ss.first_issue = std::min(ss.first_issue, issue);
  ss.last_completion = std::max(ss.last_completion, completion);
  if (a.strided()) {
    strided_stats_.requests += 1;
    strided_stats_.elements += a.elements;
    strided_stats_.line_requests += a.line_requests;
    strided_stats_.messages += strided.messages;
    strided_stats_.accesses += strided.accesses;
    // Observers see each element as the request it stands for: its own
    // address, size, data and how, the strided request's id and times.
    Request element = req;
    element.size = a.width;
    for (unsigned i = 0; i < a.elements; ++i) {
      element.address = strided.shape.element_address(i);
      How& e = strided.element[i];
      e.cycle = completion;
      const Completion c{element, e, data + i * a.width, issue, completion};
      for (CompletionObserver* o : observers_) o->on_completion(c);
    }
  } else {
    const Completion c{req, how, data, issue, completion, a.op == Op::kWrite ? enables : nullptr};
    for (CompletionObserver* o : observers_) o->on_completion(c);
  }
  ++done_;
}

void SmArrayTlm::issue_all() {
  IssueClock clock(clock_, fe_.quantum_cycles);
  RequestPayload payload;
  tlm::tlm_generic_payload& trans = payload.trans;
  RequestExtension& ext = payload.ext;
  std::vector<unsigned char> data(std::max(fe_.line_bytes, kMaxStridedElements * kMaxElementBytes)),
      enables(fe_.line_bytes);
  StridedExtension strided;  // on the payload for a strided request only
  // Takes it off at the end, also when the path throws: the payload would free it.
  struct Detach {
    tlm::tlm_generic_payload& t;
    ~Detach() { t.clear_extension<StridedExtension>(); }
  } detach{trans};
  start_cycle_ = clock.start_cycle();
  order_.start(start_cycle_);
  Request req;

  // A stop (SIGINT, SIGTERM) ends the run before the next request, not when
  // the trace reader next refills: the blocks already read hold seconds of
  // requests. lt answers each request within its b_transport, so nothing is
  // left in flight.
  while (!stop_requested()) {
    const SmIssueOrder::Next next = order_.next();
    if (next.kind == SmIssueOrder::Next::Kind::kDone) break;
    const SmIssueOrder::Issue issue = order_.take(next);
    const L1Request& r = issue.request;
    if (issue.new_kernel) {
      close_kernel();
      if (on_kernel_start_) on_kernel_start_();
    }
    sc_core::sc_time delay = clock.advance_to(issue.cycle);
    prepare(r, issue.cycle, done_, payload, req, data.data(), enables.data(), strided);
    (*sm[next.sm])->b_transport(trans, delay);
    trans.clear_extension<StridedExtension>();
    if (!trans.is_response_ok() && ext.how.fault == FaultReason::kNone)
      throw std::runtime_error(response_error("SM " + std::to_string(next.sm) + " ", req.id, req.address, trans));
    const uint64_t completion = ext.how.cycle;
    stats_[next.sm].mshr_wait_cycles += issue.mshr_wait;
    stats_[next.sm].dependency_wait_cycles += issue.dependency_wait;
    order_.issued(issue, completion);

    WarpAccumulator& acc = warp_run_[next.sm][r.warp_slot];
    ++acc.requests;
    acc.latency_sum += completion - issue.cycle;
    if (r.last_of_warp) {
      retire_warp(acc);
      acc = WarpAccumulator{};
    }
    account(r, req, ext.how, data.data(), enables.data(), strided, issue.cycle, completion);
  }
  clock.sync();
}

SmArrayTlm::InFlight::InFlight()
    : data(std::max(kMaxRequestBytes, kMaxStridedElements * kMaxElementBytes)), enables(kMaxRequestBytes) {}

void SmArrayTlm::send(L1Request&& r, uint64_t now) {
  InFlight& f = slots_.take();
  const unsigned s = r.sm;
  if (r.kernel != kernel_) {  // the generator starts a kernel only when the last one's requests are all answered
    close_kernel();
    if (on_kernel_start_) on_kernel_start_();
    kernel_ = r.kernel;
  }
  f.request = std::move(r);
  f.issue = now;
  f.seq = seq_++;
  prepare(f.request, now, issued_++, f.payload, f.req, f.data.data(), f.enables.data(), f.strided);
  WarpAccumulator& acc = warp_run_[s][f.request.warp_slot];
  ++acc.outstanding;
  acc.last_issued = f.request.last_of_warp;
  ++outstanding_;
  move_data(s, f);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if ((*sm[s])->nb_transport_fw(f.payload.trans, phase, delay) == tlm::TLM_COMPLETED) answered(f);
}

// at: the request's data moves at its issue, in issue order, as in lt,
// whatever its timing then (an L1 answers reads from its lines on top);
// the timed request that follows carries its timing only.
void SmArrayTlm::move_data(unsigned s, InFlight& f) {
  tlm::tlm_generic_payload& trans = f.payload.trans;
  RequestExtension& ext = f.payload.ext;
  ext.info.data_at_issue = true;
  if (const StridedExtension* sx = trans.get_extension<StridedExtension>()) {
    RequestPayload element;
    for (unsigned i = 0; i < sx->shape.count; ++i) {
      const unsigned size = sx->shape.element_size;
      set_up(element.trans, trans.get_command(), sx->shape.element_address(i), f.data.data() + i * size, size);
      element.ext.info = ext.info;
      element.ext.how = ext.how;
      (*sm[s])->transport_dbg(element.trans);
    }
  } else {
    const uint64_t address = trans.get_address();
    (*sm[s])->transport_dbg(trans);
    trans.set_address(address);
  }
  ext.info.data_at_issue = false;
  ext.info.timing_only = true;
}

tlm::tlm_sync_enum SmArrayTlm::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  answered(slots_.of(trans));
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

void SmArrayTlm::answered(InFlight& f) {
  const tlm::tlm_generic_payload& trans = f.payload.trans;
  const How& how = f.payload.ext.how;
  if (!trans.is_response_ok() && how.fault == FaultReason::kNone) {
    stop(std::make_exception_ptr(
        std::runtime_error(response_error("SM " + std::to_string(f.request.sm) + " ", f.req.id, f.req.address, trans))));
    return;
  }
  answers_.push(how.cycle, f.seq, f);
  schedule(std::max(how.cycle, now_cycle() + 1));  // no earlier than the next cycle: this one's step may be over
}

void SmArrayTlm::stop(std::exception_ptr failure) {
  if (finished_) return;
  finished_ = true;
  failure_ = failure;
  done_event_.notify(sc_core::SC_ZERO_TIME);
}

void SmArrayTlm::schedule(uint64_t cycle) {
  if (finished_ || cycle >= wake_at_) return;
  wake_at_ = cycle;
  calendar_->at(cycle, 0, 0, [this, cycle] { step(cycle); });
}

void SmArrayTlm::step(uint64_t cycle) {
  if (finished_ || cycle != wake_at_) return;  // an earlier step took its place
  wake_at_ = kNever;
  try {
    sequence_.advance_to(cycle - start_cycle_);
    deliver(cycle);
    more_ = more_ && !stop_requested();  // a stop issues nothing more; what is in flight is still answered
    if (more_ && (!started_ || sequence_.any_awake())) {
      started_ = true;
      issued_now_.clear();
      more_ = sequence_.tick(issued_now_);
      for (L1Request& r : issued_now_) send(std::move(r), cycle);
    }
    if (!more_ && outstanding_ == 0) return stop(nullptr);
    if (more_ && sequence_.any_awake()) schedule(cycle + 1);
    if (!answers_.empty()) schedule(std::max(answers_.next_finish(), cycle + 1));
  } catch (...) {
    stop(std::current_exception());
  }
}

void SmArrayTlm::deliver(uint64_t now) {
  while (InFlight* due = answers_.pop_due(now)) {
    InFlight& f = *due;
    f.payload.trans.clear_extension<StridedExtension>();
    const uint64_t completion = f.payload.ext.how.cycle;
    sequence_.complete(f.request);
    WarpAccumulator& acc = warp_run_[f.request.sm][f.request.warp_slot];
    ++acc.requests;
    acc.latency_sum += completion - f.issue;
    if (--acc.outstanding == 0 && acc.last_issued) {
      retire_warp(acc);
      acc = WarpAccumulator{};
    }
    account(f.request, f.req, f.payload.ext.how, f.data.data(), f.enables.data(), f.strided, f.issue, completion);
    --outstanding_;
    slots_.give(f);
  }
}

// Each cycle: the answers due (they release warps, MSHRs, blocks), then one
// tick of every awake SM, whose requests go out now. With no SM awake the
// SMs sleep until the next answer's completion cycle. A step is an action
// of the event calendar (rank 0: before the L1s' fills of its cycle).
void SmArrayTlm::issue_all_at() {
  if (!calendar_) throw std::logic_error("SmArrayTlm: simulation.timing: at needs the event calendar");
  start_cycle_ = now_cycle();
  schedule(start_cycle_);
  wait(done_event_);
  if (failure_) return;
  // In at, an SM's cycles with a request held while its MSHRs were full,
  // and with work resident but every warp waiting for data.
  const SequenceStats& seq = sequence_.stats();
  for (unsigned s = 0; s < stats_.size(); ++s) {
    stats_[s].mshr_wait_cycles = seq.sm[s].mshr_full_ticks;
    stats_[s].dependency_wait_cycles = seq.sm[s].blocked_ticks;
  }
}

}  // namespace gpumem
