// TLM shell of the register bank: 32-bit accesses only. Bad accesses get an
// error response and leave the registers as they were.
#pragma once
#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "regs/register_bank.hpp"

namespace gpumem {

inline tlm::tlm_response_status response_for(RegStatus s) {
  switch (s) {
    case RegStatus::kOk: return tlm::TLM_OK_RESPONSE;
    case RegStatus::kBadWidth: return tlm::TLM_BURST_ERROR_RESPONSE;
    case RegStatus::kBadValue: return tlm::TLM_GENERIC_ERROR_RESPONSE;
    case RegStatus::kUnmapped:
    case RegStatus::kReadOnly:
    case RegStatus::kMisaligned: return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  }
  return tlm::TLM_GENERIC_ERROR_RESPONSE;
}

class RegisterBankTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RegisterBankTlm> target;

  RegisterBankTlm(sc_core::sc_module_name name, const RegisterParams& params)
      : sc_module(name), target("target"), bank_(params) {
    target.register_b_transport(this, &RegisterBankTlm::b_transport);
  }

  RegisterBank& bank() { return bank_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
    if (trans.get_byte_enable_ptr()) {
      trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
      return;
    }
    if (trans.get_streaming_width() != trans.get_data_length()) {
      trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    const unsigned width = trans.get_data_length();
    RegStatus s = RegStatus::kBadValue;
    if (trans.is_read()) {
      uint32_t v = 0;
      s = bank_.read(trans.get_address(), width, v);
      if (s == RegStatus::kOk) std::memcpy(trans.get_data_ptr(), &v, 4);
    } else if (trans.is_write()) {
      uint32_t v = 0;
      if (width == 4) std::memcpy(&v, trans.get_data_ptr(), 4);
      s = bank_.write(trans.get_address(), width, v);
    } else {
      s = RegStatus::kOk;  // TLM_IGNORE_COMMAND
    }
    trans.set_response_status(response_for(s));
  }

  RegisterBank bank_;
};

}  // namespace gpumem
