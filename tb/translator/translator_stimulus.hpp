// The seeded random traffic of a translator co-simulation run, one cycle of
// pins at a time. The fast and the pin-level modes both draw their pins from
// it, so one seed is one run in either mode, cycle for cycle.
#pragma once
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "base/channel_layout.hpp"
#include "base/channel_matrix.hpp"
#include "base/ring_buffer.hpp"
#include "config/config.hpp"
#include "tb/common/protocol_checker.hpp"
#include "tb/translator/translator_contract.hpp"
#include "tb/translator/translator_pins.hpp"

namespace gpumem::tb {

struct TranslatorRandomRun {
  uint64_t transactions = 1'000'000;
  unsigned req_valid_per_256 = 205;  // a new request is offered in ~80% of idle cycles
  unsigned rsp_ready_per_256 = 179;  // ~70%: random back-pressure
  unsigned reg_write_per_256 = 8;    // ~3%: register rewrites mid-stream
  unsigned matrix_sequence_per_256 = 1;  // ~0.4%: a matrix sequence starts (where the RTL has the scheme)
  unsigned reset_per_65536 = 16;     // ~1 cycle in 4096 starts a two-cycle reset in the middle of traffic
  uint64_t hang_cycles = kDefaultHangCycles;
  bool stop_at_first_mismatch = true;
};

// Plain C++ with no Verilated model behind it: the DPI-C library
// (tb/dpi/) hands the same pins to a SystemVerilog bench.
//
// Before any request it writes the config's own mappings, as the driver's
// firmware does (program_registers), so each task type's configured scheme
// (a baseline's matrix too) is what the first requests are mapped with; after
// a reset it writes them again while requests flow.
// Where the RTL has the matrix scheme (geometry g), matrix sequences come
// on top: the rows of one task type staged, one write a cycle, and committed
// with TASK_SCHEME = 3 (docs/cosim.md, "Matrices in the stimulus").
class TranslatorStimulus {
 public:
  TranslatorStimulus(uint64_t seed, const TranslatorBenchParams& p, const RtlTranslatorGeometry& g, const TranslatorRandomRun& run);

  // The pins of the next cycle. `accepted`: the request driven in the cycle
  // before was taken at its edge (a held request stays on the pins until then).
  // `discarded`: requests resets have discarded so far (the scoreboard's
  // count), so that as many more are offered and the run still compares its count.
  const TranslatorPins& next(bool accepted, uint64_t discarded);

 private:
  struct Write {
    uint32_t offset, value;
  };
  void queue_matrix_sequence();
  MatrixRows acceptable_rows();  // random rows that pass the acceptance rule

  std::mt19937_64 rng_;
  uint64_t address_mask_;
  TranslatorRandomRun run_;
  ChannelLayout layout_;
  unsigned address_bits_;
  bool matrix_;
  std::vector<MatrixRows> baselines_;  // the named baselines defined at this layout
  std::vector<Write> firmware_;        // the config's mappings, written first
  size_t firmware_done_ = 0;
  RingBuffer<Write> queued_{32};       // the rest of a matrix sequence
  uint64_t offered_ = 0;  // requests put on the pins (accepted or held)
  unsigned reset_cycles_left_ = 0;
  TranslatorPins pins_;
};

}  // namespace gpumem::tb
