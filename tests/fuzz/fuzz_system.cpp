// libFuzzer target: the whole-system read-after-write property
// (tests/system_case.hpp, docs/reliability.md) with the input's bytes as
// the generator's choices: a config the loader accepts and a per-thread
// trace, run through every block, every read checked against the oracle.
// Any stale byte, model error, hang or crash of the run is a finding.
//
// SystemC elaborates once per process, so each input runs in a forked child
// (tests/system_case_runner.hpp). libFuzzer only sees coverage counted in
// its own process: the child copies its inline 8-bit counters (the linker's
// __sancov_cntrs section) into shared memory before it exits, and the
// parent folds them into its own before libFuzzer reads them.
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../system_case_runner.hpp"
#include "fuzz_target.hpp"

namespace gpumem::fuzz {
// The counters' bounds, from a file the coverage pass does not see
// (sancov_counters.cpp says why).
uint8_t* sancov_counters_begin();
uint8_t* sancov_counters_end();
}  // namespace gpumem::fuzz

// libFuzzer's main is the process's; SystemC's library still asks for one.
int sc_main(int, char*[]) { return 0; }

namespace {

// The input's bytes, a few per choice; past its end, a generator seeded
// from the whole input, so that a short input is already a full case (a
// config of 64 channels needs the 12th choice to say so) and every mutation
// of it another one.
class ByteChooser : public gpumem::test::Chooser {
 public:
  ByteChooser(const uint8_t* data, size_t size) : data_(data), size_(size) {
    state_ = 0x9E3779B97F4A7C15ull ^ size;
    for (size_t i = 0; i < size; ++i) state_ = (state_ ^ data[i]) * 0x100000001B3ull;
  }
  unsigned pick(unsigned lo, unsigned hi) override {
    const uint64_t range = uint64_t{hi} - lo + 1;
    uint64_t v = 0;
    if (at_ < size_) {
      for (uint64_t r = range - 1; r > 0 && at_ < size_; r >>= 8) v = v << 8 | data_[at_++];
    } else {
      v = next();
    }
    return lo + static_cast<unsigned>(v % range);
  }

 private:
  uint64_t next() {  // splitmix64
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  const uint8_t* data_;
  size_t size_, at_ = 0;
  uint64_t state_;
};

uint8_t* counters = nullptr;
uint8_t* shared_counters = nullptr;
size_t counter_bytes = 0;

void copy_counters_out() {
  if (shared_counters) std::memcpy(shared_counters, counters, counter_bytes);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  counters = gpumem::fuzz::sancov_counters_begin();
  if (counters && gpumem::fuzz::sancov_counters_end() > counters) {
    counter_bytes = static_cast<size_t>(gpumem::fuzz::sancov_counters_end() - counters);
    void* m = mmap(nullptr, counter_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED) shared_counters = static_cast<uint8_t*>(m);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ByteChooser ch(data, size);
  const unsigned scale = ch.pick(0, 100);
  const gpumem::test::SystemCase c = gpumem::test::draw_system_case(ch, scale);
  if (shared_counters) std::memset(shared_counters, 0, counter_bytes);
  const gpumem::test::CaseOutcome o = gpumem::test::run_system_case(c, 20, copy_counters_out);
  if (shared_counters)
    for (size_t i = 0; i < counter_bytes; ++i)
      counters[i] = std::max(counters[i], shared_counters[i]);
  if (!o.ran || o.mismatches != 0) {
    const std::string what = (o.ran ? std::to_string(o.mismatches) + " stale bytes; first: " + o.first_mismatch : o.error) +
                             "\n--- " + c.summary + "\n--- case.yaml\n" + c.config + "--- case.csv\n" + c.trace;
    gpumem::fuzz::finding("system", what.c_str());
  }
  return 0;
}
