// The translator's built-in fast-mode model: rtl/gpumem_xor_translator.sv
// verilated (--cc) for configs/default.yaml's geometry, clocked from C++ by
// the common bench (tb/common/fast_bench.hpp) through TranslatorBlock
// (translator_block.hpp), whose pins, model and geometry
// translator_driver.cpp defines.
#pragma once

#include "tb/translator/translator_contract.hpp"

namespace gpumem::tb {

// The built-in model's elaboration parameters.
RtlTranslatorGeometry rtl_translator_geometry();

}  // namespace gpumem::tb
