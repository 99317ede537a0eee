// The software side: programs the register bank from the config through
// ordinary register writes, as firmware or a driver would.
#pragma once
#include <cstdint>
#include <functional>

#include "config/config.hpp"
#include "driver/address_space.hpp"

namespace gpumem {

// Performs one 32-bit register write; returns false on an error response.
using RegisterWrite = std::function<bool(uint32_t offset, uint32_t value)>;

// Writes every configured task type's XOR control vectors and scheme, CTRL,
// and with an address space the page-table root, the process task types,
// the profile store's task type selections (APP_TASK_SELECT, and CTRL bit 1
// with them) and (before the MMU) a VA range per region whose task type
// differs from its application's. Throws std::runtime_error naming the register if the bank
// refuses a write, InputError if the regions need more VA ranges than exist.
void program_registers(const Config& cfg, const AddressSpaceImage* image, const RegisterWrite& write);

}  // namespace gpumem
