#include "sweep/sweep_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "base/input_error.hpp"
#include "base/input_file.hpp"
#include "base/nearest_name.hpp"
#include "config/config.hpp"
#include "config/config_reader.hpp"
#include "sweep/sweep_version.hpp"

namespace gpumem::sweep {

namespace fs = std::filesystem;

namespace {

// What each command takes: the sweep passes --trace and --seed only where
// the command has them.
struct CommandTraits {
  const char* name;
  bool trace, seed;
};
constexpr CommandTraits kCommands[] = {
    {"run", true, false}, {"explore", true, false}, {"compare-prefetch", false, false}, {"cosim", false, true}};

const CommandTraits* command_traits(const std::string& name) {
  for (const CommandTraits& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

int line_of(const YAML::Node& n) { return n.IsDefined() ? n.Mark().line + 1 : 0; }

std::string flow(const YAML::Node& n) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << n;
  return e.c_str();
}


std::string resolve(const std::string& spec_path, const std::string& p) {
  if (p.empty() || fs::path(p).is_absolute()) return p;
  const fs::path dir = fs::path(spec_path).parent_path();
  return dir.empty() ? p : (dir / p).string();
}

// One segment of a config key: a map key and the list indices after it.
struct Segment {
  std::string name;
  std::vector<size_t> index;
};

// "translator.tasks[1].scheme" -> {translator}, {tasks, [1]}, {scheme}; "" on a malformed key.
std::vector<Segment> split_key(const std::string& key, std::string& why) {
  std::vector<Segment> segments;
  size_t at = 0;
  while (at <= key.size()) {
    const size_t dot = key.find('.', at);
    const std::string part = key.substr(at, dot == std::string::npos ? std::string::npos : dot - at);
    Segment s;
    const size_t bracket = part.find('[');
    s.name = part.substr(0, bracket);
    if (s.name.empty()) {
      why = "an empty name in the key";
      return {};
    }
    for (size_t b = bracket; b != std::string::npos; b = part.find('[', b + 1)) {
      const size_t close = part.find(']', b);
      const std::string digits = close == std::string::npos ? "" : part.substr(b + 1, close - b - 1);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
          (close + 1 < part.size() && part[close + 1] != '[')) {
        why = "'" + part + "' is not NAME or NAME[INDEX]";
        return {};
      }
      s.index.push_back(std::stoul(digits));
    }
    segments.push_back(std::move(s));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  return segments;
}

// Sets `key` in the config tree to `value` (YAML text). A map key that is
// missing is added (the config's own check then names a wrong one); a list
// index must exist. Returns "" or why it cannot be set.
std::string set_key(YAML::Node root, const std::string& key, const std::string& value) {
  std::string why;
  const std::vector<Segment> segments = split_key(key, why);
  if (segments.empty()) return why;
  YAML::Node node = root;
  for (size_t k = 0; k < segments.size(); ++k) {
    const Segment& s = segments[k];
    if (!node.IsMap() && !node.IsNull()) return "'" + s.name + "' is under a value that is not a mapping";
    YAML::Node child = node[s.name];
    for (size_t i : s.index) {
      if (!child.IsSequence()) return "'" + s.name + "' is not a list in the base config";
      if (i >= child.size())
        return s.name + "[" + std::to_string(i) + "]: the list has " + std::to_string(child.size()) + " entries";
      child.reset(child[i]);
    }
    if (k + 1 == segments.size()) {
      child = YAML::Load(value);
      return "";
    }
    if (!child.IsDefined() || child.IsNull()) child = YAML::Node(YAML::NodeType::Map);
    node.reset(child);
  }
  return "";
}

void canonical(const YAML::Node& n, std::string& out) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      std::map<std::string, YAML::Node> sorted;
      for (const auto& kv : n) sorted.emplace(kv.first.Scalar(), kv.second);
      out += "{";
      for (const auto& [k, v] : sorted) {
        out += k + ":";
        canonical(v, out);
        out += ",";
      }
      out += "}";
      break;
    }
    case YAML::NodeType::Sequence:
      out += "[";
      for (const auto& v : n) {
        canonical(v, out);
        out += ",";
      }
      out += "]";
      break;
    case YAML::NodeType::Scalar: out += "'" + n.Scalar() + "'"; break;
    default: out += "~";
  }
}

uint64_t fnv(uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return (h ^ 0xFF) * 0x100000001b3ULL;  // a separator, so ("ab","c") and ("a","bc") differ
}

