// Fast co-simulation of the XOR translator: the common fast-mode bench
// (tb/common/fast_bench.hpp) over TranslatorBlock, with directed steps. Its
// random run is TranslatorStimulus's: register rewrites mid-stream, random
// back-pressure and resets in the middle of traffic.
#pragma once
#include <cstdint>

#include "tb/common/fast_bench.hpp"
#include "tb/translator/translator_block.hpp"
#include "tb/translator/translator_driver.hpp"

namespace gpumem::tb {

class TranslatorCosim : public FastBench<TranslatorBlock> {
 public:
  using FastBench<TranslatorBlock>::FastBench;

  // The same write to the RTL and the model, in one cycle; the model's status.
  RegStatus write_register(uint32_t offset, uint32_t value);
  // One transaction without back-pressure; returns the RTL's response (checked).
  TranslatorResponse request(uint64_t address, unsigned task);
};

}  // namespace gpumem::tb
