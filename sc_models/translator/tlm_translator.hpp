// TLM shell of the XOR translator: replaces the address by the mapped address
// of the request's task type and passes the transaction on. After the MMU (or
// without one) the task type travels in RequestInfo; before the MMU it comes
// from the register bank's VA-range and process tables. With dynamic
// selection on, the process's selected task type replaces either.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "payload/payload_extensions.hpp"
#include "payload/strided.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem {

class TranslatorTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TranslatorTlm> target;
  tlm_utils::simple_initiator_socket<TranslatorTlm> initiator;

  TranslatorTlm(sc_core::sc_module_name name, const TranslatorParams& params, const TranslatorRegisters& regs)
      : sc_module(name),
        target("target"),
        initiator("initiator"),
        model_(params, regs),
        regs_(regs),
        before_mmu_(params.before_mmu),
        small_bits_(params.small_page_bits) {
    target.register_b_transport(this, &TranslatorTlm::b_transport);
    target.register_nb_transport_fw(this, &TranslatorTlm::nb_transport_fw);
    target.register_transport_dbg(this, &TranslatorTlm::transport_dbg);
    initiator.register_nb_transport_bw(this, &TranslatorTlm::nb_transport_bw);
  }

  XorTranslator& model() { return model_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    RequestExtension* ext = request_of(trans);
    if (!ext) return;  // every request must say its task type
    map_payload(trans, *ext);
    initiator->b_transport(trans, delay);
  }

  // The request's address, or each element's of a strided one, mapped.
  void map_payload(tlm::tlm_generic_payload& trans, RequestExtension& ext) {
    if (StridedExtension* sx = trans.get_extension<StridedExtension>()) {
      for (unsigned i = 0; i < sx->shape.count; ++i) {
        How& how = sx->element[i];
        unsigned task = before_mmu_ ? 0 : how.task_type;
        sx->address[i] = map(sx->address[i], ext.info.process, task, how);
      }
    } else {
      unsigned task = ext.info.task_type;
      trans.set_address(map(trans.get_address(), ext.info.process, task, ext.how));
      ext.info.task_type = task;
    }
  }

  // simulation.timing: at: the same mapping on the request's BEGIN_REQ; the
  // answer passes back unchanged.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    RequestExtension* ext = request_of(trans);
    if (!ext) return tlm::TLM_COMPLETED;
    if (phase == tlm::BEGIN_REQ) map_payload(trans, *ext);
    return initiator->nb_transport_fw(trans, phase, delay);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    return target->nb_transport_bw(trans, phase, delay);
  }

  // Untimed, for loaders: the same mapping, so data lands where requests find it.
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) {
    RequestExtension* ext = trans.get_extension<RequestExtension>();
    if (!ext) return 0;
    const uint64_t in = trans.get_address();
    unsigned task = ext->info.task_type;
    trans.set_address(map(in, ext->info.process, task, ext->how));
    ext->info.task_type = task;
    const unsigned n = initiator->transport_dbg(trans);
    trans.set_address(in);
    return n;
  }

  // The mapped address of `in` (a request's or an element's) and, in
  // `task_type`, the task type whose mapping it used: before the MMU looked up
  // in the register bank, after it (or without one) the task type given.
  uint64_t map(uint64_t in, unsigned process, unsigned& task_type, How& how) {
    if (before_mmu_) {
      how.virtual_address = in;
      task_type = regs_.task_for(process, in, small_bits_);
    } else {
      how.physical_address = in;
    }
    task_type = regs_.effective_task(process, task_type);
    how.task_type = task_type;
    const XorTranslator::Result r = model_.translate(in, task_type);
    how.scheme = r.scheme;
    how.mapped_address = r.mapped;
    return r.mapped;
  }

  XorTranslator model_;
  const TranslatorRegisters& regs_;
  bool before_mmu_;
  unsigned small_bits_;
};

}  // namespace gpumem
