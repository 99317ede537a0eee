// The TLM payload extension every request carries. RequestInfo travels from
// the initiator (who asked, for which task type); How is filled along the
// path and says how the result came about (TLB result, scheme, mapped
// address, channel, timing), so tests and the scoreboard check the how, not
// only the data. One extension rather than two: each hop looks it up once.
#pragma once
#include <tlm>

#include "payload/how.hpp"

namespace gpumem {

// Walker reads travel the same sockets as data but are not a task type's
// traffic: the router does not count them. A prefetch is data traffic, but
// a fault on one is not the program's: the MMU drops it unrecorded.
enum class Origin : uint8_t { kData, kPageTable, kPrefetch };

struct RequestInfo {
  uint64_t id = 0;
  unsigned task_type = 0;
  unsigned process = 0;
  Origin origin = Origin::kData;
  uint64_t issue_cycle = 0;
  // From an SM (gpumem run --threads): the warp and the PC of its instruction,
  // for the prefetchers beside the L1.
  uint32_t warp = 0;
  uint64_t pc = 0;
  // simulation.timing: at: the request's data moved when it was issued (by
  // debug transport along its path); the timed request carries its timing
  // only, and the channel moves no data for it.
  bool timing_only = false;
  // at: this debug access is a request's own data moving at its issue: the
  // MMU refuses it where the request will fault (a loader's is not checked).
  bool data_at_issue = false;
};

struct RequestExtension : tlm::tlm_extension<RequestExtension> {
  RequestInfo info;
  How how;

  tlm_extension_base* clone() const override { return new RequestExtension(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const RequestExtension&>(other); }
};

// A request's extension; without one (a caller's mistake: every block needs
// the task type, process or cycle it carries) the access is answered with
// TLM's generic error, and null is returned for the block to return at once.
inline RequestExtension* request_of(tlm::tlm_generic_payload& t) {
  RequestExtension* ext = t.get_extension<RequestExtension>();
  if (!ext) t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  return ext;
}

// Sets every field a target reads for one access, so a reused payload
// carries nothing over from its last use. Extensions are left as they are.
inline void set_up(tlm::tlm_generic_payload& t, tlm::tlm_command command, uint64_t address, void* data, unsigned length) {
  t.set_command(command);
  t.set_address(address);
  t.set_data_ptr(static_cast<unsigned char*>(data));
  t.set_data_length(length);
  t.set_streaming_width(length);
  t.set_byte_enable_ptr(nullptr);
  t.set_byte_enable_length(0);
  t.set_dmi_allowed(false);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace gpumem
