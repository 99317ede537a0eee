#include "explorer/profile.hpp"

#include <cmath>

#include "base/bits.hpp"
#include "explorer/explore.hpp"

namespace gpumem {

ApplicationStreams::ApplicationStreams(const Config& cfg)
    : before_mmu_(cfg.translator.position == TranslatorPosition::kBeforeMmu), streams_(kMaxProcesses) {}

void ApplicationStreams::on_completion(const Completion& c) {
  if (!c.how.mmu || c.how.fault != FaultReason::kNone) return;
  streams_[c.request.process].push_back(before_mmu_ ? c.how.virtual_address : c.how.physical_address);
}

ApplicationProfile recommend(const Config& cfg, const ApplicationConfig& app, const PerfReading& measured, unsigned ran_with,
                             const std::vector<uint64_t>& addresses, const ApplicationProfile* previous) {
  ApplicationProfile p;
  p.name = app.name;
  p.runs = previous ? previous->runs + 1 : 1;
  p.task_type = ran_with;
  p.window = cfg.entropy_window();
  p.measured = measured;
  TaskMapping identity;
  identity.scheme = Scheme::kNone;

  const bool sparse = measured.requests < kSparseWindows * p.window ||
                     measured.density() * cfg.memory.service_cycles < kSparseChannelShare;
  if (!is_pow2(cfg.memory.channels) || cfg.memory.channels == 1) {
    // One scheme for every task type (or one channel): nothing to choose.
    p.verdict = ProfileVerdict::kNoGain;
    p.configured_entropy = p.predicted_entropy = measured.mean_window_entropy;
    return p;
  }

  // The requests under every candidate, labelled with the application's
  // configured task type, so "configured" is the mapping its pages carry.
  std::vector<TranslatorInput> stream;
  stream.reserve(addresses.size());
  for (uint64_t a : addresses) stream.push_back({app.task_type, false, 1, a});
  ExploreOptions options;
  options.window = p.window;
  const Exploration x = explore(cfg, stream, options);
  if (x.tasks.empty()) {  // no request reached the translator: nothing to judge
    p.verdict = ProfileVerdict::kSparse;
    p.mapping = identity;
    return p;
  }
  const std::vector<Candidate>& ranked = x.tasks.front().ranked;
  double identity_entropy = 0, configured_entropy = 0;
  for (const Candidate& c : ranked) {
    if (c.name == "identity") identity_entropy = c.entropy;
    if (c.name == "configured") configured_entropy = c.entropy;
  }
  p.configured_entropy = configured_entropy;

  const double maximum = std::log2(double(cfg.memory.channels));
  if (sparse || identity_entropy >= maximum - kBalancedMargin) {
    p.verdict = sparse ? ProfileVerdict::kSparse : ProfileVerdict::kBalanced;
    p.mapping = identity;
    p.predicted_entropy = identity_entropy;
  } else if (ranked.front().entropy >= configured_entropy + kMinGain) {
    p.verdict = ProfileVerdict::kImproved;
    p.mapping = ranked.front().mapping;
    p.predicted_entropy = ranked.front().entropy;
  } else {
    p.verdict = ProfileVerdict::kNoGain;
    p.predicted_entropy = configured_entropy;
  }
  return p;
}

}  // namespace gpumem
