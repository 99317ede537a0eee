// Other programs gpumem runs: Verilator, make and the compiler for RTL
// verilated at run time, verilator_coverage and genhtml for the RTL's code
// coverage. Each in a process group of its own, which a signal that ends
// gpumem kills whole (base/stop_request.hpp): make's compilers would
// otherwise run on.
#pragma once
#include <string>
#include <vector>

namespace gpumem {

// An executable: `name` with a slash as it is, else the first in $PATH; ""
// when there is none.
std::string find_tool(const std::string& name);

// Runs argv (argv[0] a path) with stdout and stderr appended to `log`; its
// exit status (-1: it could not start or did not exit).
int run_tool(const std::vector<std::string>& argv, const std::string& log);

}  // namespace gpumem
