#include "config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

#include "base/bits.hpp"
#include "base/input_error.hpp"

namespace gpumem {

uint64_t MmuConfig::smallest_page() const {
  return *std::min_element(page_sizes.begin(), page_sizes.end());
}

uint64_t MmuConfig::largest_page() const {
  return *std::max_element(page_sizes.begin(), page_sizes.end());
}

PageGeometry MmuConfig::geometry() const {
  PageGeometry g;
  g.small_bits = log2_exact(smallest_page());
  g.large_bits = log2_exact(largest_page());
  g.placement = nested_placement;
  return g;
}

std::string AddressSpaceConfig::region_key(const RegionConfig* region) const {
  for (size_t i = 0; i < applications.size(); ++i)
    for (size_t k = 0; k < applications[i].regions.size(); ++k)
      if (&applications[i].regions[k] == region)
        return "address_space.applications[" + std::to_string(i) + "].regions[" + std::to_string(k) + "]";
  return "address_space";
}

const ApplicationConfig* AddressSpaceConfig::application(unsigned process) const {
  for (const auto& a : applications)
    if (a.process == process) return &a;
  return nullptr;
}

unsigned Config::granule_shift() const {
  if (!translator.channel_bits.empty())
    return *std::min_element(translator.channel_bits.begin(), translator.channel_bits.end());
  if (translator.granule_bytes) return log2_exact(translator.granule_bytes);
  return log2_exact(mmu.smallest_page());  // one channel: the granule is irrelevant
}

const TaskMapping* Config::task_mapping(unsigned task) const {
  for (const auto& t : translator.tasks)
    if (t.task == task) return &t;
  return nullptr;
}

namespace {

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
    if (!node.IsMap()) fail(node, key, "expected a mapping");
    std::set<std::string> seen;
    for (const auto& kv : node) {
      // as<std::string>() on a non-scalar key would escape as a YAML exception.
      if (!kv.first.IsScalar()) fail(kv.first, key, "expected a plain key");
      const auto name = kv.first.Scalar();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return name == a; })) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(kv.first, join(key, name), "unknown key (allowed: " + list + ")");
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

Scheme read_scheme(const Reader& r, const YAML::Node& n, const std::string& key) {
  const std::string s = r.to_string(n, key);
  if (s == "none") return Scheme::kNone;
  if (s == "xor") return Scheme::kXor;
  if (s == "prime") return Scheme::kPrime;
  r.fail(n, key, "unknown scheme '" + s + "' (none, xor or prime)");
}

