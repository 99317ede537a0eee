// Text as traces and register scripts write it: fields trimmed of blanks,
// unsigned numbers in decimal or hexadecimal after 0x, 64 bits, nothing
// around them. (YAML configs take more forms: config_reader.hpp.)
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace gpumem {

inline std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

enum class NumberParse { kOk, kNotANumber, kOutOfRange };

inline NumberParse parse_unsigned(const std::string& s, uint64_t& out) {
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const std::string digits = hex ? s.substr(2) : s;
  if (digits.empty() || digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos)
    return NumberParse::kNotANumber;
  errno = 0;
  out = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
  return errno == ERANGE ? NumberParse::kOutOfRange : NumberParse::kOk;
}

}  // namespace gpumem
