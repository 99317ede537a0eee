// The L1 and the prefetch unit against the model without them, in one run
// (docs/performance.md, "L1 and prefetch unit"): a BFS trace through
//   no L1 / an L1 without prefetching / with the stride / with the BFS prefetcher,
// each simulation in a child process (SystemC elaborates once a process).
// Prints each run's simulation rate and makespan, and the two ratios the
// goals are stated in: the rate with the BFS prefetcher over the rate
// without prefetching (goal at least 0.75), and a request's host cost with
// the L1 over without it (goal at most 4/3).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <systemc>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cli/compare_prefetch.hpp"
#include "config/config.hpp"
#include "sources/bfs_trace.hpp"
#include "sources/graph.hpp"
#include "sources/placement.hpp"
#include "sources/thread_trace_io.hpp"
#include "params/frontend_from_config.hpp"

namespace {

struct Rate {
  double per_second = 0, seconds = 0;
  uint64_t requests = 0, makespan = 0;
};

Rate run(const gpumem::Config& cfg, const std::string& trace) {
  const nlohmann::json j = gpumem::cli::run_threads_in_child(cfg, trace);
  Rate r;
  r.seconds = j.at("wall_seconds").get<double>();
  r.requests = j.at("requests").get<uint64_t>();
  r.makespan = j.at("makespan").get<uint64_t>();
  r.per_second = r.seconds > 0 ? static_cast<double>(r.requests) / r.seconds : 0;
  return r;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  CLI::App app{"The L1 and the prefetch unit against the model without them"};
  std::string config_path = GPUMEM_SOURCE_DIR "/configs/examples/bfs-prefetch.yaml";
  unsigned scale = 16, items_per_warp = 256, rounds = 1;
  app.add_option("--config", config_path, "config with an l1 section and one application region (default: configs/examples/bfs-prefetch.yaml)");
  app.add_option("--scale", scale, "R-MAT scale of the BFS graph (default 16)")->check(CLI::Range(4u, 22u));
  app.add_option("--items-per-warp", items_per_warp, "worklist items a warp walks (default 256)")->check(CLI::Range(32u, 1u << 20));
  app.add_option("--rounds", rounds, "runs of each, the fastest kept (default 1)")->check(CLI::Range(1u, 10u));
  CLI11_PARSE(app, argc, argv);
  try {
    gpumem::Config cfg = gpumem::load_config(config_path);
    if (!cfg.l1.present || !cfg.has_mmu() || cfg.address_space.applications.empty() ||
        cfg.address_space.applications[0].regions.empty())
      throw std::runtime_error(config_path + ": needs an l1 section and an application with a region for the graph");
    const auto& application = cfg.address_space.applications[0];
    char path[] = "/tmp/gpumem-bench-prefetch-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file");
    close(fd);
    gpumem::BfsLayout layout;
    {
      std::FILE* out = std::fopen(path, "wb");
      gpumem::RmatOptions r;
      r.scale = scale;
      const gpumem::CsrGraph g = gpumem::build_csr(gpumem::rmat_edges(r));
      gpumem::BfsTraceOptions o;
      o.place = gpumem::region_placement(cfg, application.name, application.regions[0].name);
      o.items_per_warp = items_per_warp;
      auto sink = gpumem::write_thread_trace(out, gpumem::ThreadTraceForm::kBinary);
      layout = gpumem::generate_bfs_trace(g, o, *sink).layout;
      sink->finish();
      std::fclose(out);
    }
    // The classifier on this graph's arrays, whatever the config says.
    cfg.prefetch.ranges_given = true;
    cfg.prefetch.ranges = {{{layout.worklist, layout.worklist + 4 * uint64_t{layout.vertices}},
                            {layout.vertexlist, layout.vertexlist + 4 * (uint64_t{layout.vertices} + 1)},
                            {layout.edgelist, layout.edgelist + 4 * uint64_t{layout.edges}},
                            {layout.visitedlist, layout.visitedlist + 4 * uint64_t{layout.vertices}}}};
    auto best = [&](const gpumem::Config& c) {
      Rate b;
      for (unsigned i = 0; i < rounds; ++i) {
        const Rate r = run(c, path);
        if (r.per_second > b.per_second) b = r;
      }
      return b;
    };
    gpumem::Config no_l1 = cfg, none = cfg, stride = cfg, bfs = cfg;
    no_l1.l1.present = false;
    no_l1.prefetch.kind = gpumem::PrefetchKind::kNone;
    none.prefetch.kind = gpumem::PrefetchKind::kNone;
    stride.prefetch.kind = gpumem::PrefetchKind::kStride;
    bfs.prefetch.kind = gpumem::PrefetchKind::kBfs;
    const Rate r_no_l1 = best(no_l1), r_none = best(none), r_stride = best(stride), r_bfs = best(bfs);
    std::remove(path);
    std::printf("BFS, R-MAT scale %u, %u items a warp, %s\n", scale, items_per_warp, config_path.c_str());
    auto line = [](const char* name, const Rate& r) {
      std::printf("  %-28s %9llu requests in %.3f s: %.3f M requests/s, makespan %llu cycles\n", name,
                  (unsigned long long)r.requests, r.seconds, r.per_second / 1e6, (unsigned long long)r.makespan);
    };
    line("no L1", r_no_l1);
    line("L1, no prefetching", r_none);
    line("L1, stride prefetcher", r_stride);
    line("L1, BFS prefetcher", r_bfs);
    std::printf("  rate with the BFS prefetcher / without prefetching: %.2f (goal >= 0.75)\n", r_bfs.per_second / r_none.per_second);
    std::printf("  rate with the stride prefetcher / without prefetching: %.2f\n", r_stride.per_second / r_none.per_second);
    std::printf("  host cost of a request with the L1 / without: %.2f (goal <= 1.33)\n", r_no_l1.per_second / r_none.per_second);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpumem_bench_prefetch: %s\n", e.what());
    return 1;
  }
  return 0;
}
