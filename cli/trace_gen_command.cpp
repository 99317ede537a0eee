#include "cli/trace_gen_command.hpp"

#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "base/output_file.hpp"
#include "base/readable.hpp"
#include "base/text.hpp"
#include "cli/validators.hpp"
#include "config/config.hpp"
#include "sources/bfs_trace.hpp"
#include "sources/graph.hpp"
#include "sources/pattern_generators.hpp"
#include "sources/placement.hpp"
#include "sources/thread_trace_io.hpp"
#include "params/frontend_from_config.hpp"
#include "cli/help_examples.hpp"

namespace gpumem::cli {

namespace {

// Decimal, or hexadecimal after 0x, as traces write numbers; rewritten to
// decimal for CLI11, which would read a leading 0 as octal.
const CLI::Validator kNumber(
    [](std::string& s) {
      uint64_t v = 0;
      if (parse_unsigned(s, v) != NumberParse::kOk) return "'" + s + "' is not an unsigned integer (decimal or 0x hex)";
      s = std::to_string(v);
      return std::string();
    },
    "UINT");

// The options that belong to some kinds only; given with another, an error.
struct KindOption {
  const char* flag;
  const char* kinds;  // space-separated
};
constexpr KindOption kKindOptions[] = {
    {"--width", "strided transpose random stencil"}, {"--thread-count", "strided transpose random stencil"},
    {"--count", "strided random"}, {"--op", "strided random"}, {"--stride", "strided"}, {"--step", "strided"},
    {"--range", "random"}, {"--seed", "random bfs"}, {"--rows", "transpose"}, {"--cols", "transpose"},
    {"--grid-width", "stencil"}, {"--grid-height", "stencil"}, {"--scale", "bfs"}, {"--edge-factor", "bfs"},
    {"--edges", "bfs"}, {"--source", "bfs"}, {"--items-per-warp", "bfs"},
};

bool given(const TraceGenArgs& a, const char* flag) { return a.gen->count(flag) > 0; }

void check_kind_options(const TraceGenArgs& a) {
  for (const KindOption& o : kKindOptions) {
    const std::string kinds = std::string(" ") + o.kinds + " ";
    if (given(a, o.flag) && kinds.find(" " + a.kind + " ") == std::string::npos)
      throw InputError("", 0, o.flag, std::string("is not an option of ") + a.kind + " (it is one of: " + o.kinds + ")");
  }
  if (!a.edges.empty())
    for (const char* flag : {"--scale", "--edge-factor", "--seed"})
      if (given(a, flag)) throw InputError("", 0, flag, "generates an R-MAT graph; --edges reads one from a file instead");
}

Placement placement(const TraceGenArgs& a) {
  if (!a.app.empty() || !a.region.empty()) {
    if (a.app.empty()) throw InputError("", 0, "--app", "--region names a region of an application: give --app too");
    if (a.region.empty()) throw InputError("", 0, "--region", "--app places the data in one of its regions: give --region too");
    if (a.config.empty()) throw InputError("", 0, "--config", "--app and --region name a region of a config's address space: give --config");
    if (given(a, "--base")) throw InputError("", 0, "--base", "the data goes at the start of the region (--region); --base is for physical addresses");
    if (given(a, "--process")) throw InputError("", 0, "--process", "the process is the application's (--app)");
    return region_placement(load_config(a.config), a.app, a.region);
  }
  unsigned address_bits = 64;
  if (!a.config.empty()) {
    const Config cfg = load_config(a.config);
    if (cfg.has_mmu())
      throw InputError(a.config, 0, "--app", "the config has an address space: name the application and the region the data goes in (--app, --region)");
    address_bits = cfg.memory.address_bits;
  }
  return physical_placement(a.process, a.base, address_bits);
}


std::string where(const Placement& p) {
  return (p.region_key.empty() ? "task type " : "process ") + std::to_string(p.process);
}

// The options every pattern kind shares; the kind's defaults where not given.
template <typename Options>
Options pattern_options(const TraceGenArgs& a, const Placement& place) {
  Options o;
  o.place = place;
  o.width = a.width;
  if (given(a, "--thread-count")) o.threads = a.threads;
  o.warps_per_block = a.warps_per_block;
  return o;
}

GeneratorSummary generate_pattern(const TraceGenArgs& a, const Placement& place, ThreadTraceSink& sink) {
  const Op op = a.op == "write" ? Op::kWrite : Op::kRead;
  if (a.kind == "strided") {
    auto o = pattern_options<StridedOptions>(a, place);
    if (given(a, "--stride")) o.stride = a.stride;
    if (given(a, "--step")) o.step = a.step;
    o.count = a.count;
    o.op = op;
    return generate_strided(o, sink);
  }
  if (a.kind == "random") {
    auto o = pattern_options<RandomOptions>(a, place);
    o.range = a.range;
    o.count = a.count;
    o.seed = a.seed;
    o.op = op;
    return generate_random(o, sink);
  }
  if (a.kind == "transpose") {
    auto o = pattern_options<TransposeOptions>(a, place);
    o.rows = a.rows;
    o.cols = a.cols;
    return generate_transpose(o, sink);
  }
  auto o = pattern_options<StencilOptions>(a, place);
  o.grid_width = a.grid_width;
  o.grid_height = a.grid_height;
  return generate_stencil(o, sink);
}

void generate_bfs(const TraceGenArgs& a, const Placement& place, ThreadTraceSink& sink, std::ostream& report) {
  EdgeList edges;
  std::string graph;
  if (!a.edges.empty()) {
    edges = read_edge_list_file(a.edges);
    graph = a.edges;
  } else {
    RmatOptions r;
    r.scale = a.scale;
    r.edge_factor = a.edge_factor;
    r.seed = a.seed;
    edges = rmat_edges(r);
    graph = "R-MAT scale " + std::to_string(a.scale) + ", edge factor " + std::to_string(a.edge_factor) + ", seed " + std::to_string(a.seed);
  }
  const CsrGraph g = build_csr(edges);
  BfsTraceOptions o;
  o.place = place;
  if (given(a, "--source")) o.source = a.source;
  o.warps_per_block = a.warps_per_block;
  o.items_per_warp = a.items_per_warp;
  const BfsTraceSummary s = generate_bfs_trace(g, o, sink);
  const BfsLayout& l = s.layout;
  report << "bfs over " << graph << ": " << counted(g.vertices(), "vertex", "vertices") << ", " << counted(edges.edges.size(), "edge", "edges")
         << " (" << g.self_loops << " self-loops dropped, " << g.duplicates << " parallel edges merged)\n"
         << "  source " << s.source << ": " << counted(s.levels, "level", "levels") << ", " << s.reached << " vertices reached; "
         << counted(s.kernels, "kernel", "kernels") << ", " << counted(s.records, "record", "records") << ", " << where(place) << "\n"
         << "  worklist " << hex(l.worklist) << ", vertexlist " << hex(l.vertexlist) << ", edgelist " << hex(l.edgelist)
         << ", visitedlist " << hex(l.visitedlist) << ", end " << hex(l.worklist + l.bytes) << "\n"
         << "  prefetch ranges (docs/prefetch.md): {worklist: [" << hex(l.worklist) << ", " << hex(l.worklist + 4 * uint64_t{l.vertices})
         << "], vertexlist: [" << hex(l.vertexlist) << ", " << hex(l.vertexlist + 4 * (uint64_t{l.vertices} + 1)) << "], edgelist: ["
         << hex(l.edgelist) << ", " << hex(l.edgelist + 4 * uint64_t{l.edges}) << "], visitedlist: [" << hex(l.visitedlist) << ", "
         << hex(l.visitedlist + 4 * uint64_t{l.vertices}) << "]}\n";
}

}  // namespace

CLI::App* add_trace_gen_command(CLI::App& trace, TraceGenArgs& a) {
  CLI::App* gen = trace.add_subcommand("gen", "Generate a per-thread trace: strided, transpose, random, stencil, or BFS over a graph (docs/workloads.md)");
  set_examples(*gen, {"gpumem trace gen bfs --config configs/examples/bfs.yaml --app bfs --region graph --scale 16 --out bfs.bin",
                      "gpumem trace gen bfs --config configs/examples/bfs-prefetch.yaml --app bfs --region graph --scale 16 --items-per-warp 256 --out bfs16.bin"});
  a.gen = gen;
  gen->add_option("kind", a.kind, "strided, transpose, random, stencil or bfs")
      ->required()
      ->check(CLI::IsMember({"strided", "transpose", "random", "stencil", "bfs"}));
  gen->add_option("--out", a.out, "the trace file to write")->required()->check(kPath);
  gen->add_option("--form", a.form, "csv or binary (default: binary for a .bin name, else csv)")->check(CLI::IsMember({"csv", "binary"}));
  gen->add_flag("--quiet", a.quiet, "print nothing on success");

  gen->add_option("--config", a.config, "YAML config: with --app and --region the data goes at the region's start; "
                                         "without an address space, addresses must fit memory.address_bits")->check(kPath);
  gen->add_option("--app", a.app, "the application (its process) whose region holds the data");
  gen->add_option("--region", a.region, "the region of --app the data starts at");
  gen->add_option("--base", a.base, "physical address of the data (default 0)")->transform(kNumber);
  gen->add_option("--process", a.process, "without an address space: the task type of every kernel (default 0)")
      ->transform(kNumber)->check(CLI::Range(0u, kMaxTaskTypes - 1));
  gen->add_option("--warps-per-block", a.warps_per_block, "the kernels' block size in warps (default 0: the config's frontend.warps_per_block)")
      ->transform(kNumber)->check(CLI::Range(0u, 32u));

  gen->add_option("--width", a.width, "bytes an access: 1, 2, 4, 8 or 16 (default 4)")->transform(kNumber)->check(CLI::IsMember({1, 2, 4, 8, 16}));
  gen->add_option("--thread-count", a.threads, "threads of the kernel (default: strided, random 1024; transpose, stencil one an element)")
      ->transform(kNumber)->check(CLI::Range(1u, 0xFFFFFFFFu));
  // --threads names a per-thread trace in run and explore; here it once
  // counted the kernel's threads, refused with the new name. (Listed in
  // --help: CLI11 names no hidden option in a validator's message.)
  gen->add_option("--threads", a.old_threads, "refused: now --thread-count (--threads names a per-thread trace in run and explore)")
      ->check(CLI::Validator(
          [](std::string& s) {
            return "names a per-thread trace in run and explore; the threads of a generated kernel are --thread-count " + s;
          },
          ""));
  gen->add_option("--count", a.count, "strided, random: accesses a thread (default 1)")->transform(kNumber);
  gen->add_option("--op", a.op, "strided, random: read or write (default read)")->check(CLI::IsMember({"read", "write"}));
  gen->add_option("--stride", a.stride, "strided: bytes from thread t's address to thread t+1's (default: the width)")->transform(kNumber);
  gen->add_option("--step", a.step, "strided: bytes from a thread's access to its next (default: threads * stride)")->transform(kNumber);
  gen->add_option("--range", a.range, "random: bytes the addresses spread over from the base (default 1 MiB)")->transform(kNumber);
  gen->add_option("--seed", a.seed, "random, bfs (R-MAT): the seed (default 1)")->transform(kNumber);
  gen->add_option("--rows", a.rows, "transpose: rows of A (default 256)")->transform(kNumber)->check(CLI::Range(1u, 0xFFFFFFFFu));
  gen->add_option("--cols", a.cols, "transpose: columns of A (default 256)")->transform(kNumber)->check(CLI::Range(1u, 0xFFFFFFFFu));
  gen->add_option("--grid-width", a.grid_width, "stencil: grid points a row (default 256)")->transform(kNumber)->check(CLI::Range(3u, 0xFFFFFFFFu));
  gen->add_option("--grid-height", a.grid_height, "stencil: rows (default 256)")->transform(kNumber)->check(CLI::Range(3u, 0xFFFFFFFFu));

  gen->add_option("--scale", a.scale, "bfs: R-MAT graph of 2^scale vertices (default 10)")->transform(kNumber)->check(CLI::Range(1u, 31u));
  gen->add_option("--edge-factor", a.edge_factor, "bfs: R-MAT edges a vertex (default 16)")->transform(kNumber)->check(CLI::Range(1u, 0xFFFFFFFFu));
  gen->add_option("--edges", a.edges, "bfs: read the graph from this edge-list file ('u v' a line) instead")->check(kPath);
  gen->add_option("--items-per-warp", a.items_per_warp,
                  "bfs: worklist items a warp of an expand kernel walks, 32 at a time (a multiple of 32; default 32: one a thread)")
      ->transform(kNumber)
      ->check(CLI::Range(32u, 1u << 24));
  gen->add_option("--source", a.source, "bfs: the root (default: the first vertex with an edge)")->transform(kNumber)->check(CLI::Range(0u, 0xFFFFFFFEu));
  return gen;
}

int trace_gen_command(const TraceGenArgs& a) {
  check_kind_options(a);
  const Placement place = placement(a);
  // The inputs exist (they were read, or are about to be): an output that
  // does not exist yet is neither.
  std::error_code ec;
  for (const auto& [input, what] : {std::pair{a.config, "config file (--config)"}, std::pair{a.edges, "edge-list file (--edges)"}})
    if (!input.empty() && std::filesystem::exists(a.out, ec) && std::filesystem::equivalent(a.out, input, ec))
      throw InputError(a.out, 0, "--out", std::string("is the ") + what + "; writing it would replace it");

  OutputFile out(a.out, "--out");  // opened first: a bad path must not cost the generation
  const ThreadTraceForm form = a.form == "binary" ? ThreadTraceForm::kBinary
                               : a.form == "csv"  ? ThreadTraceForm::kCsv
                                                  : thread_trace_form_for(a.out);
  const auto sink = write_thread_trace(out.stream(), form);
  std::ostringstream report;
  if (a.kind == "bfs") {
    generate_bfs(a, place, *sink, report);
  } else {
    const GeneratorSummary s = generate_pattern(a, place, *sink);
    report << a.kind << ": " << counted(s.records, "record", "records") << " in " << counted(s.kernels, "kernel", "kernels") << ", " << s.bytes
           << " bytes from " << hex(place.base) << ", " << where(place) << "\n";
  }
  sink->finish();
  out.commit();
  if (!a.quiet) std::cout << report.str() << "  -> " << a.out << "\n";
  return 0;
}

}  // namespace gpumem::cli
