// gpumem cosim's options (docs/cosim.md). The command itself is run_cosim
// of tb/cosim_run.hpp, which the mutation check's runner calls too.
#pragma once
#include <CLI/CLI.hpp>

#include "tb/cosim_run.hpp"

namespace gpumem::cli {

// Declares `cosim` and its options on `app`, filling `args` when parsed.
CLI::App* add_cosim_command(CLI::App& app, tb::CosimOptions& args);

}  // namespace gpumem::cli
