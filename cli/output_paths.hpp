// Outputs named on the command line: none may be an input or another output.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace gpumem::cli {

// `outputs`: (path, the flag that named it); empty paths are not given.
// Throws InputError naming the output and its flag.
void check_output_paths(const std::string& config, const std::string& trace,
                        const std::vector<std::pair<std::string, const char*>>& outputs);

}  // namespace gpumem::cli
