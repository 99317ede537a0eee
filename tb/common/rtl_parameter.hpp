// An RTL elaboration parameter as the port contract lists it and Verilator
// takes it (-GNAME=VALUE). Header-only: the configure-time generator of the
// built-in geometries (verilator/rtl_parameters_bootstrap.cpp) compiles it
// without the test bench.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace gpumem::tb {

struct RtlContractParameter {
  std::string name;   // the project's RTL's name for it
  std::string value;  // a SystemVerilog literal, as verilator -G takes it
  std::string from;   // the config key it comes from
};

// A list of bit positions as one packed literal, 8 bits per entry, entry 0
// in the low byte: {8, 9, 10, 11} -> 32'h0B0A0908 (unpack_positions in
// translator_parameters.hpp reads it back from a Verilated model).
inline std::string packed_positions(const std::vector<unsigned>& positions) {
  std::string hex;
  for (unsigned p : positions) {
    char byte[3];
    std::snprintf(byte, sizeof byte, "%02X", p & 0xFF);
    hex = byte + hex;
  }
  return std::to_string(8 * positions.size()) + "'h" + hex;
}

}  // namespace gpumem::tb
