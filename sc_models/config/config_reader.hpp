// The YAML reading behind parse_config, shared by the files that read one
// section each (config_<section>.cpp). Internal to the config library: no
// other library includes it, so yaml-cpp stays private to config/.
#pragma once
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/bits.hpp"
#include "base/input_error.hpp"
#include "base/nearest_name.hpp"
#include "config/config.hpp"

namespace gpumem::config_yaml {

// Walks the YAML tree keeping the dotted key path, so every error can name
// the file, the line and the key.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& msg) const {
    int line = at.IsDefined() ? at.Mark().line + 1 : 0;
    throw InputError(file_, line, key, msg);
  }

  // Checks that `node` is a map with only `allowed` keys.
  void expect_map(const YAML::Node& node, const std::string& key, std::initializer_list<const char*> allowed) const {
    expect_map(node, key, std::vector<const char*>(allowed));
  }
  void expect_map(const YAML::Node& node, const std::string& key, const std::vector<const char*>& allowed) const {
    if (!node.IsMap()) fail(node, key, "expected a mapping");
    std::set<std::string> seen;
    for (const auto& kv : node) {
      // as<std::string>() on a non-scalar key would escape as a YAML exception.
      if (!kv.first.IsScalar()) fail(kv.first, key, "expected a plain key");
      const auto name = kv.first.Scalar();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return name == a; })) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        // Configs written before the task type had one name everywhere.
        const bool renamed = name == "task" && std::any_of(allowed.begin(), allowed.end(),
                                                           [](const char* a) { return std::string(a) == "task_type"; });
        fail(kv.first, join(key, name),
             "unknown key (allowed: " + list + ")" +
                 (renamed ? "; 'task' is now 'task_type'" : did_you_mean(name, std::vector<std::string>(allowed.begin(), allowed.end()))));
      }
      // yaml-cpp keeps both and lookups see only the first, so the second would be ignored silently.
      if (!seen.insert(name).second) fail(kv.first, join(key, name), "key given twice");
      // An empty value's mark is the next token, often a line further down: report it at the key.
      if (kv.second.IsNull()) fail(kv.first, join(key, name), "missing value");
    }
  }

  static std::string join(const std::string& parent, const std::string& child) {
    return parent.empty() ? child : parent + "." + child;
  }

  uint64_t to_u64(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "expected an unsigned integer");
    const std::string s = n.Scalar();
    int base = 10;
    size_t skip = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, skip = 2;
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, skip = 2;
    const std::string digits = s.substr(skip);
    if (digits.empty() || digits.find_first_not_of(base == 16 ? "0123456789abcdefABCDEF_" : base == 2 ? "01_" : "0123456789_") != std::string::npos)
      fail(n, key, "expected an unsigned integer, got '" + s + "'");
    std::string clean;
    for (char c : digits) if (c != '_') clean += c;
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(clean.c_str(), &end, base);
    if (errno == ERANGE || clean.empty()) fail(n, key, "number out of range: '" + s + "'");
    return v;
  }

  bool to_bool(const YAML::Node& n, const std::string& key) const {
    bool v = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)) fail(n, key, "expected true or false");
    return v;
  }

  double to_double(const YAML::Node& n, const std::string& key) const {
    double v = 0;
    if (!n.IsScalar() || !YAML::convert<double>::decode(n, v)) fail(n, key, "expected a number");
    return v;
  }

  std::string to_string(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "expected a string");
    return n.Scalar();
  }

  // An unsigned integer in [lo, hi].
  uint64_t to_u64_in(const YAML::Node& n, const std::string& key, uint64_t lo, uint64_t hi) const {
    const uint64_t v = to_u64(n, key);
    if (v < lo || v > hi)
      fail(n, key, "value " + std::to_string(v) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  }

  std::vector<unsigned> uint_list(const YAML::Node& n, const std::string& key, unsigned hi) const {
    if (!n.IsSequence()) fail(n, key, "expected a list of bit positions");
    std::vector<unsigned> out;
    for (size_t i = 0; i < n.size(); ++i) {
      const std::string k = key + "[" + std::to_string(i) + "]";
      const uint64_t v = to_u64(n[i], k);
      if (v >= hi) fail(n[i], k, "bit position " + std::to_string(v) + " must be below " + std::to_string(hi));
      if (std::find(out.begin(), out.end(), v) != out.end())
        fail(n[i], k, "bit " + std::to_string(v) + " listed twice");
      out.push_back(static_cast<unsigned>(v));
    }
    return out;
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

// One mapping of the config, each of its keys declared once with how it is
// read: read() refuses a key not declared (before any value is read, so a
// misspelt key is named before a check trips on the default it left), then
// reads each key given and runs each check, in declaration order. The
// allowed list of an unknown key's error is the declared keys, in that order.
class Section {
 public:
  // How a given key's value is read; `key` is its dotted path for errors.
  using Read = std::function<void(const YAML::Node& value, const std::string& key)>;

  Section(const Reader& r, const YAML::Node& node, std::string key) : r_(r), node_(node), key_(std::move(key)) {}
  Section(const Section&) = delete;  // its reads hold `this`
  Section& operator=(const Section&) = delete;

  // A key read by `read` when given, `absent` (if any) run in its place when not.
  Section& key(const char* name, Read read, std::function<void()> absent = {}) {
    items_.push_back({name, std::move(read), std::move(absent)});
    return *this;
  }
  // An unsigned integer in [lo, hi] into `out`, which keeps its default when the key is absent.
  template <typename T>
  Section& uint(const char* name, T& out, uint64_t lo, uint64_t hi) {
    return key(name, [this, &out, lo, hi](const YAML::Node& v, const std::string& k) { out = static_cast<T>(r_.to_u64_in(v, k, lo, hi)); });
  }
  Section& boolean(const char* name, bool& out) {
    return key(name, [this, &out](const YAML::Node& v, const std::string& k) { out = r_.to_bool(v, k); });
  }
  Section& text(const char* name, std::string& out) {
    return key(name, [this, &out](const YAML::Node& v, const std::string& k) { out = r_.to_string(v, k); });
  }
  // One of `names` (in the order the error lists them) into `out`; `line`,
  // if given, gets the value's line for later checks to name.
  template <typename E, typename Line = unsigned>
  Section& choice(const char* name, E& out, std::vector<std::pair<const char*, E>> names, Line* line = nullptr) {
    return choose(name, nullptr, out, std::move(names), line);
  }
  // The same, its error "unknown NOUN 'x' (a or b)".
  template <typename E>
  Section& choice_of(const char* noun, const char* name, E& out, std::vector<std::pair<const char*, E>> names) {
    return choose(name, noun, out, std::move(names), static_cast<unsigned*>(nullptr));
  }
  // The key declared last must be given; `what` says so, at the mapping.
  Section& required(std::string what = "missing value") {
    const char* name = items_.back().name;
    items_.back().otherwise = [this, name, what = std::move(what)] { r_.fail(node_, Reader::join(key_, name), what); };
    return *this;
  }
  // A key allowed and not read: a figure the writer adds for a human reader.
  Section& unread(const char* name) { return key(name, {}); }
  // A step with no key of its own: a check of what the keys before it read.
  Section& then(std::function<void()> step) {
    items_.push_back({nullptr, {}, std::move(step)});
    return *this;
  }

  void read() const {
    std::vector<const char*> allowed;
    for (const Item& i : items_)
      if (i.name) allowed.push_back(i.name);
    r_.expect_map(node_, key_, allowed);
    for (const Item& i : items_) {
      const YAML::Node v = i.name ? node_[i.name] : YAML::Node();
      if (i.name && v) {
        if (i.read) i.read(v, Reader::join(key_, i.name));
      }
      else if (i.otherwise) i.otherwise();
    }
  }

 private:
  template <typename E, typename Line>
  Section& choose(const char* name, const char* noun, E& out, std::vector<std::pair<const char*, E>> names, Line* line) {
    return key(name, [this, noun, &out, names = std::move(names), line](const YAML::Node& v, const std::string& k) {
      const std::string s = r_.to_string(v, k);
      const auto it = std::find_if(names.begin(), names.end(), [&](const auto& n) { return s == n.first; });
      if (it == names.end()) {
        std::string list;
        for (size_t i = 0; i < names.size(); ++i)
          list += std::string(i == 0 ? "" : noun && i + 1 == names.size() ? " or " : ", ") + names[i].first;
        r_.fail(v, k, noun ? "unknown " + std::string(noun) + " '" + s + "' (" + list + ")" : "'" + s + "' is not one of: " + list);
      }
      out = it->second;
      if (line) *line = static_cast<Line>(v.Mark().line + 1);
    });
  }

  struct Item {
    const char* name;  // null: a step
    Read read;
    std::function<void()> otherwise;  // the step, or what stands for an absent key
  };
  const Reader& r_;
  const YAML::Node node_;
  const std::string key_;
  std::vector<Item> items_;
};

// YAML text to its tree; a syntax error is an InputError at its line, with
// a hint where the cause is plain: a tab in the indentation of that line or
// the one before (yaml-cpp says "illegal map value" or worse).
inline YAML::Node parse_yaml(const std::string& text, const std::string& source) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    std::string msg = "YAML syntax error: " + e.msg;
    std::vector<std::string> lines{""};
    for (const char c : text) {
      if (c == '\n') lines.emplace_back();
      else lines.back().push_back(c);
    }
    for (int l = e.mark.line - 1; l <= e.mark.line; ++l) {
      if (l < 0 || l >= int(lines.size())) continue;
      const std::string& t = lines[size_t(l)];
      if (t.substr(0, t.find_first_not_of(" \t")).find('\t') != std::string::npos) {
        msg += "; line " + std::to_string(l + 1) + " is indented with a tab, and YAML indents with spaces only";
        break;
      }
    }
    throw InputError(source, e.mark.line + 1, "", msg);
  }
}

