// The pin-level bench of any block, for debugging: the RTL verilated as a
// SystemC module (--sc) under an sc_clock, wired with a signal per port of
// the block's table, driven by a stimulus thread and watched by a monitor
// that samples the handshakes at each rising edge and feeds the same
// scoreboard as the fast mode (fast_bench.hpp), in the same edge order. The
// stimulus is the fast mode's too: one seed gives its pins cycle for cycle,
// so any difference between the modes is the harness, not the traffic.
//
// SystemC elaborates once per process: make one bench, before the process's
// first sc_start, and run it once. This header has none of SystemC or
// Verilator (it is included beside --cc models); the sc_module is
// pin_module.hpp's, made by the block's pin-level .cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "tb/common/fast_bench.hpp"

namespace gpumem::tb {

// What every form of a block's sc_module shares: the run's state, read by
// the bench between runs of the kernel.
template <typename Block>
struct PinModule {
  PinModule(const typename Block::Config& c, uint64_t s, const typename Block::Geometry& g)
      : params(Block::params(c, g)), seed(s), geometry(g), scoreboard(Block::scoreboard(params, g, s)) {}
  virtual ~PinModule() = default;
  virtual bool assertion_failed() const = 0;  // in the model's own VerilatedContext
  virtual void run_kernel() = 0;              // sc_start until the stimulus pauses it

  typename Block::Params params;
  uint64_t seed;
  typename Block::Geometry geometry;
  typename Block::Scoreboard scoreboard;
  std::unique_ptr<typename Block::Stimulus> stimulus;  // made by run_random, before the kernel starts
  typename Block::RandomRun run;
  unsigned reset_cycles = 2;
  bool traffic = false;  // past the first reset: a low rst_ni is a reset in the middle of traffic
  bool started = false;
  uint64_t cycles = 0;
  std::function<void(uint64_t)> progress;  // every 16 Ki cycles: the run's transactions finished so far
};

template <typename Block>
class PinBench {
 public:
  using Config = typename Block::Config;

  // Elaborates the bench (Block::pin_module): throws std::invalid_argument
  // as the fast mode does when no RTL of the block runs cfg. With `waves`,
  // the cycles from waves.from_cycle on are written as FST from the SystemC
  // side (built-in models only). `rtl`: a library verilated at run time with
  // its pin-level model (load_rtl's pin_level).
  PinBench(const Config& cfg, uint64_t seed, const WaveWindow& waves = {}, const LoadedRtl* rtl = nullptr)
      : module_(Block::pin_module(cfg, seed, waves, rtl)) {
    if (rtl) module_->scoreboard.set_max_latency(rtl->latency_bound());
  }
  PinBench(const PinBench&) = delete;
  PinBench& operator=(const PinBench&) = delete;

  // Two more reset cycles before the run, as the fast mode's reset(), so the
  // cycle numbers stay the fast mode's.
  void reset() {
    if (module_->started) throw std::logic_error(std::string(Block::kName) + " pin-level co-simulation: reset after the run");
    module_->reset_cycles += 2;
  }
  // The seeded random run (see FastBench::run_random): runs the kernel until
  // the run is over. Once per object.
  bool run_random(const typename Block::RandomRun& run, const std::function<void(uint64_t)>& progress = nullptr) {
    PinModule<Block>& m = *module_;
    if (m.started)
      throw std::logic_error(std::string(Block::kName) +
                             " pin-level co-simulation: one run per object (SystemC elaborates once per process)");
    m.started = true;
    m.run = run;
    m.progress = progress;
    m.scoreboard.set_hang_cycles(run.hang_cycles);
    m.stimulus = std::make_unique<typename Block::Stimulus>(m.params, m.seed, run, m.scoreboard, counts_.transactions);
    m.run_kernel();
    counts_ += m.stimulus->counts();
    return run_passed(m.scoreboard, m);
  }

  const typename Block::Scoreboard& scoreboard() const { return module_->scoreboard; }
  const typename Block::Geometry& geometry() const { return module_->geometry; }
  const typename Block::Counts& counts() const { return counts_; }
  uint64_t transactions() const { return counts_.transactions; }
  uint64_t cycles() const { return module_->cycles; }  // rising edges, reset included (as the fast mode's)
  // An RTL assertion failed (Verilator printed which); the run stopped there.
  bool assertion_failed() const { return module_->assertion_failed(); }

 private:
  std::unique_ptr<PinModule<Block>> module_;
  typename Block::Counts counts_{};
};

}  // namespace gpumem::tb
