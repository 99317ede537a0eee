#include "output_paths.hpp"

#include <filesystem>

#include "base/input_error.hpp"

namespace gpumem::cli {

namespace {

// Two outputs on one file, or an output on an input, would lose data.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) return std::filesystem::equivalent(a, b, ec);
  return std::filesystem::weakly_canonical(std::filesystem::absolute(a), ec) ==
         std::filesystem::weakly_canonical(std::filesystem::absolute(b), ec);
}

}  // namespace

void check_output_paths(const std::string& config, const std::string& trace,
                        const std::vector<std::pair<std::string, const char*>>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto& [path, option] = outputs[i];
    if (path.empty()) continue;
    if (!config.empty() && same_file(path, config)) throw InputError(path, 0, option, "is the config file; writing it would replace the config");
    if (!trace.empty() && same_file(path, trace)) throw InputError(path, 0, option, "is the trace file; writing it would replace the trace");
    for (size_t k = 0; k < i; ++k)
      if (!outputs[k].first.empty() && same_file(outputs[k].first, path))
        throw InputError(path, 0, option, std::string("is also the ") + outputs[k].second + " file; give each output its own file");
  }
}

}  // namespace gpumem::cli
