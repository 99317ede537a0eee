// PTE layout, page-table walker and MMU without a simulation kernel. Page
// tables are built by hand in a map of 8-byte words (unwritten words read as
// zero, i.e. invalid), independently of the driver's allocator, and every
// read the walker makes is counted: a fault must come after a bounded number
// of reads, never from a loop.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/hex.hpp"
#include "params/block_params.hpp"
#include "mmu/mmu.hpp"
#include "mmu/page_table.hpp"
#include "mmu/pte.hpp"
#include "regs/register_bank.hpp"
#include "regs/register_map.hpp"

namespace gpumem::test::mmu_test {
namespace {

constexpr uint64_t kS = 0x1000;   // small page
constexpr uint64_t kL = 0x10000;  // large page

struct Memory {
  std::unordered_map<uint64_t, uint64_t> words;
  unsigned reads = 0;
  ReadPte reader() {
    return [this](uint64_t pa) {
      ++reads;
      const auto it = words.find(pa);
      return it == words.end() ? uint64_t{0} : it->second;
    };
  }
};

// Radix tables from PA 0x8000'0000 up, one small page each, made on demand.
class Tables {
 public:
  explicit Tables(Memory& mem, PageTableLayout layout = {12, 32}) : mem_(mem), lay_(layout), root_(alloc()) {}
  uint64_t root() const { return root_; }

  uint64_t slot(unsigned level, uint64_t va) {
    uint64_t table = root_;
    for (unsigned l = 0; l < level; ++l) {
      const uint64_t at = table + uint64_t{lay_.index(va, l)} * kPteBytes;
      auto it = tables_.find({l + 1, va >> lay_.shift(l)});
      if (it == tables_.end()) {
        it = tables_.emplace(std::make_pair(l + 1, va >> lay_.shift(l)), alloc()).first;
        Pte dir;
        dir.valid = dir.directory = true;
        dir.pfn = it->second >> 12;
        mem_.words[at] = dir.encode();
      }
      table = it->second;
    }
    return table + uint64_t{lay_.index(va, level)} * kPteBytes;
  }
  uint64_t leaf_slot(uint64_t va) { return slot(lay_.levels() - 1, va); }
  void set_raw(uint64_t va, uint64_t raw) { mem_.words[leaf_slot(va)] = raw; }
  void set_leaf(uint64_t va, const Pte& p) { set_raw(va, p.encode()); }
  // A large page's PTE in each of its 16 leaf slots, except its nested region's.
  void map_large(uint64_t va, const Pte& p) {
    const PageGeometry geo;
    for (uint64_t u = 0; u < 16; ++u)
      if (!geo.in_nested_region(va + u * kS, p.nested_flag)) set_leaf(va + u * kS, p);
  }

 private:
  uint64_t alloc() {
    const uint64_t t = next_;
    next_ += kS;
    return t;
  }
  Memory& mem_;
  PageTableLayout lay_;
  uint64_t next_ = 0x8000'0000;
  uint64_t root_;
  std::map<std::pair<unsigned, uint64_t>, uint64_t> tables_;
};

Pte leaf(uint64_t pa, bool large, unsigned task, uint8_t flag = 0, bool writable = true, bool readable = true) {
  Pte p;
  p.valid = true;
  p.readable = readable;
  p.writable = writable;
  p.large_page = large;
  p.nested_flag = flag;
  p.task_type = static_cast<uint8_t>(task);
  p.pfn = pa >> 12;
  return p;
}

// The default config: 4 KB / 64 KB pages, 32-bit VA, 32-entry 4-way LRU TLB.
Config mmu_config() {
  Config c;
  c.address_space.present = true;
  return c;
}

// An outcome with the MMU's detail of its fault.
struct Out : MmuOutcome {
  std::string detail;
};

// One MMU over hand-built tables; tr() checks that the outcome's read count
// is the number of reads memory actually saw.
struct Rig {
  Config cfg = mmu_config();
  Memory mem;
  Tables tables{mem};
  MmuRegisters regs{tables.root(), 0};
  Mmu mmu{mmu_params(cfg), regs};

