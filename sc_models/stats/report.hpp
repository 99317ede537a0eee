// Reports of a run beyond the per-request statistics: MMU and TLB counters,
// fault records, the address space's fragmentation with and without nesting,
// the SMs and warps of a per-thread trace.
#pragma once
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "cache/l1_cache.hpp"
#include "prefetch/prefetch_queue.hpp"
#include "driver/address_space.hpp"
#include "frontend/l1_sequence.hpp"
#include "frontend/sm_stats.hpp"
#include "mmu/mmu.hpp"

namespace gpumem {

nlohmann::json mmu_json(const MmuStats& s);
// The DRAM table of the report, from the stats JSON's "dram" object (dram_json).
void print_dram(std::ostream& os, const nlohmann::json& dram);
nlohmann::json faults_json(const std::vector<FaultRecord>& faults);
nlohmann::json fragmentation_json(const Fragmentation& f);

void print_mmu(std::ostream& os, const MmuStats& s);

// A per-thread trace's run: the ordering (coalescing efficiency), each SM,
// the warps (docs/frontend.md, "Statistics").
// A per-thread trace's run: the ordering, each SM, the warps, the strided
// requests (`strided_enabled`: the config's switch) and the memory-init bytes.
struct FrontendReport {
  const SequenceStats& sequence;
  const std::vector<SmRunStats>& sms;
  const WarpRunSummary& warps;
  const StridedRunStats& strided;
  bool strided_enabled;
  uint64_t memory_init_bytes;
  uint64_t queued_max;
  uint64_t queue_limit_holds;
};
nlohmann::json frontend_json(const FrontendReport& f);
void print_frontend(std::ostream& os, const FrontendReport& f);
// Each SM's L1 data cache and their sum (docs/cache.md, "Statistics").
nlohmann::json l1_json(const std::vector<L1Stats>& sms);
void print_l1(std::ostream& os, const std::vector<L1Stats>& sms);
// Each SM's prefetch unit and their sum (docs/prefetch.md, "Statistics");
// `l1` gives the unused prefetched lines the L1s evicted.
nlohmann::json prefetch_json(const std::vector<PrefetchStats>& sms, const std::vector<L1Stats>& l1, PrefetchKind kind);
void print_prefetch(std::ostream& os, const std::vector<PrefetchStats>& sms, const std::vector<L1Stats>& l1, PrefetchKind kind);
void print_faults(std::ostream& os, const std::vector<FaultRecord>& faults, size_t limit);
// Both allocations side by side: `nested` with nesting on, `flat` with it
// off; null where that allocation does not fit ("n/a").
void print_fragmentation(std::ostream& os, const Fragmentation* nested, const Fragmentation* flat);

}  // namespace gpumem
