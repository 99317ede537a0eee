// Prints the register map as a SystemVerilog package (the text of `gpumem
// regmap --format sv`). Built and run at CMake configure time, since
// verilate() runs Verilator while configuring, and as the build-time
// generator target gpumem_regmap_sv.
#include <iostream>

#include "regs/register_map.hpp"

int main() {
  std::cout << gpumem::register_map_systemverilog();
  return 0;
}
