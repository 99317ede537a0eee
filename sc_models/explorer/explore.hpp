// `gpumem explore` (CN115422098A [0053]-[0075]): the requests of
// a trace as the translator sees them, every candidate mapping of each task
// type scored on them exactly, and the mappings that spread them best.
// docs/explorer.md, "gpumem explore", says what is searched and how.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "metrics/window_series.hpp"
#include "payload/request.hpp"

namespace gpumem {

// One request at the translator's input: its task type and the address the
// translator maps (the PA after the MMU, the VA before it).
struct TranslatorInput {
  unsigned task_type;
  // An element of a strided request in the interleave granule of the
  // element before it: its channel serves the two in one access, which the
  // makespan bound counts once (the entropy counts every element, as a run's).
  bool same_access;
  // The accesses its channel serves it with: on a DRAM, one for each burst
  // it covers (docs/memory.md, "Address split"); else 1.
  uint16_t accesses;
  uint64_t address;
};
static_assert(sizeof(TranslatorInput) == 16, "docs/explorer.md counts the stream at 16 bytes a request");

// Every request of `source` in issue order, resolved through the driver's
// page tables and the firmware's registers as the model resolves it;
// requests that fault are left out, as gpumem run's statistics leave them.
std::vector<TranslatorInput> translator_inputs(const Config& cfg, RequestSource& source);

// What the makespan bound assumes a channel does (docs/explorer.md, "gpumem
// explore"): serve one access per `access_units` of a clock whose unit is
// `unit_ps` picoseconds, back to back. On `simple` the units are model
// cycles and an access takes memory.service_cycles; on `dram` they are the
// memory's tCK and an access holds the data bus for tBL, its peak.
struct MakespanModel {
  uint64_t access_units = 1;
  uint64_t unit_ps = 0;   // 0: model cycles
  uint64_t cycle_ps = 0;  // the model's cycle (simulation.cycle_ns)
  std::string assumes;    // the sentence the report and the JSON give
  // Model cycles of `units`, rounded up.
  uint64_t cycles(uint64_t units) const;
  double cycles_per_access() const;
};
MakespanModel makespan_model(const Config& cfg);

// A candidate bit's per-address-bit entropy (AddressBitEntropy).
struct BitEntropy {
  unsigned bit = 0;
  double entropy = 0;
};

struct Candidate {
  std::string name;     // identity, configured, prime, a baseline, xor search
  TaskMapping mapping;  // as a config writes it
  double entropy = 0;   // mean window entropy of the whole stream with it
  uint64_t makespan = 0;  // the window bound (MakespanModel)
  std::vector<SeriesPoint> series;  // the windows over time; for the whole-stream figures of Exploration only
};

struct TaskExploration {
  unsigned task_type = 0;
  uint64_t requests = 0;
  std::vector<Candidate> ranked;  // best first
  // Each candidate bit's entropy over windows of this task type's own
  // requests, W at a time: what the XOR search has to fold into the channel
  // bits (a bit that never changes gives nothing).
  std::vector<BitEntropy> candidate_bits;
  uint64_t bit_windows = 0;  // whole windows behind them (0: fewer than W requests, scored as one partial window)
};

// Where the search is, for a progress line: its stage ("task type 3 (1 of
// 2): xor search, channel bit 0 of 4, beam state 1 of 4") and the requests
// of the current pass over the stream done out of the total (0, 0 when a
// stage starts). Called at every stage and every 2^20 requests of a pass.
using ExploreProgress = std::function<void(const std::string& stage, uint64_t done, uint64_t total)>;

struct ExploreOptions {
  unsigned window = 0;  // 0: the config's entropy window
  unsigned beam = 4;    // beam width of the joint xor search
  unsigned threads = 1;
  ExploreProgress progress;  // may be empty
};

struct Exploration {
  unsigned window = 0;
  MakespanModel makespan;
  std::vector<TaskExploration> tasks;  // most requests first: the order they were chosen in
  std::vector<TaskMapping> recommended;  // every mapping of the recommended config
  // The whole stream, with its series (docs/explorer.md, "Series"):
  Candidate identity;                    // every task type on identity (name "identity")
  Candidate configured;                  // the config as given (name "configured")
  Candidate predicted;                   // the recommended config (name "recommended")
};

Exploration explore(const Config& cfg, const std::vector<TranslatorInput>& stream, const ExploreOptions& options);

// The recommended mappings as a `tasks:` list that pastes under `translator:`.
std::string tasks_yaml(const std::vector<TaskMapping>& mappings);

}  // namespace gpumem
