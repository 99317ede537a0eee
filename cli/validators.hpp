// Option checks every subcommand shares.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "base/text.hpp"

namespace gpumem::cli {

// CLI11 takes "-1" for an unsigned option and wraps it. The option's own
// range, where it has one, is checked after (and named by CLI11).
inline const CLI::Validator kUnsigned(
    [](std::string& s) {
      uint64_t v = 0;
      return gpumem::parse_unsigned(s, v) == gpumem::NumberParse::kOk ? std::string()
                                                                       : "'" + s + "' is not an unsigned integer (decimal or 0x hex)";
    },
    "UINT");
// A path option given as "" (an unset shell variable) must not quietly mean
// "no file".
inline const CLI::Validator kPath([](std::string& s) { return s.empty() ? std::string("empty path") : std::string(); }, "PATH");
// Likewise a list whose empty value would mean "not given".
inline const CLI::Validator kList([](std::string& s) { return s.empty() ? std::string("empty list") : std::string(); }, "LIST");

}  // namespace gpumem::cli
