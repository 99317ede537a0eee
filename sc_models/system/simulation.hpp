// Elaborates driver + player + memory system for a config and runs to the end
// of the request stream. SystemC elaborates once per process: call this once.
#pragma once
#include <optional>
#include <vector>

#include "cache/l1_cache.hpp"
#include "channel/channel_queue.hpp"
#include "channel/dram_channel.hpp"
#include "prefetch/prefetch_queue.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "frontend/l1_sequence.hpp"
#include "frontend/sm_array.hpp"
#include "mmu/mmu.hpp"
#include "payload/completion.hpp"
#include "payload/request.hpp"
#include "regs/performance_monitor.hpp"

namespace gpumem {

struct SimulationResult {
  uint64_t requests = 0;
  double wall_seconds = 0;
  std::vector<uint64_t> channel_accesses;  // per channel: data and page-table accesses
  std::vector<ChannelQueueFigures> channel_queues;  // per channel (channel/channel_queue.hpp)
  std::vector<DramCounters> dram;          // per channel, memory.model: dram (the posted writes sent at the end)
  std::optional<MmuStats> mmu;             // with an address space
  std::vector<FaultRecord> faults;         // the first Mmu::kMaxFaultRecords (all are counted in mmu)
  // The register bank's performance counters at the end (PERF_TASK, PERF_APP, live).
  std::vector<PerfReading> task_performance;         // by task type
  std::vector<PerfReading> application_performance;  // by process
  // A per-thread trace's run (gpumem run --threads): its SMs and warps, the
  // ordering's figures, and the bytes its memory-init items loaded.
  std::vector<SmRunStats> sms;
  WarpRunSummary warps;
  StridedRunStats strided;
  uint64_t queued_max = 0;  // requests ordered but not yet issued, at most
  uint64_t queue_limit_holds = 0;  // ticks held back by frontend.max_queued
  SequenceStats sequence;
  uint64_t memory_init_bytes = 0;
  std::vector<L1Stats> l1;  // per SM, with an l1 section
  std::vector<PrefetchStats> prefetch;  // per SM, with an l1 section (all zero with prefetch.kind none)
};

// Rethrows what stopped the run early (InputError from a trace, or
// std::runtime_error for an error response from the model); `partial`, when
// given, then holds what was measured up to the stop. `image` is the address
// space the driver loads (built from the config when null).
// `dram_commands`: where the DRAM's command trace goes (gpumem run --dram-commands).
SimulationResult run_simulation(const Config& cfg, RequestSource& source, const std::vector<CompletionObserver*>& observers,
                                const AddressSpaceImage* image = nullptr, SimulationResult* partial = nullptr,
                                DramCommandSink* dram_commands = nullptr);

// Refuses (InputError naming frontend.issue_timing) a config that
// run_thread_simulation cannot run: at issues a per-thread trace with
// issue_timing: memory only. Callers that write outputs check it before
// opening them.
void check_thread_simulation(const Config& cfg);

// The same for a per-thread trace: the driver loads its memory-init items,
// then one initiator per SM issues the ordered sequences (frontend/sm_array.hpp).
SimulationResult run_thread_simulation(const Config& cfg, ThreadTraceSource& source,
                                       const std::vector<CompletionObserver*>& observers,
                                       const AddressSpaceImage* image = nullptr, SimulationResult* partial = nullptr,
                                       DramCommandSink* dram_commands = nullptr);

}  // namespace gpumem
