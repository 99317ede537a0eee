// The driver as an initiator: at time zero it writes the page-table image into
// simulated memory and programs the register bank, both through TLM, then
// notifies `ready`; the player starts issuing after it.
#pragma once
#include <exception>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "driver/address_space.hpp"
#include "driver/firmware.hpp"
#include "payload/payload_extensions.hpp"

namespace gpumem {

class DriverTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DriverTlm> registers;
  tlm_utils::simple_initiator_socket<DriverTlm> memory;  // physical, for the page tables

  // `image` may be null: no address space, registers only.
  DriverTlm(sc_core::sc_module_name name, const Config& cfg, const AddressSpaceImage* image)
      : sc_module(name), registers("registers"), memory("memory"), cfg_(cfg), image_(image) {
    SC_HAS_PROCESS(DriverTlm);
    SC_THREAD(run);
  }

  const sc_core::sc_event& ready() const { return ready_; }
  std::exception_ptr failure() const { return failure_; }

 private:
  void run() {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    try {
      if (image_) write_page_tables();
      program_registers(cfg_, image_, [&](uint32_t offset, uint32_t value) {
        tlm::tlm_generic_payload t;
        set_up(t, tlm::TLM_WRITE_COMMAND, offset, &value, 4);
        registers->b_transport(t, delay);
        return t.is_response_ok();
      });
    } catch (...) {
      failure_ = std::current_exception();
      sc_core::sc_stop();  // nothing may run on a half-built address space
      return;
    }
    // Software set-up is not part of the measured run: requests start at zero.
    ready_.notify(sc_core::SC_ZERO_TIME);
  }

  // Debug transport: the driver loads the tables before the measured run, as
  // a loader would, so they cost no channel time; the walker's reads later are
  // ordinary timed transactions.
  void write_page_tables() {
    tlm::tlm_generic_payload t;
    for (const PteWrite& w : image_->pte_writes) {
      uint64_t value = w.value;  // little-endian host, as the walker reads it
      set_up(t, tlm::TLM_WRITE_COMMAND, w.pa, &value, kPteBytes);
      if (memory->transport_dbg(t) != kPteBytes)
        throw std::runtime_error("page-table write at PA " + std::to_string(w.pa) + " refused");
    }
  }

  const Config& cfg_;
  const AddressSpaceImage* image_;
  sc_core::sc_event ready_;
  std::exception_ptr failure_;
};

}  // namespace gpumem
