// Hexadecimal as every message, report and generated file writes it:
// "0x" and lower-case digits, at least `digits` of them; upper case where a
// register map's convention asks for it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpumem {

inline std::string hex(uint64_t v, int digits = 0) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return b;
}

inline std::string hex_upper(uint64_t v, int digits = 0) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%0*llX", digits, static_cast<unsigned long long>(v));
  return b;
}

}  // namespace gpumem
