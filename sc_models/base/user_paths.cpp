#include "base/user_paths.hpp"

#include <filesystem>
#include <system_error>

namespace gpumem {

namespace fs = std::filesystem;

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  return (ec ? fs::path(path) : abs).lexically_normal().string();
}

std::string shown_path(const std::string& path) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  const fs::path abs = absolute_path(path);
  if (ec) return abs.string();
  const fs::path rel = abs.lexically_relative(cwd.lexically_normal());
  if (rel.empty() || *rel.begin() == "..") return abs.string();
  return rel.string();
}

std::string shell_quoted(const std::string& word) {
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string running_program() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpumem") : self.string();
}

}  // namespace gpumem
