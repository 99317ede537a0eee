// The TLM shell of one SM's L1 data cache: `target` faces the SM, `memory`
// the MMU path (through the SM interconnect). A read hit or a merge is
// answered here; a read miss sends one line fill down, installs the line
// and answers from it; writes and strided requests pass down, and a write
// updates a present line. Timing rides on How::cycle as everywhere in the
// model (docs/cache.md gives the cycles).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "cache/l1_cache.hpp"
#include "payload/issue_clock.hpp"
#include "payload/payload_extensions.hpp"

namespace gpumem {

class L1CacheTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<L1CacheTlm> target;
  tlm_utils::simple_initiator_socket<L1CacheTlm> memory;

  L1CacheTlm(sc_core::sc_module_name name, const Config& cfg, const Clock& clock);

  L1Cache& cache() { return cache_; }
  const L1Cache& cache() const { return cache_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) { return memory->transport_dbg(trans); }
  void read(tlm::tlm_generic_payload& trans, RequestExtension& ext, sc_core::sc_time& delay);

  L1Cache cache_;
  const Clock& clock_;
  unsigned hit_latency_;
  RequestPayload fill_;  // the one payload line fills travel in
  std::vector<uint8_t> line_;
};

}  // namespace gpumem
