// libFuzzer target: register scripts as `gpumem regs --script` reads them
// (docs/register-map.md, "From the command line"). Any text either runs to
// its end on the bank of a config (at reset) or is refused
// with an InputError naming a line; a refused access changes no register.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "params/block_params.hpp"
#include "config/config.hpp"
#include "example_configs.hpp"
#include "fuzz_target.hpp"
#include "regs/register_access.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<gpumem::Config> configs =
      gpumem::fuzz::load_examples({"configs/default.yaml", "configs/examples/table1-xor.yaml"});
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const gpumem::Config& cfg : configs) {
    gpumem::RegisterBank bank(gpumem::register_params(cfg));
    gpumem::fuzz::expect_input_errors_only("register_script", [&] {
      std::istringstream in(text);
      std::ostringstream out;
      for (const gpumem::RegisterAccess& a : gpumem::read_register_script(in, "fuzz.txt")) {
        uint32_t before = 0;
        const bool readable = bank.read(a.offset, 4, before) == gpumem::RegStatus::kOk;
        try {
          gpumem::perform_register_access(bank, a, out);
        } catch (const gpumem::InputError&) {
          uint32_t after = 0;
          if (readable && (bank.read(a.offset, 4, after) != gpumem::RegStatus::kOk || after != before))
            gpumem::fuzz::finding("register_script", "a refused access changed its register");
          throw;
        }
      }
    });
  }
  return 0;
}
