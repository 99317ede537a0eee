// Pin-level co-simulation of the XOR translator, for debugging: the common
// pin-level bench (tb/common/pin_bench.hpp) over TranslatorBlock, with the
// built-in --sc model (translator_pin_cosim.cpp) or a library's.
#pragma once

#include "tb/common/pin_bench.hpp"
#include "tb/translator/translator_block.hpp"

namespace gpumem::tb {

using TranslatorPinCosim = PinBench<TranslatorBlock>;

// The elaboration parameters of the --sc model (verilated from the same
// arguments as the --cc model, so equal to rtl_translator_geometry()).
RtlTranslatorGeometry rtl_translator_pin_geometry();

}  // namespace gpumem::tb
