// A file in the test's temporary folder (gtest's TempDir, the system's
// unless TEST_TMPDIR says otherwise), removed when the test program ends,
// so that the suite leaves nothing behind in a user's folder.
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace gpumem::test {

inline std::string temporary_file(const std::string& name, const std::string& text) {
  static std::vector<std::string> written;
  static const struct Remover {
    ~Remover() {
      for (const std::string& p : written) std::remove(p.c_str());
    }
  } remover;
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  written.push_back(path);
  return path;
}

}  // namespace gpumem::test
