// What every initiator of requests shares (the trace player, the SMs): issue
// at absolute cycles that never decrease, under temporal decoupling (kernel
// time is read once a quantum, not per request); one payload reused with a
// RequestExtension that lives beside it; and one message for an error response.
#pragma once
#include <cstdio>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "payload/clock.hpp"
#include "payload/payload_extensions.hpp"

namespace gpumem {

class IssueClock {
 public:
  // From the current kernel time: the run's cycle 0 when the initiator waited for the driver.
  IssueClock(const Clock& clock, uint64_t quantum_cycles) : clock_(clock), quantum_cycles_(quantum_cycles) {
    tlm_utils::tlm_quantumkeeper::set_global_quantum(clock.time(quantum_cycles));
    qk_.reset();
    now_ = sc_core::sc_time_stamp();
    start_cycle_ = clock.cycles(now_);
    sync_cycle_ = start_cycle_ + quantum_cycles;
  }
  uint64_t start_cycle() const { return start_cycle_; }

  // Local time to `issue` (an absolute cycle), yielding to the kernel once
  // the quantum is used up; returns the delay to hand to b_transport.
  sc_core::sc_time advance_to(uint64_t issue) {
    const sc_core::sc_time target = clock_.time(issue);
    qk_.set(target > now_ ? target - now_ : sc_core::SC_ZERO_TIME);
    if (issue >= sync_cycle_) {
      qk_.sync();
      now_ = sc_core::sc_time_stamp();
      sync_cycle_ = clock_.cycles(now_) + quantum_cycles_;
    }
    return qk_.get_local_time();
  }
  void sync() { qk_.sync(); }

 private:
  const Clock& clock_;
  uint64_t quantum_cycles_;
  tlm_utils::tlm_quantumkeeper qk_;
  sc_core::sc_time now_;
  uint64_t start_cycle_ = 0, sync_cycle_ = 0;
};

// A payload whose RequestExtension is a member, not the payload's to free.
struct RequestPayload {
  tlm::tlm_generic_payload trans;
  RequestExtension ext;
  RequestPayload() { trans.set_extension(&ext); }
  ~RequestPayload() { trans.clear_extension<RequestExtension>(); }
  // A new request in this reused payload: its command and bytes, who asks,
  // and its How at `cycle`. Of the How only what a block sets when it takes
  // part is reset (the MMU's, a DRAM's, an L1's, a fault): every other field
  // is written by each request's path, and clearing the whole How cost 3 %
  // of a run's host instructions.
  void begin(tlm::tlm_command command, uint64_t address, unsigned char* data, unsigned length, const RequestInfo& who,
             uint64_t cycle) {
    set_up(trans, command, address, data, length);
    ext.info = who;
    How& how = ext.how;
    how.mmu = false;
    how.fault = FaultReason::kNone;
    how.dram = false;
    how.l1 = L1Result::kNone;
    how.cycle = cycle;
  }
  RequestPayload(const RequestPayload&) = delete;
  RequestPayload& operator=(const RequestPayload&) = delete;
};

// "<who> request <id> at address 0x<a>: <TLM response>", for an error
// response that is not a page fault (the model's own error: exit 3).
inline std::string response_error(const std::string& who, uint64_t id, uint64_t address, const tlm::tlm_generic_payload& t) {
  char where[96];
  std::snprintf(where, sizeof where, "request %llu at address 0x%llx: ", static_cast<unsigned long long>(id),
                static_cast<unsigned long long>(address));
  return who + where + t.get_response_string();
}

}  // namespace gpumem