bool is_prime(uint64_t p) {
  if (p < 2) return false;
  for (uint64_t d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

void read_memory(const Reader& r, const YAML::Node& n, MemoryConfig& m) {
  r.expect_map(n, "memory", {"address_bits", "channels", "service_cycles", "max_outstanding"});
  r.opt_uint(n, "memory", "address_bits", m.address_bits, 16, 64);
  r.opt_uint(n, "memory", "channels", m.channels, 1, kMaxChannels);
  r.opt_uint(n, "memory", "service_cycles", m.service_cycles, 1, 1u << 20);
  r.opt_uint(n, "memory", "max_outstanding", m.max_outstanding, 1, 1u << 20);
}

void read_mmu(const Reader& r, const YAML::Node& n, MmuConfig& m) {
  r.expect_map(n, "mmu", {"page_sizes", "nested_placement", "tlb", "walk_level_cycles"});
  if (const auto p = n["nested_placement"]) {
    const std::string v = r.to_string(p, "mmu.nested_placement");
    if (v == "tail") m.nested_placement = NestedPlacement::kTail;
    else if (v == "head") m.nested_placement = NestedPlacement::kHead;
    else r.fail(p, "mmu.nested_placement", "unknown placement '" + v + "' (tail or head)");
  }
  r.opt_uint(n, "mmu", "walk_level_cycles", m.walk_level_cycles, 0, 1u << 20);
  if (const auto t = n["tlb"]) {
    r.expect_map(t, "mmu.tlb", {"entries", "ways", "replacement", "hit_cycles"});
    r.opt_uint(t, "mmu.tlb", "entries", m.tlb_entries, 1, 1u << 16);
    r.opt_uint(t, "mmu.tlb", "ways", m.tlb_ways, 1, 1u << 16);
    r.opt_uint(t, "mmu.tlb", "hit_cycles", m.tlb_hit_cycles, 0, 1u << 20);
    if (const auto rp = t["replacement"]) {
      const std::string v = r.to_string(rp, "mmu.tlb.replacement");
      if (v == "lru") m.replacement = Replacement::kLru;
      else if (v == "plru") m.replacement = Replacement::kPlru;
      else r.fail(rp, "mmu.tlb.replacement", "unknown replacement '" + v + "' (lru or plru)");
    }
    const YAML::Node at = t["ways"] ? t["ways"] : t;
    if (m.tlb_ways > m.tlb_entries || m.tlb_entries % m.tlb_ways)
      r.fail(at, "mmu.tlb.ways", std::to_string(m.tlb_ways) + " ways do not divide " + std::to_string(m.tlb_entries) + " entries");
    if (!is_pow2(m.tlb_entries / m.tlb_ways))
      r.fail(at, "mmu.tlb.ways", "entries / ways = " + std::to_string(m.tlb_entries / m.tlb_ways) + " sets: must be a power of two");
    if (m.replacement == Replacement::kPlru && !is_pow2(m.tlb_ways))
      r.fail(at, "mmu.tlb.ways", "tree-PLRU needs a power-of-two number of ways");
  }
  if (const auto ps = n["page_sizes"]) {
    if (!ps.IsSequence() || ps.size() == 0) r.fail(ps, "mmu.page_sizes", "expected a non-empty list of page sizes in bytes");
    m.page_sizes.clear();
    for (size_t i = 0; i < ps.size(); ++i) {
      const std::string k = "mmu.page_sizes[" + std::to_string(i) + "]";
      const uint64_t v = r.to_u64(ps[i], k);
      if (!is_pow2(v) || v < 1024) r.fail(ps[i], k, "page size must be a power of two of at least 1024 bytes");
      m.page_sizes.push_back(v);
    }
    if (m.page_sizes.size() > 2) r.fail(ps, "mmu.page_sizes", "at most two page sizes: the small and the large page");
  }
}

void read_translator(const Reader& r, const YAML::Node& n, const Config& cfg, TranslatorConfig& t) {
  r.expect_map(n, "translator", {"channel_bits", "candidate_bits", "interleave_enable", "prime", "granule_bytes",
                                 "default_scheme", "tasks", "position"});
  if (const auto p = n["position"]) {
    const std::string v = r.to_string(p, "translator.position");
    if (v == "after_mmu") t.position = TranslatorPosition::kAfterMmu;
    else if (v == "before_mmu") t.position = TranslatorPosition::kBeforeMmu;
    else r.fail(p, "translator.position", "unknown position '" + v + "' (after_mmu or before_mmu)");
  }
  const unsigned abits = cfg.memory.address_bits;
  if (n["channel_bits"]) t.channel_bits = r.uint_list(n["channel_bits"], "translator.channel_bits", abits);
  if (n["candidate_bits"]) t.candidate_bits = r.uint_list(n["candidate_bits"], "translator.candidate_bits", abits);
  if (n["interleave_enable"]) t.interleave_enable = r.to_bool(n["interleave_enable"], "translator.interleave_enable");
  r.opt_uint(n, "translator", "prime", t.prime, 2, 1u << 20);
  r.opt_uint(n, "translator", "granule_bytes", t.granule_bytes, 1, uint64_t{1} << 32);
  if (const auto d = n["default_scheme"]) {
    t.default_scheme = read_scheme(r, d, "translator.default_scheme");
    if (t.default_scheme == Scheme::kXor)
      r.fail(d, "translator.default_scheme", "xor needs XOR control vectors per task type: list the task under tasks");
    if (t.default_scheme == Scheme::kPrime && t.prime == 0)
      r.fail(d, "translator.default_scheme", "scheme prime needs translator.prime");
  }

  if (const auto tasks = n["tasks"]) {
    if (!tasks.IsSequence()) r.fail(tasks, "translator.tasks", "expected a list of task mappings");
    for (size_t i = 0; i < tasks.size(); ++i) {
      const auto e = tasks[i];
      const std::string key = "translator.tasks[" + std::to_string(i) + "]";
      r.expect_map(e, key, {"task", "scheme", "xor_vectors"});
      TaskMapping tm;
      if (!e["task"]) r.fail(e, key + ".task", "missing value");
      r.opt_uint(e, key, "task", tm.task, 0, kMaxTaskTypes - 1);
      for (const auto& other : t.tasks)
        if (other.task == tm.task) r.fail(e["task"], key + ".task", "task type " + std::to_string(tm.task) + " mapped twice");
      if (!e["scheme"]) r.fail(e, key + ".scheme", "missing value (none, xor or prime)");
      tm.scheme = read_scheme(r, e["scheme"], key + ".scheme");
      if (const auto v = e["xor_vectors"]) {
        const std::string vk = key + ".xor_vectors";
        if (tm.scheme != Scheme::kXor) r.fail(v, vk, "only a task with scheme xor takes XOR control vectors");
        if (!v.IsSequence()) r.fail(v, vk, "expected one XOR control vector per channel bit");
        if (v.size() != t.channel_bits.size())
          r.fail(v, vk, std::to_string(v.size()) + " XOR control vectors for " + std::to_string(t.channel_bits.size()) + " channel bits");
        for (size_t j = 0; j < v.size(); ++j) {
          const std::string ek = vk + "[" + std::to_string(j) + "]";
          const uint64_t a = r.to_u64(v[j], ek);
          if (t.candidate_bits.size() < 64 && (a >> t.candidate_bits.size()) != 0)
            r.fail(v[j], ek, "XOR control vector selects candidate bits beyond the " + std::to_string(t.candidate_bits.size()) + " configured");
          tm.xor_vectors.push_back(static_cast<uint32_t>(a));
        }
      } else if (tm.scheme == Scheme::kXor) {
        r.fail(e, key + ".xor_vectors", "missing value: scheme xor needs one XOR control vector per channel bit");
      }
      if (tm.scheme == Scheme::kPrime && t.prime == 0)
        r.fail(e["scheme"], key + ".scheme", "scheme prime needs translator.prime");
      t.tasks.push_back(tm);
    }
  }
}

void check_translator(const Reader& r, const YAML::Node& n, const Config& cfg) {
  const auto& t = cfg.translator;
  const unsigned N = cfg.memory.channels;
  const YAML::Node cb = n ? n["channel_bits"] : YAML::Node();
  const YAML::Node at = cb ? cb : n;
  if (is_pow2(N)) {
    if (N > 1 && t.channel_bits.empty())
      r.fail(n, "translator.channel_bits", "missing value: " + std::to_string(N) + " channels need " + std::to_string(log2_exact(N)) + " channel bits");
    if (t.channel_bits.size() != log2_exact(N))
      r.fail(at, "translator.channel_bits", std::to_string(t.channel_bits.size()) + " channel bits give " +
                 std::to_string(1u << t.channel_bits.size()) + " channels but memory.channels is " + std::to_string(N));
  } else {
    if (!t.channel_bits.empty())
      r.fail(at, "translator.channel_bits", "memory.channels = " + std::to_string(N) +
                 " is not a power of two, so it has no channel bits; use granule_bytes and the prime or none scheme");
    if (t.granule_bytes == 0)
      r.fail(n, "translator.granule_bytes", "missing value: a non-power-of-two channel count needs an interleave granule");
  }
  if (t.granule_bytes && !is_pow2(t.granule_bytes))
    r.fail(n["granule_bytes"], "translator.granule_bytes", "must be a power of two");
  if (t.granule_bytes && t.granule_bytes >= (unsigned __int128)1 << cfg.memory.address_bits)
    r.fail(n["granule_bytes"], "translator.granule_bytes", "must be smaller than the " +
           std::to_string(cfg.memory.address_bits) + "-bit physical address space");
  if (t.granule_bytes && is_pow2(N))
    r.fail(n["granule_bytes"], "translator.granule_bytes", "only for a non-power-of-two channel count; the granule is 2^channel_bits[0]");
  if (t.candidate_bits.size() > kMaxCandidateBits)
    r.fail(n["candidate_bits"], "translator.candidate_bits", "at most " + std::to_string(kMaxCandidateBits) + " candidate bits");
  for (size_t i = 0; i < t.candidate_bits.size(); ++i) {
    const unsigned p = t.candidate_bits[i];
    if (std::find(t.channel_bits.begin(), t.channel_bits.end(), p) != t.channel_bits.end())
      r.fail(n["candidate_bits"][i], "translator.candidate_bits[" + std::to_string(i) + "]",
             "candidate bit " + std::to_string(p) + " is also a channel bit; they must be disjoint");
    // A request is mapped whole, by its first byte: the flip must be the same
    // for every byte of a granule, or a byte written by a wide request and
    // read by a narrow one would be looked for in another channel.
    if (!t.channel_bits.empty() && p < cfg.granule_shift())
      r.fail(n["candidate_bits"][i], "translator.candidate_bits[" + std::to_string(i) + "]",
             "candidate bit " + std::to_string(p) + " lies inside the " + std::to_string(cfg.granule_bytes()) +
                 "-byte interleave granule (below channel bit " + std::to_string(cfg.granule_shift()) +
                 "): bytes of one request would map to different channels");
  }
  // Isolation: the mapping may only move data inside the smallest page that
  // carries its own task type, or two pages with different mappings collide.
  const uint64_t page = cfg.mmu.smallest_page();
  const unsigned page_bit = log2_exact(page);
  for (size_t j = 0; j < t.channel_bits.size(); ++j)
    if (t.channel_bits[j] >= page_bit)
      r.fail(cb[j], "translator.channel_bits[" + std::to_string(j) + "]",
             "channel bit " + std::to_string(t.channel_bits[j]) + " lies at or above bit " + std::to_string(page_bit) +
                 " of the smallest page that carries its own task type (" + std::to_string(page) +
                 " bytes): the mapping would move data across pages (isolation)");
  bool any_prime = false;
  for (unsigned task = 0; task < kMaxTaskTypes; ++task) any_prime |= cfg.scheme_of(task) == Scheme::kPrime;
  if (t.prime && N > 1 && N % t.prime == 0)
    r.fail(n["prime"], "translator.prime", "prime " + std::to_string(t.prime) + " divides the channel count " + std::to_string(N) + ": not a bijection");
  if (t.prime && !is_prime(t.prime)) r.fail(n["prime"], "translator.prime", std::to_string(t.prime) + " is not prime");
  if (any_prime && is_pow2(N) && N > 1) {
    // The prime scheme permutes whole granules of a row of N; with channel bits
    // that row is the contiguous field starting at channel_bits[0].
    for (size_t j = 1; j < t.channel_bits.size(); ++j)
      if (t.channel_bits[j] != t.channel_bits[0] + j)
        r.fail(cb[j], "translator.channel_bits[" + std::to_string(j) + "]",
               "the prime scheme needs contiguous ascending channel bits");
  }
  if (!is_pow2(N)) {
    // A row of N granules straddles pages, so isolation only holds when every
    // task uses the same channel function. The configured schemes must agree
    // even with interleave_enable false: firmware may set CTRL's enable at
    // run time, and the register bank fixes each task type's scheme.
    std::set<Scheme> schemes;
    for (unsigned task = 0; task < kMaxTaskTypes; ++task) {
      const Scheme s = cfg.scheme_of(task);
      if (s == Scheme::kXor) r.fail(n["tasks"], "translator.tasks", "scheme xor needs a power-of-two channel count");
      schemes.insert(s);
    }
    if (schemes.size() > 1)
      r.fail(n["tasks"], "translator.tasks", "with " + std::to_string(N) +
             " channels a row of granules crosses pages, so all task types must use the same scheme (isolation);"
             " set translator.default_scheme for the task types not listed");
  }
}

// What the MMU adds to the translator's checks, once the address space is read.
void check_translator_with_mmu(const Reader& r, const YAML::Node& n, const Config& cfg) {
  const auto& t = cfg.translator;
  const unsigned N = cfg.memory.channels;
  // The walker reads a page table entry in one access to one channel, so an
  // entry must not straddle two granules (two channels).
  if (N > 1 && cfg.granule_bytes() < kPteBytes) {
    if (!t.channel_bits.empty()) {
      const auto lowest = std::min_element(t.channel_bits.begin(), t.channel_bits.end()) - t.channel_bits.begin();
      const YAML::Node cb = n ? n["channel_bits"] : YAML::Node();
      r.fail(cb ? cb[lowest] : n, "translator.channel_bits[" + std::to_string(lowest) + "]",
             "channel bit " + std::to_string(t.channel_bits[lowest]) + " gives a " + std::to_string(cfg.granule_bytes()) +
                 "-byte interleave granule; with an address space it must hold one " + std::to_string(kPteBytes) +
                 "-byte page table entry, which the walker reads in one access to one channel (lowest channel bit at least 3)");
    }
    r.fail(n["granule_bytes"], "translator.granule_bytes",
           "a " + std::to_string(cfg.granule_bytes()) + "-byte interleave granule; with an address space it must hold one " +
               std::to_string(kPteBytes) + "-byte page table entry, which the walker reads in one access to one channel");
  }
  // Before the MMU the mapping acts on VAs: it must keep each VA inside its
  // small page, or a request lands on another page's PTE (another region,
  // permissions, task type, or none). A prime row of N granules, N not a
  // power of two, crosses pages.
  if (t.position == TranslatorPosition::kBeforeMmu && !is_pow2(N) && cfg.scheme_of(0) == Scheme::kPrime) {
    const YAML::Node at = n["default_scheme"] ? n["default_scheme"] : n["tasks"] ? n["tasks"] : n;
    r.fail(at, n["default_scheme"] ? "translator.default_scheme" : "translator.tasks",
           "before the MMU the prime scheme with " + std::to_string(N) +
               " channels would move VAs across pages (a row of N granules crosses pages); use scheme none there or "
               "translator.position: after_mmu");
  }
}

// A generator must stay inside the regions of its own application: a request
// outside them would fault, which a trace can ask for but a workload should not.
void check_generator_mapped(const Reader& r, const YAML::Node& e, const std::string& key, const Config& cfg,
                            const GeneratorConfig& g, uint64_t end) {
  const ApplicationConfig* app = cfg.address_space.application(g.process);
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const auto& reg : app->regions) spans.emplace_back(reg.va, reg.va + reg.size);
  std::sort(spans.begin(), spans.end());
  uint64_t covered = g.base;
  for (const auto& sp : spans)
    if (sp.first <= covered && sp.second > covered) covered = sp.second;
  if (covered < end) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "touches VA 0x%llx, which no region of application '%s' maps",
                  static_cast<unsigned long long>(covered), app->name.c_str());
    r.fail(e, key, buf);
  }
}

