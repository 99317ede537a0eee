// The translator's three runs: TranslatorCosim (fast), the bare --cc model
// with TranslatorStimulus's pins and no scoreboard, TranslatorPinCosim (pin).
#include <cstdio>

#include "Vgpumem_xor_translator.h"
#include "cosim_rates.hpp"
#include "tb/common/verilated_harness.hpp"
#include "tb/translator/translator_cosim.hpp"
#include "tb/translator/translator_pin_cosim.hpp"
#include "verilated.h"

namespace gpumem::bench {

namespace {

using namespace gpumem::tb;

// The floor: the model, the stimulus and the clock, nothing else. Clocked as
// the fast mode does (tb/common/fast_bench.hpp) (inputs with the clock low, then the edge).
uint64_t bare_loop(uint64_t seed, const Config& cfg, const TranslatorRandomRun& run, uint64_t& cycles) {
  VerilatedContext context;
  Vgpumem_xor_translator dut(&context, "translator");
  cycles = reset_cycles(dut);  // the inputs are zero: idle
  TranslatorStimulus stimulus(seed, translator_bench_params(cfg, rtl_translator_geometry()), rtl_translator_geometry(), run);
  uint64_t taken = 0;
  bool accepted = false;
  while (taken < run.transactions) {
    const TranslatorPins& p = stimulus.next(accepted, 0);  // no scoreboard: nothing counted as discarded
    dut.clk_i = 0;
    dut.req_valid_i = p.req_valid;
    dut.req_addr_i = p.req_addr;
    dut.req_task_type_i = p.req_task_type;
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

BlockRates bench_translator(const Config& cfg, const BenchOptions& o) {
  BlockRates rates;
  TranslatorRandomRun run;
  run.transactions = o.transactions / o.rounds;
  // The bare loop has no scoreboard to count the requests a reset loses, so
  // neither run resets mid-traffic: the same pins in both.
  run.reset_per_65536 = 0;
  const bool agreed = alternate_rounds(
      o,
      [&](uint64_t seed) {
        const auto t0 = Clock::now();
        TranslatorCosim cosim(cfg, seed);
        if (!cosim.run_random(run)) {
          std::fprintf(stderr, "translator fast mode: mismatch\n%s", cosim.scoreboard().first_mismatch()->report().c_str());
          return false;
        }
        rates.fast.add(cosim.transactions(), cosim.cycles(), t0);
        return true;
      },
      [&](uint64_t seed) {
        const auto t0 = Clock::now();
        uint64_t cycles = 0;
        const uint64_t taken = bare_loop(seed, cfg, run, cycles);
        rates.bare.add(taken, cycles, t0);
      });
  if (!agreed) {
    rates.fast.failed = true;
    return rates;
  }
  rates.pin = pin_level_rate<TranslatorPinCosim, TranslatorRandomRun>("translator", cfg, o.seed, o.pin_transactions);
  return rates;
}

}  // namespace gpumem::bench
