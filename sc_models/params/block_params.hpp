// Each block's parameters, taken from the one validated config. The blocks
// themselves (translator, MMU, router) know nothing of the config or YAML;
// this is the one place that says which config key feeds which parameter.
#pragma once
#include "config/config.hpp"
#include "mmu/mmu.hpp"
#include "regs/register_map.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem {

TranslatorParams translator_params(const Config& cfg);
TlbParams tlb_params(const Config& cfg);
MmuParams mmu_params(const Config& cfg);
RegisterParams register_params(const Config& cfg);

// The translator's registers as firmware programs them for this config
// (tests and the explorer use it; the TLM run programs the same values
// through register writes).
TranslatorRegisters registers_from_config(const Config& cfg);

}  // namespace gpumem
