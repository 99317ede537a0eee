// One task type's mapping as the config writes it (translator.tasks[i]): the
// firmware programs it, the explorer and the profile store compare and
// recommend mappings in this form (docs/config-reference.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/types.hpp"

namespace gpumem {

struct TaskMapping {
  unsigned task_type = 0;
  Scheme scheme = Scheme::kNone;
  std::vector<uint32_t> xor_vectors;  // one XOR control vector per channel bit
  std::vector<uint64_t> matrix_rows;  // scheme matrix: row j, the address bits whose XOR is channel bit c_j
  std::string baseline;  // a published mapping named in the config (its rows fill matrix_rows), else ""
  uint64_t seed = 1;     // the random baseline's
};

}  // namespace gpumem
