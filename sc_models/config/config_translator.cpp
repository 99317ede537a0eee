// The translator section and its checks against memory and the MMU.
#include "base/hex.hpp"
#include "config/config_reader.hpp"
#include "base/baselines.hpp"
#include "base/channel_matrix.hpp"

namespace gpumem::config_yaml {

namespace {

bool is_prime(uint64_t p) {
  if (p < 2) return false;
  for (uint64_t d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

}  // namespace

// A mapping's scheme and its parameters, as translator.tasks[i] and the
// profile store write them (not its task type); the channel layout's checks
// come later (check_task_matrix).
void declare_task_mapping(Section& s, const Reader& r, const YAML::Node& e, const std::string& key, const TranslatorConfig& t,
                          TaskMapping& tm) {
  s.key("scheme",
        [&](const YAML::Node& v, const std::string& k) {
          if (const std::string name = v.IsScalar() ? v.Scalar() : ""; is_baseline(name)) {
            tm.scheme = Scheme::kMatrix;  // its rows once the channel layout is known
            tm.baseline = name;
          } else {
            tm.scheme = read_scheme(r, v, k, true);
          }
        },
        [&] { r.fail(e, key + ".scheme", "missing value (none, xor, prime, matrix or a baseline)"); })
      .key("xor_vectors",
           [&](const YAML::Node& v, const std::string& vk) {
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
           },
           [&] {
             if (tm.scheme == Scheme::kXor)
               r.fail(e, key + ".xor_vectors", "missing value: scheme xor needs one XOR control vector per channel bit");
           })
      .key("matrix",
           [&](const YAML::Node& m, const std::string& mk) {
             if (!tm.baseline.empty()) r.fail(m, mk, "scheme " + tm.baseline + " makes its own matrix");
             if (tm.scheme != Scheme::kMatrix) r.fail(m, mk, "only a task with scheme matrix takes a matrix");
             if (!m.IsSequence()) r.fail(m, mk, "expected one row per channel bit, each a list of address bits");
             for (size_t j = 0; j < m.size(); ++j) {
               uint64_t row = 0;
               for (unsigned b : r.uint_list(m[j], mk + "[" + std::to_string(j) + "]", 64)) row |= uint64_t{1} << b;
               tm.matrix_rows.push_back(row);
             }
           },
           [&] {
             if (tm.scheme == Scheme::kMatrix && tm.baseline.empty())
               r.fail(e, key + ".matrix", "missing value: scheme matrix needs one row of address bits per channel bit");
           })
      .key("seed",
           [&](const YAML::Node& sd, const std::string& k) {
             if (tm.baseline != "random") r.fail(sd, k, "only scheme random takes a seed");
             tm.seed = r.to_u64(sd, k);
           })
      .then([&] {
        if (tm.scheme == Scheme::kPrime && t.prime == 0) r.fail(e["scheme"], key + ".scheme", "scheme prime needs translator.prime");
      });
}

void read_translator(const Reader& r, const YAML::Node& n, const Config& cfg, TranslatorConfig& t) {
  const unsigned abits = cfg.memory.address_bits;
  Section(r, n, "translator")
      .key("channel_bits", [&](const YAML::Node& v, const std::string& k) { t.channel_bits = r.uint_list(v, k, abits); })
      .key("candidate_bits", [&](const YAML::Node& v, const std::string& k) { t.candidate_bits = r.uint_list(v, k, abits); })
      .boolean("interleave_enable", t.interleave_enable)
      .uint("prime", t.prime, 2, 1u << 20)
      .key("granule_bytes",
           [&](const YAML::Node& v, const std::string& k) {
             t.granule_bytes = r.to_u64_in(v, k, 1, uint64_t{1} << 32);
             if (!is_pow2(t.granule_bytes)) r.fail(v, k, "must be a power of two");
           })
      .then([&] { default_channel_layout(r, n, cfg, t); })
      .key("default_scheme",
           [&](const YAML::Node& d, const std::string& k) {
             t.default_scheme = read_scheme(r, d, k, false);
             if (t.default_scheme == Scheme::kXor) r.fail(d, k, "xor needs XOR control vectors per task type: list the task under tasks");
             if (t.default_scheme == Scheme::kMatrix) r.fail(d, k, "matrix needs a matrix per task type: list the task under tasks");
             if (t.default_scheme == Scheme::kPrime && t.prime == 0) r.fail(d, k, "scheme prime needs translator.prime");
           })
      .key("tasks",
           [&](const YAML::Node& tasks, const std::string& k) {
             if (!tasks.IsSequence()) r.fail(tasks, k, "expected a list of task mappings");
             for (size_t i = 0; i < tasks.size(); ++i) {
               const YAML::Node e = tasks[i];
               const std::string key = k + "[" + std::to_string(i) + "]";
               TaskMapping tm;
               Section task(r, e, key);
               task.key("task_type", [&](const YAML::Node& v, const std::string& tk) {
                 tm.task_type = static_cast<unsigned>(r.to_u64_in(v, tk, 0, kMaxTaskTypes - 1));
               }, [&] { r.fail(e, key + ".task_type", "missing value"); });
               declare_task_mapping(task, r, e, key, t, tm);
               task.read();
               for (const auto& other : t.tasks)
                 if (other.task_type == tm.task_type)
                   r.fail(e["task_type"], key + ".task_type", "task type " + std::to_string(tm.task_type) + " mapped twice");
               t.tasks.push_back(tm);
             }
           })
      .choice_of("position", "position", t.position,
                 {{"after_mmu", TranslatorPosition::kAfterMmu}, {"before_mmu", TranslatorPosition::kBeforeMmu}})
      .boolean("dynamic_selection", t.dynamic_selection)
      .read();
}

// A config that gives only memory.channels runs on the layout the shipped
// configs use: channels interleaved at a 256-byte granule. Default channel
// bits that would reach the smallest page (isolation) or leave the address
// space are refused, not moved elsewhere, so that the default stays one
// rule; the message gives a layout to write out instead. `n` is the
// translator section, or the root without one.
void default_channel_layout(const Reader& r, const YAML::Node& n, const Config& cfg, TranslatorConfig& t) {
  const unsigned N = cfg.memory.channels;
  if (!is_pow2(N)) {
    if (!t.granule_bytes) t.granule_bytes = uint64_t{1} << TranslatorConfig::kDefaultGranuleShift;
    return;
  }
  if (N == 1 || n["channel_bits"]) return;
  const unsigned m = log2_exact(N);
  const unsigned c0 = t.granule_bytes ? log2_exact(t.granule_bytes) : TranslatorConfig::kDefaultGranuleShift;
  const unsigned page_bit = log2_exact(cfg.mmu.smallest_page());
  const unsigned limit = std::min(page_bit, cfg.memory.address_bits);
  if (c0 + m > limit) {
    std::string fix = "translator: {channel_bits: [";
    for (unsigned j = 0; j < m; ++j) fix += (j ? ", " : "") + std::to_string(limit - m + j);
    fix += "]";
    if (t.granule_bytes) fix += ", granule_bytes: " + std::to_string(uint64_t{1} << (limit - m));
    fix += "}";
    const std::string past = limit == page_bit ? "bit " + std::to_string(page_bit) + " of the " +
                                                     std::to_string(cfg.mmu.smallest_page()) + "-byte smallest page (isolation)"
                                               : "past the " + std::to_string(limit) + "-bit physical address space";
    r.fail(n, "translator.channel_bits",
           "missing value: " + std::to_string(N) + " channels need " + std::to_string(m) + " channel bits, and from bit " +
               std::to_string(c0) + " (above the " + std::to_string(uint64_t{1} << c0) +
               "-byte interleave granule) they would reach " + past + "; write them below it, as in " + fix);
  }
  for (unsigned j = 0; j < m; ++j) t.channel_bits.push_back(c0 + j);
}

namespace {

// The channel bits against the channel count, and the granule.
void check_channel_field(const Reader& r, const YAML::Node& n, const Config& cfg) {
  const auto& t = cfg.translator;
  const unsigned N = cfg.memory.channels;
  const YAML::Node cb = n ? n["channel_bits"] : YAML::Node();
  const YAML::Node at = cb ? cb : n;
  if (is_pow2(N)) {
    if (t.channel_bits.size() != log2_exact(N))
      r.fail(at, "translator.channel_bits", std::to_string(t.channel_bits.size()) + " channel bits give " +
                 std::to_string(1u << t.channel_bits.size()) + " channels but memory.channels is " + std::to_string(N));
  } else {
    if (!t.channel_bits.empty())
      r.fail(at, "translator.channel_bits", "memory.channels = " + std::to_string(N) +
                 " is not a power of two, so it has no channel bits; use granule_bytes and the prime or none scheme");
  }
  if (t.granule_bytes && t.granule_bytes >= (unsigned __int128)1 << cfg.memory.address_bits)
    r.fail(n["granule_bytes"], "translator.granule_bytes", "must be smaller than the " +
           std::to_string(cfg.memory.address_bits) + "-bit physical address space");
  // With channel bits the granule is 2^c_min unless set smaller: a matrix
  // (mop4clxor) may read bits below the channel field.
  if (t.granule_bytes && !t.channel_bits.empty()) {
    const unsigned c_min = *std::min_element(t.channel_bits.begin(), t.channel_bits.end());
    if (t.granule_bytes > (uint64_t{1} << c_min))
      r.fail(n["granule_bytes"], "translator.granule_bytes", "with channel bits the granule is at most 2^" + std::to_string(c_min) +
             " bytes (the lowest channel bit); a smaller one lets a matrix read bits below the channel field");
  }
}

void check_candidate_bits(const Reader& r, const YAML::Node& n, const Config& cfg) {
  const auto& t = cfg.translator;
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
}

void check_isolation_and_prime(const Reader& r, const YAML::Node& n, const Config& cfg) {
  const auto& t = cfg.translator;
  const unsigned N = cfg.memory.channels;
  const YAML::Node cb = n ? n["channel_bits"] : YAML::Node();
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
}

// Without channel bits (a channel count not a power of two) one scheme for all.
void check_one_scheme_without_channel_bits(const Reader& r, const YAML::Node& n, const Config& cfg) {
  const auto& t = cfg.translator;
  const unsigned N = cfg.memory.channels;
  if (!is_pow2(N)) {
    // A row of N granules straddles pages, so isolation only holds when every
    // task uses the same channel function. The configured schemes must agree
    // even with interleave_enable false: firmware may set CTRL's enable at
    // run time, and the register bank fixes each task type's scheme.
    for (size_t i = 0; i < t.tasks.size(); ++i) {
      const TaskMapping& tm = t.tasks[i];
      if (tm.scheme != Scheme::kXor && tm.scheme != Scheme::kMatrix) continue;
      // A baseline needs a channel bit to hash into; xor and matrix run on one channel too.
      std::string counts = tm.baseline.empty() ? "1, 2" : "2";
      for (unsigned c = 4; c <= kMaxChannels; c *= 2) counts += (c == kMaxChannels ? " or " : ", ") + std::to_string(c);
      r.fail(n["tasks"][i]["scheme"], "translator.tasks[" + std::to_string(i) + "].scheme",
             "scheme " + (tm.baseline.empty() ? std::string(scheme_name(tm.scheme)) : tm.baseline) +
                 " maps channel bits, so it takes a power-of-two channel count (" + counts + "), not " + std::to_string(N) +
                 "; with " + std::to_string(N) + " channels every task type uses scheme prime or none");
    }
    std::set<Scheme> schemes;
    for (unsigned task = 0; task < kMaxTaskTypes; ++task) schemes.insert(cfg.scheme_of(task));
    if (schemes.size() > 1)
      r.fail(n["tasks"], "translator.tasks", "with " + std::to_string(N) +
             " channels a row of granules crosses pages, so all task types must use the same scheme (isolation);"
             " set translator.default_scheme for the task types not listed");
  }
}

}  // namespace

void check_translator(const Reader& r, const YAML::Node& n, const Config& cfg) {
  check_channel_field(r, n, cfg);
  check_candidate_bits(r, n, cfg);
  check_isolation_and_prime(r, n, cfg);
  check_one_scheme_without_channel_bits(r, n, cfg);
}

// Once the translator's input width is known (the VA's, with an address space
// and the translator before the MMU).
void check_task_matrix(const Reader& r, const YAML::Node& e, const std::string& key, TaskMapping& tm, const Config& cfg) {
  if (tm.scheme != Scheme::kMatrix || !is_pow2(cfg.memory.channels)) return;
  if (!tm.baseline.empty()) {
    BaselineMatrix b = baseline_matrix(tm.baseline, cfg.channel_layout(), cfg.translator_address_bits(), tm.seed);
    if (!b.why_not.empty()) r.fail(e["scheme"], key + ".scheme", b.why_not);
    tm.matrix_rows = b.rows;
  }
  int row = -1;
  const std::string why = channel_matrix_problem(tm.matrix_rows, cfg.channel_layout(), cfg.translator_address_bits(), &row);
  if (why.empty()) return;
  const YAML::Node m = e["matrix"];
  if (row >= 0) r.fail(m[row], key + ".matrix[" + std::to_string(row) + "]", why);
  r.fail(m, key + ".matrix", why);
}

void check_translator_matrices(const Reader& r, const YAML::Node& n, Config& cfg) {
  for (size_t i = 0; i < cfg.translator.tasks.size(); ++i)
    check_task_matrix(r, n["tasks"][i], "translator.tasks[" + std::to_string(i) + "]", cfg.translator.tasks[i], cfg);
}

// What the MMU adds to the translator's checks, once the address space is read.
void check_translator_with_mmu(const Reader& r, const YAML::Node& n, const Config& cfg) {
  const auto& t = cfg.translator;
  const unsigned N = cfg.memory.channels;
  // The walker reads a page table entry in one access to one channel, so an
  // entry must not straddle two granules (two channels).
  if (N > 1 && cfg.granule_bytes() < kPteBytes) {
    if (!t.channel_bits.empty() && !t.granule_bytes) {
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

}  // namespace gpumem::config_yaml

namespace gpumem {

std::string task_mapping_yaml(const TaskMapping& m) {
  std::string s = "scheme: ";
  if (m.scheme == Scheme::kMatrix && !m.baseline.empty()) {
    s += m.baseline;
    if (m.baseline == "random" && m.seed != 1) s += ", seed: " + std::to_string(m.seed);
  } else {
    s += scheme_name(m.scheme);
  }
  if (m.scheme == Scheme::kXor) {
    s += ", xor_vectors: [";
    for (size_t j = 0; j < m.xor_vectors.size(); ++j) s += (j ? ", " : "") + hex(m.xor_vectors[j]);
    s += "]";
  }
  if (m.scheme == Scheme::kMatrix && m.baseline.empty()) {
    s += ", matrix: [";
    for (size_t j = 0; j < m.matrix_rows.size(); ++j) s += (j ? ", " : "") + matrix_row_text(m.matrix_rows[j]);
    s += "]";
  }
  return s;
}

}  // namespace gpumem
