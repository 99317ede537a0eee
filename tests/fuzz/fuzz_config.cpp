// libFuzzer target: the YAML config loader as `gpumem check-config` runs it
// (parse, validate, allocate the address space). Any text either loads or is
// refused with an InputError; anything else (another exception, a crash, a
// sanitizer report, a hang) is a finding (docs/reliability.md, "Fuzzing").
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/input_error.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "fuzz_target.hpp"
#include "params/block_params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gpumem::fuzz::expect_input_errors_only("config", [&] {
    const gpumem::Config cfg = gpumem::parse_config(text, "fuzz.yaml");
    if (cfg.has_mmu()) gpumem::build_address_space(cfg, cfg.address_space.nesting);
  });
  return 0;
}
