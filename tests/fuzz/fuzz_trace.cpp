// libFuzzer target: the CSV request trace reader (docs/trace-format.md). The
// same text is read against a physical config and two with an MMU, so the
// example traces seed every mode; any text either reads to its end or is
// refused with an InputError naming a line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "example_configs.hpp"
#include "sources/trace_reader.hpp"
#include "fuzz_target.hpp"
#include "params/frontend_from_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<gpumem::Config> configs = gpumem::fuzz::load_examples(
      {"configs/default.yaml", "configs/examples/nested-pages.yaml", "configs/examples/table1-xor.yaml"});
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const gpumem::Config& cfg : configs) {
    gpumem::fuzz::expect_input_errors_only("trace", [&] {
      std::istringstream in(text);
      gpumem::CsvTraceReader reader(gpumem::request_limits(cfg), in, "fuzz.csv");
      gpumem::Request r;
      uint64_t records = 0;
      while (reader.next(r))
        if (++records > size) gpumem::fuzz::finding("trace", "more records than bytes");
    });
  }
  return 0;
}
