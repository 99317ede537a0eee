// A count as a person reads it: "1 cycle", "2 cycles".
#pragma once
#include <cstdint>
#include <string>

namespace gpumem {

inline std::string counted(uint64_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

}  // namespace gpumem
