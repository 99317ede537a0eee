// The performance counters of a whole run (docs/register-map.md,
// "Performance counters"), as `gpumem run --stats-json` reports them per
// application, over random configs and traces: whatever the MMU, the
// mapping and the timing, no counter may say more than the run did. Each
// case runs the gpumem executable, since SystemC elaborates once per
// process; a failure prints the config and the trace (RC_LOG).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cli_helpers.hpp"
#include "params/block_params.hpp"
#include "random_config.hpp"

namespace gpumem::test {
namespace {

struct Page {
  uint64_t base, bytes;
  unsigned process;
};

// The pages a trace may touch: a few of the address space's, so that a page
// walked once is hit again while the walk's request is still on its way,
// and one that no region maps.
std::vector<Page> trace_pages(const Config& cfg, std::mt19937_64& rng) {
  std::vector<Page> pages;
  const PageGeometry geo = cfg.mmu.geometry();
  const AddressSpaceImage img = build_address_space(cfg, cfg.address_space.nesting);
  for (const PageMapping& m : img.pages) {
    if (!m.large_page) {
      pages.push_back({m.va, geo.small_bytes(), m.process});
      continue;
    }
    for (uint64_t u = 0; u < geo.units_per_large(); ++u)
      if (!geo.in_nested_region(m.va + u * geo.small_bytes(), m.nested_flag))
        pages.push_back({m.va + u * geo.small_bytes(), geo.small_bytes(), m.process});
  }
  std::shuffle(pages.begin(), pages.end(), rng);
  pages.resize(std::min<size_t>(pages.size(), 1 + rng() % 4));
  // VA 0 lies below every drawn region: its requests fault and reach no channel.
  pages.push_back({0, geo.small_bytes(), cfg.address_space.applications[0].process});
  return pages;
}

// Reads and writes over those pages, issued in bursts and gaps.
std::string draw_trace(const Config& cfg) {
  std::mt19937_64 rng(uniform<uint64_t>(0, ~uint64_t{0}));
  const std::vector<Page> pages = trace_pages(cfg, rng);
  const unsigned max_size = cfg.max_request_bytes();
  std::string t = "cycle,process,op,va,size\n";
  uint64_t cycle = 0;
  const unsigned count = uniform(1, 80);
  for (unsigned i = 0; i < count; ++i) {
    cycle += rng() % 4;
    const Page& p = pages[rng() % pages.size()];
    const unsigned size = 1u << (rng() % (log2_exact(max_size) + 1));
    const uint64_t address = p.base + (rng() % (p.bytes / size)) * size;
    t += std::to_string(cycle) + "," + std::to_string(p.process) + "," + (rng() % 3 ? "R" : "W") + "," + hex(address) + "," +
         std::to_string(size) + "\n";
  }
  return t;
}

class CounterProperties : public Cli {};

RC_GTEST_FIXTURE_PROP(CounterProperties, EveryCounterIsBoundedByTheRunsMakespanAndRequests, ()) {
  Drawn d = draw_config();
  // Slow channels and a short window queue requests, so arrivals spread out.
  const std::string memory = "memory: {service_cycles: " + std::to_string(uniform(1, 6)) +
                             ", max_outstanding: " + std::to_string(uniform(1, 24)) + ", ";
  d.yaml.replace(d.yaml.find("memory: {"), 9, memory);
  Config cfg;
  RC_PRE(load(d, cfg));
  RC_PRE(cfg.has_mmu());  // the stats JSON reports the counters per application
  const std::string trace = draw_trace(cfg);
  RC_LOG() << trace;
  write("c.yaml", d.yaml);
  write("t.csv", trace);
  const Result r = run({"run", "--config", path("c.yaml").string(), "--trace", path("t.csv").string(), "--stats-json",
                        path("s.json").string(), "--quiet"});
  RC_LOG() << r.err;
  RC_ASSERT(r.exit_code == 0);
  const nlohmann::json j = json("s.json");
  const uint64_t makespan = j.at("makespan");
  const uint64_t served = j.at("requests").get<uint64_t>() - j.at("faults").get<uint64_t>();
  const unsigned window = cfg.entropy_window();
  uint64_t counted = 0;
  for (const nlohmann::json& app : j.at("applications")) {
    const nlohmann::json& perf = app.at("performance");
    RC_LOG() << app.at("name").get<std::string>() << ": " << perf.dump() << ", makespan " << makespan << "\n";
    const uint64_t requests = perf.at("requests"), bytes = perf.at("bytes"), active = perf.at("active_cycles");
    uint64_t per_channel = 0;
    for (const auto& n : app.at("per_channel")) per_channel += n.get<uint64_t>();
    // A CSV trace has no L1 and no strided requests: each request that does
    // not fault reaches exactly one channel once.
    RC_ASSERT(requests == app.at("requests").get<uint64_t>() - app.at("faults").get<uint64_t>());
    RC_ASSERT(requests == per_channel);
    RC_ASSERT(requests <= bytes);
    RC_ASSERT(bytes <= requests * cfg.max_request_bytes());
    RC_ASSERT((requests == 0) == (active == 0));
    RC_ASSERT(active <= makespan + 1);
    RC_ASSERT(perf.at("windows").get<uint64_t>() == requests / window);
    RC_ASSERT(perf.at("mean_window_entropy").get<double>() >= 0.0);
    // Each n log2 n term is rounded to 2^-24 bit (metrics/window_entropy.hpp):
    // a window may pass log2(N) by N 2^-25.
    const double most = std::log2(double(cfg.memory.channels)) + cfg.memory.channels * std::ldexp(1.0, -25);
    RC_ASSERT(perf.at("mean_window_entropy").get<double>() <= most);
    RC_ASSERT(perf.at("bandwidth").get<double>() == (active ? double(bytes) / double(active) : 0.0));
    RC_ASSERT(perf.at("density").get<double>() == (active ? double(requests) / double(active) : 0.0));
    counted += requests;
  }
  RC_ASSERT(counted <= served);
}

}  // namespace
}  // namespace gpumem::test
