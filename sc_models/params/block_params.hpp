// Each block's parameters, taken from the one validated config. The blocks
// themselves (translator, MMU, router) know nothing of the config or YAML;
// this is the one place that says which config key feeds which parameter.
#pragma once
#include "cache/l1_unit_params.hpp"
#include "channel/channel_model.hpp"
#include "config/config.hpp"
#include "driver/driver_params.hpp"
#include "mmu/mmu.hpp"
#include "regs/register_map.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem {

TranslatorParams translator_params(const Config& cfg);
TlbParams tlb_params(const Config& cfg);
MmuParams mmu_params(const Config& cfg);
RegisterParams register_params(const Config& cfg);
ChannelParams channel_params(const Config& cfg);
L1Params l1_params(const Config& cfg);
L1UnitParams l1_unit_params(const Config& cfg);
AllocatorParams allocator_params(const Config& cfg);
FirmwareParams firmware_params(const Config& cfg);
DriverParams driver_params(const Config& cfg);

// The driver's allocator and firmware on a config, for the callers that hold
// one (the run, the explorer, the tools and tests).
AddressSpaceImage build_address_space(const Config& cfg, bool nesting);
void program_registers(const Config& cfg, const AddressSpaceImage* image, const RegisterWrite& write);

// The translator's registers as firmware programs them for this config
// (tests and the explorer use it; the TLM run programs the same values
// through register writes).
TranslatorRegisters registers_from_config(const Config& cfg);

}  // namespace gpumem
