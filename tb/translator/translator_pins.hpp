// A translator's pins for one cycle and what its edge did, in the model's
// terms: what every translator bench drives and samples, whatever model
// (Verilated, SystemC, or none behind the DPI-C library) is on the pins
// (TranslatorBlock::drive and sample put them on the ports and read them back).
#pragma once
#include <cstdint>

#include "tb/common/protocol_checker.hpp"

namespace gpumem::tb {

// Inputs driven for one clock cycle.
struct TranslatorPins {
  bool req_valid = false;
  uint64_t req_addr = 0;
  unsigned req_task_type = 0;
  bool rsp_ready = true;
  bool reg_we = false;
  uint32_t reg_addr = 0;
  uint32_t reg_wdata = 0;
  bool reset = false;  // rst_ni low for this cycle (a reset in the middle of traffic)
};

struct TranslatorResponse {
  uint64_t mapped = 0;
  unsigned channel = 0;
  unsigned scheme = 0;  // 0 none, 1 xor, 2 prime
  bool operator==(const TranslatorResponse& o) const {
    return mapped == o.mapped && channel == o.channel && scheme == o.scheme;
  }
};

// The request payload, which must stay stable while the request is stalled.
struct TranslatorRequest {
  uint64_t address = 0;
  unsigned task_type = 0;
  bool operator==(const TranslatorRequest& o) const { return address == o.address && task_type == o.task_type; }
};

// What happened at the rising edge that ends the cycle.
struct TranslatorEdge : EdgeHandshakes {
  TranslatorResponse rsp;    // the response pins while rsp_valid
  bool reg_refused = false;  // reg_we_i && reg_error_o: the RTL refused the register write
  uint32_t reg_rdata = 0;    // reg_rdata_o with the clock low: the register at reg_addr_i
};

}  // namespace gpumem::tb
