// Pin-level driver of the Verilated XOR translator (rtl/gpumem_xor_translator.sv),
// clocked directly from C++ (the fast co-simulation path: no SystemC kernel).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tb/common/rtl_abi.h"
#include "tb/common/wave_window.hpp"
#include "tb/translator/translator_pins.hpp"

namespace gpumem::tb {

// The RTL's elaboration parameters, read back from the Verilated model.
struct RtlTranslatorGeometry {
  unsigned address_bits;
  std::vector<unsigned> channel_bits;    // c_0..c_{M-1}
  std::vector<unsigned> candidate_bits;  // p_0..p_{K-1}
  uint64_t prime;
};
RtlTranslatorGeometry rtl_translator_geometry();

std::string describe(const TranslatorRequest& r);
std::string describe(const TranslatorResponse& r);

class TranslatorDriver {
 public:
  // The flops' initial values are drawn from `seed` (rtl_adapter.hpp).
  // `rtl`: a model verilated at run time (rtl_library.hpp); null, the
  // built-in one (configs/default.yaml's geometry).
  explicit TranslatorDriver(uint64_t seed, const WaveWindow& waves = {}, const GpumemRtlApi* rtl = nullptr);
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
  template <typename Rtl>
  struct ImplOf;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpumem::tb
