// Text as traces and register scripts write it: fields trimmed of blanks,
// unsigned numbers in decimal or hexadecimal after 0x, 64 bits, nothing
// around them; and the number forms of the simulators whose traces gpumem
// imports (sources/trace_import.hpp). (YAML configs take more forms:
// config_reader.hpp.)
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem {

// `s` without the blanks around it, as a view into `s`; trim() copies it.
inline std::string_view trimmed(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}
inline std::string trim(const std::string& s) { return std::string(trimmed(s)); }

// A figure as a user wrote it: up to six decimals, no trailing zeros (1.35, 250).
inline std::string decimal_text(double v) {
  std::string s = std::to_string(v);
  if (s.find('.') == std::string::npos) return s;
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

enum class NumberParse { kOk, kNotANumber, kOutOfRange };

// Digits of `base` (8, 10 or 16), nothing else, into 64 bits.
inline NumberParse parse_digits(std::string_view digits, unsigned base, uint64_t& out) {
  if (digits.empty()) return NumberParse::kNotANumber;
  uint64_t v = 0;
  bool overflow = false;
  for (const char c : digits) {
    unsigned d = 16;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    if (d >= base) return NumberParse::kNotANumber;
    if (v > (~uint64_t{0} - d) / base) overflow = true;
    v = v * base + d;
  }
  out = v;
  return overflow ? NumberParse::kOutOfRange : NumberParse::kOk;
}

inline NumberParse parse_decimal(std::string_view s, uint64_t& out) { return parse_digits(s, 10, out); }

inline bool has_hex_prefix(std::string_view s) { return s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'); }

// Hexadecimal, with or without 0x (C++'s `in >> std::hex`, strtoul base 16).
inline NumberParse parse_hex(std::string_view s, uint64_t& out) {
  return parse_digits(has_hex_prefix(s) ? s.substr(2) : s, 16, out);
}

// As strtoul with base 0 reads a whole field: 0x hexadecimal, a leading 0
// octal, else decimal.
inline NumberParse parse_c_unsigned(std::string_view s, uint64_t& out) {
  if (has_hex_prefix(s)) return parse_digits(s.substr(2), 16, out);
  return parse_digits(s, s.size() > 1 && s[0] == '0' ? 8 : 10, out);
}

// Decimal with an optional sign, into 64 signed bits.
inline NumberParse parse_signed(std::string_view s, int64_t& out) {
  const bool minus = !s.empty() && s[0] == '-';
  const std::string_view digits = !s.empty() && (s[0] == '-' || s[0] == '+') ? s.substr(1) : s;
  uint64_t v = 0;
  const NumberParse p = parse_digits(digits, 10, v);
  if (p != NumberParse::kOk) return p;
  const uint64_t limit = minus ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (v > limit) return NumberParse::kOutOfRange;
  out = minus ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return NumberParse::kOk;
}

// A field of a blank-separated line and the 1-based column it starts at.
struct TextField {
  std::string text;
  int column = 0;
};

// Splits at runs of spaces and tabs; a trailing CR (a CRLF file) is dropped.
inline std::vector<TextField> split_blanks(const std::string& line) {
  std::vector<TextField> out;
  size_t pos = 0;
  while (true) {
    const size_t b = line.find_first_not_of(" \t\r", pos);
    if (b == std::string::npos) break;
    const size_t e = line.find_first_of(" \t\r", b);
    out.push_back({line.substr(b, e == std::string::npos ? std::string::npos : e - b), static_cast<int>(b) + 1});
    if (e == std::string::npos) break;
    pos = e;
  }
  return out;
}

// The column just past a line's last non-blank character: where a missing
// field would have started.
inline int end_column(const std::string& line) {
  const size_t e = line.find_last_not_of(" \t\r");
  return e == std::string::npos ? 1 : static_cast<int>(e) + 2;
}

// Decimal, or hexadecimal after 0x/0X: the form of gpumem's own traces.
inline NumberParse parse_unsigned(std::string_view s, uint64_t& out) {
  return has_hex_prefix(s) ? parse_digits(s.substr(2), 16, out) : parse_digits(s, 10, out);
}

}  // namespace gpumem
