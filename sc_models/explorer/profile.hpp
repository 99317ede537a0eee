// Adaptive task types (CN115422098A [0096]-[0099]): after a run, each
// application's counters and requests decide the mapping its next run takes
// from the profile store (params/profile_store.hpp). docs/explorer.md,
// "Profile store", gives the rules and why the thresholds are these.
#pragma once
#include <cstdint>
#include <vector>

#include "params/profile_store.hpp"
#include "payload/completion.hpp"

namespace gpumem {

// Too few to matter: fewer requests than this many windows.
constexpr uint64_t kSparseWindows = 4;
// Too sparse to matter: its requests would keep one channel busy less than
// this share of its active cycles (density * memory.service_cycles). Not a
// share of all N channels' peak: an application whose requests all conflict
// on one channel is throttled to that one channel's rate, and must not look
// sparse because of the very conflict a mapping would remove.
constexpr double kSparseChannelShare = 0.25;
// Already balanced: identity within this many bits of log2(N).
constexpr double kBalancedMargin = 0.05;
// A mapping replaces the configured one only when it scores this many bits more.
constexpr double kMinGain = 0.05;

// The requests of each process as its translator saw them (the PA after the
// MMU, the VA before it), in completion order, faults left out: what the
// recommendation scores mappings on. 8 bytes a request.
class ApplicationStreams : public CompletionObserver {
 public:
  explicit ApplicationStreams(const Config& cfg);
  void on_completion(const Completion& c) override;
  const std::vector<uint64_t>& addresses(unsigned process) const { return streams_[process]; }

 private:
  bool before_mmu_;
  std::vector<std::vector<uint64_t>> streams_;  // by process
};

// The record for `app` after a run: `measured` is its process's performance
// counters, `ran_with` the task type its requests took, `addresses` its
// requests, `previous` its record before the run (or null).
ApplicationProfile recommend(const Config& cfg, const ApplicationConfig& app, const PerfReading& measured, unsigned ran_with,
                             const std::vector<uint64_t>& addresses, const ApplicationProfile* previous);

}  // namespace gpumem
