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
#include "tb/common/coverage.hpp"

namespace gpumem::tb {

inline Config default_config() { return load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml"); }
inline Config lru_config() { return load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/tlb-lru.yaml"); }

// A new empty folder under the test's temporary directory.
inline std::string temp_dir(const char* name) {
  std::string dir = ::testing::TempDir() + name + "-XXXXXX";
  if (!mkdtemp(dir.data())) throw std::runtime_error("mkdtemp " + dir);
  return dir;
}

// The coverage as `gpumem cosim` prints it: two runs that agree print the same.
inline std::string coverage_text(const std::vector<const CoverageGroup*>& groups) {
  std::ostringstream out;
  print_coverage(out, groups);
  return out.str();
}

// Every bin of every group hit at least once, else the unhit ones by name.
inline ::testing::AssertionResult every_bin_hit(const std::vector<const CoverageGroup*>& groups) {
  const auto unhit = unhit_bins(groups);
  if (unhit.empty()) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "bins never hit:";
  for (const auto& u : unhit) failure << " " << u;
  return failure;
}

inline std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace gpumem::tb
