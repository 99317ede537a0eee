#include "frontend/trace_player.hpp"

#include <stdexcept>

#include "base/completion_calendar.hpp"
#include "payload/issue_clock.hpp"

namespace gpumem {

TracePlayer::TracePlayer(sc_core::sc_module_name name, const TracePlayerParams& params, RequestSource& source, const Clock& clock)
    : sc_module(name), memory("memory"), params_(params), source_(source), clock_(clock) {
  SC_HAS_PROCESS(TracePlayer);
  SC_THREAD(run);
  memory.register_nb_transport_bw(this, &TracePlayer::nb_transport_bw);
}

void TracePlayer::run() {
  if (start_after_) wait(*start_after_);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    if (params_.timing == TimingMode::kAt) issue_all_at();
    else issue_all();
  } catch (...) {
    failure_ = std::current_exception();
  }
  wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  finished_.notify(sc_core::SC_ZERO_TIME);
}

void TracePlayer::issue_all() {
  IssueClock clock(clock_, params_.quantum_cycles);
  RequestPayload payload;  // one, reused: no allocation per request
  tlm::tlm_generic_payload& trans = payload.trans;
  const How& how = payload.ext.how;
  unsigned char data[kMaxRequestBytes];

  CompletionCalendar in_flight;
  const size_t max_outstanding = params_.max_outstanding;
  // Request cycles count from the player's start, which is not time zero
  // when it waits for another run.
  const uint64_t start_cycle = clock.start_cycle();

  Request r;
  while (source_.next(r)) {
    uint64_t issue = start_cycle + r.cycle;
    in_flight.retire_through(issue);
    if (in_flight.size() >= max_outstanding) issue = in_flight.take_earliest();  // wait for the oldest to finish
    sc_core::sc_time delay = clock.advance_to(issue);

    RequestInfo who;
    who.id = r.id;
    who.task_type = r.task_type;
    who.process = r.process;
    who.issue_cycle = issue;
    payload.begin(r.op == Op::kWrite ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.address, data, r.size, who, issue);
    if (r.op == Op::kWrite) fill_write_data(r, data);
    memory->b_transport(trans, delay);
    if (!trans.is_response_ok() && how.fault == FaultReason::kNone) throw std::runtime_error(response_error("", r.id, r.address, trans));

    const uint64_t completion = how.cycle;  // kept equal to now + delay by every block
    in_flight.add(completion);
    const Completion c{r, how, data, issue, completion};
    for (CompletionObserver* o : observers_) o->on_completion(c);
    ++done_;
  }
  clock.sync();
}

tlm::tlm_sync_enum TracePlayer::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  answered(slots_.of(trans));
  answer_.notify(sc_core::SC_ZERO_TIME);
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

void TracePlayer::answered(InFlight& f) {
  const tlm::tlm_generic_payload& trans = f.payload.trans;
  const How& how = f.payload.ext.how;
  if (!trans.is_response_ok() && how.fault == FaultReason::kNone)
    throw std::runtime_error(response_error("", f.request.id, f.request.address, trans));
  answers_.push(how.cycle, f.seq, f);
}

void TracePlayer::deliver(uint64_t now) {
  // An answer is given before its completion cycle, so by `now` every answer
  // completing at or before it is here: the order below is the same
  // whatever order the kernel ran the channels in.
  while (InFlight* due = answers_.pop_due(now)) {
    InFlight& f = *due;
    const Completion c{f.request, f.payload.ext.how, f.data, f.issue, f.payload.ext.how.cycle};
    for (CompletionObserver* o : observers_) o->on_completion(c);
    ++done_;
    --outstanding_;
    slots_.give(f);
  }
}

void TracePlayer::issue_all_at() {
  const uint64_t start_cycle = now_cycle();
  const size_t max_outstanding = params_.max_outstanding;
  const auto wait_until = [&](uint64_t cycle) {  // delivering on the way
    for (;;) {
      const uint64_t now = now_cycle();
      deliver(now);
      if (now >= cycle) return;
      const uint64_t wake = answers_.empty() ? cycle : std::min(cycle, answers_.next_finish());
      if (wake > now) wait(clock_.time(wake) - sc_core::sc_time_stamp(), answer_);
      else wait(answer_);
    }
  };
  uint64_t seq = 0;
  Request r;
  while (source_.next(r)) {
    wait_until(start_cycle + r.cycle);
    while (outstanding_ >= max_outstanding) {  // the next answer's completion frees a slot
      if (answers_.empty()) wait(answer_);
      else wait_until(answers_.next_finish());
      deliver(now_cycle());
    }
    InFlight& f = slots_.take();
    const uint64_t issue = now_cycle();
    f.request = r;
    f.issue = issue;
    f.seq = seq++;
    tlm::tlm_generic_payload& trans = f.payload.trans;
    RequestInfo who;
    who.id = r.id;
    who.task_type = r.task_type;
    who.process = r.process;
    who.issue_cycle = issue;
    f.payload.begin(r.op == Op::kWrite ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.address, f.data, r.size, who, issue);
    RequestInfo& info = f.payload.ext.info;
    if (r.op == Op::kWrite) fill_write_data(r, f.data);
    ++outstanding_;
    // Its data moves now, in issue order (as in lt); the timed request carries its timing only.
    info.data_at_issue = true;
    memory->transport_dbg(trans);
    trans.set_address(r.address);
    info.data_at_issue = false;
    info.timing_only = true;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (memory->nb_transport_fw(trans, phase, delay) == tlm::TLM_COMPLETED) answered(f);
  }
  while (outstanding_) {
    if (answers_.empty()) wait(answer_);
    else wait_until(answers_.next_finish());
  }
}

}  // namespace gpumem
