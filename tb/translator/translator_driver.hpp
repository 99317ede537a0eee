// Pin-level driver of the Verilated XOR translator (rtl/gpumem_xor_translator.sv),
// clocked directly from C++ (the fast co-simulation path: no SystemC kernel).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tb/common/wave_window.hpp"

namespace gpumem::tb {

// The RTL's elaboration parameters, read back from the Verilated model.
struct RtlTranslatorGeometry {
  unsigned address_bits;
  std::vector<unsigned> channel_bits;    // c_0..c_{M-1}
  std::vector<unsigned> candidate_bits;  // p_0..p_{K-1}
  uint64_t prime;
};
RtlTranslatorGeometry rtl_translator_geometry();

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
std::string describe(const TranslatorRequest& r);
std::string describe(const TranslatorResponse& r);

// What happened at the rising edge that ends the cycle.
struct TranslatorEdge {
  bool req_ready = false;     // req_ready_o
  bool req_accepted = false;  // req_valid_i && req_ready_o
  bool rsp_valid = false;     // rsp_valid_o
  bool rsp_taken = false;     // rsp_valid_o && rsp_ready_i
  TranslatorResponse rsp;     // the response pins while rsp_valid
  bool reg_refused = false;   // reg_we_i && reg_error_o: the RTL refused the register write
};

class TranslatorDriver {
 public:
  // The flops' initial values are drawn from `seed` (randomize_initial_values,
  // verilated_harness.hpp).
  explicit TranslatorDriver(uint64_t seed, const WaveWindow& waves = {});
  ~TranslatorDriver();
  TranslatorDriver(const TranslatorDriver&) = delete;
  TranslatorDriver& operator=(const TranslatorDriver&) = delete;

  // Holds rst_ni low for a few cycles; all inputs idle.
  void reset();
  // One cycle: drive `in` with the clock low, sample the handshakes, then the
  // rising edge (registers, including a register write, update there).
  TranslatorEdge cycle(const TranslatorPins& in);
  uint64_t cycles() const;
  // An RTL assertion has failed (Verilator printed which). It does not abort
  // the process, so that the co-simulation can report it with the transaction
  // count and write the waves. Its message's time is the waves' time
  // (tb/common/cycle_time.hpp).
  bool assertion_failed() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpumem::tb
