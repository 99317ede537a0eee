// Initiator: issues requests from a RequestSource at their cycles, at most
// max_outstanding in flight. Requests do not wait for one another's
// completion. A page fault completes its request (the observers see
// how.fault) and the run goes on; any other error response stops it.
// Loosely timed (simulation.timing: lt): b_transport under a quantum keeper,
// each request's completion known when the call returns. Approximately
// timed (at): nb_transport_fw at the request's cycle in kernel time, the
// answer on nb_transport_bw; the observers see the requests in the order
// they complete (by completion cycle, then issue order), whatever order the
// kernel ran the channels in.
#pragma once
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "frontend/frontend_params.hpp"
#include "payload/answer_order.hpp"
#include "payload/clock.hpp"
#include "payload/completion.hpp"
#include "payload/issue_clock.hpp"
#include "payload/request.hpp"

namespace gpumem {

class TracePlayer : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TracePlayer> memory;

  TracePlayer(sc_core::sc_module_name name, const TracePlayerParams& params, RequestSource& source, const Clock& clock);

  void add_observer(CompletionObserver* o) { observers_.push_back(o); }
  // Hold the run until `e` fires: the driver's set-up, or another player.
  void start_after(const sc_core::sc_event& e) { start_after_ = &e; }
  uint64_t requests_done() const { return done_; }
  double wall_seconds() const { return wall_seconds_; }  // host time spent in the run
  // Set when the run stopped early: an input error from the source, or an
  // error response from the model. The runner rethrows it after sc_start().
  std::exception_ptr failure() const { return failure_; }
  // Notified when the last request has completed (or the run failed).
  const sc_core::sc_event& finished() const { return finished_; }

 private:
  void run();
  void issue_all();
  // simulation.timing: at.
  struct InFlight {  // a request from its issue until the observers have seen it
    RequestPayload payload;
    Request request;
    unsigned char data[kMaxRequestBytes];
    uint64_t issue = 0, seq = 0;
  };
  void issue_all_at();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void answered(InFlight& f);
  void deliver(uint64_t now);  // every answer whose completion cycle has come, in order
  uint64_t now_cycle() const { return clock_.cycles(sc_core::sc_time_stamp()); }

  const TracePlayerParams params_;
  RequestSource& source_;
  const Clock& clock_;
  std::vector<CompletionObserver*> observers_;
  uint64_t done_ = 0;
  double wall_seconds_ = 0;
  std::exception_ptr failure_;
  sc_core::sc_event finished_;
  const sc_core::sc_event* start_after_ = nullptr;
  // at:
  SlotPool<InFlight> slots_;
  AnswerOrder<InFlight> answers_;
  sc_core::sc_event answer_;
  size_t outstanding_ = 0;  // issued, not yet delivered
};

}  // namespace gpumem
