// Where the SMs' initiators (and the driver's loads) meet the memory system's
// single request socket. It adds no time: the model's timing starts at the
// MMU; it exists so each SM is an initiator of its own.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

namespace gpumem {

class SmInterconnectTlm : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<SmInterconnectTlm> sms;
  tlm_utils::simple_initiator_socket<SmInterconnectTlm> memory;

  explicit SmInterconnectTlm(sc_core::sc_module_name name) : sc_module(name), sms("sms"), memory("memory") {
    sms.register_b_transport(this, &SmInterconnectTlm::b_transport);
    sms.register_transport_dbg(this, &SmInterconnectTlm::transport_dbg);
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) { memory->b_transport(trans, delay); }
  unsigned transport_dbg(int, tlm::tlm_generic_payload& trans) { return memory->transport_dbg(trans); }
};

}  // namespace gpumem
