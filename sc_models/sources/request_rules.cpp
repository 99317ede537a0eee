#include "sources/request_rules.hpp"

#include "base/bits.hpp"

namespace gpumem {

RequestRules::RequestRules(const RequestLimits& limits)
    : limits_(limits), address_max_(limits.address_bits >= 64 ? ~uint64_t{0} : bit(limits.address_bits) - 1) {}

std::string RequestRules::owner_error(uint64_t owner, std::string_view text) const {
  if (limits_.virtual_addresses) {
    if (!limits_.has_process(owner)) return "no application has process id " + std::string(text);
  } else if (owner >= kMaxTaskTypes) {
    return "task type " + std::to_string(owner) + " out of range (0-15)";
  }
  return "";
}

std::string RequestRules::size_error(uint64_t size) const {
  if (is_pow2(size) && size <= max_size()) return "";
  return "size " + std::to_string(size) + " must be a power of two no larger than the interleave granule (" +
         std::to_string(max_size()) + " bytes)";
}

std::string RequestRules::range_error(uint64_t address, uint64_t size, std::string_view text) const {
  if (address <= address_max_ && address_max_ - address >= size - 1) return "";
  return "address " + std::string(text) + " out of range of the configured " + (virtual_addresses() ? "virtual" : "physical") + " address space";
}

std::string RequestRules::alignment_error(uint64_t address, uint64_t size, std::string_view text) {
  if (address % size == 0) return "";
  return "address " + std::string(text) + " is not aligned to its size " + std::to_string(size);
}

void RequestRules::set_owner(Request& r, uint64_t owner) const {
  r.process = virtual_addresses() ? static_cast<unsigned>(owner) : 0;
  r.task_type = virtual_addresses() ? 0 : static_cast<unsigned>(owner);
}

}  // namespace gpumem
