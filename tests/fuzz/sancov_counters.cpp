// The bounds of the inline 8-bit coverage counters (the linker's
// __sancov_cntrs section), for fuzz_system.cpp. Compiled without coverage
// instrumentation: in an instrumented file the coverage pass declares these
// symbols itself, and a second declaration there left the module's counters
// unregistered with libFuzzer (it then saw no coverage at all).
#include <cstdint>

extern "C" {
extern uint8_t __start___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
}

namespace gpumem::fuzz {

uint8_t* sancov_counters_begin() { return __start___sancov_cntrs; }
uint8_t* sancov_counters_end() { return __stop___sancov_cntrs; }

}  // namespace gpumem::fuzz
