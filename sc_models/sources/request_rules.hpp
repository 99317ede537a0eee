// The checks a request record passes against its limits, one set shared by
// the CSV trace reader and the importers of other simulators' traces
// (docs/trace-format.md, "Validation and errors"). Each check returns the
// message of the error, or "" when the value passes; the caller knows the
// file, line and column and throws the InputError.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "sources/request_limits.hpp"
#include "payload/request.hpp"

namespace gpumem {

class RequestRules {
 public:
  explicit RequestRules(const RequestLimits& limits);

  // With an address space a record names a process and a VA; without, a
  // task type and a physical address.
  bool virtual_addresses() const { return limits_.virtual_addresses; }
  const char* owner_key() const { return virtual_addresses() ? "process" : "task_type"; }
  const char* address_key() const { return virtual_addresses() ? "va" : "address"; }
  unsigned max_size() const { return limits_.max_request_bytes; }

  // `text` is the value as the record wrote it, for the message.
  std::string owner_error(uint64_t owner, std::string_view text) const;
  std::string size_error(uint64_t size) const;
  std::string range_error(uint64_t address, uint64_t size, std::string_view text) const;
  static std::string alignment_error(uint64_t address, uint64_t size, std::string_view text);

  // The request's process (address space) or task type, from a checked owner.
  void set_owner(Request& r, uint64_t owner) const;

 private:
  RequestLimits limits_;
  uint64_t address_max_;  // highest address; 2^address_bits itself does not fit 64 bits
};

}  // namespace gpumem