  Out tr(uint64_t va, bool write = false) { return tr_with(mmu, va, write); }
  Out tr_with(Mmu& m, uint64_t va, bool write = false) {
    mem.reads = 0;
    Out o{m.translate(va, write, mem.reader()), ""};
    if (o.fault != FaultReason::kNone) o.detail = m.fault_detail();
    EXPECT_EQ(mem.reads, o.walk_reads) << "va 0x" << std::hex << va;
    return o;
  }
  unsigned valid_entries() {
    unsigned n = 0;
    for (unsigned s = 0; s < mmu.tlb().sets(); ++s)
      for (unsigned w = 0; w < mmu.tlb().ways(); ++w) n += mmu.tlb().entry(s, w).valid;
    return n;
  }
};

// ---------------------------------------------------------------- PTE

TEST(Pte, LayoutMatchesTheDocumentedBitPositions) {
  // One entry worked out by hand from the layout in pte.hpp: V R . . S,
  // NEST 1000, TASK 0xA, PFN 0x12345.
  Pte p = leaf(0x12345000, true, 0xA, 0x8, /*writable=*/false);
  EXPECT_EQ(p.encode(), 0x0000'0001'2345'A813u);
  // Each field alone lands where the documentation says.
  EXPECT_EQ(Pte{true}.encode(), 0x1u);
  Pte t;
  t.directory = true;
  EXPECT_EQ(t.encode(), 0x8u);
  Pte f;
  f.pfn = (uint64_t{1} << kPfnBits) - 1;  // the widest PFN fills [55:16] and nothing else
  EXPECT_EQ(f.encode(), 0x00FF'FFFF'FFFF'0000u);
  EXPECT_EQ(f.encode() & kPteReservedMask, 0u);
}

TEST(Pte, DocsTableIsTheLayout) {
  std::ifstream in(std::string(GPUMEM_SOURCE_DIR) + "/docs/page-tables.md");
  ASSERT_TRUE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  for (const PteField& f : kPteLayout) {
    const unsigned msb = f.lsb + f.width - 1;
    const std::string bits = f.width == 1 ? std::to_string(f.lsb) : std::to_string(msb) + ":" + std::to_string(f.lsb);
    const auto row = doc.find("\n| " + bits + " | ");
    ASSERT_NE(row, std::string::npos) << "no row for bits " << bits << " (" << f.name << ")";
    const std::string line = doc.substr(row + 1, doc.find('\n', row + 1) - row - 1);
    EXPECT_NE(line.find("| `" + std::string(f.name) + "` |"), std::string::npos) << line;
  }
}

TEST(Pte, EncodeDecodeRoundTripsForRandomFields) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 20000; ++i) {
    Pte p;
    const uint64_t r = rng();
    p.valid = r & 1;
    p.readable = r & 2;
    p.writable = r & 4;
    p.directory = r & 8;
    p.large_page = r & 16;
    p.nested_flag = static_cast<uint8_t>((r >> 8) & 0xF);
    p.task_type = static_cast<uint8_t>((r >> 12) & 0xF);
    p.pfn = rng() & ((uint64_t{1} << kPfnBits) - 1);
    const uint64_t raw = p.encode();
    ASSERT_EQ(raw & kPteReservedMask, 0u) << "encode wrote a reserved bit";
    const Pte q = Pte::decode(raw);
    ASSERT_EQ(q.valid, p.valid);
    ASSERT_EQ(q.readable, p.readable);
    ASSERT_EQ(q.writable, p.writable);
    ASSERT_EQ(q.directory, p.directory);
    ASSERT_EQ(q.large_page, p.large_page);
    ASSERT_EQ(q.nested_flag, p.nested_flag);
    ASSERT_EQ(q.task_type, p.task_type);
    ASSERT_EQ(q.pfn, p.pfn);
    // And from the raw side: every non-reserved bit survives decode + encode.
    const uint64_t any = rng();
    ASSERT_EQ(Pte::decode(any).encode(), any & ~kPteReservedMask);
  }
}

TEST(Pte, NestedUnitsOnlyForOneHotFlags) {
  for (unsigned f = 0; f < 16; ++f) {
    const int expect = f == 0 ? 0 : f == 1 ? 1 : f == 2 ? 2 : f == 4 ? 4 : f == 8 ? 8 : -1;
    EXPECT_EQ(nested_units(static_cast<uint8_t>(f)), expect) << f;
  }
}

// ---------------------------------------------------------------- walker

TEST(Walker, LayoutForThirtyTwoBitVaAndFourKbPages) {
  // CN113836054A: 32-bit VA, 64 KB pages -> VPN VA[31:16], offset VA[15:0]. The
  // 4 KB-granular leaf table gives 20 index bits: 2 + 9 + 9.
  const PageTableLayout lay(12, 32);
  EXPECT_EQ(lay.index_bits(), 9u);
  ASSERT_EQ(lay.levels(), 3u);
  EXPECT_EQ(lay.shift(0), 30u);
  EXPECT_EQ(lay.shift(1), 21u);
  EXPECT_EQ(lay.shift(2), 12u);
  const uint64_t va = 0xDEAD'BEEF;
  EXPECT_EQ(lay.index(va, 0), 0x3u);                  // VA[31:30]
  EXPECT_EQ(lay.index(va, 1), (va >> 21) & 0x1FF);    // VA[29:21]
  EXPECT_EQ(lay.index(va, 2), (va >> 12) & 0x1FF);    // VA[20:12]
  EXPECT_EQ(lay.index(0xFFFF'FFFF, 0), 3u) << "the root indexes only 2 bits";
  // The leaf index's low 4 bits are the small page inside the large one
  // (VA[15:12]), so a large page's 16 slots are contiguous in one leaf table.
  EXPECT_EQ(lay.index(va, 2) & 0xF, PageGeometry().unit_in_large(va));

  struct { unsigned va_bits, levels, root_bits; } other[] = {{20, 1, 8}, {21, 1, 9}, {30, 2, 9}, {31, 3, 1}, {39, 3, 9}, {40, 4, 1}, {44, 4, 5}};
  for (const auto& o : other) {
    const PageTableLayout l(12, o.va_bits);
    EXPECT_EQ(l.levels(), o.levels) << o.va_bits;
    EXPECT_EQ(l.va_bits - l.shift(0), o.root_bits) << o.va_bits;
    EXPECT_EQ(l.shift(l.levels() - 1), 12u) << o.va_bits;
  }
}

TEST(Walker, ReservedBitsAreAPageTableError) {
  const PageTableLayout lay(12, 32);
  const PageTableWalker walker(lay, PageGeometry{});
  const uint64_t va = 0x4567'1234;
  const std::vector<unsigned> reserved{5, 6, 7, 56, 57, 58, 59, 60, 61, 62, 63};
  for (unsigned b : reserved) {
    ASSERT_NE(kPteReservedMask & (uint64_t{1} << b), 0u) << b;
    for (unsigned level = 0; level < 3; ++level) {
      Memory mem;
      Tables t(mem);
      t.set_leaf(va, leaf(0x00AB'0000, true, 1));
      mem.words[t.slot(level, va)] |= uint64_t{1} << b;
      const WalkResult w = walker.walk(t.root(), va, mem.reader());
      EXPECT_EQ(w.fault, FaultReason::kPageTableError) << "bit " << b << " level " << level;
      EXPECT_EQ(w.detail, "level " + std::to_string(level) + ": reserved PTE bits set");
      EXPECT_EQ(w.reads, level + 1) << "stops at the bad entry";
      EXPECT_EQ(mem.reads, w.reads);
    }
  }
  // The mask is exactly bits 5-7 and 56-63.
  uint64_t m = 0;
  for (unsigned b : reserved) m |= uint64_t{1} << b;
  EXPECT_EQ(kPteReservedMask, m);
}

TEST(Walker, GoodWalkReadsOneEntryPerLevel) {
  Memory mem;
  Tables t(mem);
  const Pte p = leaf(0x0ABC'0000, true, 7, 0x4);
  t.map_large(0x4567'0000, p);
  const PageTableWalker walker(PageTableLayout(12, 32), PageGeometry{});
  const WalkResult w = walker.walk(t.root(), 0x4567'0123, mem.reader());
  EXPECT_EQ(w.fault, FaultReason::kNone) << w.detail;
  EXPECT_EQ(w.reads, 3u);
  EXPECT_EQ(w.leaf, p);
  EXPECT_EQ(w.leaf_pte_address, t.leaf_slot(0x4567'0000));
}

// ---------------------------------------------------------------- MMU: translation

TEST(MmuTranslate, PaSplicesFrameAndOffsetAtThePageSize) {
  // A frame number spliced at the wrong bit range is a classic escaped bug:
  // frames and offsets below share no bit pattern, so each mistake (large
  // offset on a small page, small offset on a large page, PFN shifted by 16
  // instead of 12, PA truncated to 32 bits) gives a different PA.
  struct Case {
    const char* what;
    bool large;
    uint64_t frame, va, pa;
    uint64_t vpn;  // the TLB entry's VPN: VA[31:16] large, VA[31:12] small
  } cases[] = {
      {"large: PA[15:0] = VA[15:0]", true, 0x5A5A'0000, 0x1234'C3C3, 0x5A5A'C3C3, 0x1234},
      {"large, last byte", true, 0x5A5A'0000, 0x1234'FFFF, 0x5A5A'FFFF, 0x1234},
      {"large above 4 GB", true, 0x12'3456'0000, 0x8765'4321, 0x12'3456'4321, 0x8765},
      {"small: PA[11:0] = VA[11:0]", false, 0x5A5A'7000, 0x1234'C3C3, 0x5A5A'73C3, 0x1'234C},
      {"small above 4 GB", false, 0xFF'FFFF'F000, 0x0000'2ABC, 0xFF'FFFF'FABC, 0x2},
  };
  for (const Case& c : cases) {
    Rig r;
    if (c.large) {
      r.tables.map_large(c.va & ~(kL - 1), leaf(c.frame, true, 5));
    } else {
      r.tables.set_leaf(c.va, leaf(c.frame, false, 5));
    }
    const Out o = r.tr(c.va);
    ASSERT_EQ(o.fault, FaultReason::kNone) << c.what << ": " << o.detail;
    EXPECT_EQ(o.pa, c.pa) << c.what << ": got " << hex(o.pa);
    EXPECT_EQ(o.large_page, c.large) << c.what;
    const TlbEntry& e = r.mmu.tlb().entry(o.set, o.way);
    EXPECT_EQ(e.vpn, c.vpn) << c.what;
    EXPECT_EQ(o.set, (c.va >> 16) % r.mmu.tlb().sets()) << c.what << ": set from the large VPN for both sizes";
    // The second access hits and splices the same way.
    const Out again = r.tr(c.va);
    EXPECT_EQ(again.first, c.large ? TlbResult::kHitLarge : TlbResult::kHitSmall) << c.what;
    EXPECT_EQ(again.pa, c.pa) << c.what;
  }
}

// Every flag value on one large page (tail placement). The large page is
// render's (task 3, frame 0x0ABC'0000); each slot of its nested region holds
// a small page of another task type (9) in a frame of its own.
uint64_t small_frame(unsigned unit) { return 0x0135'7000 + unit * 0x3000; }

TEST(MmuNested, EveryFlagValueInsideAndOutsideTheRegion) {
  const uint64_t kVa = 0x4567'0000, kFrame = 0x0ABC'0000;
  for (uint8_t flag : {0x0, 0x1, 0x2, 0x4, 0x8}) {
    SCOPED_TRACE("flag " + std::to_string(flag));
    const unsigned units = static_cast<unsigned>(nested_units(flag));
    const unsigned first_in = 16 - units;  // offset[15:12] of the region's first page
    Rig r;
    r.tables.map_large(kVa, leaf(kFrame, true, 3, flag));
    for (unsigned u = first_in; u < 16; ++u) r.tables.set_leaf(kVa + u * kS, leaf(small_frame(u), false, 9));

    // Just outside: offset[15:12] == 15 - units. A miss walks (3 levels) and
    // fills the large page.
    const uint64_t out_va = kVa + (15 - units) * kS + 0x234;
    Out o = r.tr(out_va);
    ASSERT_EQ(o.fault, FaultReason::kNone) << o.detail;
    EXPECT_EQ(o.first, TlbResult::kMiss);
    EXPECT_EQ(o.walks, 1u);
    EXPECT_EQ(o.walk_reads, 3u);
    EXPECT_TRUE(o.filled);
    EXPECT_TRUE(o.large_page);
    EXPECT_EQ(o.pa, kFrame + (15 - units) * kS + 0x234);
    EXPECT_EQ(o.task_type, 3u);
    EXPECT_EQ(r.mmu.tlb().entry(o.set, o.way).nested_flag, flag);

    // The last byte below the region: still the large page, a plain hit.
    const uint64_t below = kVa + first_in * kS - 1;
    o = r.tr(below);
    EXPECT_EQ(o.first, TlbResult::kHitLarge);
    EXPECT_EQ(o.walk_reads, 0u);
    EXPECT_EQ(o.pa, kFrame + first_in * kS - 1);
    EXPECT_EQ(o.task_type, 3u);

    if (units > 0) {
      // Just inside: the large entry hits inside its region, so the walker
      // fetches the small page's own PTE from the leaf slot (CN113836054A, S16).
      const uint64_t in_va = kVa + first_in * kS;
      o = r.tr(in_va);
      ASSERT_EQ(o.fault, FaultReason::kNone) << o.detail;
      EXPECT_EQ(o.first, TlbResult::kNested);
      EXPECT_EQ(o.walks, 1u);
      EXPECT_EQ(o.walk_reads, 3u);
      EXPECT_TRUE(o.filled);
      EXPECT_FALSE(o.large_page);
      EXPECT_EQ(o.pa, small_frame(first_in));
      EXPECT_EQ(o.task_type, 9u) << "the small page's own task type, not the large page's";
      // Now the small entry hits first.
      o = r.tr(in_va + 0xABC);
      EXPECT_EQ(o.first, TlbResult::kHitSmall);
      EXPECT_EQ(o.walk_reads, 0u);
      EXPECT_EQ(o.pa, small_frame(first_in) + 0xABC);
      EXPECT_EQ(o.task_type, 9u);
      // The large page's last byte: another small page unless the region is one page.
      o = r.tr(kVa + 0xFFFF);
      ASSERT_EQ(o.fault, FaultReason::kNone) << o.detail;
      EXPECT_EQ(o.first, units >= 2 ? TlbResult::kNested : TlbResult::kHitSmall);
      EXPECT_EQ(o.pa, small_frame(15) + 0xFFF);
      EXPECT_EQ(o.task_type, 9u);
    }
    // The large entry is still there and still translates outside.
    o = r.tr(below);
    EXPECT_EQ(o.first, TlbResult::kHitLarge);
    EXPECT_EQ(o.pa, kFrame + first_in * kS - 1);

    const MmuStats& s = r.mmu.stats();
    const uint64_t nested = units == 0 ? 0 : units >= 2 ? 2 : 1;
    EXPECT_EQ(s.lookups, units == 0 ? 3u : 6u);
    EXPECT_EQ(s.misses, 1u);
    EXPECT_EQ(s.hits_large, 2u);
    EXPECT_EQ(s.nested, nested);
    EXPECT_EQ(s.hits_small, units == 0 ? 0u : 3u - nested);
    EXPECT_EQ(s.walks, 1u + nested);
    EXPECT_EQ(s.walk_reads, 3u * (1u + nested));
    EXPECT_EQ(s.fills_large, 1u);
    EXPECT_EQ(s.fills_small, nested);
    EXPECT_EQ(s.faults, 0u);

    if (units == 0) continue;
    // The same VAs on a cold TLB: a miss inside the region walks straight to
    // the small page; the large page is fetched only when a VA outside needs it.
    Mmu cold(mmu_params(r.cfg), r.regs);
    o = r.tr_with(cold, kVa + first_in * kS + 0x10);
    EXPECT_EQ(o.first, TlbResult::kMiss);
    EXPECT_EQ(o.walk_reads, 3u);
    EXPECT_FALSE(o.large_page);
    EXPECT_EQ(o.pa, small_frame(first_in) + 0x10);
    EXPECT_EQ(o.task_type, 9u);
    o = r.tr_with(cold, out_va);
    EXPECT_EQ(o.first, TlbResult::kMiss) << "a small entry does not cover the rest of the large page";
    EXPECT_TRUE(o.large_page);
    EXPECT_EQ(o.pa, kFrame + (15 - units) * kS + 0x234);
    o = r.tr_with(cold, kVa + first_in * kS);
    EXPECT_EQ(o.first, TlbResult::kHitSmall) << "inside the region the small entry wins over the large one";
    EXPECT_EQ(o.task_type, 9u);
    EXPECT_EQ(cold.stats().nested, 0u);
    EXPECT_EQ(cold.stats().walks, 2u);
    EXPECT_EQ(cold.stats().fills_small, 1u);
    EXPECT_EQ(cold.stats().fills_large, 1u);
  }
}

// ---------------------------------------------------------------- MMU: faults

struct FaultCase {
  const char* what;
  void (*build)(Tables&);
  uint64_t warm_va;  // translated first when nonzero, so the large page is cached
  uint64_t va;
  TlbResult first;
  FaultReason reason;
  const char* detail;  // exact
  unsigned reads;
};

constexpr uint64_t kBig = 0x4567'0000;        // a large page, frame 0x0ABC'0000
constexpr uint64_t kFrameBig = 0x0ABC'0000;

// The large page with flag 0010, whose nested slots (14, 15) hold the large
// PTE itself instead of small pages: the nested region "points back".
void points_back(Tables& t) {
  for (uint64_t u = 0; u < 16; ++u) t.set_leaf(kBig + u * kS, leaf(kFrameBig, true, 3, 0x2));
}
// Slots 8-15 hold the large page again but with no nested flag, as after a
// remap without TLB_INVALIDATE: a cached entry (flag 1000) still says nested.
void stale_flag(Tables& t) {
  for (uint64_t u = 0; u < 16; ++u) t.set_leaf(kBig + u * kS, leaf(kFrameBig, true, 3, u < 8 ? 0x8 : 0x0));
}
void good_large_with_empty_region(Tables& t) { t.map_large(kBig, leaf(kFrameBig, true, 3, 0x8)); }
void multi_bit_flag(Tables& t) { t.map_large(kBig, leaf(kFrameBig, true, 3, 0x3)); }
void small_with_flag(Tables& t) { t.set_leaf(kBig, leaf(0x0135'7000, false, 3, 0x1)); }
void misaligned_large(Tables& t) { t.map_large(kBig, leaf(kFrameBig + 0x1000, true, 3)); }
void table_at_leaf(Tables& t) {
  Pte dir;
  dir.valid = dir.directory = true;
  dir.pfn = 0x90000;
  t.set_leaf(kBig, dir);
}

TEST(MmuFault, BadTablesFaultAfterABoundedWalk) {
  const FaultCase cases[] = {
      {"nested region points back, large page cached (nested path)", points_back, kBig, kBig + 14 * kS,
       TlbResult::kNested, FaultReason::kPageTableError,
       "the leaf PTE of a VA in a nested region is the large page itself", 3},
      {"nested region points back, cold TLB (miss path)", points_back, 0, kBig + 15 * kS + 0xFFF, TlbResult::kMiss,
       FaultReason::kPageTableError, "the leaf PTE of a VA in a nested region is the large page itself", 3},
      {"cached nested region, leaf is the large page without a flag", stale_flag, kBig, kBig + 9 * kS,
       TlbResult::kNested, FaultReason::kPageTableError,
       "the leaf PTE of a VA in a nested region is the large page itself", 3},
      {"nested flag 0011", multi_bit_flag, 0, kBig + 0x10, TlbResult::kMiss, FaultReason::kPageTableError,
       "level 2: nested flag with more than one bit set", 3},
      {"small PTE with a nested flag", small_with_flag, 0, kBig + 0x10, TlbResult::kMiss,
       FaultReason::kPageTableError, "level 2: small-page PTE with a nested flag", 3},
      {"large PFN not 64 KB aligned", misaligned_large, 0, kBig + 0x10, TlbResult::kMiss,
       FaultReason::kPageTableError, "level 2: large-page PFN not aligned to the large page", 3},
      {"invalid at the root", good_large_with_empty_region, 0, 0xC000'0000, TlbResult::kMiss,
       FaultReason::kUnmapped, "level 0: invalid PTE", 1},
      {"invalid at the middle level", good_large_with_empty_region, 0, 0x4000'0000, TlbResult::kMiss,
       FaultReason::kUnmapped, "level 1: invalid PTE", 2},
      {"invalid at the leaf level (next large page)", good_large_with_empty_region, 0, kBig + kL,
       TlbResult::kMiss, FaultReason::kUnmapped, "level 2: invalid PTE", 3},
      {"nobody's page in a cached nested region", good_large_with_empty_region, kBig, kBig + 8 * kS,
       TlbResult::kNested, FaultReason::kUnmapped, "level 2: invalid PTE", 3},
      {"directory entry at the leaf level", table_at_leaf, 0, kBig, TlbResult::kMiss, FaultReason::kPageTableError,
       "level 2: table pointer at the leaf level", 3},
      {"VA wider than va_bits", good_large_with_empty_region, 0, uint64_t{1} << 32, TlbResult::kMiss,
       FaultReason::kVaOutOfRange, "VA wider than 32 bits", 0},
  };
  for (const FaultCase& c : cases) {
    SCOPED_TRACE(c.what);
    Rig r;
    c.build(r.tables);
    if (c.warm_va) {
      ASSERT_EQ(r.tr(c.warm_va).fault, FaultReason::kNone);
    }
    const unsigned entries = r.valid_entries();
    const uint64_t faults = r.mmu.stats().faults;
    // Twice: a fault leaves nothing behind that changes the second attempt.
    for (int attempt = 0; attempt < 2; ++attempt) {
      const Out o = r.tr(c.va);
      EXPECT_EQ(o.fault, c.reason) << fault_reason_name(o.fault);
      EXPECT_EQ(o.detail, c.detail);
      EXPECT_EQ(o.first, c.first) << tlb_result_name(o.first);
      // One walk, never a retry loop; none for a VA no table can hold.
      EXPECT_EQ(o.walks, c.reason == FaultReason::kVaOutOfRange ? 0u : 1u);
      EXPECT_EQ(o.walk_reads, c.reads);
      EXPECT_FALSE(o.filled);
      EXPECT_EQ(r.valid_entries(), entries) << "a faulting walk fills nothing";
    }
    EXPECT_EQ(r.mmu.stats().faults, faults + 2);
  }
}

TEST(MmuFault, LeafAtADirectoryLevel) {
  // The root slot of VA 0x8000'0000 holds a large-page leaf instead of a
  // pointer to the next table.
  Rig r;
  r.mem.words[r.tables.root() + 2 * kPteBytes] = leaf(kFrameBig, true, 3).encode();
  const Out o = r.tr(0x8000'0000);
  EXPECT_EQ(o.fault, FaultReason::kPageTableError);
  EXPECT_EQ(o.detail, "level 0: leaf PTE at a directory level");
  EXPECT_EQ(o.walk_reads, 1u);
  EXPECT_FALSE(o.filled);
}

TEST(MmuFault, RecordsKeepTheFirstFaultsWithTheirDetailAndCountThemAll) {
  // An empty root table: every VA faults at level 0.
  Rig r;
  const uint64_t n = Mmu::kMaxFaultRecords + 5;
  for (uint64_t id = 0; id < n; ++id) {
    const uint64_t va = 0xC000'0000 + id * 0x1000;
    const Out o = r.tr(va);
    ASSERT_EQ(o.fault, FaultReason::kUnmapped);
    r.mmu.record_fault(id, 3, va, 7, o.fault);
  }
  EXPECT_EQ(r.mmu.stats().faults, n);
  ASSERT_EQ(r.mmu.faults().size(), Mmu::kMaxFaultRecords);
  const FaultRecord& first = r.mmu.faults().front();
  EXPECT_EQ(first.id, 0u);
  EXPECT_EQ(first.process, 3u);
  EXPECT_EQ(first.va, 0xC000'0000u);
  EXPECT_EQ(first.task_type, 7u);
  EXPECT_EQ(first.reason, FaultReason::kUnmapped);
  EXPECT_EQ(first.detail, "level 0: invalid PTE");
  EXPECT_EQ(r.mmu.faults().back().id, Mmu::kMaxFaultRecords - 1);
}

// A prefetch's fault is not the program's: the MMU is told whose access it
// translates and counts only the program's, with the same outcome for both.
TEST(MmuFault, APrefetchsFaultIsNotCountedAsTheProgramsFault) {
  Rig r;  // an empty root table: every VA faults
  const MmuOutcome p = r.mmu.translate(0xC000'0000, false, r.mem.reader(), Requester::kPrefetch);
  EXPECT_EQ(p.fault, FaultReason::kUnmapped);
  EXPECT_EQ(r.mmu.stats().faults, 0u);
  const MmuOutcome q = r.mmu.translate(0xC000'0000, false, r.mem.reader());
  EXPECT_EQ(q.fault, FaultReason::kUnmapped);
  EXPECT_EQ(r.mmu.stats().faults, 1u);
}

TEST(MmuFault, PermissionsOnMissAndOnHit) {
  Rig r;
  r.tables.map_large(kBig, leaf(kFrameBig, true, 3, 0, /*writable=*/false));
  r.tables.set_leaf(0x1000'0000, leaf(0x0777'0000, false, 4, 0, /*writable=*/true, /*readable=*/false));

  // Write to a read-only page that is not cached: the walk fills, then the
  // retry refuses the write.
  Out o = r.tr(kBig + 0x40, /*write=*/true);
  EXPECT_EQ(o.fault, FaultReason::kPermission);
  EXPECT_EQ(o.detail, "write to a read-only page");
  EXPECT_EQ(o.first, TlbResult::kMiss);
  EXPECT_EQ(o.walk_reads, 3u);
  EXPECT_EQ(o.task_type, 3u);
  // Reading it is fine, and the entry is there.
  o = r.tr(kBig + 0x40);
  EXPECT_EQ(o.fault, FaultReason::kNone);
  EXPECT_EQ(o.first, TlbResult::kHitLarge);
  EXPECT_EQ(o.pa, kFrameBig + 0x40);
  // Writing again faults from the TLB alone.
  o = r.tr(kBig + 0x80, true);
  EXPECT_EQ(o.fault, FaultReason::kPermission);
  EXPECT_EQ(o.first, TlbResult::kHitLarge);
  EXPECT_EQ(o.walk_reads, 0u);

  o = r.tr(0x1000'0010);
  EXPECT_EQ(o.fault, FaultReason::kPermission);
  EXPECT_EQ(o.detail, "read from an unreadable page");
  o = r.tr(0x1000'0010, true);
  EXPECT_EQ(o.fault, FaultReason::kNone) << "write-only page";
  EXPECT_EQ(o.pa, 0x0777'0010u);
  EXPECT_EQ(r.mmu.stats().faults, 3u);
}

// ---------------------------------------------------------------- TLB_INVALIDATE

TEST(MmuInvalidate, RegisterWriteMakesTheNextTranslationMiss) {
  const Config cfg = mmu_config();
  RegisterBank bank(register_params(cfg));
  Memory mem;
  Tables tables(mem);
  // The root through the register interface, as firmware sets it.
  ASSERT_EQ(bank.write(kRegPtRootLo, 4, static_cast<uint32_t>(tables.root())), RegStatus::kOk);
  ASSERT_EQ(bank.write(kRegPtRootHi, 4, 0), RegStatus::kOk);
  Mmu mmu(mmu_params(cfg), bank.mmu_registers());
  tables.map_large(kBig, leaf(kFrameBig, true, 3));

  EXPECT_EQ(mmu.translate(kBig + 4, false, mem.reader()).first, TlbResult::kMiss);
  EXPECT_EQ(mmu.translate(kBig + 8, false, mem.reader()).first, TlbResult::kHitLarge);

  // The driver remaps the page; until it invalidates, the TLB keeps the old frame.
  tables.map_large(kBig, leaf(0x0DEF'0000, true, 6));
  MmuOutcome o = mmu.translate(kBig + 8, false, mem.reader());
  EXPECT_EQ(o.first, TlbResult::kHitLarge);
  EXPECT_EQ(o.pa, kFrameBig + 8);

  ASSERT_EQ(bank.write(kRegTlbInvalidate, 4, 1), RegStatus::kOk);
  o = mmu.translate(kBig + 8, false, mem.reader());
  EXPECT_EQ(o.first, TlbResult::kMiss);
  EXPECT_EQ(o.pa, 0x0DEF'0008u);
  EXPECT_EQ(o.task_type, 6u);
  EXPECT_EQ(mmu.translate(kBig + 8, false, mem.reader()).first, TlbResult::kHitLarge) << "one flush per write";
  EXPECT_EQ(mmu.stats().invalidations, 1u);

  // Any value written invalidates; two writes between translations flush once.
  ASSERT_EQ(bank.write(kRegTlbInvalidate, 4, 0), RegStatus::kOk);
  ASSERT_EQ(bank.write(kRegTlbInvalidate, 4, 0xFFFF'FFFF), RegStatus::kOk);
  EXPECT_EQ(mmu.translate(kBig + 8, false, mem.reader()).first, TlbResult::kMiss);
  EXPECT_EQ(mmu.stats().invalidations, 2u);
}

TEST(MmuInvalidate, RootAboveFourGigabytesComesFromBothRegisters) {
  const Config cfg = mmu_config();
  RegisterBank bank(register_params(cfg));
  Memory mem;
  Tables tables(mem);
  tables.map_large(kBig, leaf(kFrameBig, true, 3));
  // Move the whole table tree 4 GB up: every table PA, and every directory PFN.
  Memory moved;
  const uint64_t up = uint64_t{1} << 32;
  for (const auto& [pa, raw] : mem.words) {
    Pte p = Pte::decode(raw);
    if (p.directory) p.pfn += up >> 12;
    moved.words[pa + up] = p.encode();
  }
  ASSERT_EQ(bank.write(kRegPtRootLo, 4, static_cast<uint32_t>(tables.root() + up)), RegStatus::kOk);
  ASSERT_EQ(bank.write(kRegPtRootHi, 4, static_cast<uint32_t>((tables.root() + up) >> 32)), RegStatus::kOk);
  EXPECT_EQ(bank.mmu_registers().pt_root, tables.root() + up);
  Mmu mmu(mmu_params(cfg), bank.mmu_registers());
  const MmuOutcome o = mmu.translate(kBig + 0x1234, false, moved.reader());
  EXPECT_EQ(o.fault, FaultReason::kNone) << mmu.fault_detail();
  EXPECT_EQ(o.pa, kFrameBig + 0x1234);
}

}  // namespace
}  // namespace gpumem::test::mmu_test
