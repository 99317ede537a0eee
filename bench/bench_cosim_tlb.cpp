// The TLB's three runs: TlbCosim (fast), the bare --cc model replaying the
// pins of a fast run with no scoreboard, TlbPinCosim (pin). The TLB's
// stimulus plays the MMU and reads the model TLB to choose its fills, so it
// cannot run without a scoreboard: the floor replays recorded pins instead,
// recorded before the clock starts.
#include <cstdio>
#include <vector>

#include "Vgpumem_nested_tlb.h"
#include "cosim_rates.hpp"
#include "tb/common/verilated_harness.hpp"
#include "tb/tlb/tlb_cosim.hpp"
#include "tb/tlb/tlb_pin_cosim.hpp"
#include "verilated.h"

namespace gpumem::bench {

namespace {

using namespace gpumem::tb;

// One cycle's pins in 16 bytes: the VA fits 56 bits, the four flags above it.
struct PackedPins {
  uint64_t va_flags, pte;
};
constexpr unsigned kFlagShift = 56;

std::vector<PackedPins> record_pins(const Config& cfg, uint64_t seed, const TlbRandomRun& run) {
  TlbCosim cosim(cfg, seed);
  TlbStimulus stimulus(tlb_bench_params(cfg), seed, run, cosim.scoreboard());
  std::vector<PackedPins> out;
  while (!stimulus.done()) {
    const TlbPins& p = stimulus.next();
    const uint64_t flags = uint64_t{p.flush} | uint64_t{p.req_valid} << 1 | uint64_t{p.req_fill} << 2 |
                           uint64_t{p.rsp_ready} << 3;
    out.push_back({p.req_va | flags << kFlagShift, p.req_pte});
    stimulus.observe(cosim.cycle(p, stimulus.context()));
  }
  return out;
}

// The floor: the model and the clock with the same pins, nothing else.
// Clocked as the fast mode does (tb/common/fast_bench.hpp) (inputs with the clock low, then the edge).
uint64_t bare_loop(const std::vector<PackedPins>& pins, uint64_t& cycles) {
  VerilatedContext context;
  Vgpumem_nested_tlb dut(&context, "tlb");
  dut.flush_i = dut.req_valid_i = dut.rsp_ready_i = 0;
  cycles = reset_cycles(dut);
  uint64_t taken = 0;
  constexpr uint64_t kVaMask = (uint64_t{1} << kFlagShift) - 1;
  for (const PackedPins& p : pins) {
    const unsigned flags = static_cast<unsigned>(p.va_flags >> kFlagShift);
    dut.clk_i = 0;
    dut.flush_i = flags & 1;
    dut.req_valid_i = (flags >> 1) & 1;
    dut.req_fill_i = (flags >> 2) & 1;
    dut.rsp_ready_i = (flags >> 3) & 1;
    dut.req_va_i = p.va_flags & kVaMask;
    dut.req_pte_i = p.pte;
    dut.eval();
    taken += dut.rsp_valid_o && dut.rsp_ready_i;
    dut.clk_i = 1;
    dut.eval();
    ++cycles;
  }
  dut.final();
  return taken;
}

}  // namespace

BlockRates bench_tlb(const Config& cfg, const BenchOptions& o) {
  BlockRates rates;
  TlbRandomRun run;
  run.transactions = o.transactions / o.rounds;
  run.reset_per_65536 = 0;  // the bare loop replays pins without a reset pin
  const bool agreed = alternate_rounds(
      o,
      [&](uint64_t seed) {
        const auto t0 = Clock::now();
        TlbCosim cosim(cfg, seed);
        if (!cosim.run_random(run)) {
          std::fprintf(stderr, "tlb fast mode: mismatch\n%s", cosim.scoreboard().first_mismatch()->report().c_str());
          return false;
        }
        rates.fast.add(cosim.transactions(), cosim.cycles(), t0);
        return true;
      },
      [&](uint64_t seed) {
        const std::vector<PackedPins> pins = record_pins(cfg, seed, run);  // untimed
        const auto t0 = Clock::now();
        uint64_t cycles = 0;
        bare_loop(pins, cycles);
        rates.bare.add(run.transactions, cycles, t0);  // the same pins finish the same translations
      });
  if (!agreed) {
    rates.fast.failed = true;
    return rates;
  }
  rates.pin = pin_level_rate<TlbPinCosim, TlbRandomRun>("tlb", cfg, o.seed, o.pin_transactions);
  return rates;
}

}  // namespace gpumem::bench