// One axis of axes or of a zip group (zip: the group's number, -1 for none);
// `keys`, the axes read so far, refuses one given twice.
Axis read_axis(const SweepSpec& s, const CommandTraits& traits, std::set<std::string>& keys, const YAML::Node& key,
               const YAML::Node& values, int zip) {
  const auto fail = [&](const YAML::Node& at, const std::string& k, const std::string& why) {
    throw InputError(s.path, line_of(at), k, why);
  };
  Axis a;
  a.key = key.Scalar();
  a.line = line_of(key);
  a.zip = zip;
  if (!keys.insert(a.key).second) fail(key, a.key, "axis given twice");
  if (!values.IsSequence() || values.size() == 0) fail(values.IsDefined() ? values : key, a.key, "a non-empty list of values");
  if (a.key == "trace" && !traits.trace) fail(key, a.key, "the " + s.command + " command takes no --trace");
  if (a.key == "seed" && !traits.seed)
    fail(key, a.key, "the " + s.command + " command takes no --seed (a workload's seed is a config key, e.g. workload[0].seed)");
  if (a.is_config()) {
    std::string why;
    if (split_key(a.key, why).empty()) fail(key, a.key, why);
  }
  for (const auto& v : values) {
    a.values.push_back(v.IsScalar() ? v.Scalar() : flow(v));
    if (a.key == "trace" && !fs::is_regular_file(resolve(s.path, v.Scalar())))
      fail(v, a.key, resolve(s.path, v.Scalar()) + ": no such file");
    if ((a.key == "seed" || a.key == "trace" || a.key == "flags") && !v.IsScalar()) fail(v, a.key, "each value is one string");
  }
  return a;
}

}  // namespace

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string canonical_yaml(const std::string& yaml_text) {
  std::string out;
  canonical(YAML::Load(yaml_text), out);
  return out;
}

std::string point_hash(const std::string& command, const std::string& canonical_config, const std::string& trace_contents,
                       const std::string& seed, const std::vector<std::string>& flags) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::string* s : {&kSweepVersion, &command, &canonical_config, &trace_contents, &seed}) h = fnv(h, *s);
  for (const std::string& f : flags) h = fnv(h, f);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

SweepSpec load_sweep_spec(const std::string& path) {
  if (fs::is_directory(path)) throw InputError(path, 0, "", "is a folder, not a sweep spec");
  if (!fs::exists(path)) throw InputError(path, 0, "", "cannot read the sweep spec: no such file");
  const YAML::Node root = config_yaml::parse_yaml(read_input_file(path, "sweep spec"), path);
  auto fail = [&](const YAML::Node& at, const std::string& key, const std::string& why) {
    throw InputError(path, line_of(at), key, why);
  };
  if (!root.IsMap()) fail(root, "", "a sweep spec is a mapping (base, command, axes, ...; docs/sweeps.md)");
  std::set<std::string> seen;
  for (const auto& kv : root) {
    const std::string k = kv.first.Scalar();
    static const std::set<std::string> allowed{"base", "command", "output", "flags", "metrics", "axes", "zip"};
    if (!allowed.count(k))
      fail(kv.first, k, "unknown key (allowed: base, command, output, flags, metrics, axes, zip)" +
                            did_you_mean(k, std::vector<std::string>(allowed.begin(), allowed.end())));
    if (!seen.insert(k).second) fail(kv.first, k, "key given twice");
  }
  SweepSpec s;
  s.path = path;
  if (!root["base"] || !root["base"].IsScalar()) fail(root["base"] ? root["base"] : root, "base", "missing: the config every point starts from");
  s.base = resolve(path, root["base"].Scalar());
  if (!fs::is_regular_file(s.base)) fail(root["base"], "base", s.base + ": no such file");
  s.base_text = read_input_file(s.base, "config");
  config_yaml::parse_yaml(s.base_text, s.base);
  s.command = root["command"] ? root["command"].Scalar() : "run";
  const CommandTraits* traits = command_traits(s.command);
  if (!traits) fail(root["command"], "command", "unknown command '" + s.command + "' (run, explore, compare-prefetch or cosim)");
  const std::string stem = fs::path(path).stem().string();
  s.output = resolve(path, root["output"] ? root["output"].Scalar() : stem + ".sweep");
  if (const YAML::Node f = root["flags"]) {
    if (f.IsScalar()) s.flags = split_words(f.Scalar());
    else if (f.IsSequence())
      for (const auto& w : f) s.flags.push_back(w.Scalar());
    else fail(f, "flags", "a string of arguments or a list of them");
  }
  if (const YAML::Node m = root["metrics"]) {
    if (!m.IsSequence()) fail(m, "metrics", "a list of dotted paths into the stats JSON");
    for (const auto& v : m) s.metrics.push_back(v.Scalar());
  }

  std::set<std::string> keys;
  const auto add_axis = [&](const YAML::Node& key, const YAML::Node& values, int zip) {
    s.axes.push_back(read_axis(s, *traits, keys, key, values, zip));
  };
  if (const YAML::Node axes = root["axes"]) {
    if (!axes.IsMap()) fail(axes, "axes", "a mapping of axis to its list of values (memory.channels: [8, 16])");
    for (const auto& kv : axes) add_axis(kv.first, kv.second, -1);
  }
  if (const YAML::Node zip = root["zip"]) {
    if (!zip.IsSequence()) fail(zip, "zip", "a list of groups, each a mapping of axes whose values move together");
    int g = 0;
    for (const auto& group : zip) {
      if (!group.IsMap() || group.size() < 2) fail(group, "zip", "a group is a mapping of at least two axes");
      const size_t first = s.axes.size();
      for (const auto& kv : group) add_axis(kv.first, kv.second, g);
      for (size_t a = first + 1; a < s.axes.size(); ++a)
        if (s.axes[a].values.size() != s.axes[first].values.size())
          throw InputError(path, s.axes[a].line, s.axes[a].key,
                           std::to_string(s.axes[a].values.size()) + " values, and " + s.axes[first].key + " in its zip group has " +
                               std::to_string(s.axes[first].values.size()));
      ++g;
    }
  }
  if (s.axes.empty()) fail(root, "axes", "missing: a sweep needs at least one axis");
  return s;
}

