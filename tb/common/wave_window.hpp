// FST waves of a window of cycles. Tracing every cycle costs several times
// the run, so a failing run is re-run with tracing from shortly before the
// failure (XiangShan difftest does the same).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tb/common/protocol_checker.hpp"

namespace gpumem::tb {

struct WaveWindow {
  std::string path;  // empty: no waves
  uint64_t from_cycle = 0;
};

// What a failing co-simulation leaves behind: the FST file of the window
// before the first mismatch, a replay file holding the command that
// reproduces the run, and the layout opened on the failing edge. Paths as
// written: under the folder given.
struct MismatchArtifacts {
  std::string waves, replay;
  std::string view;         // the layout opened on the failing edge; empty without waves
  std::string layout_note;  // what the view shows: "the contract's 15 ports, then 93 signals of the design"
  bool reproduced = false;  // the re-run failed at the same cycle (passed: ended at the same cycle)
};

// The same run again (the seed makes it identical) with FST waves of the
// `window` cycles before the first mismatch, into <dir>/<block>-seed<S>.fst;
// <dir>/<block>-seed<S>.gtkw, a layout of the signals those waves hold,
// opened on the failing edge; and <dir>/<block>-seed<S>.replay holding the
// gpumem command that reproduces it from any folder. `rerun` builds a fresh
// co-simulation with the given wave window and runs it, returning the cycle
// of its first failure, or its last cycle when it passed; no other model of the block may be alive
// then (Verilator 5.006 deadlocks when one of two live models of the same
// design is destroyed).
struct ReplayCommand {
  std::string program;  // the gpumem writing it, absolute; "" names `gpumem` on the PATH
  std::string block;    // also the waves' top scope
  std::string layout;   // the saved GTKWave file in waves/ for the project's RTL; "" makes one from the waves
  std::vector<std::string> ports;  // the contract's, in the port table's order
  std::string config_path;
  uint64_t seed, transactions;
  bool count_all;
  uint64_t hang_cycles;     // written when it is not kDefaultHangCycles
  std::string extra_flags;  // e.g. " --mode pin", with any path in it absolute and quoted
  bool passed = false;      // a passing run's last window (--waves-when always), not a failure's
};
MismatchArtifacts write_mismatch_artifacts(const ReplayCommand& command, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window, const std::function<uint64_t(const WaveWindow&)>& rerun);

}  // namespace gpumem::tb
