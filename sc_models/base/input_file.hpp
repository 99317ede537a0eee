// Opening and reading a file the user named (config, trace, sweep spec, RTL):
// the one place that says why it cannot be read, in the InputError form
// every bad input takes (docs/errors.md).
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "base/input_error.hpp"

namespace gpumem {

// `what` names the file's role: "config", "trace".
inline void refuse_folder(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "", "is a folder, not a " + what + " file");
}

inline std::unique_ptr<std::ifstream> open_input_file(const std::string& path, const std::string& what) {
  refuse_folder(path, what);
  auto in = std::make_unique<std::ifstream>(path);
  if (!*in) throw InputError(path, 0, "", "cannot open " + what + " file: " + std::strerror(errno));
  return in;
}

// The whole text of such a file in one piece (a pipe too: no size asked),
// with the same errors. Sweeps read thousands of stats JSONs with it.
inline std::string read_input_file(const std::string& path, const std::string& what) {
  refuse_folder(path, what);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(path, 0, "", "cannot open " + what + " file: " + std::strerror(errno));
  std::string text;
  char buf[1 << 16];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f.get())) > 0;) text.append(buf, n);
  return text;
}

}  // namespace gpumem
