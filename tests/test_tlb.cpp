// The nested-page TLB: exact hit/miss/victim sequences for LRU and tree-PLRU
// worked out by hand (the RTL must reproduce them), set indexing from the
// large-page VPN, the nested region at every flag value, small-over-large
// priority, and the error cases.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mmu/tlb.hpp"

namespace gpumem::test {
namespace {

TlbParams tlb_cfg(unsigned entries, unsigned ways, Replacement r, NestedPlacement p = NestedPlacement::kTail) {
  TlbParams c;
  c.entries = entries;
  c.ways = ways;
  c.replacement = r;
  c.geometry.small_bits = 12;
  c.geometry.large_bits = 16;
  c.geometry.placement = p;
  return c;
}

Pte large_leaf(uint64_t pfn, uint8_t flag = 0) {
  Pte p;
  p.valid = p.readable = p.writable = true;
  p.large_page = true;
  p.pfn = pfn;
  p.nested_flag = flag;
  return p;
}

Pte small_leaf(uint64_t pfn) {
  Pte p;
  p.valid = p.readable = p.writable = true;
  p.pfn = pfn;
  return p;
}

struct Page {
  const char* name;
  uint64_t vpn;  // large-page VPN
};

// LRU ages of ways 0..n-1 as digits ("3210"), or PLRU bits of nodes 1..n-1
// ("b1 b2 b3" run together, "011").
std::string state(const Tlb& t, unsigned set) {
  std::string s;
  if (t.replacement() == Replacement::kLru) {
    for (unsigned w = 0; w < t.ways(); ++w) s += std::to_string(t.lru_age(set, w));
  } else {
    for (unsigned n = 1; n < t.ways(); ++n) s += t.plru_bit(set, n) ? '1' : '0';
  }
  return s;
}

// What the MMU does for a large page with no nested region: look up, and on a
// miss fill. Returns e.g. "E miss s0 w1 evict B | 2013" (state after the step).
std::string access(Tlb& t, const Page& p, const std::vector<Page>& names, uint64_t offset = 0x0234) {
  const uint64_t va = (p.vpn << 16) | offset;
  const TlbLookup lk = t.lookup(va);
  std::string out = std::string(p.name) + " " + tlb_result_name(lk.result);
  unsigned set = lk.set, way = lk.way;
  if (lk.result == TlbResult::kMiss) {
    const TlbFill f = t.fill(va, large_leaf(p.vpn * 16 + 0x1000));
    EXPECT_EQ(f.set, lk.set);
    set = f.set;
    way = f.way;
    out += " s" + std::to_string(set) + " w" + std::to_string(way);
    if (f.evicted) {
      EXPECT_TRUE(f.victim.valid && f.victim.large_page);
      std::string victim = "?";
      for (const Page& n : names)
        if (n.vpn == f.victim.vpn) victim = n.name;
      out += " evict " + victim;
    }
  } else {
    out += " s" + std::to_string(set) + " w" + std::to_string(way);
  }
  return out + " | " + state(t, set);
}

std::vector<std::string> run(Tlb& t, const std::vector<Page>& seq, const std::vector<Page>& names) {
  std::vector<std::string> log;
  for (const Page& p : seq) log.push_back(access(t, p, names));
  return log;
}

template <class E>
std::string thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Fully associative, 4 ways: A B C D fill ways 0-3, then A and C are used, E
// replaces B, C is used again. Here LRU and PLRU part: LRU's oldest is D,
// while the PLRU tree, last pointed left by the touch of C, names A.
const Page A{"A", 0x1}, B{"B", 0x2}, C{"C", 0x3}, D{"D", 0x4}, E{"E", 0x5}, F{"F", 0x6}, G{"G", 0x7};
const std::vector<Page> kFaNames{A, B, C, D, E, F, G};
const std::vector<Page> kFaSeq{A, B, C, D, A, C, E, C, F, G, F};

TEST(TlbLru, FullyAssociativeSequence) {
  Tlb t(tlb_cfg(4, 4, Replacement::kLru));
  ASSERT_EQ(t.sets(), 1u);
  // Ages of ways 0..3, 0 = most recent. touch(w): ages below age[w] +1, age[w] = 0.
  const std::vector<std::string> expected{
      "A miss s0 w0 | 0123",            // reset 0123; touching w0 (age 0) changes nothing
      "B miss s0 w1 | 1023",
      "C miss s0 w2 | 2103",
      "D miss s0 w3 | 3210",
      "A hit_large s0 w0 | 0321",
      "C hit_large s0 w2 | 1302",
      "E miss s0 w1 evict B | 2013",    // B had age 3
      "C hit_large s0 w2 | 2103",
      "F miss s0 w3 evict D | 3210",    // D had age 3
      "G miss s0 w0 evict A | 0321",
      "F hit_large s0 w3 | 1320",
  };
  EXPECT_EQ(run(t, kFaSeq, kFaNames), expected);
  EXPECT_EQ(t.entry(0, 0).vpn, G.vpn);
  EXPECT_EQ(t.entry(0, 1).vpn, E.vpn);
  EXPECT_EQ(t.entry(0, 2).vpn, C.vpn);
  EXPECT_EQ(t.entry(0, 3).vpn, F.vpn);
  EXPECT_EQ(t.victim(0), 1u);  // E, age 3
}

TEST(TlbPlru, FullyAssociativeSequence) {
  Tlb t(tlb_cfg(4, 4, Replacement::kPlru));
  // Bits b1 b2 b3: node 1 root, node 2 over ways 0-1, node 3 over ways 2-3;
  // 0 = victim on the left. touch(w) points every node on w's path away from w.
  const std::vector<std::string> expected{
      "A miss s0 w0 | 110",             // w0: b1=1 (go right), b2=1 (go to w1)
      "B miss s0 w1 | 100",             // w1: b1=1, b2=0
      "C miss s0 w2 | 001",             // w2: b1=0, b3=1
      "D miss s0 w3 | 000",             // w3: b1=0, b3=0
      "A hit_large s0 w0 | 110",
      "C hit_large s0 w2 | 011",
      "E miss s0 w1 evict B | 101",     // victim: b1=0 -> node 2, b2=1 -> w1
      "C hit_large s0 w2 | 001",
      "F miss s0 w0 evict A | 111",     // b1=0 -> node 2, b2=0 -> w0 (LRU took D here)
      "G miss s0 w3 evict D | 010",     // b1=1 -> node 3, b3=1 -> w3 (LRU took A here)
      "F hit_large s0 w0 | 110",
  };
  EXPECT_EQ(run(t, kFaSeq, kFaNames), expected);
  EXPECT_EQ(t.entry(0, 0).vpn, F.vpn);
  EXPECT_EQ(t.entry(0, 1).vpn, E.vpn);
  EXPECT_EQ(t.entry(0, 2).vpn, C.vpn);
  EXPECT_EQ(t.entry(0, 3).vpn, G.vpn);
  EXPECT_EQ(t.victim(0), 2u);  // b1=1 -> node 3, b3=0 -> w2
}

// 8 entries, 2 ways: 4 sets, set = vpn & 3. P Q R share set 0, S is in set 1.
// With two ways tree-PLRU is exact LRU (one bit, pointing away from the last
// use), so both policies give the same sequence; only the state differs in form.
TEST(TlbSetAssociative, TwoWaySequenceSameForLruAndPlru) {
  const Page P{"P", 0x10}, Q{"Q", 0x14}, R{"R", 0x18}, S{"S", 0x11};
  const std::vector<Page> names{P, Q, R, S};
  const std::vector<Page> seq{P, Q, S, P, R, Q, S, R, P};
  Tlb lru(tlb_cfg(8, 2, Replacement::kLru));
  ASSERT_EQ(lru.sets(), 4u);
  EXPECT_EQ(run(lru, seq, names), (std::vector<std::string>{
                                      "P miss s0 w0 | 01",
                                      "Q miss s0 w1 | 10",
                                      "S miss s1 w0 | 01",
                                      "P hit_large s0 w0 | 01",
                                      "R miss s0 w1 evict Q | 10",
                                      "Q miss s0 w0 evict P | 01",
                                      "S hit_large s1 w0 | 01",
                                      "R hit_large s0 w1 | 10",
                                      "P miss s0 w0 evict Q | 01",
                                  }));
  Tlb plru(tlb_cfg(8, 2, Replacement::kPlru));
  EXPECT_EQ(run(plru, seq, names), (std::vector<std::string>{
                                       "P miss s0 w0 | 1",  // b1=1: next victim w1
                                       "Q miss s0 w1 | 0",
                                       "S miss s1 w0 | 1",
                                       "P hit_large s0 w0 | 1",
                                       "R miss s0 w1 evict Q | 0",
                                       "Q miss s0 w0 evict P | 1",
                                       "S hit_large s1 w0 | 1",
                                       "R hit_large s0 w1 | 0",
                                       "P miss s0 w0 evict Q | 1",
                                   }));
}

// 16 entries, 4 ways: 4 sets. a b c d e share set 2 (vpn & 3 == 2), x y are
// in set 3 and do not disturb set 2. After b is used, e replaces a under LRU
// but c under PLRU (b's touch points the root right); the next access to a
// then misses under LRU and hits under PLRU.
TEST(TlbSetAssociative, FourWayLruAndPlruPickDifferentVictims) {
  const Page a{"a", 0x02}, b{"b", 0x06}, c{"c", 0x0A}, d{"d", 0x0E}, e{"e", 0x12}, x{"x", 0x03}, y{"y", 0x07};
  const std::vector<Page> names{a, b, c, d, e, x, y};
  const std::vector<Page> seq{a, b, x, c, d, y, b, e, a, x};
  Tlb lru(tlb_cfg(16, 4, Replacement::kLru));
  ASSERT_EQ(lru.sets(), 4u);
  EXPECT_EQ(run(lru, seq, names), (std::vector<std::string>{
                                      "a miss s2 w0 | 0123",
                                      "b miss s2 w1 | 1023",
                                      "x miss s3 w0 | 0123",
                                      "c miss s2 w2 | 2103",
                                      "d miss s2 w3 | 3210",
                                      "y miss s3 w1 | 1023",
                                      "b hit_large s2 w1 | 3021",
                                      "e miss s2 w0 evict a | 0132",
                                      "a miss s2 w2 evict c | 1203",
                                      "x hit_large s3 w0 | 0123",
                                  }));
  Tlb plru(tlb_cfg(16, 4, Replacement::kPlru));
  EXPECT_EQ(run(plru, seq, names), (std::vector<std::string>{
                                       "a miss s2 w0 | 110",
                                       "b miss s2 w1 | 100",
                                       "x miss s3 w0 | 110",
                                       "c miss s2 w2 | 001",
                                       "d miss s2 w3 | 000",
                                       "y miss s3 w1 | 100",
                                       "b hit_large s2 w1 | 100",
                                       "e miss s2 w2 evict c | 001",  // b1=1 -> node 3, b3=0 -> w2
                                       "a hit_large s2 w0 | 111",
                                       "x hit_large s3 w0 | 110",
                                   }));
  for (unsigned s : {0u, 1u})
    for (unsigned w = 0; w < 4; ++w) {
      EXPECT_FALSE(lru.entry(s, w).valid);
      EXPECT_FALSE(plru.entry(s, w).valid);
    }
}

TEST(TlbSetIndex, ComesFromTheLargePageVpn) {
  Tlb t(tlb_cfg(16, 4, Replacement::kLru));
  EXPECT_EQ(t.set_index(0x0003'0000), 3u);
  EXPECT_EQ(t.set_index(0x0003'7ABC), 3u);  // small page 0x37 lies in large page 3
  EXPECT_EQ(t.set_index(0x0003'FFFF), 3u);
  EXPECT_EQ(t.set_index(0x0004'0000), 0u);
  EXPECT_EQ(t.set_index(0x0007'0000), 3u);  // 4 large pages (= sets) further on

  // The small page and its enclosing large page share set 3; each vpn at its own size.
  const TlbFill small = t.fill(0x0003'7000, small_leaf(0x500));
  EXPECT_EQ(small.set, 3u);
  EXPECT_EQ(small.way, 0u);
  EXPECT_EQ(t.entry(3, 0).vpn, 0x37u);
  const TlbFill large = t.fill(0x0003'0000, large_leaf(0x800));
  EXPECT_EQ(large.set, 3u);
  EXPECT_EQ(large.way, 1u);
  EXPECT_EQ(t.entry(3, 1).vpn, 0x3u);
  TlbLookup lk = t.lookup(0x0003'7010);
  EXPECT_EQ(lk.result, TlbResult::kHitSmall);
  EXPECT_EQ(lk.set, 3u);
  EXPECT_EQ(lk.way, 0u);
  lk = t.lookup(0x0003'1010);
  EXPECT_EQ(lk.result, TlbResult::kHitLarge);
  EXPECT_EQ(lk.set, 3u);
  EXPECT_EQ(lk.way, 1u);

  // Large pages 7, B and F are 4 large pages apart and conflict in set 3.
  // LRU ages of set 3: after the two fills 1023, after the two lookups (w0,
  // then w1) 1023 again; filling w2 and w3 makes it 3210, so F replaces w0,
  // the small page.
  EXPECT_EQ(state(t, 3), "1023");
  t.fill(0x0007'0000, large_leaf(0x900));  // w2
  t.fill(0x000B'0000, large_leaf(0xA00));  // w3
  EXPECT_EQ(state(t, 3), "3210");
  const TlbFill f = t.fill(0x000F'0000, large_leaf(0xB00));
  EXPECT_EQ(f.set, 3u);
  EXPECT_EQ(f.way, 0u);
  ASSERT_TRUE(f.evicted);
  EXPECT_FALSE(f.victim.large_page);
  EXPECT_EQ(f.victim.vpn, 0x37u);
  EXPECT_EQ(f.victim.pfn, 0x500u);
  EXPECT_EQ(t.lookup(0x0003'7010).result, TlbResult::kHitLarge);  // now through large page 3
  for (unsigned s = 0; s < 3; ++s)
    for (unsigned w = 0; w < 4; ++w) EXPECT_FALSE(t.entry(s, w).valid) << "set " << s << " way " << w;

  Tlb fa(tlb_cfg(4, 4, Replacement::kLru));
  for (uint64_t va : {uint64_t{0}, uint64_t{0x1'0000}, uint64_t{0x0003'7ABC}, uint64_t{0xFFFF'FFFF}})
    EXPECT_EQ(fa.set_index(va), 0u);
}

// 32-bit VA, 64 KB large pages (CN113836054A claim 8): VPN = VA[31:16], offset = VA[15:0].
TEST(TlbTranslate, ThirtyTwoBitVaSplitsAtBit16) {
  Tlb t(tlb_cfg(4, 4, Replacement::kLru));
  const uint64_t va = 0xFEDC'BA98;
  t.fill(va, large_leaf(0x1'2340));  // frame at PA 0x1234'0000, in 4 KB units
  const TlbLookup lk = t.lookup(va);
  ASSERT_EQ(lk.result, TlbResult::kHitLarge);
  const TlbEntry& e = t.entry(lk.set, lk.way);
  EXPECT_EQ(e.vpn, 0xFEDCu);
  EXPECT_EQ(t.translate(e, va), 0x1234'BA98u);
  EXPECT_EQ(t.translate(e, 0xFEDC'0000), 0x1234'0000u);
  EXPECT_EQ(t.translate(e, 0xFEDC'FFFF), 0x1234'FFFFu);

  t.fill(0x0000'5123, small_leaf(0x9'8765));  // small page 5 -> PA 0x9876'5000
  const TlbLookup s = t.lookup(0x0000'5ABC);
  ASSERT_EQ(s.result, TlbResult::kHitSmall);
  EXPECT_EQ(t.entry(s.set, s.way).vpn, 0x5u);
  EXPECT_EQ(t.translate(t.entry(s.set, s.way), 0x0000'5ABC), 0x9876'5ABCu);
}

struct NestedCase {
  uint8_t flag;
  uint64_t first_inside;   // tail: offset with offset[15:12] == 16 - units
  uint64_t outside_page;   // offset[15:12] == 15 - units
  uint64_t last_outside;   // the byte before the region
};

// Tail placement: nested when offset[15:12] >= 16 - units (CN113836054A claim 9).
TEST(TlbNested, TailRegionForEveryFlag) {
  const uint64_t base = 0x1234'0000;
  const std::vector<NestedCase> cases{
      {0x1, 0xF000, 0xE000, 0xEFFF},  // 4 KB: offset[15:12] == 15
      {0x2, 0xE000, 0xD000, 0xDFFF},  // 8 KB: 14, 15
      {0x4, 0xC000, 0xB000, 0xBFFF},  // 16 KB: 12..15
      {0x8, 0x8000, 0x7000, 0x7FFF},  // 32 KB: 8..15
  };
  for (const NestedCase& c : cases) {
    SCOPED_TRACE("flag " + std::to_string(c.flag));
    Tlb t(tlb_cfg(4, 4, Replacement::kLru));
    t.fill(base, large_leaf(0xAB0, c.flag));
    for (uint64_t off : {c.first_inside, c.first_inside + 0x123, uint64_t{0xFFFF}}) {
      const TlbLookup lk = t.lookup(base + off);
      EXPECT_EQ(lk.result, TlbResult::kNested) << std::hex << off;
      EXPECT_EQ(lk.way, 0u);
    }
    for (uint64_t off : {uint64_t{0}, c.outside_page, c.last_outside}) {
      const TlbLookup lk = t.lookup(base + off);
      EXPECT_EQ(lk.result, TlbResult::kHitLarge) << std::hex << off;
      EXPECT_EQ(t.translate(t.entry(lk.set, lk.way), base + off), 0xAB'0000 + off);
    }
  }
  // 0000: no nested region, the whole page translates.
  Tlb t(tlb_cfg(4, 4, Replacement::kLru));
  t.fill(base, large_leaf(0xAB0, 0x0));
  for (uint64_t off : {0x0000, 0x7FFF, 0x8000, 0xF000, 0xFFFF})
    EXPECT_EQ(t.lookup(base + off).result, TlbResult::kHitLarge) << std::hex << off;
}

// Head placement: nested when offset[15:12] < units.
TEST(TlbNested, HeadRegionForEveryFlag) {
  const uint64_t base = 0x0042'0000;
  struct HeadCase {
    uint8_t flag;
    uint64_t last_inside, first_outside;
  };
  const std::vector<HeadCase> cases{
      {0x1, 0x0FFF, 0x1000}, {0x2, 0x1FFF, 0x2000}, {0x4, 0x3FFF, 0x4000}, {0x8, 0x7FFF, 0x8000}};
  for (const HeadCase& c : cases) {
    SCOPED_TRACE("flag " + std::to_string(c.flag));
    Tlb t(tlb_cfg(16, 4, Replacement::kPlru, NestedPlacement::kHead));
    t.fill(base + 0x10, large_leaf(0x300, c.flag));
    EXPECT_EQ(t.lookup(base).result, TlbResult::kNested);
    EXPECT_EQ(t.lookup(base + c.last_inside).result, TlbResult::kNested);
    EXPECT_EQ(t.lookup(base + c.first_outside).result, TlbResult::kHitLarge);
    EXPECT_EQ(t.lookup(base + 0xFFFF).result, TlbResult::kHitLarge);
  }
}

// A small page nested in a cached large page: both entries match; the small
// one wins and translates to its own frame, the rest of the large page still
// translates through the large entry.
TEST(TlbNested, SmallEntryInsideCachedLargePageHasPriority) {
  Tlb t(tlb_cfg(4, 4, Replacement::kLru));
  const uint64_t base = 0x1234'0000;
  t.fill(base, large_leaf(0xAB0, 0x1));  // nested region: offset 0xF000-0xFFFF
  TlbLookup lk = t.lookup(base + 0xF010);
  ASSERT_EQ(lk.result, TlbResult::kNested);
  EXPECT_EQ(lk.way, 0u);
  const TlbFill f = t.fill(base + 0xF010, small_leaf(0x777));  // what the walker found
  EXPECT_EQ(f.way, 1u);
  EXPECT_FALSE(f.evicted);

  lk = t.lookup(base + 0xF010);
  EXPECT_EQ(lk.result, TlbResult::kHitSmall);
  EXPECT_EQ(lk.way, 1u);
  EXPECT_EQ(t.translate(t.entry(lk.set, lk.way), base + 0xF010), 0x77'7010u);
  lk = t.lookup(base + 0xFFFF);
  EXPECT_EQ(lk.result, TlbResult::kHitSmall);
  EXPECT_EQ(t.translate(t.entry(lk.set, lk.way), base + 0xFFFF), 0x77'7FFFu);
  lk = t.lookup(base + 0xEFFF);
  EXPECT_EQ(lk.result, TlbResult::kHitLarge);
  EXPECT_EQ(lk.way, 0u);
  EXPECT_EQ(t.translate(t.entry(lk.set, lk.way), base + 0xEFFF), 0xAB'EFFFu);

  // The priority does not depend on the nested region: a small entry outside it wins too.
  EXPECT_EQ(t.fill(base + 0x2000, small_leaf(0x999)).way, 2u);
  lk = t.lookup(base + 0x2345);
  EXPECT_EQ(lk.result, TlbResult::kHitSmall);
  EXPECT_EQ(lk.way, 2u);
  EXPECT_EQ(t.translate(t.entry(lk.set, lk.way), base + 0x2345), 0x99'9345u);
  lk = t.lookup(base + 0x3345);
  EXPECT_EQ(lk.result, TlbResult::kHitLarge);
  EXPECT_EQ(t.translate(t.entry(lk.set, lk.way), base + 0x3345), 0xAB'3345u);
}

// A fills way 0 and carries a 32 KB nested region (offset >= 0x8000). After
// A B C D the victim is A. A nested result and a miss leave it there; a
// translating hit on A moves it.
TEST(TlbReplacement, NestedAndMissDoNotTouch) {
  for (Replacement r : {Replacement::kLru, Replacement::kPlru}) {
    SCOPED_TRACE(replacement_name(r));
    Tlb t(tlb_cfg(4, 4, r));
    t.fill(0x0001'0000, large_leaf(0x10, 0x8));
    t.fill(0x0002'0000, large_leaf(0x20));
    t.fill(0x0003'0000, large_leaf(0x30));
    t.fill(0x0004'0000, large_leaf(0x40));
    const std::string filled = r == Replacement::kLru ? "3210" : "000";
    EXPECT_EQ(state(t, 0), filled);
    EXPECT_EQ(t.victim(0), 0u);

    EXPECT_EQ(t.lookup(0x0001'8000).result, TlbResult::kNested);
    EXPECT_EQ(state(t, 0), filled);
    EXPECT_EQ(t.victim(0), 0u);
    EXPECT_EQ(t.lookup(0x0009'0000).result, TlbResult::kMiss);
    EXPECT_EQ(state(t, 0), filled);
    EXPECT_EQ(t.victim(0), 0u);

    EXPECT_EQ(t.lookup(0x0001'7FFF).result, TlbResult::kHitLarge);
    // LRU: 0321, oldest w1. PLRU: touch w0 -> b1=1 b2=1 -> node 3, b3=0 -> w2.
    EXPECT_EQ(state(t, 0), r == Replacement::kLru ? "0321" : "110");
    EXPECT_EQ(t.victim(0), r == Replacement::kLru ? 1u : 2u);
  }
}

TEST(TlbReplacement, InvalidateAllClearsEntriesAndResetsState) {
  for (Replacement r : {Replacement::kLru, Replacement::kPlru}) {
    SCOPED_TRACE(replacement_name(r));
    Tlb t(tlb_cfg(16, 4, r));
    for (uint64_t vpn = 0; vpn < 16; ++vpn) t.fill(vpn << 16, large_leaf(vpn * 16));
    t.lookup(0x0005'0000);  // set 1, way 1
    for (unsigned s = 0; s < 4; ++s) ASSERT_TRUE(t.entry(s, 3).valid);
    t.invalidate_all();
    for (unsigned s = 0; s < 4; ++s) {
      EXPECT_EQ(t.victim(s), 0u);
      EXPECT_EQ(state(t, s), r == Replacement::kLru ? "0123" : "000");
      for (unsigned w = 0; w < 4; ++w) EXPECT_FALSE(t.entry(s, w).valid);
    }
    EXPECT_EQ(t.lookup(0x0005'0000).result, TlbResult::kMiss);
    const TlbFill f = t.fill(0x0005'0000, large_leaf(0x50));
    EXPECT_EQ(f.set, 1u);
    EXPECT_EQ(f.way, 0u);
    EXPECT_FALSE(f.evicted);
  }
}

TEST(TlbReplacement, OneWayAlwaysReplacesWayZero) {
  Tlb t(tlb_cfg(1, 1, Replacement::kPlru));  // no PLRU bits at all
  t.fill(0x0001'0000, large_leaf(0x10));
  const TlbFill f = t.fill(0x0002'0000, large_leaf(0x20));
  EXPECT_EQ(f.way, 0u);
  ASSERT_TRUE(f.evicted);
  EXPECT_EQ(f.victim.vpn, 0x1u);
  EXPECT_EQ(t.lookup(0x0001'0000).result, TlbResult::kMiss);
  EXPECT_THROW(t.plru_bit(0, 1), std::out_of_range);
}

TEST(TlbErrors, FillOfAPagePresentThrows) {
  Tlb t(tlb_cfg(16, 4, Replacement::kLru));
  t.fill(0x0001'0000, large_leaf(0x10));
  EXPECT_THROW(t.fill(0x0001'FFFF, large_leaf(0x10)), std::logic_error);  // same large page
  t.fill(0x0001'F000, small_leaf(0x70));  // a small page inside it is a different page
  EXPECT_THROW(t.fill(0x0001'F800, small_leaf(0x70)), std::logic_error);
  Pte bad = small_leaf(0x1);
  bad.valid = false;
  EXPECT_THROW(t.fill(0x0002'0000, bad), std::logic_error);
  bad = small_leaf(0x1);
  bad.directory = true;
  EXPECT_THROW(t.fill(0x0002'0000, bad), std::logic_error);
  EXPECT_THROW(t.entry(4, 0), std::out_of_range);
  EXPECT_THROW(t.entry(0, 4), std::out_of_range);
}

// way_holding() is the question fill() refuses on: cached at that size?
TEST(TlbErrors, WayHoldingAnswersPerPageSize) {
  Tlb t(tlb_cfg(16, 4, Replacement::kLru));
  EXPECT_EQ(t.way_holding(0x0001'0000, true), -1);
  t.fill(0x0001'0000, large_leaf(0x10));
  t.fill(0x0001'F000, small_leaf(0x70));
  EXPECT_EQ(t.way_holding(0x0001'8008, true), 0);   // anywhere in the large page
  EXPECT_EQ(t.way_holding(0x0001'F008, false), 1);  // the small page inside it
  EXPECT_EQ(t.way_holding(0x0001'E000, false), -1);  // another small page of that large page
  EXPECT_EQ(t.way_holding(0x0011'0000, true), -1);   // same set, other large page
  t.invalidate_all();
  EXPECT_EQ(t.way_holding(0x0001'0000, true), -1);
}

// The smallest geometry allowed keeps every VA bit in what lookup compares:
// pages that differ only in the top VA bit, or only in their size, stay apart.
TEST(TlbLookup, PagesAtTheTopOfTheAddressSpaceStayApart) {
  TlbParams c = tlb_cfg(4, 4, Replacement::kLru);
  c.geometry.small_bits = 2;
  c.geometry.large_bits = 6;
  Tlb t(c);
  const uint64_t top = ~uint64_t{0} - 3;  // the last small page
  t.fill(top, small_leaf(0x5));
  EXPECT_EQ(t.lookup(top).result, TlbResult::kHitSmall);
  EXPECT_EQ(t.lookup(top ^ (uint64_t{1} << 63)).result, TlbResult::kMiss);
  EXPECT_EQ(t.lookup(top ^ (uint64_t{1} << 62)).result, TlbResult::kMiss);
  t.fill(top ^ (uint64_t{1} << 63), large_leaf(0x40));
  EXPECT_EQ(t.lookup(top ^ (uint64_t{1} << 63)).result, TlbResult::kHitLarge);
  EXPECT_EQ(t.lookup(top).result, TlbResult::kHitSmall);
  EXPECT_EQ(t.lookup(top - 4).result, TlbResult::kMiss);  // the small page below: no large page holds it
}

TEST(TlbErrors, BadConfigsThrowNamingTheParameter) {
  // The config reader's sentences (base/tlb_geometry.hpp), behind "TLB: ".
  const auto why = [](unsigned entries, unsigned ways, Replacement r) {
    return thrown<std::invalid_argument>([&] { Tlb t(tlb_cfg(entries, ways, r)); });
  };
  EXPECT_EQ(why(12, 8, Replacement::kLru), "TLB: 8 ways do not divide 12 entries");
  EXPECT_EQ(why(4, 8, Replacement::kLru), "TLB: 8 ways do not divide 4 entries");
  EXPECT_EQ(why(12, 4, Replacement::kLru), "TLB: entries / ways = 3 sets: must be a power of two");
  EXPECT_EQ(why(3, 3, Replacement::kPlru), "TLB: tree-PLRU needs a power-of-two number of ways");
  EXPECT_EQ(why(8, 0, Replacement::kLru), "TLB: 0 ways do not divide 8 entries");
  EXPECT_EQ(why(0, 4, Replacement::kLru), "TLB: 4 ways do not divide 0 entries");
  std::string m;
  TlbParams g = tlb_cfg(4, 4, Replacement::kLru);
  g.geometry.small_bits = 16;
  m = thrown<std::invalid_argument>([&] { Tlb t(g); });
  EXPECT_TRUE(contains(m, "geometry")) << m;

  g = tlb_cfg(4, 4, Replacement::kLru);
  g.geometry.small_bits = 1;  // a vpn could then need all 64 bits, which the compared key cannot hold with its size
  m = thrown<std::invalid_argument>([&] { Tlb t(g); });
  EXPECT_TRUE(contains(m, "geometry") && contains(m, "2 <= small_bits")) << m;

  EXPECT_NO_THROW({ Tlb t(tlb_cfg(3, 3, Replacement::kLru)); });   // LRU needs no power-of-two ways
  EXPECT_NO_THROW({ Tlb t(tlb_cfg(24, 3, Replacement::kLru)); });  // 8 sets of 3
}

TEST(TlbNames, ResultNames) {
  EXPECT_STREQ(tlb_result_name(TlbResult::kHitSmall), "hit_small");
  EXPECT_STREQ(tlb_result_name(TlbResult::kHitLarge), "hit_large");
  EXPECT_STREQ(tlb_result_name(TlbResult::kNested), "nested");
  EXPECT_STREQ(tlb_result_name(TlbResult::kMiss), "miss");
}

}  // namespace
}  // namespace gpumem::test
