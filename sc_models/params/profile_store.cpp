#include "params/profile_store.hpp"

#include <iomanip>
#include <sstream>

#include "base/input_file.hpp"
#include "params/block_params.hpp"
#include "config/config_reader.hpp"
#include "regs/register_bank.hpp"

namespace gpumem {

namespace {

constexpr const char* kVerdictNames[] = {"sparse", "balanced", "improved", "no_gain"};

std::string bits_text(const std::vector<unsigned>& bits) {
  std::string s = "[";
  for (size_t i = 0; i < bits.size(); ++i) s += (i ? ", " : "") + std::to_string(bits[i]);
  return s + "]";
}

// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + "\"";
}

std::string number(double v) {
  std::ostringstream os;
  os << std::setprecision(17) << v;  // round-trips a double
  return os.str();
}

}  // namespace

const char* verdict_name(ProfileVerdict v) { return kVerdictNames[static_cast<size_t>(v)]; }

ProfileGeometry profile_geometry(const Config& cfg) {
  return {cfg.memory.channels, cfg.translator.channel_bits, cfg.translator.candidate_bits, cfg.translator_address_bits()};
}

const ApplicationProfile* ProfileStore::find(const std::string& name) const {
  for (const auto& a : applications)
    if (a.name == name) return &a;
  return nullptr;
}

void ProfileStore::record(const ApplicationProfile& p) {
  for (auto& a : applications)
    if (a.name == p.name) {
      a = p;
      return;
    }
  applications.push_back(p);
}

ProfileStore empty_profile_store(const Config& cfg) { return {profile_geometry(cfg), {}}; }

namespace {

// One record of applications: its keys, each required but the mapping.
ApplicationProfile read_application(const config_yaml::Reader& r, const YAML::Node& a, const std::string& key, const Config& cfg,
                                    const ProfileStore& store) {
  using config_yaml::Section;
  ApplicationProfile p;
  TaskMapping tm;
  std::string verdict;
  Section(r, a, key)
      .key("name",
           [&](const YAML::Node& v, const std::string& k) {
             p.name = r.to_string(v, k);
             if (store.find(p.name)) r.fail(v, k, "application '" + p.name + "' recorded twice");
           })
      .required()
      .uint("runs", p.runs, 1, ~uint64_t{0})
      .required()
      .uint("task_type", p.task_type, 0, kMaxTaskTypes - 1)
      .required()
      .uint("window", p.window, 1, 1u << 24)
      .required()
      .key("measured",
           [&](const YAML::Node& m, const std::string& mk) {
             PerfReading& pr = p.measured;
             Section(r, m, mk)
                 .uint("requests", pr.requests, 0, ~uint64_t{0})
                 .required()
                 .uint("bytes", pr.bytes, 0, ~uint64_t{0})
                 .required()
                 .uint("active_cycles", pr.active_cycles, 0, ~uint64_t{0})
                 .required()
                 .uint("windows", pr.windows, 0, ~uint64_t{0})
                 .required()
                 .key("mean_window_entropy", [&](const YAML::Node& v, const std::string& k) { pr.mean_window_entropy = r.to_double(v, k); })
                 .required()
                 .unread("bandwidth")
                 .unread("density")
                 .read();
           })
      .required()
      .key("verdict",
           [&](const YAML::Node& v, const std::string& k) {
             verdict = r.to_string(v, k);
             bool known = false;
             for (size_t i = 0; i < std::size(kVerdictNames); ++i)
               if (verdict == kVerdictNames[i]) p.verdict = static_cast<ProfileVerdict>(i), known = true;
             if (!known) r.fail(v, k, "unknown verdict '" + verdict + "' (sparse, balanced, improved or no_gain)");
           })
      .required()
      .key("configured_entropy", [&](const YAML::Node& v, const std::string& k) { p.configured_entropy = r.to_double(v, k); })
      .required()
      .key("predicted_entropy", [&](const YAML::Node& v, const std::string& k) { p.predicted_entropy = r.to_double(v, k); })
      .required()
      .key("mapping",
           [&](const YAML::Node& mapping, const std::string& mk) {
             if (p.verdict == ProfileVerdict::kNoGain) r.fail(mapping, mk, "a no_gain record keeps the configured mapping and has none");
             Section keys(r, mapping, mk);
             config_yaml::declare_task_mapping(keys, r, mapping, mk, cfg.translator, tm);
             keys.read();
             config_yaml::check_task_matrix(r, mapping, mk, tm, cfg);
             // Whether this configuration can run the scheme at all (prime needs
             // contiguous channel bits; a non-power-of-two channel count keeps its
             // one scheme) is the register bank's rule: ask a scratch bank.
             RegisterBank bank(register_params(cfg));
             for (size_t j = 0; j < tm.matrix_rows.size(); ++j) {
               bank.write(kRegMatrixRowLo + 4 * static_cast<uint32_t>(j), 4, static_cast<uint32_t>(tm.matrix_rows[j]));
               bank.write(kRegMatrixRowHi + 4 * static_cast<uint32_t>(j), 4, static_cast<uint32_t>(tm.matrix_rows[j] >> 32));
             }
             if (bank.write(kRegTaskScheme, 4, static_cast<uint32_t>(tm.scheme)) != RegStatus::kOk)
               r.fail(mapping["scheme"], mk + ".scheme", std::string("the register bank of ") + cfg.source + " refuses scheme " +
                                                             scheme_name(tm.scheme) + " (docs/register-map.md, TASK_SCHEME)");
             p.mapping = tm;
           },
           [&] {
             if (p.verdict != ProfileVerdict::kNoGain)
               r.fail(a, key + ".mapping", std::string("missing value: a ") + verdict + " record names its mapping");
           })
      .read();
  return p;
}

}  // namespace

