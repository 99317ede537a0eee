// gpumem trace gen: per-thread traces from the generators (docs/workloads.md).
//
// Wiring, in the parent `trace` command: keep a TraceGenArgs beside its
// other arguments, call add_trace_gen_command(*trace, gen_args) where the
// other subcommands are declared, and when `*gen_args.gen` was parsed,
// return trace_gen_command(gen_args). InputError escapes to the caller (the
// one catch in gpumem_main).
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace gpumem::cli {

struct TraceGenArgs {
  CLI::App* gen = nullptr;  // set by add_trace_gen_command: which options were given
  std::string kind;         // strided, transpose, random, stencil, bfs
  std::string out, form;
  bool quiet = false;
  // Placement: a region of an application (--config, --app, --region), or a physical base.
  std::string config, app, region;
  uint64_t base = 0;
  unsigned process = 0;
  // Every kind but bfs.
  unsigned width = 4;
  uint32_t threads = 0;  // --thread-count; 0: the kind's default
  std::string old_threads;  // --threads, refused
  unsigned warps_per_block = 0;
  uint64_t count = 1, stride = 0, step = 0, range = uint64_t{1} << 20;
  std::string op = "read";
  uint32_t rows = 256, cols = 256, grid_width = 256, grid_height = 256;
  uint64_t seed = 1;
  // bfs
  unsigned scale = 10, edge_factor = 16;
  std::string edges;
  uint32_t source = 0;
  uint32_t items_per_warp = 32;
};

// Declares `gen` on `trace` (the `gpumem trace` command), filling `args`.
CLI::App* add_trace_gen_command(CLI::App& trace, TraceGenArgs& args);

// Generates and writes the trace; prints a summary unless quiet. Returns
// the exit status (0); input errors throw InputError.
int trace_gen_command(const TraceGenArgs& args);

}  // namespace gpumem::cli
