// FST waves of a window of cycles. Tracing every cycle costs several times
// the run, so a failing run is re-run with tracing from shortly before the
// failure (XiangShan difftest does the same).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "tb/common/protocol_checker.hpp"

namespace gpumem::tb {

struct WaveWindow {
  std::string path;  // empty: no waves
  uint64_t from_cycle = 0;
};

// What a failing co-simulation leaves behind: the FST file of the window
// before the first mismatch and a replay file holding the command that
// reproduces the run.
struct MismatchArtifacts {
  std::string waves, replay;
  std::string view;         // the saved layout opened on the failing edge; empty if waves/ is not where it was built
  bool reproduced = false;  // the re-run failed at the same cycle
};

// The same run again (the seed makes it identical) with FST waves of the
// `window` cycles before the first mismatch, into <dir>/<block>-seed<S>.fst,
// and <dir>/<block>-seed<S>.replay holding the gpumem command that reproduces
// it. `rerun` builds a fresh co-simulation with the given wave window and runs
// it, returning the cycle of its first mismatch (0: none); no other model of
// the block may be alive then (Verilator 5.006 deadlocks when one of two live
// models of the same design is destroyed).
struct ReplayCommand {
  std::string block, layout;  // layout: the GTKWave file in waves/ for these waves
  std::string config_path;
  uint64_t seed, transactions;
  bool count_all;
  uint64_t hang_cycles;     // written when it is not kDefaultHangCycles
  std::string extra_flags;  // e.g. " --mode pin"
};
MismatchArtifacts write_mismatch_artifacts(const ReplayCommand& command, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window, const std::function<uint64_t(const WaveWindow&)>& rerun);

}  // namespace gpumem::tb
