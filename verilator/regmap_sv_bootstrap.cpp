// Prints the SystemVerilog package gpumem_pkg (the text of `gpumem regmap
// --format sv`). Built and run at CMake configure time, since
// verilate() runs Verilator while configuring, and as the build-time
// generator target gpumem_regmap_sv.
#include <iostream>

#include "regs/rtl_package.hpp"

int main() {
  std::cout << gpumem::systemverilog_package();
  return 0;
}
