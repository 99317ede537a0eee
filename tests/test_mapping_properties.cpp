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
#include "params/block_params.hpp"
#include "functional_path.hpp"
#include "random_config.hpp"
#include "router/channel_decoder.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

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
