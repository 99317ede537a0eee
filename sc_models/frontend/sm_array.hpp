// The SMs of `gpumem run --threads`: one TLM initiator socket per SM, each
// issuing its ordered L1 request sequence (l1_sequence.hpp) into the memory
// system. docs/frontend.md, "Running a per-thread trace", gives the timing:
// an SM issues its sequence in order, at most one request a cycle, a request
// no earlier than its tick in the ordering (issue_timing: ordering), and only
// while fewer than mshr_entries of its requests are outstanding and after the
// completion of the dependent requests its warp waits for: with ordering the
// warp's last dependent request, with memory every dependent request of the
// warp's earlier instructions (an instruction's own requests do not wait for
// each other).
//
// Approximately timed (simulation.timing: at): the ordering's ticks are
// cycles, each SM's scheduler picks among the warps ready then (the
// generator with LatencySource::kMemory), requests go out with
// nb_transport_fw, and an answer releases its warp, MSHR and block at its
// completion cycle. Answers reach the SMs before their completion cycle, so
// the SMs take them in (completion cycle, issue order), whatever order the
// kernel ran the memory's processes in.
//
// Loosely timed (lt): one SC_THREAD issues for all SMs in the order
// SmIssueOrder gives (frontend/sm_issue_order.hpp): the earliest issue
// cycle first, the lower SM on a tie.
#pragma once
#include <exception>
#include <functional>
#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "frontend/frontend_params.hpp"
#include "frontend/l1_sequence.hpp"
#include "frontend/sm_issue_order.hpp"
#include "frontend/sm_stats.hpp"
#include "payload/clock.hpp"
#include "payload/answer_order.hpp"
#include "payload/completion.hpp"
#include "payload/event_calendar.hpp"
#include "payload/issue_clock.hpp"
#include "payload/payload_extensions.hpp"
#include "payload/strided.hpp"

namespace gpumem {

class SmArrayTlm : public sc_core::sc_module {
 public:
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<SmArrayTlm>>> sm;  // one per SM

  SmArrayTlm(sc_core::sc_module_name name, const FrontendParams& params, L1SequenceGenerator& sequence, const Clock& clock);

  void add_observer(CompletionObserver* o) { observers_.push_back(o); }
  void start_after(const sc_core::sc_event& e) { start_after_ = &e; }
  // Called as each kernel after the first starts issuing: GPU L1s are not
  // coherent, so the run empties them there (docs/cache.md).
  void on_kernel_start(std::function<void()> f) { on_kernel_start_ = std::move(f); }
  // simulation.timing: at: the calendar the SMs act in (rank 0), and whether
  // every request has been answered.
  void use_calendar(EventCalendar& calendar) { calendar_ = &calendar; }
  bool finished() const { return finished_; }
  uint64_t requests_done() const { return done_; }
  double wall_seconds() const { return wall_seconds_; }
  std::exception_ptr failure() const { return failure_; }
  const std::vector<SmRunStats>& sm_stats() const { return stats_; }
  WarpRunSummary warp_summary() const;
  const StridedRunStats& strided_stats() const { return strided_stats_; }
  // lt: the most requests ordered but not yet issued at once, over all SMs,
  // and the ticks held back because the queues held max_queued requests.
  uint64_t queued_max() const { return order_.queued_max(); }
  uint64_t queue_limit_holds() const { return order_.queue_limit_holds(); }

 private:
  struct WarpAccumulator {
    uint64_t requests = 0, latency_sum = 0;
    unsigned outstanding = 0;  // at: issued, not yet answered
    bool last_issued = false;  // at: its last request has issued
  };

  void run();
  void issue_all();
  // The payload of request r, issued at `issue` with id `id`, and the
  // Request the observers will see.
  void prepare(const L1Request& r, uint64_t issue, uint64_t id, RequestPayload& payload, Request& req,
               unsigned char* data, unsigned char* enables, StridedExtension& strided) const;
  // r's answer into the SM's statistics, and to the observers.
  void account(const L1Request& r, const Request& req, How& how, const unsigned char* data, const unsigned char* enables,
               StridedExtension& strided, uint64_t issue, uint64_t completion);

  // simulation.timing: at.
  struct InFlight {  // a request from its issue until its answer is taken
    InFlight();
    ~InFlight() { payload.trans.clear_extension<StridedExtension>(); }  // a member: the payload must not free it
    RequestPayload payload;
    StridedExtension strided;
    L1Request request;
    Request req;
    std::vector<unsigned char> data, enables;
    uint64_t issue = 0, seq = 0;
  };
  void issue_all_at();
  void schedule(uint64_t cycle);  // a step at `cycle`, unless one is due by then
  void step(uint64_t cycle);
  void stop(std::exception_ptr failure);  // the run is over: finished, or failed
  void send(L1Request&& r, uint64_t now);
  void move_data(unsigned s, InFlight& f);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void answered(InFlight& f);
  void deliver(uint64_t now);  // the answers whose completion cycle has come, in order
  uint64_t now_cycle() const { return clock_.cycles(sc_core::sc_time_stamp()); }
  void close_kernel();
  void retire_warp(const WarpAccumulator& acc);  // into the run's warp summary

  const FrontendParams fe_;
  L1SequenceGenerator& sequence_;
  const Clock& clock_;
  std::vector<CompletionObserver*> observers_;
  SmIssueOrder order_;  // lt
  // Each SM's warps' requests so far, by warp slot: a slot holds one warp
  // from its first request to its last (L1Request::warp_slot).
  std::vector<std::vector<WarpAccumulator>> warp_run_;
  std::vector<SmRunStats> stats_;
  WarpRunSummary warp_summary_;
  StridedRunStats strided_stats_;
  double latency_mean_sum_ = 0;
  uint32_t kernel_ = 0;  // at: the kernel running
  uint64_t start_cycle_ = 0;
  uint64_t done_ = 0;
  double wall_seconds_ = 0;
  std::exception_ptr failure_;
  const sc_core::sc_event* start_after_ = nullptr;
  std::function<void()> on_kernel_start_;
  // at:
  SlotPool<InFlight> slots_;
  AnswerOrder<InFlight> answers_;
  EventCalendar* calendar_ = nullptr;
  sc_core::sc_event done_event_;
  bool finished_ = false, started_ = false, more_ = true;  // more_: blocks left to run
  std::vector<L1Request> issued_now_;
  uint64_t wake_at_ = ~uint64_t{0};  // the step due next: an answer due earlier brings it forward
  uint64_t issued_ = 0, seq_ = 0, outstanding_ = 0;
};

}  // namespace gpumem
