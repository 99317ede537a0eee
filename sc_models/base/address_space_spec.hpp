// The GPU virtual address space as the config describes it (the software
// view): applications, each in regions of its own. The config reads
// it; the driver allocates it, the front end places data in it, the reports
// name its regions (docs/page-tables.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpumem {

struct RegionConfig {
  std::string name;
  uint64_t va = 0;
  uint64_t size = 0;
  bool large_page = false;  // page: large | small
  unsigned task_type = 0;  // the application's task type unless the region sets its own
  bool writable = true;
  std::string nest_into;  // a large region whose partly used frames take this small region
  int line = 0;
};

struct ApplicationConfig {
  std::string name;
  unsigned process = 0;  // process id: traces and generators name it
  unsigned task_type = 0;
  std::vector<RegionConfig> regions;
  int line = 0;
  // Not a YAML key: the task type the profile store selected for this
  // application (params/profile_store.hpp), which the driver writes to
  // APP_TASK_SELECT[process].
  std::optional<unsigned> selected_task_type;
};

// The software view: one GPU virtual address space shared by all
// applications, each in regions of its own; the driver builds page tables
// for it in simulated memory (docs/page-tables.md).
struct AddressSpaceConfig {
  bool present = false;
  unsigned va_bits = 32;
  uint64_t pa_base = 0;  // first physical frame the allocator hands out
  bool nesting = true;   // nest small pages into the unused tails of partly used large frames
  std::vector<ApplicationConfig> applications;
  const ApplicationConfig* application(unsigned process) const;
  // "address_space.applications[i].regions[k]": where errors about a region point.
  std::string region_key(const RegionConfig* region) const;
};

}  // namespace gpumem
