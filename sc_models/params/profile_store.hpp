// The profile store (CN115422098A [0096]-[0099]): a YAML file
// that keeps, per application name, what its last run measured through the
// performance counters and the mapping recommended from that, so that the
// next run of the application takes it by a task type of its own, written
// by the driver into APP_TASK_SELECT. docs/explorer.md, "Profile store".
// Reading, checking and applying live here, beside the config they change;
// the recommendation itself is explorer/profile.hpp.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "regs/performance_monitor.hpp"

namespace gpumem {

enum class ProfileVerdict : uint8_t {
  kSparse,    // too few or too sparse requests to gain: no mapping (identity)
  kBalanced,  // already balanced without a mapping: identity keeps it so
  kImproved,  // a mapping beats the configured one by the margin: that mapping
  kNoGain,    // nothing beats the configured mapping by the margin: keep it
};
const char* verdict_name(ProfileVerdict v);

// What a store's mappings are written for: they are valid only on it.
struct ProfileGeometry {
  unsigned channels = 0;
  std::vector<unsigned> channel_bits, candidate_bits;
  unsigned address_bits = 0;  // the translator's input width
  bool operator==(const ProfileGeometry& o) const {
    return channels == o.channels && channel_bits == o.channel_bits && candidate_bits == o.candidate_bits &&
           address_bits == o.address_bits;
  }
};
ProfileGeometry profile_geometry(const Config& cfg);

struct ApplicationProfile {
  std::string name;
  uint64_t runs = 0;       // runs recorded
  unsigned task_type = 0;  // the task type its requests ran with in the last run
  unsigned window = 0;     // W of the entropies below
  PerfReading measured;    // the last run's counters of its process
  ProfileVerdict verdict = ProfileVerdict::kNoGain;
  double configured_entropy = 0;  // its configured mapping's mean window entropy on its requests
  double predicted_entropy = 0;   // the recommended mapping's (configured_entropy with kNoGain)
  std::optional<TaskMapping> mapping;  // the recommendation (task_type unused); none with kNoGain
};

struct ProfileStore {
  ProfileGeometry geometry;
  std::vector<ApplicationProfile> applications;  // in the order first recorded

  const ApplicationProfile* find(const std::string& name) const;
  // Replaces the record of `p.name`, or appends one.
  void record(const ApplicationProfile& p);
};

// Reads a store and checks it against `cfg`: its geometry, and every mapping
// as translator.tasks would be checked. Throws InputError naming the file,
// line and key; the file is only read.
ProfileStore read_profile_store(const std::string& path, const Config& cfg);
ProfileStore empty_profile_store(const Config& cfg);
std::string profile_store_yaml(const ProfileStore& store);

// `cfg` with the store's recommendations: each application with a record
// that recommends another mapping than its configured one takes a task type
// with that mapping, an unused one added to translator.tasks when no task
// type has it yet. `notes` gets one line per application the store moves or
// cannot move (no task type free).
Config apply_profile_store(const Config& cfg, const ProfileStore& store, std::vector<std::string>& notes);

// Two mappings that map every address alike (their task types aside).
bool same_mapping(const TaskMapping& a, const TaskMapping& b);
// The mapping task type `task` has in `cfg` (an unlisted one: the default scheme).
TaskMapping mapping_of(const Config& cfg, unsigned task);

}  // namespace gpumem