ProfileStore read_profile_store(const std::string& path, const Config& cfg) {
  using config_yaml::Reader;
  Reader r(path);
  const YAML::Node loaded = config_yaml::parse_yaml(read_input_file(path, "profile store"), path);
  const YAML::Node& root = loaded;
  if (!root || root.IsNull()) throw InputError(path, 0, "", "empty profile store (delete it to start a new one)");
  using config_yaml::Section;
  ProfileStore store = empty_profile_store(cfg);
  Section(r, root, "")
      .key("version",
           [&](const YAML::Node& v, const std::string& k) {
             if (r.to_u64(v, k) != 1) r.fail(v, k, "unknown profile store version (this gpumem writes 1)");
           })
      .required()
      .key("geometry",
           [&](const YAML::Node& g, const std::string& k) {
             ProfileGeometry geo;
             Section(r, g, k)
                 .uint("channels", geo.channels, 1, kMaxChannels)
                 .required()
                 .key("channel_bits", [&](const YAML::Node& v, const std::string& bk) { geo.channel_bits = r.uint_list(v, bk, 64); })
                 .required()
                 .key("candidate_bits", [&](const YAML::Node& v, const std::string& bk) { geo.candidate_bits = r.uint_list(v, bk, 64); })
                 .required()
                 .uint("address_bits", geo.address_bits, 1, 64)
                 .required()
                 .read();
             if (!(geo == store.geometry))
               r.fail(g, k, "the store was written for another translator (channels, channel bits, candidate bits or "
                            "address width differ from " + cfg.source + "), so its mappings do not apply; use another store file");
           })
      .required()
      .key("applications",
           [&](const YAML::Node& apps, const std::string& k) {
             if (!apps.IsSequence()) r.fail(apps, k, "expected a list of applications");
             for (size_t i = 0; i < apps.size(); ++i)
               store.applications.push_back(read_application(r, apps[i], k + "[" + std::to_string(i) + "]", cfg, store));
           })
      .required()
      .read();
  return store;
}

