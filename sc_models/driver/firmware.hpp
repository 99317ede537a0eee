// The software side: programs the register bank from the config through
// ordinary register writes, as firmware or a driver would.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/address_space_spec.hpp"
#include "base/page_geometry.hpp"
#include "base/task_mapping.hpp"
#include "base/translator_options.hpp"
#include "base/types.hpp"
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
// What firmware programs (params/ fills it from the config).
struct FirmwareParams {
  std::string source;  // the config file, for errors
  std::array<Scheme, kMaxTaskTypes> schemes{};  // every task type's, listed or not
  std::vector<TaskMapping> tasks;               // the listed ones: their vectors and rows
  bool interleave_enable = TranslatorOptions{}.interleave_enable;
  bool dynamic_selection = TranslatorOptions{}.dynamic_selection;
  TranslatorPosition position = TranslatorOptions{}.position;
  unsigned small_page_bits = PageGeometry{}.small_bits;  // VA ranges count small pages
  AddressSpaceConfig address_space;  // errors name its regions
  // The prefetch classifier's [base, end) per array (worklist, vertexlist,
  // edgelist, visitedlist); absent: the classifier stays off.
  std::optional<std::array<std::pair<uint64_t, uint64_t>, 4>> prefetch_ranges;
};
void program_registers(const FirmwareParams& params, const AddressSpaceImage* image, const RegisterWrite& write);

}  // namespace gpumem