// A scheme by name (kSchemeNames); `baselines`: a published mapping's name may stand for it
// (the caller looks for those first), so the error lists them too.
Scheme read_scheme(const Reader& r, const YAML::Node& n, const std::string& key, bool baselines);

// One function per section, in the order parse_config calls them.
void read_memory(const Reader& r, const YAML::Node& n, MemoryConfig& m);
void read_mmu(const Reader& r, const YAML::Node& n, MmuConfig& m);
void read_translator(const Reader& r, const YAML::Node& n, const Config& cfg, TranslatorConfig& t);
void default_channel_layout(const Reader& r, const YAML::Node& n, const Config& cfg, TranslatorConfig& t);
void check_translator(const Reader& r, const YAML::Node& n, const Config& cfg);
void read_address_space(const Reader& r, const YAML::Node& n, const YAML::Node& mmu_node, Config& cfg);
void check_translator_with_mmu(const Reader& r, const YAML::Node& n, const Config& cfg);
void check_translator_matrices(const Reader& r, const YAML::Node& n, Config& cfg);
void read_frontend(const Reader& r, const YAML::Node& n, const Config& cfg, FrontendConfig& f);
void read_l1(const Reader& r, const YAML::Node& n, const Config& cfg, L1Config& c);
void read_prefetch(const Reader& r, const YAML::Node& n, const Config& cfg, PrefetchConfig& p);
// The keys of one mapping of translator.tasks (or of the profile store), its
// task type aside, into `s`, read into `tm` when s is read.
void declare_task_mapping(Section& s, const Reader& r, const YAML::Node& e, const std::string& key, const TranslatorConfig& t,
                          TaskMapping& tm);
// A matrix mapping's rows (a baseline's made here) against the channel layout.
void check_task_matrix(const Reader& r, const YAML::Node& e, const std::string& key, TaskMapping& tm, const Config& cfg);
void read_workload(const Reader& r, const YAML::Node& n, const Config& cfg, std::vector<GeneratorConfig>& out);

}  // namespace gpumem::config_yaml
