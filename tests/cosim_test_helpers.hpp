// What the co-simulation tests share: the configs the RTL was verilated for,
// a scratch folder for waves and replay files, and reading one back.
#pragma once
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "config/config.hpp"

namespace gpumem::tb {

inline Config default_config() { return load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml"); }
inline Config lru_config() { return load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/tlb-lru.yaml"); }

// A new empty folder under the test's temporary directory.
inline std::string temp_dir(const char* name) {
  std::string dir = ::testing::TempDir() + name + "-XXXXXX";
  if (!mkdtemp(dir.data())) throw std::runtime_error("mkdtemp " + dir);
  return dir;
}

inline std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace gpumem::tb
