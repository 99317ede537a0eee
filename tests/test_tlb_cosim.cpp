// Co-simulation of rtl/gpumem_nested_tlb.sv (Verilated, clocked from C++)
// against gpumem::Tlb: geometry, the directed bug classes that escape TLB
// designs (two entries hitting at once, a victim from a stale replacement
// state, a frame number spliced with the wrong bits, a flush with operations
// in flight), and one million seeded random translations with full coverage.
// Every RTL response is also checked by the scoreboard (TearDown).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/user_paths.hpp"
#include "cosim_test_helpers.hpp"
#include "wave_layout.hpp"
#include "params/block_params.hpp"
#include "Vgpumem_nested_tlb.h"
#include "tb/common/rtl_adapter.hpp"
#include "tb/common/rtl_model.hpp"
#include "tb/tlb/tlb_contract.hpp"
#include "tb/tlb/tlb_cosim.hpp"

namespace gpumem::tb {
namespace {

GPUMEM_RTL_PORTS(TestTlbPorts, GPUMEM_TLB_PORTS)


// configs/default.yaml: 4 KB / 64 KB pages, 64 entries in 4 ways (16 sets,
// set = VA[19:16]), tree-PLRU, nested region at the tail.
constexpr uint64_t kSmall = 0x1000;

Pte leaf(bool large, uint64_t pfn, uint8_t flag = 0, uint8_t task = 0, bool writable = true) {
  Pte p;
  p.valid = p.readable = true;
  p.writable = writable;
  p.large_page = large;
  p.pfn = pfn;
  p.nested_flag = flag;
  p.task_type = task;
  return p;
}

// The VA of large page `n` in set `set`: VA[19:16] = set.
uint64_t large_va(unsigned set, uint64_t n) { return (n << 20) | (uint64_t{set} << 16); }

class TlbCosimTest : public ::testing::Test {
 protected:
  void TearDown() override {
    const auto& sb = cosim.scoreboard();
    EXPECT_EQ(sb.mismatches(), 0u) << (sb.first_mismatch() ? sb.first_mismatch()->report() : "");
  }
  // One operation on the pins for one cycle with the response port always ready.
  TlbEdge op(bool fill, uint64_t va, const Pte& pte = {}, bool flush = false, bool rsp_ready = true) {
    TlbPins p;
    p.req_valid = true;
    p.req_fill = fill;
    p.req_va = va;
    p.req_pte = fill ? pte.encode() : 0;
    p.flush = flush;
    p.rsp_ready = rsp_ready;
    return cosim.cycle(p);
  }
  TlbEdge idle(bool rsp_ready = true, bool flush = false) {
    TlbPins p;
    p.rsp_ready = rsp_ready;
    p.flush = flush;
    return cosim.cycle(p);
  }
  Config cfg = default_config();
  TlbCosim cosim{cfg, 1};
};


TEST(TlbCosim, EachVariantEqualsItsConfig) {
  const auto& variants = rtl_tlb_variants();
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[0].variant, "plru");
  const std::string d = tlb_geometry_difference(default_config(), variants[0]);
  EXPECT_TRUE(d.empty()) << "configs/default.yaml and the verilated TLB differ:\n" << d;
  EXPECT_EQ(variants[1].variant, "lru");
  const std::string l = tlb_geometry_difference(lru_config(), variants[1]);
  EXPECT_TRUE(l.empty()) << "configs/examples/tlb-lru.yaml and the verilated LRU TLB differ:\n" << l;
  EXPECT_EQ(TlbCosim(lru_config(), 1).geometry().variant, "lru");
}

TEST(TlbCosim, GeometryDifferenceNamesBoth) {
  RtlTlbGeometry rtl = rtl_tlb_variants().front();
  rtl.ways = 8;
  rtl.plru = false;
  const std::string d = tlb_geometry_difference(default_config(), rtl);
  EXPECT_NE(d.find("ways: config mmu.tlb.ways = 4, RTL WAYS = 8"), std::string::npos) << d;
  EXPECT_NE(d.find("replacement: config mmu.tlb.replacement = plru, RTL PLRU = 0"), std::string::npos) << d;
}

TEST_F(TlbCosimTest, ResetMissesEverywhere) {
  for (uint64_t va : {uint64_t{0}, uint64_t{0x12'3456'7890}, uint64_t{0xFF'FFFF'FFF8}}) {
    const TlbResponse r = cosim.lookup(va);
    EXPECT_EQ(r.result, TlbResult::kMiss);
    EXPECT_EQ(r.way, 0u);
    EXPECT_EQ(r.pa, 0u);
    EXPECT_FALSE(r.entry.valid);
  }
}

// The physical address is (pfn << 12) + the page offset: 12 bits for a small
// page, 16 for a large one. Splicing the other size's range changes every
// address below.
TEST_F(TlbCosimTest, FrameNumberSplicedWithEachPageSizesBits) {
  const uint64_t small_va = 0x12'3456'7000, small_pfn = 0xA'BCDE'F123;
  EXPECT_FALSE(cosim.fill(small_va, leaf(false, small_pfn)).evicted);
  for (uint64_t off : {uint64_t{0}, uint64_t{0x8}, uint64_t{0xFF8}}) {
    const TlbResponse r = cosim.lookup(small_va + off);
    EXPECT_EQ(r.result, TlbResult::kHitSmall);
    EXPECT_EQ(r.pa, (small_pfn << 12) + off);
  }
  EXPECT_EQ(cosim.lookup(small_va + kSmall).result, TlbResult::kMiss);  // the next small page

  const uint64_t large_va = 0x55'5550'0000, large_pfn = 0x1'2345'6780;  // a large frame: pfn % 16 == 0
  cosim.fill(large_va, leaf(true, large_pfn));
  for (uint64_t off : {uint64_t{0}, uint64_t{0x0FF8}, uint64_t{0x1000}, uint64_t{0xA5A8}, uint64_t{0xFFF8}}) {
    const TlbResponse r = cosim.lookup(large_va + off);
    EXPECT_EQ(r.result, TlbResult::kHitLarge);
    EXPECT_EQ(r.pa, (large_pfn << 12) + off) << std::hex << off;
  }
  // A frame number that is not large-aligned adds, it is not OR-ed.
  const uint64_t odd_va = 0x66'6660'0000, odd_pfn = 0x9'8765'4329;
  cosim.fill(odd_va, leaf(true, odd_pfn));
  EXPECT_EQ(cosim.lookup(odd_va + 0xFFF8).pa, (odd_pfn << 12) + 0xFFF8);
}

// Two entries match: a small page inside a cached large page. Both live in
// the set of the large VPN; the small one wins, the rest of the large page
// still hits large.
TEST_F(TlbCosimTest, SmallPageInsideACachedLargePageWins) {
  const uint64_t base = large_va(5, 3);
  const TlbResponse fl = cosim.fill(base, leaf(true, 0x400, 0, 2));
  const TlbResponse fs = cosim.fill(base + 3 * kSmall, leaf(false, 0x777, 0, 9));
  EXPECT_EQ(fl.set, 5u);
  EXPECT_EQ(fs.set, 5u);
  EXPECT_NE(fl.way, fs.way);
  const TlbResponse in_small = cosim.lookup(base + 3 * kSmall + 0x10);
  EXPECT_EQ(in_small.result, TlbResult::kHitSmall);
  EXPECT_EQ(in_small.way, fs.way);
  EXPECT_EQ(in_small.pa, (uint64_t{0x777} << 12) + 0x10);
  EXPECT_EQ(in_small.entry.task_type, 9u);
  const TlbResponse elsewhere = cosim.lookup(base + 5 * kSmall + 0x10);
  EXPECT_EQ(elsewhere.result, TlbResult::kHitLarge);
  EXPECT_EQ(elsewhere.way, fl.way);
  EXPECT_EQ(elsewhere.entry.task_type, 2u);
}

// The nested region of each flag value, at its boundary: with the tail
// placement, flag 0001/0010/0100/1000 covers the last 1/2/4/8 small pages.
// An off-by-one in the compare moves one of the two units below.
TEST_F(TlbCosimTest, NestedRegionBoundaryForEveryFlag) {
  unsigned n = 1;
  for (uint8_t flag : {0x1, 0x2, 0x4, 0x8}) {
    const unsigned units = flag;
    const uint64_t base = large_va(n % 16, n);
    cosim.fill(base, leaf(true, 0x1000 + 16 * n, flag, n % 16));
    const TlbResponse outside = cosim.lookup(base + (16 - units - 1) * kSmall + 0x8);
    const TlbResponse inside = cosim.lookup(base + (16 - units) * kSmall + 0x8);
    const TlbResponse last = cosim.lookup(base + 15 * kSmall + 0xFF8);
    EXPECT_EQ(outside.result, TlbResult::kHitLarge) << "flag " << int{flag};
    EXPECT_EQ(inside.result, TlbResult::kNested) << "flag " << int{flag};
    EXPECT_EQ(last.result, TlbResult::kNested) << "flag " << int{flag};
    EXPECT_EQ(inside.entry.nested_flag, flag);
    EXPECT_EQ(inside.pa, 0u) << "a nested result translates nothing";
    // The walker's small page for that VA, then the same VA hits small.
    cosim.fill(base + (16 - units) * kSmall, leaf(false, 0x9000 + n, 0, 1));
    EXPECT_EQ(cosim.lookup(base + (16 - units) * kSmall + 0x8).result, TlbResult::kHitSmall);
    ++n;
  }
  // A flag that is not one-hot has no nested region.
  const uint64_t base = large_va(9, 40);
  cosim.fill(base, leaf(true, 0x5000, 0x3));
  EXPECT_EQ(cosim.lookup(base + 15 * kSmall).result, TlbResult::kHitLarge);
}

// A hit touches the replacement state at its edge; a fill accepted on the
// very next edge must choose its victim from the touched state, not from the
// one before. A nested result is not a use and must not move the victim.
TEST_F(TlbCosimTest, VictimComesFromTheStateOfThePreviousEdge) {
  const unsigned set = 7;
  for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(cosim.fill(large_va(set, w + 1), leaf(true, 0x100 * (w + 1), 0x8)).way, w);
  const unsigned victim = cosim.scoreboard().model().victim(set);
  const uint64_t victim_va = large_va(set, victim + 1);

  // Nested hit on the victim (flag 1000: units 8..15), then a fill back to back.
  EXPECT_TRUE(op(false, victim_va + 12 * kSmall).req_accepted);
  TlbEdge e = op(true, large_va(set, 10), leaf(true, 0xA00));
  ASSERT_TRUE(e.rsp_taken && e.req_accepted);
  EXPECT_EQ(e.rsp.result, TlbResult::kNested);
  e = idle();
  ASSERT_TRUE(e.rsp_taken);
  EXPECT_EQ(e.rsp.way, victim) << "a nested result must not protect its way";
  EXPECT_TRUE(e.rsp.evicted);

  // Hit the next victim, and fill on the next edge: the victim must move.
  const unsigned next = cosim.scoreboard().model().victim(set);
  const uint64_t next_va = cosim.scoreboard().model().entry(set, next).vpn << 16;
  EXPECT_TRUE(op(false, next_va).req_accepted);
  e = op(true, large_va(set, 11), leaf(true, 0xB00));
  ASSERT_TRUE(e.rsp_taken && e.req_accepted);
  EXPECT_EQ(e.rsp.result, TlbResult::kHitLarge);
  EXPECT_EQ(e.rsp.way, next);
  e = idle();
  ASSERT_TRUE(e.rsp_taken);
  EXPECT_NE(e.rsp.way, next) << "the fill used the victim of the state before the hit";
  EXPECT_TRUE(e.rsp.evicted);
}

// A flush (the driver's invalidation after rewriting page tables) with
// operations in flight: whatever was accepted before or at the flush's edge
// answers from the old state, even while its response is held; everything
// after misses.
TEST_F(TlbCosimTest, FlushWithOperationsInFlight) {
  const uint64_t va = large_va(2, 1);
  cosim.fill(va, leaf(true, 0x300));
  // A lookup accepted, its response held by back-pressure, a flush meanwhile.
  EXPECT_TRUE(op(false, va, {}, false, false).req_accepted);
  EXPECT_TRUE(idle(false, true).rsp_stalled);
  TlbEdge e = idle();
  ASSERT_TRUE(e.rsp_taken);
  EXPECT_EQ(e.rsp.result, TlbResult::kHitLarge);
  EXPECT_EQ(e.rsp.pa, uint64_t{0x300} << 12);
  EXPECT_EQ(cosim.lookup(va).result, TlbResult::kMiss);

  // A lookup on the flush's own edge still hits; the next one misses.
  cosim.fill(va, leaf(true, 0x310));
  EXPECT_TRUE(op(false, va, {}, true).req_accepted);
  e = op(false, va);
  ASSERT_TRUE(e.rsp_taken);
  EXPECT_EQ(e.rsp.result, TlbResult::kHitLarge);
  e = idle();
  ASSERT_TRUE(e.rsp_taken);
  EXPECT_EQ(e.rsp.result, TlbResult::kMiss);

  // A fill on the flush's edge reports its way, and is gone after it.
  EXPECT_TRUE(op(true, va, leaf(true, 0x320), true).req_accepted);
  e = idle();
  ASSERT_TRUE(e.rsp_taken);
  EXPECT_EQ(e.rsp.way, 0u);
  EXPECT_EQ(cosim.lookup(va).result, TlbResult::kMiss);
  EXPECT_GE(cosim.scoreboard().coverage().flush[0], 2u) << "flushes with an operation in flight";
}

// Fills go to the lowest invalid way, then to the tree-PLRU victim; the
// evicted entry is reported whole.
TEST_F(TlbCosimTest, EvictionReportsTheVictimEntry) {
  const unsigned set = 12;
  for (unsigned w = 0; w < 4; ++w) cosim.fill(large_va(set, w + 1), leaf(true, 0x40 * (w + 1), 0, w, w % 2));
  for (unsigned round = 0; round < 8; ++round) {
    const unsigned expect_way = cosim.scoreboard().model().victim(set);
    const TlbEntry expect_victim = cosim.scoreboard().model().entry(set, expect_way);
    const TlbResponse r = cosim.fill(large_va(set, 100 + round), leaf(true, 0x1000 + round, 0, 3));
    EXPECT_EQ(r.way, expect_way);
    EXPECT_TRUE(r.evicted);
    EXPECT_EQ(r.entry, expect_victim);
  }
}

// A reset in the middle of traffic: a lookup accepted and its response held
// by back-pressure, entries cached. The response is lost (the scoreboard
// discards it), every entry is invalid afterwards and the replacement state
// is back at its reset value (the next fill goes to way 0).
TEST_F(TlbCosimTest, ResetInTheMiddleOfTrafficForgetsEverything) {
  const uint64_t va = large_va(3, 1);
  cosim.fill(va, leaf(true, 0x300));
  cosim.fill(large_va(3, 2), leaf(true, 0x310));
  EXPECT_TRUE(op(false, va, {}, false, false).req_accepted);
  EXPECT_TRUE(idle(false).rsp_stalled);
  TlbPins reset;
  reset.reset = true;
  reset.rsp_ready = true;
  EXPECT_FALSE(cosim.cycle(reset).rsp_taken) << "reset clears the response stage";
  EXPECT_FALSE(cosim.cycle(reset).rsp_taken);
  EXPECT_FALSE(idle().rsp_taken) << "nothing comes back after the reset";
  EXPECT_EQ(cosim.scoreboard().discarded(), 1u);
  EXPECT_EQ(cosim.lookup(va).result, TlbResult::kMiss);
  EXPECT_EQ(cosim.fill(large_va(3, 9), leaf(true, 0x320)).way, 0u);
  const CoverageGroup& bins = cosim.scoreboard().coverage().reset;
  EXPECT_EQ(bins[1], 1u) << "operation in flight";
  EXPECT_EQ(bins[2], 1u) << "response held";
  EXPECT_EQ(bins[3], 1u) << "entries cached";
}

// Leaves a checking walker refuses, filled anyway (tlb.hpp: the TLB holds
// what it is given): reserved bits are not part of the entry, a flag that is
// not one-hot has no nested region, a small page's flag means nothing, and an
// unaligned large frame adds (the FrameNumberSpliced test's formula).
TEST_F(TlbCosimTest, MalformedLeavesBehaveAsTheContractSays) {
  unsigned n = 1;
  for (uint8_t flag = 0; flag < 16; ++flag) {
    if (nested_units(flag) >= 0) continue;
    const uint64_t base = large_va(n % 16, n);
    const uint64_t raw = leaf(true, 0x2000 + 16 * n, flag, n % 16).encode() | kPteReservedLow.mask() |
                         kPteReservedHigh.mask();
    TlbPins p;
    p.req_valid = p.req_fill = p.rsp_ready = true;
    p.req_va = base;
    p.req_pte = raw;
    ASSERT_TRUE(cosim.cycle(p).req_accepted);
    idle();
    for (unsigned unit : {0u, 7u, 15u}) {
      const TlbResponse r = cosim.lookup(base + unit * kSmall + 0x123);
      EXPECT_EQ(r.result, TlbResult::kHitLarge) << "flag " << int{flag} << " unit " << unit;
      EXPECT_EQ(r.entry.nested_flag, flag);
      EXPECT_EQ(r.pa, ((0x2000 + 16 * n) << 12) + unit * kSmall + 0x123);
    }
    ++n;
  }
  const uint64_t small_va = 0x33'3333'3000;
  cosim.fill(small_va, leaf(false, 0x4444, 0x8));
  const TlbResponse r = cosim.lookup(small_va + 0xABC);
  EXPECT_EQ(r.result, TlbResult::kHitSmall);
  EXPECT_EQ(r.entry.nested_flag, 0x8);
  const auto& bins = cosim.scoreboard().coverage().malformed_fill;
  EXPECT_EQ(bins[0], 11u) << "reserved bits";
  EXPECT_EQ(bins[1], 11u) << "flag not one-hot";
  EXPECT_EQ(bins[2], 1u) << "small page with flag";
}

// Each permission combination reaches the response as filled, with frame
// numbers whose top bit is set: the PA's bit 51.
TEST_F(TlbCosimTest, EveryPermissionCombinationAndTheWholeFrameWidth) {
  const uint64_t top = uint64_t{1} << (kPfnBits - 1);
  for (unsigned perm = 0; perm < 4; ++perm) {
    Pte p = leaf(perm % 2, (top | (0x123456789ull << 4)) + perm * 16, 0, perm);
    p.readable = perm & 1;
    p.writable = (perm >> 1) & 1;
    const uint64_t va = large_va(perm, 7 + perm) + (p.large_page ? 0 : 5 * kSmall);
    cosim.fill(va, p);
    const TlbResponse r = cosim.lookup(va + 0xFFF);
    EXPECT_EQ(r.entry.readable, p.readable) << perm;
    EXPECT_EQ(r.entry.writable, p.writable) << perm;
    EXPECT_EQ(r.entry.pfn, p.pfn);
    EXPECT_EQ(r.pa, (p.pfn << 12) + 0xFFF);
    EXPECT_EQ(r.pa >> 51, 1u);
  }
  for (unsigned bin = 0; bin < 4; ++bin) EXPECT_EQ(cosim.scoreboard().coverage().hit_permission[bin], 1u) << bin;
}

// A lookup that differs from a cached page in one tag bit alone misses, for
// every tag bit of both entry sizes (tlb_tag_bits: small entries compare
// VA[15:12] too).
TEST_F(TlbCosimTest, EveryTagBitIsCompared) {
  const uint64_t small_va = 0x5A'5A5A'5000, large = 0xA5'A5A5'0000;
  cosim.fill(small_va, leaf(false, 0x111));
  cosim.fill(large, leaf(true, 0x220));
  const std::vector<unsigned> bits = tlb_tag_bits(tlb_params(cfg), cfg.address_space.va_bits);
  ASSERT_EQ(bits.size(), 4u + 20u) << "VA[15:12] and VA[39:20] for 16 sets of 64 KB pages";
  for (unsigned b : bits) {
    const uint64_t flip = uint64_t{1} << b;
    EXPECT_EQ(cosim.lookup((small_va ^ flip) + 0x8).result, TlbResult::kMiss) << "small, VA[" << b << "]";
    if (b >= 16) {
      EXPECT_EQ(cosim.lookup((large ^ flip) + 0x8).result, TlbResult::kMiss) << "large, VA[" << b << "]";
    }
  }
  EXPECT_EQ(cosim.lookup(small_va + 0xFFF).result, TlbResult::kHitSmall);
  EXPECT_EQ(cosim.lookup(large + 0xFFFF).result, TlbResult::kHitLarge);
  EXPECT_TRUE(every_bin_hit({&cosim.scoreboard().coverage().tag_alias}));
}

// Any byte of a page: every offset bit reaches the physical address.
TEST_F(TlbCosimTest, EveryOffsetBitReachesThePhysicalAddress) {
  const uint64_t small_va = 0x12'0000'3000, large = 0x34'0005'0000;
  cosim.fill(small_va, leaf(false, 0x5555));
  cosim.fill(large, leaf(true, 0x6660));
  for (unsigned b = 0; b < 16; ++b) {
    const uint64_t off = uint64_t{1} << b;
    if (b < 12) {
      EXPECT_EQ(cosim.lookup(small_va + off).pa, (uint64_t{0x5555} << 12) + off) << b;
    }
    EXPECT_EQ(cosim.lookup(large + off).pa, (uint64_t{0x6660} << 12) + off) << b;
  }
}

// The bench's page tables are rougher than the allocator's: tables at a
// random physical base, every permission combination, frame numbers across
// the whole PFN width, and malformed leaves the walker refuses.
TEST(TlbStimulus, PageTablesAreRougherThanTheAllocatorWritesThem) {
  const Config cfg = default_config();
  const TlbPageTables t = random_page_tables(tlb_bench_params(cfg), 7);
  ASSERT_EQ(t.images.size(), 2u);
  const PageGeometry geo = cfg.mmu.geometry();
  const PageTableWalker walker(t.images[0].layout, geo);
  for (size_t i = 0; i < t.images.size(); ++i) {
    const AddressSpaceImage& image = t.images[i];
    EXPECT_GT(image.root, uint64_t{1} << 32) << "image " << i << ": tables at a random base in 2^52 bytes";
    std::set<unsigned> permissions;
    uint64_t frame_bits = 0;
    std::set<uint64_t> malformed;
    for (const PteWrite& w : image.pte_writes) {
      const Pte p = Pte::decode(w.value);
      if (!p.valid || p.directory) continue;
      permissions.insert(p.readable | p.writable << 1);
      frame_bits |= p.pfn;
      const bool bad = (w.value & kPteReservedMask) || nested_units(p.nested_flag) < 0 ||
                       (!p.large_page && p.nested_flag) || (p.large_page && (p.pfn & (geo.units_per_large() - 1)));
      if (bad) malformed.insert(w.value);
    }
    EXPECT_EQ(permissions.size(), 4u);
    EXPECT_EQ(frame_bits, (uint64_t{1} << kPfnBits) - 1) << "every frame-number bit set in some leaf";
    EXPECT_EQ(malformed.size(), 11u + 3u + 2u) << "every flag that is not one-hot, two reserved fields, an unaligned "
                                                   "large frame, two small pages with a flag";
    // Every mapped page walks to its leaf, or to page_table_error on a malformed one.
    unsigned refused = 0;
    for (const PageMapping& m : image.pages) {
      const WalkResult w = walker.walk(image.root, m.va, [&](uint64_t pa) { return t.memory[i].read_u64(pa); });
      EXPECT_TRUE(w.fault == FaultReason::kNone || w.fault == FaultReason::kPageTableError)
          << std::hex << m.va << ": " << w.detail;
      if (w.fault == FaultReason::kPageTableError) {
        EXPECT_TRUE(malformed.count(w.last_pte)) << w.detail;
        ++refused;
      }
    }
    EXPECT_GE(refused, malformed.size());
  }
}

// The RTL is verilated with --x-initial unique and the harness seeds the
// flops' initial values from the run's seed: before reset the response
// registers hold values of that seed (the same in every rerun, different for
// another seed), not Verilator's zeros, and reset clears what it must.
TEST(TlbCosim, FlopsStartFromTheSeedsRandomValues) {
  // The driver's own model and harness (tlb_driver.cpp), read through its ports.
  auto before_reset = [](uint64_t seed) {
    RtlHarness<LinkedRtl<Vgpumem_nested_tlb, TestTlbPorts>> h({}, "tlb", seed);
    auto out = [&](TlbOut p) { return h.out(static_cast<unsigned>(p)); };
    const uint64_t pa = out(TlbOut::rsp_pa_o), pfn = out(TlbOut::rsp_entry_pfn_o);
    h.reset();
    EXPECT_EQ(out(TlbOut::rsp_valid_o), 0u);
    EXPECT_EQ(out(TlbOut::rsp_pa_o), 0u) << "reset clears the response stage";
    return std::make_pair(pa, pfn);
  };
  const auto one = before_reset(1), again = before_reset(1), two = before_reset(2);
  EXPECT_EQ(one, again) << "one seed, one set of initial values";
  EXPECT_NE(one, two);
  EXPECT_NE(one.first | one.second, 0u) << "not Verilator's default zeros";
}

TEST(TlbCosim, MismatchReportNamesEverything) {
  TlbScoreboard sb(TlbParams{{64, 4, Replacement::kPlru}, PageGeometry{}}, 40, 42);
  TlbPins p;
  p.req_valid = true;
  p.req_va = 0x12'3456'7890;
  sb.operation_accepted(p, {5, 1, 0});
  TlbResponse wrong;
  wrong.result = TlbResult::kHitSmall;
  wrong.way = 2;
  wrong.set = 6;
  EXPECT_FALSE(sb.response_taken(wrong, 17));
  ASSERT_TRUE(sb.first_mismatch());
  const std::string r = sb.first_mismatch()->report();
  for (const char* s : {"transaction 5 (operation 0", "cycle 17", "seed 42", "lookup va 0x1234567890", "result", "miss",
                        "hit_small", "hit way", "differs", "way 3: -"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
}

// A difference in a field the operation's kind does not use (a PA held on
// a fill's response, an entry on ports that should show zeros) still has
// its row, marked: the mutation check counts a report without one as
// incomplete.
TEST(TlbCosim, MismatchReportShowsEveryFieldThatDiffers) {
  // The RTL's `rtl` answer to one operation: "agreed", or the report.
  auto answered = [](bool fill, TlbResponse rtl, TlbResponse* model = nullptr) {
    TlbScoreboard sb(TlbParams{{64, 4, Replacement::kPlru}, PageGeometry{}}, 40, 42);
    TlbPins p;
    p.req_valid = true;
    p.req_fill = fill;
    p.req_va = large_va(3, 5);
    p.req_pte = fill ? leaf(false, 0x2000, 0, 1).encode() : 0;
    sb.operation_accepted(p, {0, 0, 0});
    rtl.fill = fill;
    if (sb.response_taken(rtl, 9)) return std::string("agreed");
    if (model) *model = sb.first_mismatch()->expected;
    return sb.first_mismatch()->report();
  };
  auto report = [&](bool fill, const TlbResponse& rtl) { return answered(fill, rtl); };
  // The model's own answers, with one field changed each time.
  auto answer = [&](bool fill) {
    TlbResponse model;
    model.result = TlbResult::kHitSmall;  // no answer of either operation here
    answered(fill, model, &model);
    return model;
  };
  TlbResponse fill = answer(true);
  ASSERT_TRUE(fill.fill);
  EXPECT_EQ(report(true, fill), "agreed");
  TlbResponse held = fill;
  held.pa = 0x7700;
  std::string r = report(true, held);
  EXPECT_NE(r.find("pa "), std::string::npos) << r;
  EXPECT_NE(r.find("0x7700"), std::string::npos) << r;
  EXPECT_NE(r.find("differs"), std::string::npos) << r;
  TlbResponse stale = fill;
  stale.entry.vpn = 0x55;  // not valid (nothing evicted), yet not zeros
  r = report(true, stale);
  EXPECT_NE(r.find("not valid: small vpn 0x55"), std::string::npos) << r;
  EXPECT_NE(r.find("differs"), std::string::npos) << r;
  TlbResponse miss = answer(false);
  ASSERT_EQ(miss.result, TlbResult::kMiss);
  miss.evicted = true;
  r = report(false, miss);
  EXPECT_NE(r.find("evicted"), std::string::npos) << r;
  EXPECT_NE(r.find("differs"), std::string::npos) << r;
}

void random_run_covers_every_bin(const Config& cfg, uint64_t seed) {
  TlbCosim cosim(cfg, seed);
  TlbRandomRun run;
  run.transactions = 1'000'000;
  const bool ok = cosim.run_random(run);
  const auto& sb = cosim.scoreboard();
  ASSERT_TRUE(ok) << sb.first_mismatch()->report();
  EXPECT_EQ(cosim.transactions(), run.transactions);
  std::printf("%llu translations (%llu faulted, %llu walks), %llu operations in %llu cycles\n",
              static_cast<unsigned long long>(cosim.transactions()), static_cast<unsigned long long>(cosim.counts().faults),
              static_cast<unsigned long long>(cosim.counts().walks), static_cast<unsigned long long>(sb.compared()),
              static_cast<unsigned long long>(cosim.cycles()));
  std::printf("%s", coverage_text(sb.coverage().groups()).c_str());
  EXPECT_TRUE(every_bin_hit(sb.coverage().groups()));
  EXPECT_GT(cosim.counts().image_switches, 0u);
}

TEST(TlbCosim, OneMillionRandomTranslationsCoverEveryBin) { random_run_covers_every_bin(default_config(), 20240605); }

// The lru variant: fully associative, exact LRU (configs/examples/tlb-lru.yaml).
TEST(TlbCosim, OneMillionRandomTranslationsOnTheLruVariant) { random_run_covers_every_bin(lru_config(), 20240606); }

TEST(TlbCosim, MismatchArtifactsWriteWavesAndAReplayFile) {
  const Config cfg = default_config();
  const std::string dir = temp_dir("gpumem-tlb-waves");
  TlbRandomRun run;
  run.transactions = 2000;
  const MismatchArtifacts files = write_mismatch_artifacts<TlbBlock>(cfg, "configs/default.yaml", 7, run, 1500, dir, 200);
  ASSERT_TRUE(std::filesystem::exists(files.waves));
  EXPECT_EQ(test::layout_check("tlb.gtkw", files.waves), "");
  const std::string text = file_text(files.replay);
  // Runs as written from any folder: every path in it absolute.
  EXPECT_NE(text.find("\n\"${GPUMEM:-gpumem}\" cosim --config " + shell_quoted(absolute_path("configs/default.yaml")) +
                      " --block tlb --transactions 2000 --seed 7 --waves " + shell_quoted(absolute_path(dir)) + "\n"),
            std::string::npos)
      << text;
  // The view: the saved layout opened on the failing edge (cycle 1500 -> time 2999).
  ASSERT_FALSE(files.view.empty());
  const std::string layout = file_text(files.view);
  EXPECT_NE(layout.find("[dumpfile] \"" + std::filesystem::absolute(files.waves).string() + "\""), std::string::npos)
      << layout;
  EXPECT_NE(layout.find("\n*1.000000 2999 -1"), std::string::npos) << layout;
  EXPECT_NE(layout.find("tlb.rsp_result_o[1:0]"), std::string::npos) << "not the tlb layout:\n" << layout;
  EXPECT_EQ(test::layout_file_check(files.view, files.waves), "");
  EXPECT_EQ(files.layout_note, "the contract's 23 ports, then 9 signals of the project's RTL");
  std::filesystem::remove_all(dir);
}

// The lru variant's waves have its own replacement state (g_lru.age_q): its
// layout is checked against them.
TEST(TlbCosim, LruLayoutNamesSignalsOfTheLruWaves) {
  const std::string dir = temp_dir("gpumem-tlb-lru-waves");
  TlbRandomRun run;
  run.transactions = 500;
  const MismatchArtifacts files =
      write_mismatch_artifacts<TlbBlock>(lru_config(), "configs/examples/tlb-lru.yaml", 7, run, 400, dir, 200);
  ASSERT_TRUE(std::filesystem::exists(files.waves));
  EXPECT_EQ(test::layout_check("tlb-lru.gtkw", files.waves), "");
  EXPECT_EQ(test::layout_file_check(files.view, files.waves), "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpumem::tb
