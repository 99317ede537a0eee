// The one validated configuration object. Every parameter of the model comes
// from here (docs/config-reference.md). Most sections are made of a struct in
// base/ that owns their defaults and that the blocks' parameters share; the
// rest have their defaults below.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/address_space_spec.hpp"
#include "base/channel_layout.hpp"
#include "base/dram_spec.hpp"
#include "base/frontend_options.hpp"
#include "base/l1_params.hpp"
#include "base/memory_options.hpp"
#include "base/mmu_timing.hpp"
#include "base/page_geometry.hpp"
#include "base/prefetch_params.hpp"
#include "base/simulation_options.hpp"
#include "base/task_mapping.hpp"
#include "base/tlb_geometry.hpp"
#include "base/translator_options.hpp"
#include "base/types.hpp"
#include "base/workload_spec.hpp"

namespace gpumem {

struct MemoryConfig : MemoryOptions {  // base/memory_options.hpp
  DramSpec dram;                        // dram: memory.preset with the memory.dram overrides
};

struct MmuConfig {
  // Page sizes that carry their own task type. The smallest bounds isolation:
  // no channel bit may lie at or above it (CN115422098A [0093]). With an
  // address space the list holds the small and the large page size.
  std::vector<uint64_t> page_sizes{PageGeometry{}.small_bytes(), PageGeometry{}.large_bytes()};
  NestedPlacement nested_placement = NestedPlacement::kTail;
  TlbGeometry tlb;
  MmuTiming timing;
  uint64_t smallest_page() const;
  uint64_t largest_page() const;
  PageGeometry geometry() const;
};


struct TranslatorConfig : TranslatorOptions {  // base/translator_options.hpp
  std::vector<unsigned> channel_bits;    // c_0..c_{m-1}; channel index bit j = mapped bit c_j
  std::vector<unsigned> candidate_bits;  // p_0..p_{K-1}; vector bit i selects p_i
  std::vector<TaskMapping> tasks;
};

struct SimulationConfig : SimulationOptions {  // base/simulation_options.hpp
  int timing_line = 0;  // where simulation.timing was given (0: not given), for what `at` cannot run yet
};

struct StatsConfig {
  unsigned entropy_window = 0;  // 0: memory.max_outstanding
  uint64_t epoch_cycles = 0;    // memory.model: dram: the DRAM's statistics per epoch of this many model cycles (0: none)
};

// The GPU core model in front of the MMU (CN106407063B): how per-thread
// traces become each SM's ordered L1 request sequence (`gpumem trace order`,
// `gpumem run --threads`). docs/frontend.md explains each parameter.

struct FrontendConfig : FrontendOptions {  // base/frontend_options.hpp
  int issue_timing_line = 0;      // where issue_timing was set (0: not set)
  int scheduler_line = 0;         // where scheduler was set (0: not set)
  int line = 0;                   // where the section was declared (0: absent, all defaults)
};

// The L1 data cache of each SM (docs/cache.md): between the SM and
// the MMU, so it holds virtual addresses tagged with their process.
// Write-through, no write-allocate; invalidated at every kernel launch.
struct L1Config : L1Params {  // its line_bytes frontend.line_bytes unless the section sets it
  bool present = false;        // an l1 section was given: every SM has one
  int line = 0;
  int allocate_line = 0;       // where allocate was set (0: not set)
};

// The prefetch unit beside each SM's L1 (base/prefetch_params.hpp), and the
// BFS classifier's ranges.
struct PrefetchConfig : PrefetchUnitParams {
  // The classifier's four ranges [base, end) (worklist, vertexlist,
  // edgelist, visitedlist), the driver writes them to PF_RANGE_* and
  // enables them in PF_CTRL; absent: the classifier stays off.
  bool ranges_given = false;
  std::array<std::pair<uint64_t, uint64_t>, 4> ranges{};
  int line = 0;
};

struct Config {
  std::string source;  // file name, for messages
  std::string description;
  MemoryConfig memory;
  MmuConfig mmu;
  TranslatorConfig translator;
  SimulationConfig simulation;
  StatsConfig stats;
  AddressSpaceConfig address_space;
  FrontendConfig frontend;
  L1Config l1;
  PrefetchConfig prefetch;
  std::vector<GeneratorConfig> workload;

  // With an address space the MMU is in the path and requests carry a
  // process id and a virtual address; without, a task type and a physical address.
  bool has_mmu() const { return address_space.present; }

  // Derived, valid after validation.
  bool bit_interleaved() const { return !translator.channel_bits.empty() || memory.channels == 1; }
  unsigned granule_shift() const;        // log2 of the interleave granule
  // Width of the translator's input space: the VA before the MMU, else the PA.
  unsigned translator_address_bits() const {
    return has_mmu() && translator.position == TranslatorPosition::kBeforeMmu ? address_space.va_bits : memory.address_bits;
  }
  uint64_t granule_bytes() const { return uint64_t{1} << granule_shift(); }
  ChannelLayout channel_layout() const { return {translator.channel_bits, memory.channels, granule_shift()}; }
  // Largest request: within one interleave granule, so it never spans
  // channels, and within one small page, so it never spans two mappings.
  unsigned max_request_bytes() const {
    uint64_t m = granule_bytes() < kMaxRequestBytes ? granule_bytes() : kMaxRequestBytes;
    return static_cast<unsigned>(m < mmu.smallest_page() ? m : mmu.smallest_page());
  }
  unsigned entropy_window() const { return stats.entropy_window ? stats.entropy_window : memory.max_outstanding; }
  const TaskMapping* task_mapping(unsigned task) const;
  Scheme scheme_of(unsigned task) const {
    const TaskMapping* t = task_mapping(task);
    return t ? t->scheme : translator.default_scheme;
  }
};

// A mapping as translator.tasks[i] writes it inside its braces, task type
// aside: "scheme: xor, xor_vectors: [0x11, 0x22]".
std::string task_mapping_yaml(const TaskMapping& m);

// Loads and validates; throws InputError naming file, line and key.
Config load_config(const std::string& path);
Config parse_config(const std::string& yaml_text, const std::string& source_name);

}  // namespace gpumem
