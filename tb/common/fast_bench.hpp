// The fast-mode bench of any block: its Verilated --cc model clocked from
// C++, every edge fed to the block's scoreboard, and the seeded random run.
// A block brings a traits class (tb/<block>/<block>_block.hpp):
//
//   kName                       "tlb": the model's scope, `gpumem cosim --block`
//   kRtlFile                    the project's RTL of the block
//   kResetBeforeRun             the session resets once more before its run
//   Config, Geometry            what a bench is made from; the RTL's parameters
//   Params                      what the scoreboard and stimulus are built with:
//                               the model's parameter structs (they never see the config)
//   Pins, Edge, Context         a cycle's inputs, what its edge did, what the
//                               bench knows of an operation beyond its pins
//   Scoreboard, Stimulus        the model comparison; the random traffic
//   RandomRun, Counts           a run's settings; what its stimulus counted
//   kInputs, kOutputs           the port table's counts (input 0: clk_i)
//   drive(pins, inputs)         the pins as input values in contract order
//   sample(pins, outputs)       the edge's handshakes and response
//   geometry(cfg, rtl)          the built-in geometry equal to cfg's, or cfg's
//                               for a library verilated at run time; throws
//                               std::invalid_argument naming the differences
//   params(cfg, g)              cfg mapped onto Params, for an RTL of geometry g
//   scoreboard(params, g, seed) the block's scoreboard, against an RTL of geometry g
//   fast_model(g, seed, waves, rtl), pin_module(...)   the models behind both benches
//   details(g), print_counts(...), wave_layout(cfg)    the session's text; the
//                               saved GTKWave layout of the project's RTL
//   port_names()                the port table's names, in its order
//
// A Stimulus is made per run from (params, seed, run, scoreboard, first id) and
// answers done(), next() (the next cycle's pins), context(), observe(edge)
// (after the scoreboard saw it) and counts(). Both modes draw their pins from
// it in the same order, so one seed is one run in either mode.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/stop_request.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/common/rtl_model.hpp"
#include "tb/common/wave_window.hpp"

namespace gpumem::tb {

// The pins while the bench waits: nothing offered, no response taken.
template <typename Block>
typename Block::Pins idle_pins() {
  typename Block::Pins p;
  p.rsp_ready = false;
  return p;
}

// A random run is over: its transactions done, the first mismatch (unless
// every one is counted), an RTL assertion, a protocol violation, or a stop
// asked for by SIGINT or SIGTERM (read each cycle: the run ends at the
// next, and gpumem cosim reports what it checked until then).
template <typename Stimulus, typename Scoreboard, typename Run, typename Model>
bool run_over(const Stimulus& stimulus, const Scoreboard& sb, const Run& run, const Model& model) {
  return stimulus.done() || (run.stop_at_first_mismatch && sb.mismatches()) || model.assertion_failed() ||
         sb.protocol_violation() || stop_requested();
}
template <typename Scoreboard, typename Model>
bool run_passed(const Scoreboard& sb, const Model& model) {
  return sb.mismatches() == 0 && !model.assertion_failed() && !sb.protocol_violation();
}

// A block's --cc model behind its pins: built in (LinkedRtl) or verilated at
// run time (TableRtl), one virtual call a cycle.
template <typename Block>
class FastModel {
 public:
  virtual ~FastModel() = default;
  // rst_ni low for two cycles, the inputs idle.
  virtual void reset() = 0;
  // One cycle: the pins with the clock low, the handshakes sampled, then the
  // rising edge.
  virtual typename Block::Edge cycle(const typename Block::Pins& pins) = 0;
  // The pins put on with the clock low and the outputs read, no edge: what
  // the block answers combinationally (a register read) between two cycles.
  virtual typename Block::Edge peek(const typename Block::Pins& pins) = 0;
  virtual uint64_t cycles() const = 0;
  // An RTL assertion has failed (Verilator printed which, at the waves'
  // time); it does not abort the process, so the run can report it.
  virtual bool assertion_failed() const = 0;
  // The RTL's code coverage so far into `path` (verilator_coverage's .dat);
  // points only where it was verilated with coverage (rtl_abi.h).
  virtual bool coverage_write(const std::string& path) = 0;
};

template <typename Block, typename Rtl>
class FastModelOf final : public FastModel<Block> {
 public:
  // `model_args`: the model's constructor arguments before its waves flag (RtlHarness).
  template <typename... ModelArgs>
  explicit FastModelOf(const WaveWindow& waves, ModelArgs&&... model_args)
      : h_(waves, std::forward<ModelArgs>(model_args)...) {}
  void reset() override {
    Block::drive(idle_pins<Block>(), h_.inputs());
    h_.reset();
  }
  typename Block::Edge cycle(const typename Block::Pins& pins) override {
    Block::drive(pins, h_.inputs());
    h_.settle();
    const typename Block::Edge e = Block::sample(pins, h_.outputs());
    h_.rise();
    return e;
  }
  typename Block::Edge peek(const typename Block::Pins& pins) override {
    Block::drive(pins, h_.inputs());
    h_.peek();
    return Block::sample(pins, h_.outputs());
  }
  uint64_t cycles() const override { return h_.cycles(); }
  bool assertion_failed() const override { return h_.assertion_failed(); }
  bool coverage_write(const std::string& path) override { return h_.coverage_write(path); }

