// The CosimSession of any block over either of its benches (fast_bench.hpp,
// pin_bench.hpp): what `gpumem cosim --block <name>` runs. A block's
// traits give its words (fast_bench.hpp); the rest is this, once.
#pragma once
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "tb/common/cosim_session.hpp"
#include "tb/common/fast_bench.hpp"
#include "tb/common/pin_bench.hpp"
#include "tb/common/rtl_library.hpp"

namespace gpumem::tb {

template <typename Block, typename Bench>
class BlockSession final : public CosimSession {
 public:
  BlockSession(const typename Block::Config& cfg, uint64_t seed, const LoadedRtl* rtl)
      : bench_(cfg, seed, WaveWindow{}, rtl), cfg_(cfg), seed_(seed), rtl_(rtl) {}

  bool run_random(const CosimRun& run) override {
    if (Block::kResetBeforeRun) bench_.reset();
    return bench_.run_random(random_run(run), run.progress);
  }
  // "tlb (RTL rtl/gpumem_nested_tlb.sv, 64 entries, 4 ways, tree-PLRU, fast mode)"
  std::string description() const override {
    return std::string(Block::kName) + " (RTL " + (rtl_ ? rtl_->description() : Block::kRtlFile) +
           Block::details(bench_.geometry()) + ", " + (pin_level() ? "pin-level mode: SystemC clock" : "fast mode") +
           ")";
  }
  void print_counts(std::ostream& out) const override {
    Block::print_counts(out, bench_.scoreboard(), bench_.counts(), bench_.cycles());
  }
  std::vector<const CoverageGroup*> coverage() const override { return bench_.scoreboard().coverage().groups(); }

  uint64_t transactions() const override { return bench_.transactions(); }
  uint64_t cycles() const override { return bench_.cycles(); }
  uint64_t mismatches() const override { return bench_.scoreboard().mismatches(); }
  std::optional<std::string> first_mismatch_report() const override {
    const auto& m = bench_.scoreboard().first_mismatch();
    return m ? std::optional<std::string>(m->report()) : std::nullopt;
  }
  uint64_t first_mismatch_cycle() const override {
    const auto& m = bench_.scoreboard().first_mismatch();
    return m ? m->cycle : 0;
  }
  bool assertion_failed() const override { return bench_.assertion_failed(); }
  const std::optional<ProtocolViolation>& protocol_violation() const override {
    return bench_.scoreboard().protocol_violation();
  }

  bool pin_level() const override { return std::is_same_v<Bench, PinBench<Block>>; }
  bool write_code_coverage(const std::string& path) override {
    if constexpr (std::is_same_v<Bench, PinBench<Block>>) return false;
    else return bench_.write_code_coverage(path);
  }
  ArtifactWriter artifact_writer(const std::string& program, const std::string& config_path,
                                 const CosimRun& run) const override {
    const std::string flags = (pin_level() ? " --mode pin" : "") + (rtl_ ? rtl_->cosim_flags() : "");
    return [cfg = cfg_, seed = seed_, program, config_path, r = random_run(run), flags, rtl = rtl_](
               uint64_t cycle, const std::string& dir, bool passed) {
      return write_mismatch_artifacts<Block>(cfg, config_path, seed, r, cycle, dir, 1000, flags, rtl, program, passed);
    };
  }

 private:
  static typename Block::RandomRun random_run(const CosimRun& run) {
    typename Block::RandomRun r;
    r.transactions = run.transactions;
    r.stop_at_first_mismatch = run.stop_at_first_mismatch;
    r.hang_cycles = run.hang_cycles;
    return r;
  }

  Bench bench_;
  typename Block::Config cfg_;
  uint64_t seed_;
  const LoadedRtl* rtl_;
};

// The session of `Block` for cfg, in fast or pin-level mode. Throws
// std::invalid_argument when no RTL of the block runs cfg. `rtl`: a library
// verilated at run time (with its pin-level model for pin_level); null, the
// built-in model of cfg's geometry.
template <typename Block>
std::unique_ptr<CosimSession> make_cosim_session(const typename Block::Config& cfg, uint64_t seed, bool pin_level,
                                                 const LoadedRtl* rtl) {
  if (pin_level) return std::make_unique<BlockSession<Block, PinBench<Block>>>(cfg, seed, rtl);
  return std::make_unique<BlockSession<Block, FastBench<Block>>>(cfg, seed, rtl);
}

}  // namespace gpumem::tb
