// What every fuzz target asserts about bad input: it is refused with an
// InputError (the CLI's one-line error and exit 2), never with another
// exception. Anything else aborts, so libFuzzer keeps the input.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "base/input_error.hpp"

namespace gpumem::fuzz {

[[noreturn]] inline void finding(const char* target, const char* what) {
  std::fprintf(stderr, "fuzz %s: %s\n", target, what);
  std::abort();
}

template <typename Body>
void expect_input_errors_only(const char* target, Body&& body) {
  try {
    body();
  } catch (const InputError& e) {
    if (e.what()[0] == '\0') finding(target, "an InputError without a message");
  } catch (const std::exception& e) {
    finding(target, e.what());
  } catch (...) {
    finding(target, "a non-standard exception");
  }
}

}  // namespace gpumem::fuzz