 private:
  RtlHarness<Rtl> h_;
};

// The block's model for a run: `Linked`, or with `rtl` the library's.
template <typename Block, typename Linked>
std::unique_ptr<FastModel<Block>> make_fast_model(uint64_t seed, const WaveWindow& waves, const LoadedRtl* rtl) {
  if (rtl) return std::make_unique<FastModelOf<Block, TableRtl>>(waves, *rtl->api, Block::kName, seed);
  return std::make_unique<FastModelOf<Block, Linked>>(waves, Block::kName, seed);
}

template <typename Block>
class FastBench {
 public:
  using Config = typename Block::Config;
  using Pins = typename Block::Pins;
  using Edge = typename Block::Edge;
  using Context = typename Block::Context;
  using RandomRun = typename Block::RandomRun;

  // Throws std::invalid_argument when no RTL of the block runs cfg (see
  // Block::geometry), before a model exists. With `waves`, the cycles from
  // waves.from_cycle on are written as FST. `rtl`: a library verilated at run
  // time for cfg (rtl_library.hpp); null, the built-in model.
  FastBench(const Config& cfg, uint64_t seed, const WaveWindow& waves = {}, const LoadedRtl* rtl = nullptr)
      : seed_(seed),
        geometry_(Block::geometry(cfg, rtl)),
        params_(Block::params(cfg, geometry_)),
        model_(Block::fast_model(geometry_, seed, waves, rtl)),
        scoreboard_(Block::scoreboard(params_, geometry_, seed)) {
    if (rtl) scoreboard_.set_max_latency(rtl->latency_bound());
    reset_model();
  }

  // Two more reset cycles, nothing in flight.
  void reset() {
    if (scoreboard_.outstanding())
      throw std::logic_error(std::string(Block::kName) + " co-simulation: reset with a response outstanding");
    reset_model();
    scoreboard_.reset_handshake();
  }
  // One cycle of arbitrary pin activity, fed to the scoreboard in edge order.
  Edge cycle(const Pins& pins, const Context& context = {}) {
    const Edge e = model_cycle(pins);
    scoreboard_.edge(pins, e, context, cycles_);
    // After a refused access, the block's whole register state against the model's.
    if constexpr (Block::kStateChecks)
      if (scoreboard_.state_check_due()) scoreboard_.check_state([this](const Pins& p) { return model_->peek(p); }, cycles_);
    return e;
  }
  // The seeded random run (Block::Stimulus); true when every answer agreed,
  // no RTL assertion failed and no handshake rule was broken.
  // `progress`: every 16 Ki cycles, the run's transactions finished so far.
  bool run_random(const RandomRun& run, const std::function<void(uint64_t)>& progress = nullptr) {
    typename Block::Stimulus stimulus(params_, seed_, run, scoreboard_, counts_.transactions);
    scoreboard_.set_hang_cycles(run.hang_cycles);
    while (!run_over(stimulus, scoreboard_, run, *model_)) {
      const Edge e = cycle(stimulus.next(), stimulus.context());
      if (!scoreboard_.protocol_violation()) stimulus.observe(e);
      if (progress && (cycles_ & 0x3FFF) == 0) progress(stimulus.counts().transactions);
    }
    counts_ += stimulus.counts();
    return run_passed(scoreboard_, *model_);
  }