size_t point_count(const SweepSpec& spec) {
  size_t n = 1;
  for (size_t a = 0; a < spec.axes.size(); ++a)
    if (spec.axes[a].zip < 0 || a == 0 || spec.axes[a - 1].zip != spec.axes[a].zip) n *= spec.axes[a].values.size();
  return n;
}

Point make_point(const SweepSpec& spec, size_t index, bool validate) {
  Point p;
  p.index = index;
  p.choice.assign(spec.axes.size(), 0);
  // Mixed radix, the last dimension fastest; a zip group is one dimension.
  size_t rest = index;
  for (size_t a = spec.axes.size(); a-- > 0;) {
    const bool zipped_with_previous = spec.axes[a].zip >= 0 && a > 0 && spec.axes[a - 1].zip == spec.axes[a].zip;
    if (zipped_with_previous) continue;  // set with the group's first member below
    const size_t n = spec.axes[a].values.size();
    const size_t v = rest % n;
    rest /= n;
    for (size_t b = a; b < spec.axes.size() && (b == a || (spec.axes[b].zip >= 0 && spec.axes[b].zip == spec.axes[a].zip)); ++b)
      p.choice[b] = v;
  }

  YAML::Node root = YAML::Load(spec.base_text);
  // A point runs in its own folder: a flag's word that names a file from
  // the spec's folder (--threads t.bin) is made absolute.
  auto add_flag = [&](const std::string& w) {
    const std::string from_spec = resolve(spec.path, w);
    const bool file = !w.empty() && w[0] != '-' && fs::is_regular_file(from_spec);
    p.flags.push_back(file ? fs::absolute(from_spec).lexically_normal().string() : w);
  };
  for (const std::string& w : spec.flags) add_flag(w);
  int first_config_line = 0;
  std::string first_config_key;
  for (size_t a = 0; a < spec.axes.size(); ++a) {
    const Axis& axis = spec.axes[a];
    const std::string& v = axis.values[p.choice[a]];
    p.label += (p.label.empty() ? "" : " ") + axis.key + "=" + v;
    if (axis.key == "seed") p.seed = v;
    else if (axis.key == "trace") p.trace = fs::absolute(resolve(spec.path, v)).lexically_normal().string();
    else if (axis.key == "flags") {
      for (const std::string& w : split_words(v)) add_flag(w);
    } else {
      if (!first_config_line) {
        first_config_line = axis.line;
        first_config_key = axis.key;
      }
      if (const std::string why = set_key(root, axis.key, v); !why.empty())
        throw InputError(spec.path, axis.line, axis.key, "point " + std::to_string(index) + " (" + v + "): " + why);
    }
  }
  YAML::Emitter e;
  e << root;
  p.config_yaml = std::string(e.c_str()) + "\n";
  try {
    if (validate) parse_config(p.config_yaml, "config");
  } catch (const InputError& err) {
    // The message names the config key; the spec's line is the first config
    // axis's (the point's overrides together made the config).
    std::string why = err.what();  // "config:LINE: key: message": the line is in the generated text, of no use here
    const std::string where = err.file() + (err.line() > 0 ? ":" + std::to_string(err.line()) : "") + ": ";
    if (why.rfind(where, 0) == 0) why.erase(0, where.size());
    throw InputError(spec.path, first_config_line, first_config_key,
                     "point " + std::to_string(index) + " (" + p.label + "): " + why);
  }
  std::string canonical_config;  // from the tree the text was emitted from: no second parse
  canonical(root, canonical_config);
  p.hash = point_hash(spec.command, canonical_config, p.trace.empty() ? "" : read_input_file(p.trace, "trace"), p.seed, p.flags);
  return p;
}

std::vector<Point> all_points(const SweepSpec& spec, bool validate) {
  std::vector<Point> points;
  const size_t n = point_count(spec);
  points.reserve(n);
  for (size_t i = 0; i < n; ++i) points.push_back(make_point(spec, i, validate));
  return points;
}

}  // namespace gpumem::sweep
