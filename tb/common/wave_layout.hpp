// The GTKWave layout of a failure's waves, made from the signals the FST
// file actually holds (read back with the fstapi Verilator ships), so that
// it names no signal the waves lack, whatever RTL wrote them: a user's
// design has other internal signals than the project's, and another
// geometry other widths. docs/cosim.md, "Debugging a mismatch with waves",
// says why the file is read rather than the design's ports and scopes
// predicted.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::tb {

// One variable of an FST file.
struct FstSignal {
  std::string scope;      // "translator.two_stage_translator"
  std::string name;       // "scheme_q[3]": with any unpacked index
  std::string range;      // "[1:0]"; "" for one bit
  unsigned width = 1;
  bool parameter = false;  // a parameter or localparam: a constant
  bool port = false;       // declared input, output or inout in its scope
  // As a layout names it: "translator.two_stage_translator.scheme_q[3][1:0]".
  std::string layout_name() const { return scope + "." + name + range; }
};

// Every variable, in the file's order (Verilator's: declaration order, scope
// by scope); empty when the file cannot be read.
std::vector<FstSignal> fst_signals(const std::string& path);

struct WaveLayout {
  std::string text;    // comment, flag and signal rows; no dump file, start or marker
  size_t ports = 0;    // the contract's ports shown (a struct port by its fields)
  size_t others = 0;   // rows of other signals
  size_t dropped = 0;  // saved rows the waves do not hold, left out
  size_t unlisted = 0;  // the design's signals beyond kMaxLayoutSignals, in the signal tree only
};

// A generated layout lists at most this many of the design's own signals:
// a TLB's entries alone are hundreds.
inline constexpr size_t kMaxLayoutSignals = 400;

// `top`: the waves' top scope (the block's name); `ports`: the contract's,
// in the port table's order.
//
// The saved layout at `saved_path` (waves/<block>.gtkw, arranged by hand for
// the project's RTL), each signal row matched to `signals` by name and
// written with the width the waves have (another geometry's), a row the
// waves lack left out, and a section left empty by that too. Empty text when
// the file cannot be read.
WaveLayout saved_wave_layout(const std::string& saved_path, const std::string& top,
                             const std::vector<std::string>& ports, const std::vector<FstSignal>& signals);

// For any other RTL (a user's): the contract's ports, then any other port,
// then every signal of the design below `top` that is neither a parameter,
// a loop variable nor the top module's copy of a port, scope by scope.
WaveLayout generated_wave_layout(const std::string& top, const std::vector<std::string>& ports,
                                 const std::vector<FstSignal>& signals);

}  // namespace gpumem::tb