std::string profile_store_yaml(const ProfileStore& store) {
  const ProfileGeometry& g = store.geometry;
  std::string s =
      "# gpumem profile store (docs/explorer.md, \"Profile store\"): per application, what its last\n"
      "# run measured and the mapping recommended for its next run. Written by gpumem run --profile-store.\n"
      "version: 1\n"
      "geometry: {channels: " + std::to_string(g.channels) + ", channel_bits: " + bits_text(g.channel_bits) +
      ", candidate_bits: " + bits_text(g.candidate_bits) + ", address_bits: " + std::to_string(g.address_bits) + "}\n"
      "applications:\n";
  if (store.applications.empty()) s.replace(s.size() - 1, 1, " []\n");
  for (const ApplicationProfile& p : store.applications) {
    const PerfReading& m = p.measured;
    s += "  - name: " + quoted(p.name) + "\n"
         "    runs: " + std::to_string(p.runs) + "\n"
         "    task_type: " + std::to_string(p.task_type) + "\n"
         "    window: " + std::to_string(p.window) + "\n"
         "    measured: {requests: " + std::to_string(m.requests) + ", bytes: " + std::to_string(m.bytes) +
         ", active_cycles: " + std::to_string(m.active_cycles) + ", windows: " + std::to_string(m.windows) +
         ", mean_window_entropy: " + number(m.mean_window_entropy) + ", bandwidth: " + number(m.bandwidth()) +
         ", density: " + number(m.density()) + "}\n"
         "    verdict: " + verdict_name(p.verdict) + "\n"
         "    configured_entropy: " + number(p.configured_entropy) + "\n"
         "    predicted_entropy: " + number(p.predicted_entropy) + "\n";
    if (p.mapping) s += "    mapping: {" + task_mapping_yaml(*p.mapping) + "}\n";
  }
  return s;
}

TaskMapping mapping_of(const Config& cfg, unsigned task) {
  if (const TaskMapping* t = cfg.task_mapping(task)) return *t;
  TaskMapping m;
  m.task_type = task;
  m.scheme = cfg.translator.default_scheme;
  return m;
}

bool same_mapping(const TaskMapping& a, const TaskMapping& b) {
  if (a.scheme != b.scheme) return false;
  switch (a.scheme) {
    case Scheme::kXor: return a.xor_vectors == b.xor_vectors;
    case Scheme::kMatrix: return a.matrix_rows == b.matrix_rows;  // a baseline's rows are filled at load
    default: return true;
  }
}

Config apply_profile_store(const Config& cfg, const ProfileStore& store, std::vector<std::string>& notes) {
  Config out = cfg;
  // Task types in use: every application's and region's, every listed one.
  uint32_t used = 0;
  for (const auto& app : cfg.address_space.applications) {
    used |= 1u << app.task_type;
    for (const auto& reg : app.regions) used |= 1u << reg.task_type;
  }
  for (const auto& tm : cfg.translator.tasks) used |= 1u << tm.task_type;

  for (auto& app : out.address_space.applications) {
    const ApplicationProfile* p = store.find(app.name);
    if (!p || !p->mapping) continue;
    TaskMapping want = *p->mapping;
    if (same_mapping(mapping_of(out, app.task_type), want)) continue;
    std::optional<unsigned> chosen;
    for (unsigned t = 0; t < kMaxTaskTypes && !chosen; ++t)
      if (((used >> t) & 1u) && same_mapping(mapping_of(out, t), want)) chosen = t;
    if (!chosen) {
      for (unsigned t = 0; t < kMaxTaskTypes && !chosen; ++t)
        if (!((used >> t) & 1u)) chosen = t;
      if (!chosen) {
        notes.push_back("profile store: " + app.name + " keeps task type " + std::to_string(app.task_type) +
                        ": all " + std::to_string(kMaxTaskTypes) + " task types are in use, none is free for its recommended mapping");
        continue;
      }
      want.task_type = *chosen;
      out.translator.tasks.push_back(want);
      used |= 1u << *chosen;
    }
    app.selected_task_type = *chosen;
    notes.push_back("profile store: " + app.name + " runs with task type " + std::to_string(*chosen) + " (" +
                    task_mapping_yaml(want) + "), recommended after " + std::to_string(p->runs) + " run" +
                    (p->runs == 1 ? "" : "s") + (cfg.translator.dynamic_selection ? "" : "; translator.dynamic_selection is false, so not applied"));
  }
  return out;
}

}  // namespace gpumem
