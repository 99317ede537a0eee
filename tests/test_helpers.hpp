// Shared helpers for tests: build configs from YAML text.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "base/input_error.hpp"
#include "config/config.hpp"

namespace gpumem::test {

inline Config config_from(const std::string& yaml) { return parse_config(yaml, "test.yaml"); }

// A minimal valid config; `translator` is spliced in as the translator section.
inline std::string base_yaml(const std::string& translator_section, unsigned channels = 8,
                             unsigned address_bits = 32) {
  return "memory: {address_bits: " + std::to_string(address_bits) + ", channels: " + std::to_string(channels) +
         ", service_cycles: 1, max_outstanding: 16}\n" + translator_section;
}

// Runs `load` and checks that it throws an InputError at this file, line and
// key whose message holds `fragment` and starts with "file:line: " (the CLI
// prints what() as is). Accepting the input is a failure.
template <typename Load>
::testing::AssertionResult input_error_at(Load&& load, const std::string& file, int line, const std::string& key,
                                          const std::string& fragment) {
  try {
    load();
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (e.file() != file || e.line() != line || e.key() != key || what.find(fragment) == std::string::npos)
      return ::testing::AssertionFailure() << "got file '" << e.file() << "' line " << e.line() << " key '" << e.key()
                                           << "': " << what;
    const std::string prefix = file + (line ? ":" + std::to_string(line) : std::string()) + ": ";
    if (what.rfind(prefix, 0) != 0) return ::testing::AssertionFailure() << "message lacks '" << prefix << "': " << what;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw something other than InputError: " << e.what();
  }
  return ::testing::AssertionFailure() << "accepted";
}

// Runs `run` and checks that it throws an InputError with this key (a
// command-line flag's has no file) whose message holds `fragment`.
template <typename Run>
::testing::AssertionResult input_error_key(Run&& run, const std::string& key, const std::string& fragment) {
  try {
    run();
  } catch (const InputError& e) {
    if (e.key() != key || std::string(e.what()).find(fragment) == std::string::npos)
      return ::testing::AssertionFailure() << "key '" << e.key() << "': " << e.what();
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "accepted";
}

// A config that must be rejected: read as "name.yaml", it must fail at this
// line and key with a message holding `message`.
struct BadConfig {
  const char* what;
  std::string yaml;
  int line;             // 1-based line of the offending key or value; 0: no line
  const char* key;      // dotted key path
  const char* message;  // fragment of what()
};

inline ::testing::AssertionResult rejected_as(const BadConfig& c) {
  return input_error_at([&] { parse_config(c.yaml, "name.yaml"); }, "name.yaml", c.line, c.key, c.message);
}

}  // namespace gpumem::test
