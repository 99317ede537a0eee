// The driver as an initiator: at time zero it writes the page-table image into
// simulated memory and programs the register bank, both through TLM, then
// loads the data a workload brings (a per-thread trace's memory-init items)
// through the request path, and notifies `ready`; the players start after it.
#pragma once
#include <exception>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "driver/address_space.hpp"
#include "base/input_error.hpp"
#include "driver/driver_params.hpp"
#include "payload/memory_init.hpp"
#include "payload/issue_clock.hpp"
#include "payload/payload_extensions.hpp"

namespace gpumem {


class DriverTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DriverTlm> registers;
  tlm_utils::simple_initiator_socket<DriverTlm> memory;  // physical, for the page tables
  // The request path (virtual with an address space): bound when there is data to load.
  tlm_utils::simple_initiator_socket_optional<DriverTlm> data;

  // `image` may be null: no address space, registers only.
  DriverTlm(sc_core::sc_module_name name, const DriverParams& params, const AddressSpaceImage* image)
      : sc_module(name), registers("registers"), memory("memory"), data("data"), params_(params), image_(image) {
    SC_HAS_PROCESS(DriverTlm);
    SC_THREAD(run);
  }

  // Data to load after the registers are programmed, item by item until
  // `next` returns false (payload/memory_init.hpp).
  void load_memory(std::function<bool(MemoryInit&)> next) { next_init_ = std::move(next); }
  uint64_t bytes_loaded() const { return bytes_loaded_; }

  const sc_core::sc_event& ready() const { return ready_; }
  std::exception_ptr failure() const { return failure_; }

 private:
  void run() {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    try {
      if (image_) write_page_tables();
      program_registers(params_.firmware, image_, [&](uint32_t offset, uint32_t value) {
        tlm::tlm_generic_payload t;
        set_up(t, tlm::TLM_WRITE_COMMAND, offset, &value, 4);
        registers->b_transport(t, delay);
        return t.is_response_ok();
      });
      if (next_init_) load_data();
    } catch (...) {
      // Nothing may run on a half-built address space: `ready` never
      // fires, so no initiator starts and the simulation ends.
      failure_ = std::current_exception();
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

  // Debug transport through the translator (and the MMU): the bytes land
  // where the kernels' requests will find them, at no channel time. Pieces
  // stay inside one request's reach (granule and small page).
  void load_data() {
    const uint64_t piece = params_.max_request_bytes;
    RequestPayload payload;
    tlm::tlm_generic_payload& t = payload.trans;
    RequestExtension& ext = payload.ext;
    MemoryInit init;
    while (next_init_(init)) {
      for (size_t done = 0; done < init.bytes.size();) {
        const uint64_t address = init.address + done;
        const size_t n = static_cast<size_t>(std::min<uint64_t>(piece - address % piece, init.bytes.size() - done));
        ext = RequestExtension{};
        ext.info.process = init.process;
        ext.info.task_type = params_.virtual_addresses ? 0 : init.process;  // without an address space the item names its task type
        set_up(t, tlm::TLM_WRITE_COMMAND, address, init.bytes.data() + done, static_cast<unsigned>(n));
        if (data->transport_dbg(t) != n) {
          char where[96];
          std::snprintf(where, sizeof where, "memory-init of process %u at address 0x%llx", init.process,
                        static_cast<unsigned long long>(address));
          throw InputError("", 0, "", std::string(where) + ": the address is not mapped (no page of the process holds it)");
        }
        done += n;
        bytes_loaded_ += n;
      }
    }
  }

  const DriverParams params_;
  std::function<bool(MemoryInit&)> next_init_;
  uint64_t bytes_loaded_ = 0;
  const AddressSpaceImage* image_;
  sc_core::sc_event ready_;
  std::exception_ptr failure_;
};

}  // namespace gpumem
