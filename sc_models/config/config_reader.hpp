// The YAML reading behind parse_config, shared by the files that read one
// section each (config_<section>.cpp). Internal to the config library: no
// other library includes it, so yaml-cpp stays private to config/.
#pragma once
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string>
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

  // Optional field: leaves `out` (its default) untouched when absent.
  template <typename T>
  void opt_uint(const YAML::Node& map, const std::string& parent, const char* name, T& out,
                uint64_t lo, uint64_t hi) const {
    const YAML::Node n = map[name];
    if (!n) return;
    const std::string key = join(parent, name);
    const uint64_t v = to_u64(n, key);
    if (v < lo || v > hi)
      fail(n, key, "value " + std::to_string(v) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    out = static_cast<T>(v);
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
// One mapping of translator.tasks (or of the profile store), its task type aside.
TaskMapping read_task_mapping(const Reader& r, const YAML::Node& e, const std::string& key, const TranslatorConfig& t);
// A matrix mapping's rows (a baseline's made here) against the channel layout.
void check_task_matrix(const Reader& r, const YAML::Node& e, const std::string& key, TaskMapping& tm, const Config& cfg);
void read_workload(const Reader& r, const YAML::Node& n, const Config& cfg, std::vector<GeneratorConfig>& out);

}  // namespace gpumem::config_yaml
