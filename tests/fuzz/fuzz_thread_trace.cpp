// libFuzzer target: the per-thread trace (docs/frontend.md) in either form,
// read and ordered to its end by the L1 sequence generator, against the BFS
// example (an address space, 16 SMs) and a physical config. Any input
// either orders to its end or is refused with an InputError naming where;
// the ordering never issues more requests than the records it read.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "example_configs.hpp"
#include "frontend/l1_sequence.hpp"
#include "sources/thread_trace_io.hpp"
#include "fuzz_target.hpp"
#include "params/frontend_from_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<gpumem::Config> configs =
      gpumem::fuzz::load_examples({"configs/examples/bfs.yaml", "configs/examples/table1-xor.yaml"});
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const gpumem::Config& cfg : configs) {
    gpumem::fuzz::expect_input_errors_only("thread_trace", [&] {
      std::istringstream in(text);
      auto source = gpumem::read_thread_trace(in, "fuzz.trace");
      gpumem::L1SequenceGenerator gen(gpumem::frontend_params(cfg), *source);
      gpumem::MemoryInit init;
      while (gen.next_memory_init(init)) {}
      std::vector<gpumem::L1Request> issued;
      uint64_t requests = 0;
      while (gen.tick(issued)) {
        requests += issued.size();
        issued.clear();
      }
      requests += issued.size();
      if (requests > gen.stats().thread_accesses) gpumem::fuzz::finding("thread_trace", "more requests than records");
    });
  }
  return 0;
}
