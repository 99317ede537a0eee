// What every request record a source makes is checked against
// (RequestRules, sources/request_rules.hpp): the address space's shape and
// the largest request. params/ fills it from the config.
#pragma once
#include <bitset>
#include <cstdint>

#include "base/memory_options.hpp"
#include "base/page_geometry.hpp"
#include "base/types.hpp"

namespace gpumem {

// What every request record is checked against (RequestRules; docs/trace-format.md, "Validation and errors").
struct RequestLimits {
  bool virtual_addresses = false;        // an address space: records name a process and a VA, else a task type and a PA
  unsigned address_bits = MemoryOptions{}.address_bits;  // width of those addresses
  unsigned max_request_bytes = 64;       // the largest request: granule, kMaxRequestBytes and smallest page, whichever is least
  uint64_t page_bytes = PageGeometry{}.small_bytes();  // the smallest page: in a physical trace it carries one task type
  std::bitset<kMaxProcesses> processes;  // the process ids the address space's applications have
  bool has_process(uint64_t p) const { return p < kMaxProcesses && processes.test(p); }
};

}  // namespace gpumem
