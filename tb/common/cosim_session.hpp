// One co-simulation of one RTL block, in fast mode (the --cc model clocked
// from C++) or pin-level mode (the --sc model under a SystemC clock), as
// `gpumem cosim` runs it. BlockSession (block_session.hpp) implements it
// once for every block over both benches, so the command has one run path
// and a new block (the L1, the prefetcher) plugs in by adding its traits
// and a row to the command's block table.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tb/common/coverage.hpp"
#include "tb/common/protocol_checker.hpp"
#include "tb/common/wave_window.hpp"

namespace gpumem::tb {

struct CosimRun {
  uint64_t transactions = 1'000'000;  // what one is, is the block's: a request, a translation
  bool stop_at_first_mismatch = true;
  uint64_t hang_cycles = kDefaultHangCycles;
  // Called every 16 Ki cycles of the run with the transactions finished so
  // far (gpumem cosim's line on a terminal); none: not called.
  std::function<void(uint64_t done)> progress;
};

// Waves and a replay file from a fast-mode re-run of the same seed: after
// a failure (the cycle it failed at), or of a passing run (its last cycle,
// `passed`; --waves-when always): (cycle, folder, passed) -> the files written.
using ArtifactWriter = std::function<MismatchArtifacts(uint64_t cycle, const std::string& dir, bool passed)>;

class CosimSession {
 public:
  virtual ~CosimSession() = default;

  // The seeded random run; true when every answer agreed and no RTL assertion failed.
  virtual bool run_random(const CosimRun& run) = 0;

  // "translator (RTL rtl/gpumem_xor_translator.sv, fast mode)"
  virtual std::string description() const = 0;
  // The block's lines of the summary: what the run did, beyond the coverage.
  virtual void print_counts(std::ostream& out) const = 0;
  virtual std::vector<const CoverageGroup*> coverage() const = 0;

  virtual uint64_t transactions() const = 0;  // finished so far
  virtual uint64_t cycles() const = 0;        // rising edges, reset included
  virtual uint64_t mismatches() const = 0;
  virtual std::optional<std::string> first_mismatch_report() const = 0;
  virtual uint64_t first_mismatch_cycle() const = 0;  // 0 without one
  virtual bool assertion_failed() const = 0;
  // A broken handshake rule or a hang: the run stopped there.
  virtual const std::optional<ProtocolViolation>& protocol_violation() const = 0;

  virtual bool pin_level() const = 0;
  // The RTL's code coverage of the run into `path` (verilator_coverage's
  // .dat; gpumem cosim --code-coverage); false at pin level, which does not
  // keep it.
  virtual bool write_code_coverage(const std::string& path) = 0;
  // The writer outlives the session: a fast session must be destroyed before
  // it is called (Verilator 5.006 allows one model of a design at a time); a
  // pin-level one stays, as SystemC cannot elaborate again. `program`: the
  // gpumem the replay file runs, absolute.
  virtual ArtifactWriter artifact_writer(const std::string& program, const std::string& config_path,
                                         const CosimRun& run) const = 0;
};

}  // namespace gpumem::tb
