// Shared helpers for tests: build configs from YAML text.
#pragma once
#include <string>

#include "config.hpp"

namespace gpumem::test {

inline Config config_from(const std::string& yaml) { return parse_config(yaml, "test.yaml"); }

// A minimal valid config; `translator` is spliced in as the translator section.
inline std::string base_yaml(const std::string& translator_section, unsigned channels = 8,
                             unsigned address_bits = 32) {
  return "memory: {address_bits: " + std::to_string(address_bits) + ", channels: " + std::to_string(channels) +
         ", service_cycles: 1, max_outstanding: 16}\n" + translator_section;
}

}  // namespace gpumem::test
