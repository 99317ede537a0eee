// The workload as the config describes it (`workload:`): synthetic request
// generators, merged by issue cycle. The config reads them; the front end
// runs them (sources/workload.hpp; docs/config-reference.md, "workload").
#pragma once
#include <cstdint>

namespace gpumem {

// One generator, workload[i].
struct GeneratorConfig {
  enum class Kind : uint8_t { kStrided, kRandom } kind = Kind::kStrided;
  unsigned task_type = 0;      // physical mode: the task type of every request
  unsigned process = 0;        // with an address space: the issuing process; base is a VA
  uint64_t base = 0;
  uint64_t stride = 64;       // strided
  uint64_t range = 0;         // random: addresses in [base, base + range) (required);
                              // strided: wrap back to base after range bytes (0: never)
  uint64_t count = 1000;
  unsigned size = 64;
  double write_fraction = 0;  // share of writes (strided: every k-th request is a write)
  uint64_t seed = 1;
  uint64_t start_cycle = 0;
  uint64_t issue_interval = 1;  // cycles between two requests of this generator
  int line = 0;                 // where it was declared, for later error messages
};

}  // namespace gpumem