void read_address_space(const Reader& r, const YAML::Node& n, const YAML::Node& mmu_node, Config& cfg) {
  AddressSpaceConfig& as = cfg.address_space;
  as.present = true;
  r.expect_map(n, "address_space", {"va_bits", "pa_base", "nesting", "applications"});
  r.opt_uint(n, "address_space", "va_bits", as.va_bits, 20, 44);
  r.opt_uint(n, "address_space", "pa_base", as.pa_base, 0, ~uint64_t{0});
  if (n["nesting"]) as.nesting = r.to_bool(n["nesting"], "address_space.nesting");

  const MmuConfig& mmu = cfg.mmu;
  // Page sizes belong to the mmu section, which may be absent (then: here).
  const YAML::Node ps_at = mmu_node && mmu_node["page_sizes"] ? mmu_node["page_sizes"] : n;
  if (mmu.page_sizes.size() != 2 || mmu.smallest_page() == mmu.largest_page())
    r.fail(ps_at, "mmu.page_sizes", "an address space needs two page sizes: the small and the large page");
  const PageGeometry geo = mmu.geometry();
  if (geo.units_per_large() < 16)
    r.fail(ps_at, "mmu.page_sizes", "the large page must hold at least 16 small pages (the largest nested flag covers 8)");
  if (geo.units_per_large() > geo.small_bytes() / kPteBytes)
    r.fail(ps_at, "mmu.page_sizes", "a large page's PTEs must fit one leaf table of one small page");
  if (as.va_bits <= geo.large_bits)
    r.fail(n["va_bits"] ? n["va_bits"] : n, "address_space.va_bits", "must be wider than the large page offset");
  if (as.pa_base % geo.large_bytes())
    r.fail(n["pa_base"], "address_space.pa_base", "must be aligned to the large page");
  if (cfg.translator.position == TranslatorPosition::kBeforeMmu && as.va_bits > 32 + geo.small_bits)
    r.fail(n["va_bits"], "address_space.va_bits", "before the MMU the VA-range registers hold VA >> small page bits in 32 bits");

  const YAML::Node apps = n["applications"];
  if (!apps || !apps.IsSequence() || apps.size() == 0)
    r.fail(apps ? apps : n, "address_space.applications", "expected a non-empty list of applications");
  std::set<std::string> region_names;
  for (size_t i = 0; i < apps.size(); ++i) {
    const YAML::Node a = apps[i];
    const std::string key = "address_space.applications[" + std::to_string(i) + "]";
    r.expect_map(a, key, {"name", "process", "task", "regions"});
    ApplicationConfig app;
    app.line = a.Mark().line + 1;
    if (!a["name"]) r.fail(a, key + ".name", "missing value");
    app.name = r.to_string(a["name"], key + ".name");
    if (!a["process"]) r.fail(a, key + ".process", "missing value: the process id traces and generators use");
    r.opt_uint(a, key, "process", app.process, 0, kMaxProcesses - 1);
    if (!a["task"]) r.fail(a, key + ".task", "missing value: the task type written into the application's PTEs");
    r.opt_uint(a, key, "task", app.task, 0, kMaxTaskTypes - 1);
    for (const auto& other : as.applications) {
      if (other.name == app.name) r.fail(a["name"], key + ".name", "application '" + app.name + "' declared twice");
      if (other.process == app.process)
        r.fail(a["process"], key + ".process", "process id " + std::to_string(app.process) + " already belongs to '" + other.name + "'");
    }
    const YAML::Node regs = a["regions"];
    if (!regs || !regs.IsSequence() || regs.size() == 0) r.fail(regs ? regs : a, key + ".regions", "expected a non-empty list of regions");
    for (size_t k = 0; k < regs.size(); ++k) {
      const YAML::Node g = regs[k];
      const std::string rk = key + ".regions[" + std::to_string(k) + "]";
      r.expect_map(g, rk, {"name", "va", "size", "page", "task", "writable", "nest_into"});
      RegionConfig reg;
      reg.line = g.Mark().line + 1;
      reg.task = app.task;
      reg.name = g["name"] ? r.to_string(g["name"], rk + ".name") : app.name + "." + std::to_string(k);
      if (!region_names.insert(reg.name).second) r.fail(g["name"] ? g["name"] : g, rk + ".name", "region '" + reg.name + "' declared twice");
      if (!g["va"]) r.fail(g, rk + ".va", "missing value");
      if (!g["size"]) r.fail(g, rk + ".size", "missing value");
      if (!g["page"]) r.fail(g, rk + ".page", "missing value (small or large)");
      r.opt_uint(g, rk, "va", reg.va, 0, ~uint64_t{0});
      r.opt_uint(g, rk, "size", reg.size, 1, ~uint64_t{0});
      const std::string page = r.to_string(g["page"], rk + ".page");
      if (page == "large") reg.large = true;
      else if (page != "small") r.fail(g["page"], rk + ".page", "unknown page size '" + page + "' (small or large)");
      r.opt_uint(g, rk, "task", reg.task, 0, kMaxTaskTypes - 1);
      if (g["writable"]) reg.writable = r.to_bool(g["writable"], rk + ".writable");
      if (g["nest_into"]) {
        reg.nest_into = r.to_string(g["nest_into"], rk + ".nest_into");
        if (reg.large) r.fail(g["nest_into"], rk + ".nest_into", "only a small-page region nests into a large frame");
        if (!as.nesting) r.fail(g["nest_into"], rk + ".nest_into", "needs address_space.nesting: true");
        if (geo.placement != NestedPlacement::kTail)
          r.fail(g["nest_into"], rk + ".nest_into", "needs mmu.nested_placement: tail (a head region would cover the large page's data)");
      }
      const uint64_t align = reg.large ? geo.large_bytes() : geo.small_bytes();
      if (reg.va % align)
        r.fail(g["va"], rk + ".va", "must be aligned to its page size (" + std::to_string(align) + " bytes)");
      if ((unsigned __int128)reg.va + reg.size > ((unsigned __int128)1 << as.va_bits))
        r.fail(g, rk, "reaches past the " + std::to_string(as.va_bits) + "-bit virtual address space");
      app.regions.push_back(reg);
    }
    as.applications.push_back(app);
  }

  // Before the MMU a region with a task type of its own needs a VA-range
  // register (the driver programs one per such region).
  if (cfg.translator.position == TranslatorPosition::kBeforeMmu) {
    unsigned ranges = 0;
    for (const auto& app : as.applications)
      for (const auto& reg : app.regions) {
        if (reg.task != app.task && ++ranges > kMaxVaRanges)
          throw InputError(r.file(), reg.line, as.region_key(&reg) + ".task",
                           "before the MMU each region with its own task type takes a VA-range register; all " +
                               std::to_string(kMaxVaRanges) + " are taken");
      }
  }

  // Region overlap. A large region owns whole large pages; a small region may
  // sit in the unused tail of a large region's last page (it then nests there
  // in the virtual address space too), inside the largest nested region.
  struct Span { const RegionConfig* reg; const ApplicationConfig* app; uint64_t lo, hi; };
  std::vector<Span> spans;
  for (const auto& app : as.applications)
    for (const auto& reg : app.regions) {
      const uint64_t unit = reg.large ? geo.large_bytes() : geo.small_bytes();
      spans.push_back({&reg, &app, reg.va, reg.va + (reg.size + unit - 1) / unit * unit});
    }
  auto region_key = [&](const Span& s) { return as.region_key(s.reg); };
  for (const Span& a : spans) {
    for (const Span& b : spans) {
      if (&a == &b || !(a.lo < b.hi && b.lo < a.hi)) continue;
      if (!a.reg->large && b.reg->large) {
        // a nests in b's last page if it lies past b's data and inside the largest nested region.
        const uint64_t last_page = b.hi - geo.large_bytes();
        const uint64_t data_end = b.reg->va + (b.reg->size + geo.small_bytes() - 1) / geo.small_bytes() * geo.small_bytes();
        const uint64_t nest_lo = b.hi - 8 * geo.small_bytes();
        if (a.lo >= last_page && a.lo >= data_end && a.lo >= nest_lo && a.hi <= b.hi) {
          if (geo.placement != NestedPlacement::kTail)
            throw InputError(r.file(), a.reg->line, region_key(a), "nests in the tail of large region '" + b.reg->name +
                                                    "', which needs mmu.nested_placement: tail");
          continue;
        }
      }
      if (a.reg->large && !b.reg->large) continue;  // reported from b's side
      throw InputError(r.file(), a.reg->line, region_key(a),
                       "region '" + a.reg->name + "' overlaps region '" + b.reg->name + "' in the virtual address space" +
                           (!a.reg->large && b.reg->large ? " (a small region may only nest in the tail of a large region's last page, past its data, within the largest nested region of 8 small pages)" : ""));
    }
  }
  for (const Span& s : spans)
    if (!s.reg->nest_into.empty()) {
      const Span* target = nullptr;
      for (const Span& t : spans)
        if (t.reg->name == s.reg->nest_into) target = &t;
      if (!target || !target->reg->large)
        throw InputError(r.file(), s.reg->line, region_key(s) + ".nest_into",
                         "'" + s.reg->nest_into + "' is not a large-page region");
    }
}