  const typename Block::Scoreboard& scoreboard() const { return scoreboard_; }
  const typename Block::Geometry& geometry() const { return geometry_; }
  const typename Block::Counts& counts() const { return counts_; }  // of every random run so far
  uint64_t transactions() const { return counts_.transactions; }    // finished in random runs
  uint64_t cycles() const { return cycles_; }                       // rising edges, reset included
  bool assertion_failed() const { return model_->assertion_failed(); }
  bool write_code_coverage(const std::string& path) { return model_->coverage_write(path); }

 protected:
  // A cycle the scoreboard does not see: the caller feeds it what it needs.
  Edge model_cycle(const Pins& pins) {
    ++cycles_;
    return model_->cycle(pins);
  }
  Edge model_peek(const Pins& pins) { return model_->peek(pins); }
  typename Block::Scoreboard& mutable_scoreboard() { return scoreboard_; }

 private:
  void reset_model() {
    model_->reset();
    cycles_ = model_->cycles();
  }

  uint64_t seed_;
  typename Block::Geometry geometry_;
  typename Block::Params params_;
  std::unique_ptr<FastModel<Block>> model_;
  typename Block::Scoreboard scoreboard_;
  typename Block::Counts counts_{};
  uint64_t cycles_ = 0;  // the model's count, mirrored: the scoreboard reads it every cycle
};

// After a failing random run: the same run again in fast mode with FST waves
// of the `window` cycles before `fail_cycle`, their layout and a replay
// file (wave_window.hpp). No other fast model of the block may be alive
// (Verilator 5.006). A pin-level run (the same pins, cycle for cycle) passes
// `replay_flags` " --mode pin" so that the replay file repeats the run that
// failed; `rtl`: the library verilated at run time the run used (a user's
// gets a layout made from its waves, the project's the saved one);
// `program`: the gpumem the replay file runs ("": `gpumem` on the PATH);
// `passed`: the run passed and `fail_cycle` is its last cycle (--waves-when
// always), the window the last `window` cycles of the run.
template <typename Block>
MismatchArtifacts write_mismatch_artifacts(const typename Block::Config& cfg, const std::string& config_path,
                                           uint64_t seed, const typename Block::RandomRun& run, uint64_t fail_cycle,
                                           const std::string& dir, uint64_t window = 1000,
                                           const std::string& replay_flags = "", const LoadedRtl* rtl = nullptr,
                                           const std::string& program = "", bool passed = false) {
  const bool user_rtl = rtl && rtl->user_rtl;
  const ReplayCommand command{program,          Block::kName,     user_rtl ? "" : Block::wave_layout(cfg),
                              Block::port_names(), config_path,    seed,
                              run.transactions, !run.stop_at_first_mismatch, run.hang_cycles,
                              replay_flags,     passed};
  return write_mismatch_artifacts(command, fail_cycle, dir, window, [&](const WaveWindow& w) -> uint64_t {
    FastBench<Block> again(cfg, seed, w, rtl);  // destroyed here: the FST file is closed
    if (Block::kResetBeforeRun) again.reset();
    again.run_random(run);
    if (again.assertion_failed()) return again.cycles();
    if (const auto& v = again.scoreboard().protocol_violation()) return v->cycle;
    const auto& first = again.scoreboard().first_mismatch();
    return first ? first->cycle : again.cycles();  // a pass: where it ended
  });
}

}  // namespace gpumem::tb
