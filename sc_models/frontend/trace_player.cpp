#include "frontend/trace_player.hpp"

#include <stdexcept>

#include "base/completion_calendar.hpp"
#include "payload/issue_clock.hpp"

namespace gpumem {

TracePlayer::TracePlayer(sc_core::sc_module_name name, const TracePlayerParams& params, RequestSource& source, const Clock& clock)
    : sc_module(name), memory("memory"), params_(params), source_(source), clock_(clock) {
  SC_HAS_PROCESS(TracePlayer);
  SC_THREAD(run);
}

void TracePlayer::run() {
  if (start_after_) wait(*start_after_);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    issue_all();
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
  RequestInfo& info = payload.ext.info;
  How& how = payload.ext.how;
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

    info.id = r.id;
    info.task_type = r.task_type;
    info.process = r.process;
    info.issue_cycle = issue;
    set_up(trans, r.op == Op::kWrite ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.address, data, r.size);
    if (r.op == Op::kWrite) fill_write_data(r, data);

    how.mmu = false;
    how.fault = FaultReason::kNone;
    how.dram = false;  // the payload is reused: only a DRAM channel that serves this request sets it
    how.cycle = issue;
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

}  // namespace gpumem
