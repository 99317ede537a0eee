// What gpumem_bench_cosim measures per block: the fast mode, the bare
// Verilated model with the same pins (the floor) and the pin-level mode.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>

#include "config/config.hpp"

namespace gpumem::bench {

using Clock = std::chrono::steady_clock;

struct Rate {
  uint64_t transactions = 0, cycles = 0;
  double seconds = 0;
  bool failed = false;  // a mismatch (reported on stderr where it happened)
  void add(uint64_t t, uint64_t c, Clock::time_point t0) {
    transactions += t;
    cycles += c;
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  double per_second() const { return transactions / seconds; }
  double cycles_per_second() const { return cycles / seconds; }
};

struct BlockRates {
  Rate fast, bare, pin;
};

struct BenchOptions {
  uint64_t transactions, pin_transactions, seed;  // per block
  unsigned rounds;                                // fast and bare alternate round by round
};

// Fast and bare alternate round by round (fast first in even rounds), so that
// neither always runs first on a cold machine; round r uses seed o.seed + r.
// `fast(seed)` returns false on a mismatch, which ends the bench.
template <typename Fast, typename Bare>
bool alternate_rounds(const BenchOptions& o, Fast&& fast, Bare&& bare) {
  for (unsigned r = 0; r < o.rounds; ++r)
    for (int k = 0; k < 2; ++k) {
      if ((k == 0) == (r % 2 == 0)) {
        if (!fast(o.seed + r)) return false;
      } else {
        bare(o.seed + r);
      }
    }
  return true;
}

// SystemC elaborates once per process: `run` (a pin-level run) goes to a
// child process of its own, so each block's bench gets a fresh kernel.
Rate in_child_process(const std::function<Rate()>& run);

// The pin-level mode's rate on `transactions` (elaboration included: it is
// part of every pin-level run), in a child process; a mismatch is reported
// on stderr and marks the rate failed.
template <typename PinCosim, typename RandomRun>
Rate pin_level_rate(const char* block, const Config& cfg, uint64_t seed, uint64_t transactions) {
  return in_child_process([&] {
    Rate pin;
    RandomRun run;
    run.transactions = transactions;
    run.reset_per_65536 = 0;
    const auto t0 = Clock::now();
    PinCosim cosim(cfg, seed);
    if (!cosim.run_random(run)) {
      std::fprintf(stderr, "%s pin-level mode: mismatch\n%s", block, cosim.scoreboard().first_mismatch()->report().c_str());
      pin.failed = true;
    }
    pin.add(cosim.transactions(), cosim.cycles(), t0);
    return pin;
  });
}

BlockRates bench_translator(const Config& cfg, const BenchOptions& o);
BlockRates bench_tlb(const Config& cfg, const BenchOptions& o);

}  // namespace gpumem::bench
