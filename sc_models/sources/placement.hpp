// Where a per-thread generator puts its data (docs/workloads.md,
// "Placement"): at a physical base with a task type, or at the start of a
// named region of a named application of a config's address space. Either
// way the generator checks that what it touches fits, and an error names
// what the user has to change: the flag, or the config key.
#pragma once
#include <cstdint>
#include <string>

#include "base/address_space_spec.hpp"

namespace gpumem {

struct Placement {
  unsigned process = 0;  // KernelInfo::process: the application's process, or the task type without an address space
  uint64_t base = 0;
  uint64_t last = ~uint64_t{0};  // the highest address a generator may touch
  bool writable = true;
  // Where errors point: with a region, the config file, the region's line
  // and key ("address_space.applications[0].regions[1]"); else no file and
  // the flag that set the base.
  std::string file;
  int line = 0;
  std::string region_key;

  // Throws InputError unless [base, base + bytes) lies at or below `last`,
  // and, when `writes`, the place is writable. `what` names the data ("the
  // BFS arrays").
  void check_fits(uint64_t bytes, bool writes, const std::string& what) const;
  // Throws InputError unless base is a multiple of `alignment` (a power of two).
  void check_aligned(uint64_t alignment, const std::string& what) const;
};

// At a physical base; addresses must stay below 2^address_bits (64: no limit).
Placement physical_placement(unsigned task_type, uint64_t base, unsigned address_bits = 64);

// At the start of region `region` of application `app` in `space`, which the
// config file `file` describes. InputError (the file, the key) when the
// config has no address space, or no such application or region.
Placement region_placement(const AddressSpaceConfig& space, const std::string& file, const std::string& app,
                           const std::string& region);

}  // namespace gpumem
