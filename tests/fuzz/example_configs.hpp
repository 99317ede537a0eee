// The example configs a fuzz target runs each input against, loaded from the
// source tree (a target keeps them in a static: loaded once per process).
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace gpumem::fuzz {

inline std::vector<Config> load_examples(std::initializer_list<const char*> files) {
  std::vector<Config> out;
  for (const char* f : files) out.push_back(load_config(std::string(GPUMEM_SOURCE_DIR) + "/" + f));
  return out;
}

}  // namespace gpumem::fuzz
