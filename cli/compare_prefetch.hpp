// gpumem run --compare-prefetch (docs/prefetch.md, "Comparing prefetchers"):
// the same per-thread trace and config with no prefetcher, the stride
// prefetcher and the BFS prefetcher, each in a process of its own (SystemC
// elaborates once a process), side by side.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "config/config.hpp"

namespace gpumem::cli {

// Runs the three; throws InputError when the config cannot take them (no l1
// section, no prefetch.ranges for bfs) and std::runtime_error when a run fails.
// The result has one object per kind under "none", "stride", "bfs".
nlohmann::json compare_prefetch(const Config& cfg, const std::string& threads);

void print_prefetch_comparison(std::ostream& os, const nlohmann::json& runs);

// One `gpumem run --threads` of `cfg` in a child process: makespan, requests,
// L1 reads and misses, the prefetch figures and the simulation's wall time.
nlohmann::json run_threads_in_child(const Config& cfg, const std::string& threads);

}  // namespace gpumem::cli
