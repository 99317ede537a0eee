// The software side: programs the register bank from the config through
// ordinary register writes, as firmware or a driver would.
#pragma once
#include <cstdint>
#include <functional>

#include "config.hpp"

namespace gpumem {

// Performs one 32-bit register write; returns false on an error response.
using RegisterWrite = std::function<bool(uint32_t offset, uint32_t value)>;

// Writes CTRL, every configured task type's scheme and XOR control vectors.
// Throws std::runtime_error naming the register if the bank refuses a write.
void program_translator(const Config& cfg, const RegisterWrite& write);

}  // namespace gpumem
