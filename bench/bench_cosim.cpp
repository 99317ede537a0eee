// Co-simulation rates, measured in one run, for each RTL block: the fast mode
// (--cc model clocked from C++, every response checked), the bare Verilated
// model driven by a plain loop with the same pins and no scoreboard, and the
// pin-level mode (--sc model under an sc_clock). Prints the rates and the
// ratios fast/bare and fast/pin.
//   gpumem_bench_cosim [--block translator|tlb|all] [--transactions N] [--pin-transactions N]
//                      [--tlb-translations N] [--tlb-pin-translations N] [--rounds R] [--seed S]
//
// Only one Verilated model of a design is alive at a time (Verilator 5.006
// deadlocks when one of two live models of a design is destroyed); each
// pin-level run has a child process of its own, as SystemC elaborates once
// per process.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cosim_rates.hpp"
// Declares sc_main extern "C".
#include <systemc>

namespace gpumem::bench {

Rate in_child_process(const std::function<Rate()>& run) {
  std::fflush(nullptr);  // nothing buffered is written twice
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork");
  if (pid == 0) {
    close(fd[0]);
    Rate r;
    try {
      r = run();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pin-level run: %s\n", e.what());
      r.failed = true;
    }
    const bool written = write(fd[1], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
    std::fflush(nullptr);
    _exit(written ? 0 : 1);  // no kernel teardown: the parent has what it needs
  }
  close(fd[1]);
  Rate r;
  const bool got = read(fd[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!got) r.failed = true;
  return r;
}

}  // namespace gpumem::bench

namespace {

using namespace gpumem::bench;

void print(const char* block, const char* unit, const BlockRates& r) {
  auto line = [&](const char* name, const Rate& rate) {
    std::printf("%-10s %-44s %8.2f M %s/s  (%6.2f M cycles/s)\n", block, name, rate.per_second() / 1e6, unit,
                rate.cycles_per_second() / 1e6);
  };
  line("fast   --cc model + driver + scoreboard:", r.fast);
  line("bare   --cc model, plain loop, same pins:", r.bare);
  line("pin    --sc model, sc_clock + scoreboard:", r.pin);
  std::printf("%-10s ratio_fast_to_bare: %.3f  (goal >= 0.5)\n", block, r.fast.per_second() / r.bare.per_second());
  std::printf("%-10s ratio_fast_to_pin: %.2f  (goal >= 5)\n", block, r.fast.per_second() / r.pin.per_second());
  // The fast mode clocks the bare loop's model through the same pins and
  // checks every response besides, so it cannot outrun the bare loop:
  // bare/pin is the most fast/pin can be, whatever the test bench costs.
  std::printf("%-10s bound_bare_to_pin: %.2f  (the most ratio_fast_to_pin can reach; no goal)\n", block,
              r.bare.per_second() / r.pin.per_second());
  // Per cycle: bare = model, fast = model + test bench, pin = model + test
  // bench + SystemC's signals and scheduler. With SystemC's share as
  // measured, fast/pin >= 5 needs model + test bench <= SystemC / 4, and
  // fast/bare >= 0.5 needs test bench <= model.
  const double model_ns = 1e9 / r.bare.cycles_per_second(), fast_ns = 1e9 / r.fast.cycles_per_second(),
               systemc_ns = 1e9 / r.pin.cycles_per_second() - fast_ns, testbench_ns = fast_ns - model_ns;
  const double budget_ns = std::min(model_ns, systemc_ns / 4 - model_ns);
  std::printf("%-10s ns a cycle: model %.0f, test bench %.0f, SystemC %.0f; ", block, model_ns, testbench_ns, systemc_ns);
  if (budget_ns >= 0) std::printf("both goals need a test bench of at most %.0f (no goal)\n", budget_ns);
  else std::printf("no test bench meets fast/pin 5: the model alone is over a quarter of SystemC's share (no goal)\n");
}

bool failed(const BlockRates& r) { return r.fast.failed || r.bare.failed || r.pin.failed; }

}  // namespace

int sc_main(int argc, char* argv[]) {
  BenchOptions translator{5'000'000, 1'000'000, 1, 3}, tlb{3'000'000, 500'000, 1, 3};
  std::string block = "all";
  for (int i = 1; i < argc; ++i) {
    auto next = [&] { return std::strtoull(argv[++i], nullptr, 10); };
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--block") && has_value) block = argv[++i];
    else if (!std::strcmp(argv[i], "--transactions") && has_value) translator.transactions = next();
    else if (!std::strcmp(argv[i], "--pin-transactions") && has_value) translator.pin_transactions = next();
    else if (!std::strcmp(argv[i], "--tlb-translations") && has_value) tlb.transactions = next();
    else if (!std::strcmp(argv[i], "--tlb-pin-translations") && has_value) tlb.pin_transactions = next();
    else if (!std::strcmp(argv[i], "--rounds") && has_value) translator.rounds = tlb.rounds = static_cast<unsigned>(next());
    else if (!std::strcmp(argv[i], "--seed") && has_value) translator.seed = tlb.seed = next();
    else {
      std::fprintf(stderr,
                   "usage: %s [--block translator|tlb|all] [--transactions N] [--pin-transactions N] "
                   "[--tlb-translations N] [--tlb-pin-translations N] [--rounds R] [--seed S]\n",
                   argv[0]);
      return 2;
    }
  }
  const bool run_translator = block == "all" || block == "translator", run_tlb = block == "all" || block == "tlb";
  if ((!run_translator && !run_tlb) || translator.rounds < 1 || translator.transactions < translator.rounds ||
      tlb.transactions < tlb.rounds || translator.pin_transactions < 1 || tlb.pin_transactions < 1) {
    std::fprintf(stderr, "--block translator, tlb or all; --rounds at least 1 and at most each block's fast count; "
                         "pin-level counts at least 1\n");
    return 2;
  }
  const gpumem::Config cfg = gpumem::load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml");
  int status = 0;
  if (run_translator) {
    const BlockRates r = bench_translator(cfg, translator);
    std::printf("workload: seeded random translator traffic (configs/default.yaml): ~80%% request offers, ~70%% "
                "response ready, ~3%% register writes; %llu transactions fast and bare (%u rounds, alternating), %llu "
                "pin-level\n",
                static_cast<unsigned long long>(r.fast.transactions), translator.rounds,
                static_cast<unsigned long long>(r.pin.transactions));
    if (failed(r)) status = 1;
    else print("translator", "transactions", r);
  }
  if (run_tlb) {
    const BlockRates r = bench_tlb(cfg, tlb);
    std::printf("workload: seeded random TLB translations (configs/default.yaml, tree-PLRU): up to 4 in flight, walks, "
                "fills, ~70%% response ready, a flush in ~1/1600 cycles; %llu translations fast and bare (%u rounds, "
                "alternating; bare replays a fast run's pins), %llu pin-level\n",
                static_cast<unsigned long long>(r.fast.transactions), tlb.rounds,
                static_cast<unsigned long long>(r.pin.transactions));
    if (failed(r)) status = 1;
    else print("tlb", "translations", r);
  }
  return status;
}
