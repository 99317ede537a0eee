// Random configs as a user might write them, for property tests (RapidCheck,
// which shrinks a failure to a minimal config): 1-16 channels, candidate
// bits, per-task schemes, either memory model, often an address space of several applications,
// and now and then a rule of docs/config-reference.md broken on purpose.
#pragma once
#include <rapidcheck.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/bits.hpp"
#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "params/block_params.hpp"

namespace gpumem::test {

inline constexpr uint64_t kS = 4096, kL = 65536;  // the default page sizes

// Uniform in [lo, hi) whatever the test's size (inRange alone favours small
// values early in a run); shrinks towards lo.
template <typename T>
T uniform(T lo, T hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

template <typename T>
T pick(const std::vector<T>& from) {
  return from[uniform<size_t>(0, from.size())];
}

inline bool coin() { return uniform(0, 2) == 1; }

// `count` distinct values drawn from `pool`, in draw order.
inline std::vector<unsigned> distinct(std::vector<unsigned> pool, size_t count) {
  std::vector<unsigned> out;
  while (out.size() < count && !pool.empty()) {
    const size_t i = uniform<size_t>(0, pool.size());
    out.push_back(pool[i]);
    pool.erase(pool.begin() + static_cast<long>(i));
  }
  return out;
}

inline std::string list(const std::vector<unsigned>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Rules of docs/config-reference.md the generator breaks now and then on
// purpose. The properties do not rely on the generator knowing the rules:
// they hold for whatever loads, and a config with a flaw must not load.
enum Flaw : unsigned {
  kChannelBitAbovePage = 1,     // isolation
  kGranuleBelowPte = 2,         // with an address space
  kPrimeBeforeMmu = 4,          // N not a power of two
  kTwoSchemesNonPow2 = 8,       // N not a power of two
  kPrimeDividesN = 16,
  kCandidateInsideGranule = 32,
};

struct Drawn {
  std::string yaml;
  unsigned flaws = 0;
};

// A config as a user might write one: 1-16 channels (powers of two on
// channel bits, others on a granule), candidate bits, per-task none / xor /
// prime, interleave on or off, and often an address space with large and
// small regions of several applications (small ones nested in large frames
// and in large pages' VA tails), the translator after or before the MMU.
// Each rule is broken with probability 1/8.
// Half the time the DRAM model behind the channels: a random preset with
// small queues, early drains, refresh and either page policy, so that
// reordering, write draining, forwarding and refresh all happen in a short
// run. Drawn after everything else, so the draws before it stay as they were.
inline std::string draw_memory_model() {
  if (coin()) return "";
  std::string m = ", preset: " + pick<std::string>({"ddr4", "gddr6", "hbm2", "hbm3", "ddr5", "lpddr5"}) +
                  ", latency_cycles: " + std::to_string(pick<unsigned>({0, 1, 40}));
  const unsigned high = pick<unsigned>({2, 4, 32});
  m += ", dram: {page_policy: " + pick<std::string>({"open", "closed"}) +
       ", refresh: " + pick<std::string>({"all_bank", "per_bank", "same_bank"}) +
       ", write_high: " + std::to_string(high) + ", write_low: " + std::to_string(uniform<unsigned>(0, high)) +
       ", read_queue: " + std::to_string(pick<unsigned>({1, 32})) +
       ", bank_queue: " + std::to_string(pick<unsigned>({1, 8})) +
       ", row_hit_cap: " + std::to_string(pick<unsigned>({0, 4}));
  if (coin()) m += ", timing: {tREFI: 2000}";
  return m + "}";
}

inline Drawn draw_config_without_memory_model();

inline Drawn draw_config() {
  Drawn d = draw_config_without_memory_model();
  const std::string model = draw_memory_model();
  const size_t close = d.yaml.find("}\n");  // the end of the first line, "memory: {...}"
  d.yaml.insert(close, model);
  return d;
}

inline Drawn draw_config_without_memory_model() {
  Drawn d;
  auto breaks = [&](unsigned flaw) {
    const bool b = uniform(0, 8) == 0;
    if (b) d.flaws |= flaw;
    return b;
  };
  const bool mmu = coin();
  const unsigned N = pick<unsigned>({1, 2, 3, 4, 5, 6, 7, 8, 12, 16});
  const bool pow2 = is_pow2(N);
  const unsigned abits = mmu ? pick<unsigned>({24, 32, 40, 48, 64}) : pick<unsigned>({16, 17, 32, 40, 64});
  const unsigned lowest = mmu && N > 1 && breaks(kGranuleBelowPte) ? 0 : mmu ? 3 : 0;
  std::vector<unsigned> channel_bits;
  bool contiguous = true;
  std::string t = "translator:\n";
  unsigned granule_shift = 0;
  if (pow2 && N > 1) {
    const unsigned m = log2_exact(N);
    const unsigned top = breaks(kChannelBitAbovePage) ? 16 : 12;
    contiguous = coin();
    if (contiguous) {
      const unsigned c0 = uniform<unsigned>(lowest, top - m + 1);
      for (unsigned j = 0; j < m; ++j) channel_bits.push_back(c0 + j);
    } else {
      std::vector<unsigned> pool;
      for (unsigned b = lowest; b < top; ++b) pool.push_back(b);
      channel_bits = distinct(pool, m);
      contiguous = std::is_sorted(channel_bits.begin(), channel_bits.end()) && channel_bits.back() == channel_bits[0] + m - 1;
    }
    granule_shift = *std::min_element(channel_bits.begin(), channel_bits.end());
    if (granule_shift >= 3 || !mmu) d.flaws &= ~kGranuleBelowPte;
    if (*std::max_element(channel_bits.begin(), channel_bits.end()) < 12) d.flaws &= ~kChannelBitAbovePage;
    t += "  channel_bits: " + list(channel_bits) + "\n";
    // Sometimes a granule below the lowest channel bit (for matrices that read there).
    const unsigned c_min = *std::min_element(channel_bits.begin(), channel_bits.end());
    if (c_min > 3 && uniform(0, 3) == 0) {
      granule_shift = uniform<unsigned>(3, c_min - 1);
      t += "  granule_bytes: " + hex(uint64_t{1} << granule_shift) + "\n";
    }
  } else if (!pow2) {
    granule_shift = uniform<unsigned>(lowest, std::min(17u, abits));
    if (granule_shift >= 3 || !mmu) d.flaws &= ~kGranuleBelowPte;
    t += "  granule_bytes: " + hex(uint64_t{1} << granule_shift) + "\n";
  }
  std::vector<unsigned> pool;
  const unsigned first_candidate = pow2 && N > 1 && breaks(kCandidateInsideGranule) ? 0 : granule_shift;
  for (unsigned b = first_candidate; b < std::min(abits, 30u); ++b)
    if (std::find(channel_bits.begin(), channel_bits.end(), b) == channel_bits.end()) pool.push_back(b);
  const std::vector<unsigned> candidates = distinct(pool, uniform<size_t>(0, 10));
  if (std::none_of(candidates.begin(), candidates.end(), [&](unsigned c) { return c < granule_shift; }))
    d.flaws &= ~kCandidateInsideGranule;
  if (!candidates.empty()) t += "  candidate_bits: " + list(candidates) + "\n";
  std::vector<unsigned> primes;
  for (unsigned p : {3u, 5u, 7u, 11u, 13u})
    if (N % p) primes.push_back(p);
  const unsigned prime = N % 3 == 0 && breaks(kPrimeDividesN) ? 3 : pick(primes);
  t += "  prime: " + std::to_string(prime) + "\n";
  if (!coin()) t += "  interleave_enable: false\n";
  const bool before = mmu && coin();
  if (before) t += "  position: before_mmu\n";
  const bool prime_ok = N > 1 && (!pow2 || contiguous);
  if (!pow2) {
    // One channel function for every task type, and none of them prime before the MMU.
    const bool use_prime = before ? breaks(kPrimeBeforeMmu) : coin();
    t += std::string("  default_scheme: ") + (use_prime ? "prime" : "none") + "\n";
    if (breaks(kTwoSchemesNonPow2)) {
      t += std::string("  tasks: [{task_type: 5, scheme: ") + (use_prime ? "none" : "prime") + "}]\n";
      if (before && !use_prime) d.flaws |= kPrimeBeforeMmu;  // task 5 is prime before the MMU
    }
  } else {
    if (prime_ok && coin()) t += "  default_scheme: prime\n";
    std::vector<unsigned> task_pool(kMaxTaskTypes);
    for (unsigned i = 0; i < kMaxTaskTypes; ++i) task_pool[i] = i;
    const std::vector<unsigned> listed = distinct(task_pool, uniform<size_t>(0, 7));
    if (!listed.empty()) t += "  tasks:\n";
    for (unsigned task : listed) {
      std::vector<std::string> schemes{"none"};
      if (N > 1) schemes.push_back("xor");
      if (prime_ok) schemes.push_back("prime");
      if (N > 1) schemes.push_back("matrix");
      const std::string s = pick(schemes);
      t += "    - {task_type: " + std::to_string(task) + ", scheme: " + s;
      if (s == "xor") {
        std::vector<unsigned> vectors;
        for (size_t j = 0; j < channel_bits.size(); ++j) vectors.push_back(uniform<unsigned>(0, 1u << candidates.size()));
        t += ", xor_vectors: " + list(vectors);
      }
      if (s == "matrix") {
        // A = L U, unit triangular factors: invertible; plus any bits from
        // the granule up (above the page too: they only select).
        const size_t m = channel_bits.size();
        std::vector<uint32_t> l(m), u(m);
        for (size_t j = 0; j < m; ++j) {
          l[j] = (1u << j) | (uniform<uint32_t>(0, ~0u) & ((1u << j) - 1));
          u[j] = (1u << j) | (uniform<uint32_t>(0, ~0u) & ~((2u << j) - 1) & ((1u << m) - 1));
        }
        std::vector<std::string> rows;
        for (size_t j = 0; j < m; ++j) {
          uint32_t a = 0;
          for (size_t k = 0; k < m; ++k)
            if ((l[j] >> k) & 1u) a ^= u[k];
          std::vector<unsigned> bits;
          for (size_t k = 0; k < m; ++k)
            if ((a >> k) & 1u) bits.push_back(channel_bits[k]);
          for (unsigned b : distinct(pool, uniform<size_t>(0, 4)))
            if (b >= granule_shift) bits.push_back(b);
          rows.push_back(list(bits));
        }
        t += ", matrix: [";
        for (size_t j = 0; j < m; ++j) t += (j ? ", " : "") + rows[j];
        t += "]";
      }
      t += "}\n";
    }
  }
  d.yaml = "memory: {address_bits: " + std::to_string(abits) + ", channels: " + std::to_string(N) + "}\n" + t;
  if (!mmu) return d;

  std::string a = "address_space:\n  va_bits: " + std::to_string(pick<unsigned>({32, 39})) +
                  "\n  pa_base: " + hex(uniform<uint64_t>(0, 4) * kL) +
                  "\n  nesting: " + (coin() ? "true" : "false") + "\n  applications:\n";
  const unsigned apps = uniform<unsigned>(1, 4);
  uint64_t slot = 1;
  for (unsigned i = 0; i < apps; ++i) {
    a += "    - name: app" + std::to_string(i) + "\n      process: " + std::to_string(i) +
         "\n      task_type: " + std::to_string(uniform<unsigned>(0, 16)) + "\n      regions:\n";
    const unsigned regions = uniform<unsigned>(1, 4);
    for (unsigned k = 0; k < regions; ++k) {
      const bool large = coin();
      const uint64_t va = slot++ << 24;
      const uint64_t size = large ? uniform<uint64_t>(1, 3 * kL) : uniform<uint64_t>(1, 6 * kS);
      auto region = [&](uint64_t at, uint64_t bytes, bool big) {
        std::string r = "        - {va: " + hex(at) + ", size: " + hex(bytes) + ", page: " + (big ? "large" : "small");
        if (uniform(0, 3) == 0) r += ", task_type: " + std::to_string(uniform<unsigned>(0, 16));
        if (uniform(0, 5) == 0) r += ", writable: false";
        return r + "}\n";
      };
      a += region(va, size, large);
      // A small region in the large page's VA tail: a nested region of
      // 2^k small pages that leaves the large page's data alone.
      if (!large || !coin()) continue;
      const uint64_t last = (size - 1) / kL * kL;
      const unsigned used = static_cast<unsigned>((size - last + kS - 1) / kS);
      std::vector<unsigned> units;
      for (unsigned u = std::max(used, 8u); u < 16; ++u) {
        unsigned region_units = 1;
        while (region_units < 16 - u) region_units *= 2;
        if (region_units <= 16 - used) units.push_back(u);
      }
      if (units.empty()) continue;
      const unsigned u = pick(units);
      a += region(va + last + u * kS, uniform<uint64_t>(1, (16 - u) * kS + 1), false);
    }
  }
  d.yaml += a;
  return d;
}

// Loads the drawn config; false (with the refusal logged) when it is refused.
inline bool load(const Drawn& d, Config& cfg) {
  RC_LOG() << d.yaml;
  try {
    cfg = parse_config(d.yaml, "drawn.yaml");
    if (cfg.has_mmu()) build_address_space(cfg, true), build_address_space(cfg, false);
  } catch (const InputError& e) {
    RC_LOG() << "refused: " << e.what() << "\n";
    return false;
  }
  bool prime = false, matrix = false;
  for (unsigned task = 0; task < kMaxTaskTypes; ++task) {
    prime |= cfg.scheme_of(task) == Scheme::kPrime;
    matrix |= cfg.scheme_of(task) == Scheme::kMatrix;
  }
  RC_TAG(!cfg.has_mmu() ? "no MMU" : cfg.translator.position == TranslatorPosition::kBeforeMmu ? "before MMU" : "after MMU",
         is_pow2(cfg.memory.channels) ? "N = 2^m" : "N not 2^m", prime ? "prime" : "no prime", matrix ? "matrix" : "no matrix");
  return true;
}

}  // namespace gpumem::test
