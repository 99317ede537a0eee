// Where the SMs' initiators (and the driver's loads) meet the memory system's
// single request socket. It adds no time: the model's timing starts at the
// MMU; it exists so each SM is an initiator of its own. In
// simulation.timing: at a request's answer goes back to the SM it came from.
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
    sms.register_nb_transport_fw(this, &SmInterconnectTlm::nb_transport_fw);
    memory.register_nb_transport_bw(this, &SmInterconnectTlm::nb_transport_bw);
  }

 private:
  // at: the SM a request came from rides on its payload, so its answer
  // finds the way back without a map entry per request in flight. The SMs
  // pool their payloads, so each payload gets the extension once; the
  // payload frees it.
  struct FromSm : tlm::tlm_extension<FromSm> {
    int sm = 0;
    tlm_extension_base* clone() const override { return new FromSm(*this); }
    void copy_from(const tlm_extension_base& other) override { sm = static_cast<const FromSm&>(other).sm; }
  };

  tlm::tlm_sync_enum nb_transport_fw(int sm, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) {
      FromSm* from = trans.get_extension<FromSm>();
      if (!from) trans.set_extension(from = new FromSm);
      from->sm = sm;
    }
    return memory->nb_transport_fw(trans, phase, delay);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    return sms[trans.get_extension<FromSm>()->sm]->nb_transport_bw(trans, phase, delay);
  }

  void b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) { memory->b_transport(trans, delay); }
  unsigned transport_dbg(int, tlm::tlm_generic_payload& trans) { return memory->transport_dbg(trans); }
};

}  // namespace gpumem
