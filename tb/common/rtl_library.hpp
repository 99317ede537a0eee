// RTL verilated at run time: for a config whose geometry was not built in,
// and for a user's own RTL (`gpumem cosim --rtl`). The block's sources are
// checked against its port contract (rtl_port_check.hpp), verilated with
// the config's parameters into a shared library with the fast-mode adapter
// (rtl_adapter.hpp) and loaded. The library is kept in a cache folder keyed
// by everything that goes into it (the sources, the package, the
// parameters, the adapter, Verilator's and the compiler's versions), so the
// next run with the same inputs loads it without building (docs/cosim.md,
// "Any geometry, and your own RTL").
#pragma once
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/common/rtl_abi.h"
#include "tb/common/rtl_contract.hpp"
#include "tb/common/rtl_port_check.hpp"

namespace gpumem::tb {

// What goes into one library.
struct RtlBuildRequest {
  RtlContract contract;              // its ports, and the parameters to set when the module declares them
  std::vector<std::string> sources;  // SystemVerilog files; empty: the project's RTL of the block
  std::string top;                   // empty: the contract's module
  // Verilated with line coverage (Verilator's --coverage-line: every
  // statement block and branch arm a point), for gpumem cosim
  // --code-coverage; another library in the cache than without.
  bool code_coverage = false;
};

// A library ready to drive.
struct LoadedRtl {
  const GpumemRtlApi* api = nullptr;
  // The pin-level library's shell factory (rtl_sc_shell.hpp): it returns the
  // RtlScShell* made; null unless load_rtl was asked for the pin-level model.
  void* (*sc_create)(const char* name, uint64_t seed) = nullptr;
  std::vector<std::string> sources;  // as given (relative paths stay relative)
  std::string top;
  bool user_rtl = false;  // --rtl: not the project's RTL
  std::string library;    // the shared library's path in the cache
  bool code_coverage = false;  // verilated with --coverage-line
  bool built = false;     // verilated by this call; false: loaded from the cache
  double build_seconds = 0;
  std::vector<std::string> lint;  // Verilator's warnings on a user's RTL (they do not stop the build)
  std::vector<std::string> parameters_set;  // "NAME=value" for each contract parameter the module declares
  // What the user says the RTL implements (`gpumem cosim --schemes`, the
  // translator's schemes), "" for what its parameters declare.
  std::string schemes;
  // Edges from an operation's acceptance to its response before the
  // protocol checker calls it late; 0: no bound but the hang watchdog. The
  // project's RTL answers in 1; a user's may take longer (docs/cosim.md).
  unsigned max_latency = 1;
  // The bound as the protocol checker takes it (no bound: the largest).
  unsigned latency_bound() const { return max_latency ? max_latency : std::numeric_limits<unsigned>::max(); }
  // "rtl/gpumem_xor_translator.sv verilated for this config", "my.sv, top my_translator"
  std::string description() const;
  // What `gpumem cosim` needs to load it again, from any folder: " --rtl
  // '/abs/F' ... --top T" and the user's --max-latency and --schemes for a
  // user's RTL, "" for the project's (the config finds it).
  std::string cosim_flags() const;
};

// The RTL does not meet the contract, or does not compile: the messages name
// each port (or quote Verilator). `gpumem cosim` exits 2 with them.
struct RtlBuildError : std::runtime_error {
  RtlBuildError(const std::string& what, std::vector<std::string> details)
      : std::runtime_error(what), details(std::move(details)) {}
  std::vector<std::string> details;
};

// What the build needs from the machine is missing (a tool, a writable
// cache folder): the message names it.
struct RtlToolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The cache folder: $GPUMEM_RTL_CACHE, else $XDG_CACHE_HOME/gpumem/rtl, else
// ~/.cache/gpumem/rtl.
std::string rtl_cache_dir();

// Builds (or finds in the cache) and loads the library of `request`, and
// with `pin_level` its --sc library too (`sc_create`).
// `progress`: each step as it starts, and the time it took (a terminal's
// stderr, say); null for none. The tools are $GPUMEM_VERILATOR (default
// `verilator`) and $CXX (default the compiler gpumem was built with); a
// missing one is a std::runtime_error naming it. Loaded libraries stay
// loaded for the life of the process.
LoadedRtl load_rtl(const RtlBuildRequest& request, std::ostream* progress, bool pin_level = false);

// The project's RTL of a contract as load_rtl's port check reads it:
// verilator --xml-only with each contract parameter its module declares, in
// the folder `work` (its files and log stay there). Throws as load_rtl does.
RtlModule elaborate_project_rtl(const RtlContract& c, const std::string& work);

}  // namespace gpumem::tb
