// Properties over random configs (RapidCheck, with shrinking to a minimal
// config): whatever check-config accepts must never corrupt data. Every
// task type's mapping is a bijection onto the translator's address space; no
// data address maps onto a page-table location; a read returns the last
// value written, through the MMU, the translator in either position, the
// decoder and the channel stores. Configs the generator makes bad on purpose
// must be refused with an InputError. A failure prints the config (RC_LOG)
// and the RC_PARAMS line that replays it (docs/architecture.md, "Isolation").
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/bits.hpp"
#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "config/block_params.hpp"
#include "functional_path.hpp"
#include "router/channel_decoder.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

constexpr uint64_t kS = 4096, kL = 65536;  // the default page sizes

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

bool coin() { return uniform(0, 2) == 1; }

// `count` distinct values drawn from `pool`, in draw order.
std::vector<unsigned> distinct(std::vector<unsigned> pool, size_t count) {
  std::vector<unsigned> out;
  while (out.size() < count && !pool.empty()) {
    const size_t i = uniform<size_t>(0, pool.size());
    out.push_back(pool[i]);
    pool.erase(pool.begin() + static_cast<long>(i));
  }
  return out;
}

std::string list(const std::vector<unsigned>& v) {
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
Drawn draw_config() {
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
bool load(const Drawn& d, Config& cfg) {
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

// ---------------------------------------------------------------- refusals

RC_GTEST_PROP(MappingProperties, ConfigsBrokenOnPurposeAreRefusedByKey, ()) {
  const Drawn d = draw_config();
  RC_PRE(d.flaws != 0u);
  RC_LOG() << d.yaml;
  static const char* const names[] = {"channel bit above page", "granule below PTE", "prime before MMU",
                                      "two schemes, N not 2^m", "prime divides N", "candidate inside granule"};
  for (unsigned i = 0; i < 6; ++i)
    if (d.flaws & (1u << i)) RC_TAG(names[i]);
  try {
    const Config cfg = parse_config(d.yaml, "drawn.yaml");
    if (cfg.has_mmu()) build_address_space(cfg, true);
  } catch (const InputError& e) {
    RC_ASSERT(e.file() == "drawn.yaml");
    RC_ASSERT(!e.key().empty());
    return;
  }
  RC_FAIL("accepted a config with a flaw");
}

// ---------------------------------------------------------------- bijection

// Every task type's mapping, with interleave on and off (firmware may flip
// CTRL at run time), is one to one from the translator's input space onto
// itself, and the decoder splits each mapped address into a channel and a
// local address it can put back together. With channel bits, nothing leaves
// its smallest page. Exhaustive up to 2^17 addresses, else the bottom and top
// rows of the space and random addresses.
RC_GTEST_PROP(MappingProperties, EveryMappingIsABijectionOntoTheAddressSpace, ()) {
  Config cfg;
  RC_PRE(load(draw_config(), cfg));
  const unsigned bits = cfg.translator_address_bits();
  const uint64_t top = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const ChannelDecoder dec(cfg.channel_layout());
  const unsigned page_bits = log2_exact(cfg.mmu.smallest_page());
  const uint64_t row = cfg.memory.channels * cfg.granule_bytes();
  std::vector<uint64_t> samples;
  if (bits <= 17) {
    for (uint64_t a = 0; a <= top; ++a) samples.push_back(a);
  } else {
    std::mt19937_64 rng(uniform<uint64_t>(0, ~uint64_t{0}));
    for (uint64_t a = 0; a < 3 * row; a += cfg.granule_bytes()) samples.push_back(a | (rng() & (cfg.granule_bytes() - 1)));
    for (uint64_t back = 0; back < 3 * row; back += cfg.granule_bytes()) samples.push_back(top - back);
    for (int i = 0; i < 3000; ++i) samples.push_back(rng() & top);
  }
  TranslatorRegisters regs = registers_from_config(cfg);
  for (bool enable : {true, false}) {
    regs.interleave_enable = enable;
    ++regs.generation;
    XorTranslator tr(translator_params(cfg), regs);
    std::set<std::tuple<Scheme, std::array<uint32_t, kMaxChannelBits>, std::array<uint64_t, kMaxChannelBits>>> done;
    for (unsigned task = 0; task < kMaxTaskTypes; ++task) {
      if (!done.insert({tr.scheme(task), regs.xor_vector[task], regs.matrix_row[task]}).second) continue;
      std::unordered_set<uint64_t> seen;
      seen.reserve(samples.size());
      for (const uint64_t a : samples) {
        const uint64_t m = tr.map(a, task);
        RC_ASSERT(m <= top);
        RC_ASSERT(tr.unmap(m, task) == a);
        RC_ASSERT(dec.compose(dec.channel(m), dec.local(m)) == m);
        if (cfg.bit_interleaved()) RC_ASSERT(((m ^ a) >> page_bits) == 0u);
        // The prime scheme's definition, for every granule of a whole row.
        // Granules of the channel field: from c_0 up (the interleave granule may be smaller).
        const auto& cb = cfg.translator.channel_bits;
        const unsigned field = cb.empty() ? cfg.granule_shift() : *std::min_element(cb.begin(), cb.end());
        const uint64_t G = a >> field, N = cfg.memory.channels;
        const unsigned __int128 granules = ((unsigned __int128)top + 1) >> field;
        if (tr.scheme(task) == Scheme::kPrime && G / N < granules / N)
          RC_ASSERT(dec.channel(m) == (G % N) * (cfg.translator.prime % N) % N);
        seen.insert(m);
      }
      std::unordered_set<uint64_t> distinct_in(samples.begin(), samples.end());
      RC_ASSERT(seen.size() == distinct_in.size());
    }
  }
}

// ---------------------------------------------------------------- page tables and data

// Every 8-byte word of every mapped page, under its page's mapping (interleave
// on and off), lands on a channel location of its own, and never on one the
// page-table frames use. Before the MMU the mapped VA must stay in its page.
RC_GTEST_PROP(MappingProperties, NoDataAddressMapsOntoAPageTableLocation, ()) {
  Config cfg;
  RC_PRE(load(draw_config(), cfg));
  RC_PRE(cfg.has_mmu());
  FunctionalPath path(cfg);
  const AddressSpaceImage& img = *path.image();
  const ChannelDecoder& dec = path.decoder();
  const PageGeometry geo = cfg.mmu.geometry();
  // The allocation stays far below 2^56, so channel and local fit one key.
  auto key = [&](uint64_t pa) { return (uint64_t{dec.channel(pa)} << 56) ^ dec.local(pa); };
  std::unordered_set<uint64_t> tables;
  for (uint64_t pa = img.page_table_base; pa < img.pa_end; pa += kPteBytes) tables.insert(key(pa));
  // VA -> page, to follow a mapped VA before the MMU.
  std::map<uint64_t, const PageMapping*> small_at;
  std::map<uint64_t, const PageMapping*> large_at;
  for (const PageMapping& m : img.pages) (m.large_page ? large_at : small_at)[m.va] = &m;
  auto page_of = [&](uint64_t va) -> const PageMapping* {
    if (auto it = small_at.find(va >> geo.small_bits << geo.small_bits); it != small_at.end()) return it->second;
    if (auto it = large_at.find(va >> geo.large_bits << geo.large_bits); it != large_at.end())
      if (!geo.in_nested_region(va, it->second->nested_flag)) return it->second;
    return nullptr;
  };
  TranslatorRegisters regs = path.bank().translator_registers();
  const bool before = cfg.translator.position == TranslatorPosition::kBeforeMmu;
  for (bool enable : {true, false}) {
    regs.interleave_enable = enable;
    ++regs.generation;
    XorTranslator tr(translator_params(cfg), regs);
    std::unordered_set<uint64_t> data;
    for (const PageMapping& m : img.pages) {
      const uint64_t bytes = m.large_page ? geo.large_bytes() : geo.small_bytes();
      for (uint64_t off = 0; off < bytes; off += kPteBytes) {
        const uint64_t va = m.va + off;
        if (m.large_page && geo.in_nested_region(va, m.nested_flag)) continue;  // another page's, or nobody's
        uint64_t pa = m.pa + off;
        if (before) {
          const uint64_t mapped_va = tr.map(va, regs.task_for(m.process, va, geo.small_bits));
          const PageMapping* p = page_of(mapped_va);
          RC_ASSERT(p == &m);
          pa = p->pa + (mapped_va - p->va);
        } else {
          pa = tr.map(pa, m.task_type);
        }
        const uint64_t k = key(pa);
        RC_ASSERT(tables.count(k) == 0u);
        RC_ASSERT(data.insert(k).second);
      }
    }
  }
}

// ---------------------------------------------------------------- read after write

// Random reads and writes of random sizes over every mapped page (with an
// address space) or over pages of random task types including the top of the
// physical space (without): every read returns the last value written to its
// address; nothing faults but a write to a read-only page.
RC_GTEST_PROP(MappingProperties, ReadReturnsTheLastValueWritten, ()) {
  Config cfg;
  RC_PRE(load(draw_config(), cfg));
  FunctionalPath path(cfg);
  std::mt19937_64 rng(uniform<uint64_t>(0, ~uint64_t{0}));
  struct Page {
    uint64_t base, bytes;
    unsigned who;  // process, or task type without an address space
    bool writable;
  };
  std::vector<Page> pages;
  const unsigned max_size = cfg.max_request_bytes();
  const PageGeometry geo = cfg.mmu.geometry();
  if (cfg.has_mmu()) {
    for (const PageMapping& m : path.image()->pages) {
      if (!m.large_page) {
        pages.push_back({m.va, geo.small_bytes(), m.process, m.writable});
        continue;
      }
      for (uint64_t u = 0; u < geo.units_per_large(); ++u)
        if (!geo.in_nested_region(m.va + u * geo.small_bytes(), m.nested_flag))
          pages.push_back({m.va + u * geo.small_bytes(), geo.small_bytes(), m.process, m.writable});
    }
  } else {
    const uint64_t page = cfg.mmu.smallest_page();
    const uint64_t last = (cfg.memory.address_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << cfg.memory.address_bits) - 1) / page;
    std::set<uint64_t> numbers{0, 1, last, last - 1};
    while (numbers.size() < 12) numbers.insert(rng() % (last + 1));
    for (uint64_t n : numbers) pages.push_back({n * page, page, static_cast<unsigned>(rng() % kMaxTaskTypes), true});
  }
  std::unordered_map<uint64_t, uint8_t> shadow;
  uint8_t data[kMaxRequestBytes];
  How how;
  const unsigned ops = uniform(200, 3000);
  for (unsigned i = 0; i < ops; ++i) {
    const Page& p = pages[rng() % pages.size()];
    const unsigned size = 1u << (rng() % (log2_exact(max_size) + 1));
    // 16 slots of the largest request per page, so reads often find written bytes.
    const uint64_t address = p.base + (rng() % 16) * max_size % p.bytes + (rng() % (max_size / size)) * size;
    const Op op = rng() % 2 ? Op::kWrite : Op::kRead;
    for (unsigned b = 0; b < size; ++b) data[b] = static_cast<uint8_t>(rng());
    const bool done = path.access(p.who, address, op, data, size, how);
    if (!done) {
      RC_LOG() << "request " << i << " at " << hex(address) << " faulted: " << fault_reason_name(how.fault) << "\n";
      RC_ASSERT(op == Op::kWrite && !p.writable && how.fault == FaultReason::kPermission);
      continue;
    }
    for (unsigned b = 0; b < size; ++b) {
      if (op == Op::kWrite) {
        shadow[address + b] = data[b];
        continue;
      }
      const auto it = shadow.find(address + b);
      if (data[b] != (it == shadow.end() ? 0 : it->second))
        RC_FAIL("request " + std::to_string(i) + " read byte " + hex(address + b) + " = " + std::to_string(data[b]) +
                ", last written " + std::to_string(it == shadow.end() ? 0 : it->second) + " (mapped " +
                hex(how.mapped_address) + ", channel " + std::to_string(how.channel) + ", local " + hex(how.local_address) + ")");
    }
  }
}

}  // namespace
}  // namespace gpumem::test
