#include "frontend/trace_player.hpp"

#include <stdexcept>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "payload/payload_extensions.hpp"

namespace gpumem {

TracePlayer::TracePlayer(sc_core::sc_module_name name, const Config& cfg, RequestSource& source, const Clock& clock)
    : sc_module(name), memory("memory"), cfg_(cfg), source_(source), clock_(clock) {
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
  tlm_utils::tlm_quantumkeeper qk;
  tlm_utils::tlm_quantumkeeper::set_global_quantum(clock_.time(cfg_.simulation.quantum_cycles));
  qk.reset();

  // One payload, reused: no allocation per request.
  tlm::tlm_generic_payload trans;
  RequestExtension ext;
  RequestInfo& info = ext.info;
  How& how = ext.how;
  trans.set_extension(&ext);
  struct DetachExtension {  // it lives on this stack: the payload must not free it
    tlm::tlm_generic_payload& t;
    ~DetachExtension() { t.clear_extension<RequestExtension>(); }
  } detach{trans};
  unsigned char data[kMaxRequestBytes];

  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> in_flight;  // completion cycles
  const size_t max_outstanding = cfg_.memory.max_outstanding;

  // Kernel time only moves when we sync, so it is read once per quantum
  // rather than per request.
  sc_core::sc_time now = sc_core::sc_time_stamp();
  uint64_t sync_cycle = clock_.cycles(now) + cfg_.simulation.quantum_cycles;
  // Request cycles count from the player's start, which is not time zero
  // when it waits for another run.
  const uint64_t start_cycle = clock_.cycles(now);

  Request r;
  while (source_.next(r)) {
    uint64_t issue = start_cycle + r.cycle;
    while (!in_flight.empty() && in_flight.top() <= issue) in_flight.pop();
    if (in_flight.size() >= max_outstanding) {
      issue = in_flight.top();  // wait for the oldest to finish
      in_flight.pop();
    }
    const sc_core::sc_time target = clock_.time(issue);
    qk.set(target > now ? target - now : sc_core::SC_ZERO_TIME);
    if (issue >= sync_cycle) {
      qk.sync();
      now = sc_core::sc_time_stamp();
      sync_cycle = clock_.cycles(now) + cfg_.simulation.quantum_cycles;
    }

    info.id = r.id;
    info.task_type = r.task_type;
    info.process = r.process;
    info.issue_cycle = issue;
    set_up(trans, r.op == Op::kWrite ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.address, data, r.size);
    if (r.op == Op::kWrite) fill_write_data(r, data);

    sc_core::sc_time delay = qk.get_local_time();
    how.mmu = false;
    how.fault = FaultReason::kNone;
    how.cycle = issue;
    memory->b_transport(trans, delay);
    if (!trans.is_response_ok() && how.fault == FaultReason::kNone) {
      char where[64];
      std::snprintf(where, sizeof where, "request %llu at address 0x%llx: ", static_cast<unsigned long long>(r.id),
                    static_cast<unsigned long long>(r.address));
      throw std::runtime_error(where + trans.get_response_string());
    }

    const uint64_t completion = how.cycle;  // kept equal to now + delay by every block
    in_flight.push(completion);
    const Completion c{r, how, data, issue, completion};
    for (CompletionObserver* o : observers_) o->on_completion(c);
    ++done_;
  }
  qk.sync();
}

}  // namespace gpumem