void read_workload(const Reader& r, const YAML::Node& n, const Config& cfg, std::vector<GeneratorConfig>& out) {
  if (!n.IsSequence()) r.fail(n, "workload", "expected a list of generators");
  const unsigned abits = cfg.has_mmu() ? cfg.address_space.va_bits : cfg.memory.address_bits;
  const unsigned __int128 limit = (unsigned __int128)1 << abits;
  for (size_t i = 0; i < n.size(); ++i) {
    const auto e = n[i];
    const std::string key = "workload[" + std::to_string(i) + "]";
    r.expect_map(e, key, {"kind", "task", "process", "base", "stride", "range", "count", "size", "write_fraction", "seed",
                          "start_cycle", "issue_interval"});
    if (cfg.has_mmu() && e["task"])
      r.fail(e["task"], key + ".task", "with an address space the task type comes from the page tables: name the process");
    if (!cfg.has_mmu() && e["process"])
      r.fail(e["process"], key + ".process", "a process needs an address_space section; without one, give the task type");
    GeneratorConfig g;
    g.line = e.Mark().line + 1;
    if (!e["kind"]) r.fail(e, key + ".kind", "missing value (strided or random)");
    const std::string kind = r.to_string(e["kind"], key + ".kind");
    if (kind == "strided") g.kind = GeneratorConfig::Kind::kStrided;
    else if (kind == "random") g.kind = GeneratorConfig::Kind::kRandom;
    else r.fail(e["kind"], key + ".kind", "unknown generator '" + kind + "' (strided or random)");
    r.opt_uint(e, key, "task", g.task, 0, kMaxTaskTypes - 1);
    r.opt_uint(e, key, "process", g.process, 0, kMaxProcesses - 1);
    if (cfg.has_mmu() && !cfg.address_space.application(g.process))
      r.fail(e["process"] ? e["process"] : e, key + ".process", "no application has process id " + std::to_string(g.process));
    r.opt_uint(e, key, "base", g.base, 0, ~uint64_t{0});
    r.opt_uint(e, key, "stride", g.stride, 0, ~uint64_t{0});
    r.opt_uint(e, key, "range", g.range, 1, ~uint64_t{0});
    r.opt_uint(e, key, "count", g.count, 1, uint64_t{1} << 40);
    r.opt_uint(e, key, "size", g.size, 1, kMaxRequestBytes);
    r.opt_uint(e, key, "seed", g.seed, 0, ~uint64_t{0});
    r.opt_uint(e, key, "start_cycle", g.start_cycle, 0, uint64_t{1} << 50);
    r.opt_uint(e, key, "issue_interval", g.issue_interval, 0, uint64_t{1} << 30);
    if (e["write_fraction"]) {
      g.write_fraction = r.to_double(e["write_fraction"], key + ".write_fraction");
      if (!(g.write_fraction >= 0 && g.write_fraction <= 1)) r.fail(e["write_fraction"], key + ".write_fraction", "must lie in [0, 1]");
    }
    const YAML::Node size_at = e["size"] ? e["size"] : e;
    if (!is_pow2(g.size) || g.size > cfg.max_request_bytes())
      r.fail(size_at, key + ".size", "request size " + std::to_string(g.size) +
             " must be a power of two no larger than the interleave granule (" + std::to_string(cfg.max_request_bytes()) + " bytes)");
    if (g.kind == GeneratorConfig::Kind::kRandom && !e["range"])
      r.fail(e, key + ".range", "missing value: a random generator needs its address range in bytes");
    if (e["range"] && g.range < g.size)
      r.fail(e["range"], key + ".range", "range must hold at least one request");
    if (e["range"] && g.range % g.size)
      r.fail(e["range"], key + ".range", "range must be a multiple of the request size");
    if (g.base % g.size) r.fail(e["base"] ? e["base"] : e, key + ".base", "base must be aligned to the request size");
    if (g.kind == GeneratorConfig::Kind::kStrided && g.stride % g.size)
      r.fail(e["stride"] ? e["stride"] : e, key + ".stride", "stride must be a multiple of the request size");
    const unsigned __int128 end = g.range ? (unsigned __int128)g.base + g.range
                                          : (unsigned __int128)g.base + (unsigned __int128)g.stride * (g.count - 1) + g.size;
    if (end > limit)
      r.fail(e, key, "addresses reach past the " + std::to_string(abits) + "-bit " + (cfg.has_mmu() ? "virtual" : "physical") +
                         " address space");
    if (cfg.has_mmu()) check_generator_mapped(r, e, key, cfg, g, static_cast<uint64_t>(end));
    out.push_back(g);
  }
  // With an address space the PTEs carry the task types; nothing to check here.
  if (cfg.has_mmu()) return;
  // Isolation from the other side: two task types must not share a page.
  const uint64_t page = cfg.mmu.smallest_page();
  auto span = [&](const GeneratorConfig& g) {
    const uint64_t last = g.range ? g.base + g.range - 1 : g.base + g.stride * (g.count - 1) + g.size - 1;
    return std::pair<uint64_t, uint64_t>{g.base / page, last / page};
  };
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      if (out[i].task == out[j].task) continue;
      const auto a = span(out[i]), b = span(out[j]);
      if (a.first <= b.second && b.first <= a.second)
        r.fail(n[i], "workload[" + std::to_string(i) + "]", "shares pages with workload[" + std::to_string(j) +
               "] under a different task type; a page carries one task type");
    }
}

}  // namespace

