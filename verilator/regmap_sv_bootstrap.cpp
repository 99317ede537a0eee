// Prints the register map as a SystemVerilog package, built and run at CMake
// configure time: verilate() runs Verilator while configuring, before the
// gpumem executable (which generates the package at build time) exists.
#include <iostream>

#include "register_map.hpp"

int main() {
  std::cout << gpumem::register_map_systemverilog();
  return 0;
}
