// Opening a file the user named (config, trace): the one place that says why
// it cannot be read, in the InputError form every bad input takes
// (docs/errors.md).
#pragma once
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "base/input_error.hpp"

namespace gpumem {

// `what` names the file's role: "config", "trace".
inline std::unique_ptr<std::ifstream> open_input_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "", "is a folder, not a " + what + " file");
  auto in = std::make_unique<std::ifstream>(path);
  if (!*in) throw InputError(path, 0, "", "cannot open " + what + " file: " + std::strerror(errno));
  return in;
}

}  // namespace gpumem
