// The stats JSON of `gpumem run --stats-json` (docs/trace-format.md,
// "Statistics (JSON)"), whole: RunStatistics' figures of the completions,
// with what the run measured beside them.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "channel/dram_channel.hpp"
#include "config/config.hpp"
#include "params/profile_store.hpp"
#include "regs/performance_monitor.hpp"
#include "stats/report.hpp"
#include "stats/run_statistics.hpp"

namespace gpumem {

// The two allocations of an address space, with nesting and without; null
// where one does not fit, and `error` says why.
struct AllocationComparison {
  bool nesting;  // the one the run used
  const Fragmentation* with_nesting;
  const Fragmentation* without_nesting;
  const std::string& error;
};

// One run beside its completions. The measured parts refer into the
// runner's result (SimulationResult, system/simulation.hpp), which sits a
// floor above stats/ and so is taken apart by its caller.
struct RunReport {
  const std::string& config;  // as given on the command line
  const std::string& trace;   // as given; "" for the built-in workload
  const std::vector<uint64_t>& channel_accesses;            // per channel
  const std::vector<ChannelQueueFigures>& channel_queues;  // per channel
  const std::vector<DramCounters>& dram;                    // per channel, memory.model: dram
  const std::vector<PerfReading>& application_performance;  // by process; empty when the run read none
  const std::optional<MmuStats>& mmu;
  const std::vector<FaultRecord>& faults;
  const std::vector<L1Stats>& l1;  // per SM, with an l1 section
  const std::vector<PrefetchStats>& prefetch;
  const FrontendReport* frontend;              // a per-thread trace's run, else null
  const AllocationComparison* address_space;  // with an address space, else null
  const std::vector<ApplicationProfile>& profiles;  // recorded by the run into a profile store
};

// The "dram" object (memory.model: dram; docs/memory.md, "Statistics").
nlohmann::json dram_json(const Config& cfg, const RunStatistics& stats, const std::vector<DramCounters>& dram);

// `complete` false: something stopped the run early, `error` says what; the
// JSON then holds what was measured up to the stop.
nlohmann::json stats_json(const Config& cfg, const RunStatistics& stats, const RunReport& run, bool complete,
                          const std::string& error);

}  // namespace gpumem
