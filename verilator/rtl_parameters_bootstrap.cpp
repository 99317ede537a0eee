// Prints the elaboration parameters of a block's RTL at a config's geometry
// as a CMake list of Verilator arguments (-GNAME=VALUE;...): the same
// parameters the port contract lists (`gpumem cosim --contract`), from the
// same functions. verilator/CMakeLists.txt builds it and runs it at
// configure time, when verilate() needs the built-in geometries, so a
// config is their only source.
//
//   rtl_parameters_bootstrap translator|tlb CONFIG
#include <exception>
#include <iostream>
#include <string>

#include "config/config.hpp"
#include "tb/tlb/tlb_parameters.hpp"
#include "tb/translator/translator_parameters.hpp"

int main(int argc, char** argv) {
  using namespace gpumem;
  const std::string block = argc == 3 ? argv[1] : "";
  if (block != "translator" && block != "tlb") {
    std::cerr << "usage: rtl_parameters_bootstrap translator|tlb CONFIG\n";
    return 2;
  }
  try {
    const Config cfg = load_config(argv[2]);
    const auto parameters = block == "translator" ? tb::translator_parameters(tb::translator_geometry_of_config(cfg))
                                                  : tb::tlb_parameters(tb::tlb_geometry_of_config(cfg));
    const char* separator = "";
    for (const tb::RtlContractParameter& p : parameters) {
      std::cout << separator << "-G" << p.name << "=" << p.value;
      separator = ";";
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return 0;
}
