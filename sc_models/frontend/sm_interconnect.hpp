// Where the SMs' initiators (and the driver's loads) meet the memory system's
// single request socket. It adds no time: the model's timing starts at the
// MMU; it exists so each SM is an initiator of its own. In
// simulation.timing: at a request's answer goes back to the SM it came from.
#pragma once
#include <unordered_map>
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
  tlm::tlm_sync_enum nb_transport_fw(int sm, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) from_[&trans] = sm;
    const tlm::tlm_sync_enum r = memory->nb_transport_fw(trans, phase, delay);
    if (r == tlm::TLM_COMPLETED) from_.erase(&trans);
    return r;
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    const auto it = from_.find(&trans);
    const int sm = it->second;
    if (phase == tlm::BEGIN_RESP) from_.erase(it);  // the SMs take every answer at once (TLM_COMPLETED)
    return sms[sm]->nb_transport_bw(trans, phase, delay);
  }
  std::unordered_map<const tlm::tlm_generic_payload*, int> from_;  // at: requests in flight, by the SM they came from

  void b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) { memory->b_transport(trans, delay); }
  unsigned transport_dbg(int, tlm::tlm_generic_payload& trans) { return memory->transport_dbg(trans); }
};

}  // namespace gpumem
