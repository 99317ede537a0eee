// The seeded random traffic of a translator co-simulation run, one cycle of
// pins at a time. The fast and the pin-level modes both draw their pins from
// it, so one seed is one run in either mode, cycle for cycle.
#pragma once
#include <cstdint>
#include <random>

#include "tb/common/protocol_checker.hpp"
#include "tb/translator/translator_pins.hpp"

namespace gpumem::tb {

struct TranslatorRandomRun {
  uint64_t transactions = 1'000'000;
  unsigned req_valid_per_256 = 205;  // a new request is offered in ~80% of idle cycles
  unsigned rsp_ready_per_256 = 179;  // ~70%: random back-pressure
  unsigned reg_write_per_256 = 8;    // ~3%: register rewrites mid-stream
  unsigned reset_per_65536 = 16;     // ~1 cycle in 4096 starts a two-cycle reset in the middle of traffic
  uint64_t hang_cycles = kDefaultHangCycles;
  bool stop_at_first_mismatch = true;
};

// Plain C++ with no Verilated model behind it: the DPI-C library
// (tb/dpi/) hands the same pins to a SystemVerilog bench.
class TranslatorStimulus {
 public:
  TranslatorStimulus(uint64_t seed, unsigned address_bits, const TranslatorRandomRun& run);

  // The pins of the next cycle. `accepted`: the request driven in the cycle
  // before was taken at its edge (a held request stays on the pins until then).
  // `discarded`: requests resets have discarded so far (the scoreboard's
  // count), so that as many more are offered and the run still compares its count.
  const TranslatorPins& next(bool accepted, uint64_t discarded);

 private:
  std::mt19937_64 rng_;
  uint64_t address_mask_;
  TranslatorRandomRun run_;
  uint64_t offered_ = 0;  // requests put on the pins (accepted or held)
  unsigned reset_cycles_left_ = 0;
  TranslatorPins pins_;
};

}  // namespace gpumem::tb
