// Numbers as a person reads them in a report: a count with its noun in the
// singular or plural, a host time in one form everywhere.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpumem {

inline std::string counted(uint64_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

// Host (wall-clock) seconds, milliseconds kept: "0.222 s", "5.197 s", "412.006 s".
inline std::string host_seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f s", s);
  return b;
}

// A rate in millions a second, three decimals: "2.709 M requests/s".
inline std::string millions_per_second(double count, double seconds, const char* what) {
  char b[64];
  std::snprintf(b, sizeof b, "%.3f M %s/s", seconds > 0 ? count / seconds / 1e6 : 0.0, what);
  return b;
}

}  // namespace gpumem
