// Translator co-simulation rates, measured in one process: the fast mode
// (TranslatorCosim::run_random: --cc model clocked from C++, every response
// checked), the bare Verilated model driven by a plain loop with the same
// pins and no scoreboard, and the pin-level mode (--sc model under an
// sc_clock). Prints the rates and the ratios fast/bare and fast/pin.
//   gpumem_bench_cosim [--transactions N] [--pin-transactions N] [--rounds R] [--seed S]
//
// Only one Verilated model is alive at a time (Verilator 5.006 deadlocks when
// one of two live models of a design is destroyed); the pin-level run comes
// last because SystemC elaborates once per process.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vgpumem_xor_translator.h"
#include "translator_cosim.hpp"
#include "translator_pin_cosim.hpp"
#include "verilated.h"
// After verilated.h: with SystemC's macros defined first it expects
// systemc.h's global using-declarations. Declares sc_main extern "C".
#include <systemc>

namespace {

using Clock = std::chrono::steady_clock;
using namespace gpumem::tb;

struct Rate {
  uint64_t transactions = 0, cycles = 0;
  double seconds = 0;
  void add(uint64_t t, uint64_t c, Clock::time_point t0) {
    transactions += t;
    cycles += c;
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  double per_second() const { return transactions / seconds; }
  double cycles_per_second() const { return cycles / seconds; }
};

// The floor: the model, the stimulus and the clock, nothing else. Clocked as
// TranslatorDriver::cycle does (inputs with the clock low, then the edge).
uint64_t bare_loop(uint64_t seed, unsigned address_bits, const RandomRun& run, uint64_t& cycles) {
  VerilatedContext context;
  Vgpumem_xor_translator dut(&context, "translator");
  dut.clk_i = 0;
  dut.rst_ni = 0;
  for (int i = 0; i < 2; ++i) {
    dut.clk_i = 0;
    dut.eval();
    dut.clk_i = 1;
    dut.eval();
  }
  dut.clk_i = 0;
  dut.rst_ni = 1;
  dut.eval();
  RandomStimulus stimulus(seed, address_bits, run);
  uint64_t taken = 0;
  bool accepted = false;
  cycles = 2;
  while (taken < run.transactions) {
    const TranslatorPins& p = stimulus.next(accepted);
    dut.clk_i = 0;
    dut.req_valid_i = p.req_valid;
    dut.req_addr_i = p.req_addr;
    dut.req_task_i = p.req_task;
    dut.rsp_ready_i = p.rsp_ready;
    dut.reg_we_i = p.reg_we;
    dut.reg_addr_i = static_cast<uint16_t>(p.reg_addr);
    dut.reg_wdata_i = p.reg_wdata;
    dut.eval();
    accepted = p.req_valid && dut.req_ready_o;
    taken += dut.rsp_valid_o && p.rsp_ready;
    dut.clk_i = 1;
    dut.eval();
    ++cycles;
  }
  dut.final();
  return taken;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  uint64_t transactions = 5'000'000, pin_transactions = 1'000'000, seed = 1;
  unsigned rounds = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--transactions") && i + 1 < argc) transactions = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--pin-transactions") && i + 1 < argc) pin_transactions = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: %s [--transactions N] [--pin-transactions N] [--rounds R] [--seed S]\n", argv[0]);
      return 2;
    }
  }
  if (rounds < 1 || transactions < rounds || pin_transactions < 1) {
    std::fprintf(stderr, "--rounds at least 1 and at most --transactions; --pin-transactions at least 1\n");
    return 2;
  }
  const gpumem::Config cfg = gpumem::load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml");

  // Fast and bare alternate, first one then the other, round by round, so
  // that neither gets the warmer caches or the quieter machine throughout.
  RandomRun run;
  run.transactions = transactions / rounds;
  Rate fast, bare;
  for (unsigned r = 0; r < rounds; ++r) {
    for (int k = 0; k < 2; ++k) {
      const bool fast_now = (k == 0) == (r % 2 == 0);
      const uint64_t round_seed = seed + r;
      const auto t0 = Clock::now();
      if (fast_now) {
        TranslatorCosim cosim(cfg, round_seed);
        if (!cosim.run_random(run)) {
          std::fprintf(stderr, "fast mode: mismatch\n%s", cosim.scoreboard().first_mismatch()->report().c_str());
          return 1;
        }
        fast.add(cosim.scoreboard().compared(), cosim.cycles(), t0);
      } else {
        uint64_t cycles = 0;
        const uint64_t taken = bare_loop(round_seed, cfg.memory.address_bits, run, cycles);
        bare.add(taken, cycles, t0);
      }
    }
  }

  Rate pin;
  {
    RandomRun pin_run;
    pin_run.transactions = pin_transactions;
    const auto t0 = Clock::now();  // elaboration included: it is part of every pin-level run
    TranslatorPinCosim cosim(cfg, seed);
    if (!cosim.run_random(pin_run)) {
      std::fprintf(stderr, "pin-level mode: mismatch\n%s", cosim.scoreboard().first_mismatch()->report().c_str());
      return 1;
    }
    pin.add(cosim.scoreboard().compared(), cosim.cycles(), t0);
  }

  std::printf("workload: seeded random translator traffic (configs/default.yaml): ~80%% request offers, ~70%% response "
              "ready, ~3%% register writes; %llu transactions fast and bare (%u rounds, alternating), %llu pin-level\n",
              static_cast<unsigned long long>(fast.transactions), rounds,
              static_cast<unsigned long long>(pin.transactions));
  auto line = [](const char* name, const Rate& r) {
    std::printf("%-44s %8.2f M transactions/s  (%6.2f M cycles/s)\n", name, r.per_second() / 1e6,
                r.cycles_per_second() / 1e6);
  };
  line("fast   --cc model + driver + scoreboard:", fast);
  line("bare   --cc model, plain loop, same pins:", bare);
  line("pin    --sc model, sc_clock + scoreboard:", pin);
  std::printf("ratio_fast_to_bare: %.3f  (goal >= 0.5)\n", fast.per_second() / bare.per_second());
  std::printf("ratio_fast_to_pin: %.2f  (goal >= 5)\n", fast.per_second() / pin.per_second());
  return 0;
}
