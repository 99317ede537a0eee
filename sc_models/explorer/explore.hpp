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
  uint64_t address;
};

// Every request of `source` in issue order, resolved through the driver's
// page tables and the firmware's registers as the model resolves it;
// requests that fault are left out, as gpumem run's statistics leave them.
std::vector<TranslatorInput> translator_inputs(const Config& cfg, RequestSource& source);

struct Candidate {
  std::string name;     // identity, configured, prime, a baseline, xor search
  TaskMapping mapping;  // as a config writes it
  double entropy = 0;   // mean window entropy of the whole stream with it
  uint64_t makespan = 0;  // the window bound (docs/explorer.md)
  std::vector<SeriesPoint> series;  // the windows over time; for the whole-stream figures of Exploration only
};

struct TaskExploration {
  unsigned task_type = 0;
  uint64_t requests = 0;
  std::vector<Candidate> ranked;  // best first
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