Config parse_config(const std::string& text, const std::string& source) {
  Reader r(source);
  YAML::Node loaded;
  try {
    loaded = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(source, e.mark.line + 1, "", "YAML syntax error: " + e.msg);
  }
  const YAML::Node& root = loaded;  // const: operator[] must never insert keys
  Config cfg;
  cfg.source = source;
  if (!root || root.IsNull()) throw InputError(source, 0, "", "empty config");
  r.expect_map(root, "", {"description", "memory", "mmu", "translator", "simulation", "stats", "address_space", "workload"});
  if (root["description"]) cfg.description = r.to_string(root["description"], "description");
  if (!root["memory"]) r.fail(root, "memory", "missing value: the memory section is required");
  read_memory(r, root["memory"], cfg.memory);
  if (root["mmu"]) read_mmu(r, root["mmu"], cfg.mmu);
  const YAML::Node tn = root["translator"];
  if (tn) read_translator(r, tn, cfg, cfg.translator);
  check_translator(r, tn ? tn : root, cfg);
  if (const auto s = root["simulation"]) {
    r.expect_map(s, "simulation", {"cycle_ns", "quantum_cycles"});
    if (s["cycle_ns"]) {
      cfg.simulation.cycle_ns = r.to_double(s["cycle_ns"], "simulation.cycle_ns");
      if (!(cfg.simulation.cycle_ns > 0)) r.fail(s["cycle_ns"], "simulation.cycle_ns", "must be positive");
    }
    r.opt_uint(s, "simulation", "quantum_cycles", cfg.simulation.quantum_cycles, 1, uint64_t{1} << 40);
  }
  if (const auto s = root["stats"]) {
    r.expect_map(s, "stats", {"entropy_window"});
    r.opt_uint(s, "stats", "entropy_window", cfg.stats.entropy_window, 1, 1u << 24);
  }
  if (const auto a = root["address_space"]) read_address_space(r, a, root["mmu"], cfg);
  if (cfg.translator.position == TranslatorPosition::kBeforeMmu && !cfg.has_mmu())
    r.fail(tn["position"], "translator.position", "before_mmu needs an address_space section (there is no MMU without one)");
  if (cfg.has_mmu()) check_translator_with_mmu(r, tn ? tn : root, cfg);
  if (const auto w = root["workload"]) read_workload(r, w, cfg, cfg.workload);
  return cfg;
}

Config load_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open config file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path);
}

}  // namespace gpumem
