// The driver's allocator and the address_space section: nesting small pages
// into the tails of partly used large frames, the nested flags it sets, the
// page-table image it writes (checked by walking it with the walker and
// translating through the MMU), exact fragmentation arithmetic on random
// address spaces, config errors that point at file, line and key, and the
// before-MMU firmware that turns regions with their own task type into VA
// ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "params/block_params.hpp"
#include "driver/address_space.hpp"
#include "driver/firmware.hpp"
#include "mmu/mmu.hpp"
#include "regs/register_bank.hpp"
#include "regs/register_map.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

constexpr uint64_t kS = 0x1000;
constexpr uint64_t kL = 0x10000;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The image as simulated memory: unwritten words read as zero (invalid).
struct ImageMemory {
  std::unordered_map<uint64_t, uint64_t> words;
  explicit ImageMemory(const AddressSpaceImage& img) {
    for (const PteWrite& w : img.pte_writes) words[w.pa] = w.value;
  }
  ReadPte reader() const {
    return [this](uint64_t pa) {
      const auto it = words.find(pa);
      return it == words.end() ? uint64_t{0} : it->second;
    };
  }
};

// Every page of every region, walked through the image: small pages at their
// first and last byte; large pages at both ends of every 4 KB slot, where
// slots in the nested region belong to a VA-nested small page or to nobody.
// Then the same VAs through the MMU, which must give PA and task type.
void check_walks(const Config& cfg, const AddressSpaceImage& img) {
  const PageGeometry geo = cfg.mmu.geometry();
  const PageTableWalker walker(img.layout, geo);
  const ImageMemory mem(img);
  const ReadPte read = mem.reader();
  std::map<uint64_t, const PageMapping*> small_at;
  for (const PageMapping& m : img.pages)
    if (!m.large_page) small_at[m.va] = &m;

  std::vector<std::pair<uint64_t, const PageMapping*>> mapped, unmapped;
  auto expect_leaf = [&](uint64_t va, const PageMapping& m) {
    mapped.push_back({va, &m});
    const WalkResult w = walker.walk(img.root, va, read);
    ASSERT_EQ(w.fault, FaultReason::kNone) << hex(va) << ": " << w.detail;
    EXPECT_EQ(w.leaf.large_page, m.large_page) << hex(va);
    EXPECT_EQ(w.leaf.pfn, m.pa >> geo.small_bits) << hex(va);
    EXPECT_EQ(w.leaf.task_type, m.task_type) << hex(va);
    EXPECT_EQ(w.leaf.writable, m.writable) << hex(va);
    EXPECT_TRUE(w.leaf.readable) << hex(va);
    EXPECT_EQ(w.leaf.nested_flag, m.nested_flag) << hex(va);
  };
  for (const PageMapping& m : img.pages) {
    if (!m.large_page) {
      EXPECT_EQ(m.nested_flag, 0u);
      expect_leaf(m.va, m);
      expect_leaf(m.va + kS - 1, m);
      continue;
    }
    for (uint64_t u = 0; u < geo.units_per_large(); ++u) {
      const uint64_t va = m.va + u * kS;
      if (!geo.in_nested_region(va, m.nested_flag)) {
        expect_leaf(va, m);
        expect_leaf(va + kS - 1, m);
      } else if (const auto it = small_at.find(va); it != small_at.end()) {
        EXPECT_TRUE(it->second->va_nested) << hex(va);
        expect_leaf(va, *it->second);
      } else {
        unmapped.push_back({va, &m});
        const WalkResult w = walker.walk(img.root, va, read);
        EXPECT_EQ(w.fault, FaultReason::kUnmapped) << hex(va) << ": nobody's VA in a nested region";
      }
    }
  }

  // The MMU over the same image, large pages first so nested-region VAs take
  // the nested path as well as the miss path.
  MmuRegisters regs{img.root, 0};
  Mmu mmu(mmu_params(cfg), regs);
  std::stable_sort(mapped.begin(), mapped.end(), [](auto& a, auto& b) { return a.second->large_page > b.second->large_page; });
  for (const auto& [va, m] : mapped) {
    const MmuOutcome o = mmu.translate(va, false, read);
    ASSERT_EQ(o.fault, FaultReason::kNone) << hex(va) << ": " << mmu.fault_detail();
    EXPECT_EQ(o.pa, m->pa + (va - m->va)) << hex(va);
    EXPECT_EQ(o.task_type, m->task_type) << hex(va);
    EXPECT_EQ(o.large_page, m->large_page) << hex(va);
    if (!m->writable) {
      EXPECT_EQ(mmu.translate(va, true, read).fault, FaultReason::kPermission) << hex(va);
    }
  }
  for (const auto& [va, m] : unmapped) EXPECT_EQ(mmu.translate(va, false, read).fault, FaultReason::kUnmapped) << hex(va);
  EXPECT_EQ(mmu.stats().faults, unmapped.size() + std::count_if(mapped.begin(), mapped.end(), [](auto& p) { return !p.second->writable; }));
}

// Fragmentation recomputed from the page list alone, and the physical layout:
// no small frame has two owners, nested small pages sit in their large page's
// nested region, page tables sit outside every data frame.
void check_layout(const Config& cfg, const AddressSpaceImage& img, bool nesting) {
  const PageGeometry geo = cfg.mmu.geometry();
  const unsigned U = geo.units_per_large();
  const Fragmentation& f = img.fragmentation;
  EXPECT_EQ(f.frames_used * kL, f.data_bytes + f.internal_bytes + f.external_bytes)
      << "data " << f.data_bytes << " internal " << f.internal_bytes << " external " << f.external_bytes;
  EXPECT_EQ(f.frame_bytes, f.frames_used * kL);

  uint64_t data = 0, large_pages = 0, small_pages = 0;
  for (const auto& app : cfg.address_space.applications)
    for (const auto& r : app.regions) {
      data += r.size;
      (r.large_page ? large_pages : small_pages) += ceil_div(r.size, r.large_page ? kL : kS);
    }
  EXPECT_EQ(f.data_bytes, data);
  EXPECT_EQ(f.large_pages, large_pages);
  EXPECT_EQ(f.small_pages, small_pages);
  EXPECT_EQ(img.pages.size(), large_pages + small_pages);

  std::map<uint64_t, std::string> owner;  // small frame -> page that owns it
  auto claim = [&](uint64_t frame, const PageMapping& m) {
    const std::string who = (m.large_page ? "large " : "small ") + hex(m.va);
    const auto [it, fresh] = owner.emplace(frame, who);
    EXPECT_TRUE(fresh) << "frame " << hex(frame) << " belongs to " << it->second << " and " << who;
  };
  std::map<uint64_t, const PageMapping*> large_frame;  // large frame -> its large page
  std::map<uint64_t, unsigned> loose;                  // frame split into small frames -> pages in it
  uint64_t internal = 0, nested = 0;
  for (const PageMapping& m : img.pages)
    if (m.large_page) {
      EXPECT_EQ(m.pa % kL, 0u) << hex(m.va);
      EXPECT_GE(nested_units(m.nested_flag), 0) << "one-hot flag";
      large_frame[m.pa / kL] = &m;
      // The large page reaches the frame's units outside its nested region.
      for (unsigned u = 0; u < U; ++u)
        if (!geo.in_nested_region(m.va + u * kS, m.nested_flag)) claim(m.pa + u * kS, m);
      const RegionConfig& region = cfg.address_space.applications[m.application].regions[m.region];
      internal += kL - std::min(kL, region.size - (m.va - region.va));
    }
  for (const PageMapping& m : img.pages) {
    if (m.large_page) continue;
    EXPECT_EQ(m.pa % kS, 0u) << hex(m.va);
    claim(m.pa, m);
    const RegionConfig& region = cfg.address_space.applications[m.application].regions[m.region];
    internal += kS - std::min(kS, region.size - (m.va - region.va));
    const auto lf = large_frame.find(m.pa / kL);
    EXPECT_EQ(m.pa_nested, lf != large_frame.end()) << hex(m.va) << ": pa_nested iff it shares a large page's frame";
    if (lf != large_frame.end()) {
      ++nested;
      internal -= kS;  // the large page's tail that it fills is not waste
      EXPECT_TRUE(geo.in_nested_region(lf->second->va + (m.pa % kL), lf->second->nested_flag))
          << "small " << hex(m.va) << " at " << hex(m.pa) << " is reachable through large " << hex(lf->second->va);
    } else {
      ++loose[m.pa / kL];
    }
  }
  uint64_t external = 0;
  for (const auto& [frame, n] : loose) external += kL - n * kS;
  EXPECT_EQ(f.internal_bytes, internal);
  EXPECT_EQ(f.external_bytes, external);
  EXPECT_EQ(f.frames_used, large_frame.size() + loose.size());
  EXPECT_EQ(f.nested_small_pages, nested);
  if (!nesting) {
    EXPECT_EQ(nested, 0u);
  }
  for (const PageMapping& m : img.pages) {
    EXPECT_GE(m.pa, cfg.address_space.pa_base);
    EXPECT_LE(m.pa + (m.large_page ? kL : kS), img.pa_end);
    EXPECT_EQ(m.va_nested, !m.large_page && std::any_of(img.pages.begin(), img.pages.end(), [&](const PageMapping& o) {
                             return o.large_page && o.va / kL == m.va / kL;
                           })) << hex(m.va);
  }

  // Page tables: whole small pages outside every data frame.
  std::set<uint64_t> tables{img.root};
  uint64_t prev = 0;
  for (size_t i = 0; i < img.pte_writes.size(); ++i) {
    const uint64_t pa = img.pte_writes[i].pa;
    if (i) {
      EXPECT_GT(pa, prev) << "ascending, no slot written twice";
    }
    prev = pa;
    EXPECT_EQ(pa % kPteBytes, 0u);
    EXPECT_LT(pa, img.pa_end);
    tables.insert(pa & ~(kS - 1));
  }
  for (uint64_t t : tables) {
    EXPECT_EQ(large_frame.count(t / kL) + loose.count(t / kL), 0u) << "page table at " << hex(t) << " overlaps data";
    EXPECT_GE(t, cfg.address_space.pa_base);
  }
  EXPECT_EQ(f.page_table_bytes, tables.size() * kS);
}

const PageMapping* page_at(const AddressSpaceImage& img, uint64_t va) {
  for (const PageMapping& m : img.pages)
    if (m.va == va) return &m;
  return nullptr;
}

// ---------------------------------------------------------------- the shipped example

TEST(AddressSpaceExample, NestedPagesYaml) {
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/nested-pages.yaml");
  ASSERT_TRUE(cfg.address_space.nesting);
  const AddressSpaceImage with = build_address_space(cfg, true);
  const AddressSpaceImage without = build_address_space(cfg, false);

  // fb is 2.5 large pages; buf (6 small pages) and ring (2) fill the 32 KB
  // tail of its third frame. Without nesting they take a fourth frame.
  EXPECT_EQ(with.fragmentation.frames_used, 3u);
  EXPECT_EQ(without.fragmentation.frames_used, 4u);
  EXPECT_EQ(with.fragmentation.data_bytes, 0x30000u);
  EXPECT_EQ(with.fragmentation.internal_bytes, 0u);
  EXPECT_EQ(with.fragmentation.external_bytes, 0u);
  EXPECT_EQ(without.fragmentation.internal_bytes, 0x8000u) << "fb's unused tail";
  EXPECT_EQ(without.fragmentation.external_bytes, 0x8000u) << "8 free small frames in buf's frame";
  EXPECT_EQ(with.fragmentation.nested_small_pages, 8u);
  EXPECT_EQ(without.fragmentation.nested_small_pages, 0u);

  // Nested flags of fb's pages: only the last one has a nested region, 32 KB
  // with nesting (1000). Without, ring still sits in its VA tail, at units
  // 14-15: 8 KB (0010).
  const uint64_t fb = 0x1000'0000;
  for (const auto* img : {&with, &without})
    for (uint64_t p = 0; p < 2; ++p) {
      const PageMapping* m = page_at(*img, fb + p * kL);
      ASSERT_NE(m, nullptr);
      EXPECT_TRUE(m->large_page);
      EXPECT_EQ(m->nested_flag, 0u);
    }
  ASSERT_NE(page_at(with, fb + 2 * kL), nullptr);
  EXPECT_EQ(page_at(with, fb + 2 * kL)->nested_flag, 0x8);
  EXPECT_EQ(page_at(without, fb + 2 * kL)->nested_flag, 0x2);
  const uint64_t fb_last_frame = page_at(with, fb + 2 * kL)->pa;

  // Which small pages are nested where.
  std::set<uint64_t> tail_frames;
  for (const PageMapping& m : with.pages) {
    if (m.large_page) continue;
    const bool ring = m.va >= 0x1002'E000 && m.va < 0x1003'0000;
    EXPECT_TRUE(m.pa_nested) << hex(m.va);
    EXPECT_EQ(m.va_nested, ring) << hex(m.va);
    EXPECT_EQ(m.task_type, 2u);
    EXPECT_GE(m.pa, fb_last_frame + 0x8000) << hex(m.va) << " outside fb's tail";
    EXPECT_LT(m.pa, fb_last_frame + kL) << hex(m.va);
    tail_frames.insert(m.pa);
  }
  EXPECT_EQ(tail_frames.size(), 8u);
  for (const PageMapping& m : without.pages) EXPECT_FALSE(m.pa_nested) << hex(m.va);

  for (const auto* img : {&with, &without}) {
    check_layout(cfg, *img, img == &with);
    check_walks(cfg, *img);
  }

  // The nested region's first 6 slots (0x1002'8000-0x1002'DFFF) are nobody's:
  // with fb's large entry cached they take the nested path and fault.
  MmuRegisters regs{with.root, 0};
  Mmu mmu(mmu_params(cfg), regs);
  const ImageMemory mem(with);
  ASSERT_EQ(mmu.translate(fb + 2 * kL, false, mem.reader()).fault, FaultReason::kNone);
  for (uint64_t va = 0x1002'8000; va < 0x1002'E000; va += 0x800) {
    const MmuOutcome o = mmu.translate(va, false, mem.reader());
    EXPECT_EQ(o.first, TlbResult::kNested) << hex(va);
    EXPECT_EQ(o.fault, FaultReason::kUnmapped) << hex(va);
    EXPECT_EQ(mmu.fault_detail(), "level 2: invalid PTE");
  }
  // ring's pages resolve through compute's own PTE: task 2, not render's 1.
  const MmuOutcome o = mmu.translate(0x1002'E010, false, mem.reader());
  EXPECT_EQ(o.first, TlbResult::kNested);
  EXPECT_EQ(o.task_type, 2u);
  EXPECT_EQ(o.pa, page_at(with, 0x1002'E000)->pa + 0x10);
  EXPECT_EQ(mmu.translate(0x1002'7FFF, false, mem.reader()).task_type, 1u) << "the byte below the region is fb's";
}

// ---------------------------------------------------------------- random address spaces

unsigned ceil_pow2(unsigned x) {
  unsigned p = 1;
  while (p < x) p <<= 1;
  return x ? p : 0;
}
unsigned floor_pow2(unsigned x) {
  unsigned p = 1;
  while (p * 2 <= x) p <<= 1;
  return x ? p : 0;
}

struct GenRegion {
  std::string name;
  uint64_t va, size;
  bool large;
  int task_type;  // -1: the application's
  bool writable;
  std::string nest_into;
};

struct Generated {
  std::string yaml;
  bool va_nested = false;  // some small region sits in a large page's VA tail
  bool nest_into = false;
};

// Random large and small regions of random sizes, 16 MB apart; after some
// large regions a small region (of any application) in its last page's VA
// tail where the config allows one; nesting on or off; sometimes the first
// small region placed names a large region with room as nest_into.
Generated random_space(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  Generated g;
  const unsigned va_bits = std::vector<unsigned>{32, 39, 40, 44}[seed % 4];  // 3 and 4 table levels
  const uint64_t base = uint64_t{1} << (va_bits - 1);
  const bool nesting = pick(0, 3) != 0;
  // Head placement: no small region may sit in a large page's VA tail.
  const bool head = seed % 5 == 0;
  std::vector<std::vector<GenRegion>> apps(pick(1, 4));
  unsigned slot = 0;
  unsigned n = 0;
  for (auto& app : apps) {
    const unsigned count = static_cast<unsigned>(pick(1, 4));
    for (unsigned k = 0; k < count; ++k) {
      GenRegion r{"r" + std::to_string(n++), base + (uint64_t{slot++} << 24), 0, pick(0, 1) == 1, -1, pick(0, 4) != 0, ""};
      r.size = r.large ? pick(1, 5 * kL) : pick(1, 24 * kS);
      if (pick(0, 2) == 0) r.task_type = static_cast<int>(pick(0, 15));
      app.push_back(r);
      if (!r.large || head || pick(0, 1)) continue;
      const uint64_t last = (r.size - 1) / kL * kL;
      const unsigned used = static_cast<unsigned>(ceil_div(r.size - last, kS));
      std::vector<unsigned> units;
      for (unsigned u = std::max(used, 8u); u < 16; ++u)
        if (ceil_pow2(16 - u) <= 16 - used) units.push_back(u);
      if (units.empty()) continue;
      const unsigned u = units[pick(0, units.size() - 1)];
      GenRegion s{"r" + std::to_string(n++), r.va + last + u * kS, pick(1, (16 - u) * kS), false, -1, pick(0, 4) != 0, ""};
      apps[pick(0, apps.size() - 1)].push_back(s);
      g.va_nested = true;
    }
  }
  if (nesting && !head && pick(0, 1)) {
    GenRegion* first = nullptr;
    for (auto& app : apps)
      for (auto& r : app)
        if (!r.large && !first) first = &r;
    for (auto& app : apps)
      for (auto& r : app) {
        if (!first || !r.large || !first->nest_into.empty()) continue;
        const uint64_t last = (r.size - 1) / kL * kL;
        const unsigned cap = std::min(8u, floor_pow2(16 - static_cast<unsigned>(ceil_div(r.size - last, kS))));
        if (ceil_div(first->size, kS) <= cap) first->nest_into = r.name, g.nest_into = true;
      }
  }
  std::string y = std::string("memory: {channels: 1}\nmmu: {nested_placement: ") + (head ? "head" : "tail") +
                  "}\naddress_space:\n  va_bits: " + std::to_string(va_bits) +
                  "\n  pa_base: " + hex(pick(0, 8) * kL) + "\n  nesting: " + (nesting ? "true" : "false") +
                  "\n  applications:\n";
  for (size_t a = 0; a < apps.size(); ++a) {
    y += "    - name: app" + std::to_string(a) + "\n      process: " + std::to_string((a * 5 + seed) % 16) +
         "\n      task_type: " + std::to_string(pick(0, 15)) + "\n      regions:\n";
    for (const GenRegion& r : apps[a]) {
      y += "        - {name: " + r.name + ", va: " + hex(r.va) + ", size: " + hex(r.size) +
           ", page: " + (r.large ? "large" : "small");
      if (r.task_type >= 0) y += ", task_type: " + std::to_string(r.task_type);
      if (!r.writable) y += ", writable: false";
      if (!r.nest_into.empty()) y += ", nest_into: " + r.nest_into;
      y += "}\n";
    }
  }
  g.yaml = y;
  return g;
}

TEST(AddressSpaceRandom, FragmentationIsExactAndEveryMappingWalks) {
  unsigned saved = 0, va_nested = 0, nest_into = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    const Generated g = random_space(seed);
    SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + g.yaml);
    Config cfg;
    ASSERT_NO_THROW(cfg = config_from(g.yaml));
    AddressSpaceImage img[2];
    for (bool nesting : {false, true}) {
      SCOPED_TRACE(nesting ? "nesting" : "no nesting");
      ASSERT_NO_THROW(img[nesting] = build_address_space(cfg, nesting));
      check_layout(cfg, img[nesting], nesting);
      check_walks(cfg, img[nesting]);
      if (HasFatalFailure()) return;
    }
    // Nesting only takes small pages out of split frames: never more frames.
    const Fragmentation &off = img[0].fragmentation, &on = img[1].fragmentation;
    EXPECT_LE(on.frames_used, off.frames_used);
    EXPECT_EQ(on.data_bytes, off.data_bytes);
    // Exactly the split frames the nested pages no longer need (split frames are packed).
    EXPECT_EQ(off.frames_used - on.frames_used,
              ceil_div(on.small_pages, 16) - ceil_div(on.small_pages - on.nested_small_pages, 16));
    saved += on.frames_used < off.frames_used;
    va_nested += g.va_nested;
    nest_into += g.nest_into;
  }
  // The generator exercises what the test is about.
  EXPECT_GT(saved, 10u);
  EXPECT_GT(va_nested, 10u);
  EXPECT_GT(nest_into, 5u);
}

// ---------------------------------------------------------------- allocation mixes

std::string two_apps(const std::string& render_regions, const std::string& compute_regions) {
  return "memory: {channels: 1}\naddress_space:\n  applications:\n"
         "    - name: render\n      process: 1\n      task_type: 1\n      regions:\n" + render_regions +
         "    - name: compute\n      process: 2\n      task_type: 2\n      regions:\n" + compute_regions;
}

TEST(AddressSpaceMix, WhatNestingSavesAndWhatItDoesNot) {
  struct Mix {
    const char* what;
    std::string yaml;
    Fragmentation on, off;  // frames_used, data, internal, external checked
  } mixes[] = {
      // 1.5 large pages leave a 32 KB tail; 4.5 + 3 small pages fit it.
      // Nesting: 2 frames = 0x1F800 data + 0x800 rounding.
      // Without: 3 frames = data + (0x8000 tail + 0x800 rounding) + 0x8000 free small frames.
      {"half-used large frame takes 8 small pages: saves a frame",
       two_apps("        - {name: tex, va: 0x10000000, size: 0x18000, page: large}\n",
                "        - {name: a, va: 0x20000000, size: 0x4800, page: small}\n"
                "        - {name: b, va: 0x30000000, size: 0x3000, page: small}\n"),
       {0x1F800, 2, 0x20000, 0x800, 0}, {0x1F800, 3, 0x30000, 0x8800, 0x8000}},
      // 1.25 large pages leave 12 free units, but the largest nested region
      // (flag 1000) is 8: 8 of 10 small pages nest, 2 still need a frame.
      // Same 3 frames; nesting moves 0x8000 from internal to data-in-tail
      // and 0x8000 more free space into the split frame (external).
      {"quarter-used large frame, 10 small pages: same frames, waste moves",
       two_apps("        - {name: tex, va: 0x10000000, size: 0x14000, page: large}\n",
                "        - {name: a, va: 0x20000000, size: 0xA000, page: small}\n"),
       {0x1E000, 3, 0x30000, 0x4000, 0xE000}, {0x1E000, 3, 0x30000, 0xC000, 0x6000}},
      // Full large pages have no tail: nesting changes nothing at all.
      {"only full large pages: nothing to nest into",
       two_apps("        - {name: tex, va: 0x10000000, size: 0x20000, page: large}\n"
                "        - {name: vb, va: 0x18000000, size: 0x10000, page: large}\n",
                "        - {name: a, va: 0x20000000, size: 0x3000, page: small}\n"),
       {0x33000, 4, 0x40000, 0, 0xD000}, {0x33000, 4, 0x40000, 0, 0xD000}},
  };
  for (const Mix& mix : mixes) {
    SCOPED_TRACE(mix.what);
    const Config cfg = config_from(mix.yaml);
    const AddressSpaceImage on = build_address_space(cfg, true), off = build_address_space(cfg, false);
    for (const auto& [img, want] : {std::pair{&on, &mix.on}, std::pair{&off, &mix.off}}) {
      const Fragmentation& f = img->fragmentation;
      EXPECT_EQ(f.data_bytes, want->data_bytes);
      EXPECT_EQ(f.frames_used, want->frames_used);
      EXPECT_EQ(f.frame_bytes, want->frame_bytes);
      EXPECT_EQ(f.internal_bytes, want->internal_bytes);
      EXPECT_EQ(f.external_bytes, want->external_bytes);
      check_layout(cfg, *img, img == &on);
      check_walks(cfg, *img);
    }
  }
  // The last mix: identical allocation and page-table image either way.
  const Config cfg = config_from(mixes[2].yaml);
  const AddressSpaceImage on = build_address_space(cfg, true), off = build_address_space(cfg, false);
  ASSERT_EQ(on.pages.size(), off.pages.size());
  for (size_t i = 0; i < on.pages.size(); ++i) {
    EXPECT_EQ(on.pages[i].pa, off.pages[i].pa);
    EXPECT_EQ(on.pages[i].nested_flag, 0u);
    EXPECT_FALSE(on.pages[i].pa_nested);
  }
  ASSERT_EQ(on.pte_writes.size(), off.pte_writes.size());
  for (size_t i = 0; i < on.pte_writes.size(); ++i) {
    EXPECT_EQ(on.pte_writes[i].pa, off.pte_writes[i].pa);
    EXPECT_EQ(on.pte_writes[i].value, off.pte_writes[i].value);
  }
}

// With head placement a large page's nested region is its head, where its
// own data lies, so nothing can nest into the free tail of its frame: a flag
// over the head would cut the large page's data off and let its VA tail
// reach the nested small pages' storage.
TEST(AddressSpaceMix, HeadPlacementNeverNestsPhysically) {
  const Config cfg = config_from(
      "memory: {channels: 1}\nmmu: {nested_placement: head}\n" +
      two_apps("        - {name: tex, va: 0x10000000, size: 0x18000, page: large}\n",
               "        - {name: a, va: 0x20000000, size: 0x6000, page: small}\n").substr(std::string("memory: {channels: 1}\n").size()));
  ASSERT_EQ(cfg.mmu.nested_placement, NestedPlacement::kHead);
  const AddressSpaceImage on = build_address_space(cfg, true), off = build_address_space(cfg, false);
  for (const auto* img : {&on, &off}) {
    for (const PageMapping& m : img->pages) {
      EXPECT_FALSE(m.pa_nested) << hex(m.va);
      EXPECT_EQ(m.nested_flag, 0u) << hex(m.va);
    }
    EXPECT_EQ(img->fragmentation.frames_used, 3u);
    check_layout(cfg, *img, img == &on);
    check_walks(cfg, *img);
  }
}

// ---------------------------------------------------------------- config errors

// Application a's regions start on line 9; `more` follows them (a second
// application from line 10 on, or more sections).
std::string space(const std::string& regions, const std::string& more = "") {
  return "memory: {channels: 1}\n"  // 1
         "address_space:\n"         // 2
         "  va_bits: 32\n"          // 3
         "  applications:\n"        // 4
         "    - name: a\n"          // 5
         "      process: 1\n"       // 6
         "      task_type: 1\n"          // 7
         "      regions:\n" +       // 8
         regions + more;
}
const std::string kBig = "        - {name: big, va: 0x10000000, size: 0x18000, page: large}\n";
std::string app_b(const std::string& name, unsigned process, const std::string& region) {
  return "    - name: " + name + "\n      process: " + std::to_string(process) + "\n      task_type: 2\n      regions:\n" + region;
}

TEST(AddressSpaceConfig, RejectionsNameFileLineAndKey) {
  const BadConfig cases[] = {
      {"two small regions overlap",
       space("        - {name: s1, va: 0x20000000, size: 0x3000, page: small}\n"
             "        - {name: s2, va: 0x20002000, size: 0x1000, page: small}\n"),
       9, "address_space.applications[0].regions[0]", "region 's1' overlaps region 's2' in the virtual address space"},
      {"a small region over another application's large data",
       space(kBig, app_b("b", 2, "        - {name: s, va: 0x10004000, size: 0x1000, page: small}\n")),
       14, "address_space.applications[1].regions[0]", "region 's' overlaps region 'big'"},
      {"a small region in the tail but below the largest nested region",
       space("        - {name: big, va: 0x10000000, size: 0x14000, page: large}\n"
             "        - {name: s, va: 0x10016000, size: 0x1000, page: small}\n"),
       10, "address_space.applications[0].regions[1]", "within the largest nested region of 8 small pages"},
      {"two large regions overlap",
       space(kBig + "        - {name: big2, va: 0x10010000, size: 0x10000, page: large}\n"),
       9, "address_space.applications[0].regions[0]", "region 'big' overlaps region 'big2'"},
      {"large region VA not 64 KB aligned",
       space("        - {name: big, va: 0x10008000, size: 0x10000, page: large}\n"),
       9, "address_space.applications[0].regions[0].va", "must be aligned to its page size (65536 bytes)"},
      {"small region VA not 4 KB aligned",
       space("        - {name: s, va: 0x20000800, size: 0x1000, page: small}\n"),
       9, "address_space.applications[0].regions[0].va", "must be aligned to its page size (4096 bytes)"},
      {"region past va_bits",
       space("        - {name: big, va: 0xFFFF0000, size: 0x20000, page: large}\n"),
       9, "address_space.applications[0].regions[0]", "reaches past the 32-bit virtual address space"},
      {"duplicate process id",
       space(kBig, app_b("b", 1, "        - {name: s, va: 0x20000000, size: 0x1000, page: small}\n")),
       11, "address_space.applications[1].process", "process id 1 already belongs to 'a'"},
      {"duplicate application name",
       space(kBig, app_b("a", 2, "        - {name: s, va: 0x20000000, size: 0x1000, page: small}\n")),
       10, "address_space.applications[1].name", "application 'a' declared twice"},
      {"duplicate region name across applications",
       space(kBig, app_b("b", 2, "        - {name: big, va: 0x20000000, size: 0x1000, page: small}\n")),
       14, "address_space.applications[1].regions[0].name", "region 'big' declared twice"},
      {"nest_into a small region",
       space("        - {name: s1, va: 0x20000000, size: 0x1000, page: small}\n"
             "        - {name: s2, va: 0x30000000, size: 0x1000, page: small, nest_into: s1}\n"),
       10, "address_space.applications[0].regions[1].nest_into", "'s1' is not a large-page region"},
      {"nest_into a region that does not exist",
       space(kBig + "        - {name: s, va: 0x30000000, size: 0x1000, page: small, nest_into: nowhere}\n"),
       10, "address_space.applications[0].regions[1].nest_into", "'nowhere' is not a large-page region"},
      {"nest_into with nesting off",
       space(kBig + "        - {name: s, va: 0x30000000, size: 0x1000, page: small, nest_into: big}\n", "  nesting: false\n"),
       10, "address_space.applications[0].regions[1].nest_into", "needs address_space.nesting: true"},
      {"nest_into with head placement",
       space(kBig + "        - {name: s, va: 0x30000000, size: 0x1000, page: small, nest_into: big}\n",
             "mmu: {nested_placement: head}\n"),
       10, "address_space.applications[0].regions[1].nest_into", "needs mmu.nested_placement: tail"},
      {"nest_into on a large region",
       space(kBig + "        - {name: big2, va: 0x30000000, size: 0x10000, page: large, nest_into: big}\n"),
       10, "address_space.applications[0].regions[1].nest_into", "only a small-page region nests"},
      {"small region in a VA tail with head placement",
       space(kBig + "        - {name: s, va: 0x1001E000, size: 0x1000, page: small}\n", "mmu: {nested_placement: head}\n"),
       10, "address_space.applications[0].regions[1]", "needs mmu.nested_placement: tail"},
      {"workload process with no application",
       space(kBig, "workload:\n  - {kind: strided, process: 5, base: 0x10000000, count: 4}\n"),
       11, "workload[0].process", "no application has process id 5"},
      {"workload with a task type and an address space",
       space(kBig, "workload:\n  - {kind: strided, task_type: 1, process: 1, base: 0x10000000, count: 4}\n"),
       11, "workload[0].task_type", "with an address space the task type comes from the page tables"},
      {"generator runs off its application's region",
       space(kBig, "workload:\n  - {kind: strided, process: 1, base: 0x10000000, stride: 64, count: 2000}\n"),
       11, "workload[0]", "touches VA 0x10018000, which no region of application 'a' maps"},
      {"generator in another application's region",
       space(kBig, app_b("b", 2, "        - {name: s, va: 0x20000000, size: 0x1000, page: small}\n") +
                       "workload:\n  - {kind: random, process: 2, base: 0x10000000, range: 0x1000}\n"),
       16, "workload[0]", "touches VA 0x10000000, which no region of application 'b' maps"},
      {"before_mmu without an address space",
       "memory: {channels: 1}\ntranslator:\n  position: before_mmu\n", 3, "translator.position",
       "before_mmu needs an address_space section"},
      {"TLB ways that do not divide the entries",
       space(kBig, "mmu:\n  tlb: {entries: 32, ways: 5}\n"), 11, "mmu.tlb.ways", "5 ways do not divide 32 entries"},
      {"tree-PLRU with 3 ways",
       space(kBig, "mmu:\n  tlb: {entries: 12, ways: 3, replacement: plru}\n"), 11, "mmu.tlb.ways",
       "tree-PLRU needs a power-of-two number of ways"},
      {"one page size with an address space",
       space(kBig, "mmu:\n  page_sizes: [4096]\n"), 11, "mmu.page_sizes",
       "an address space needs two page sizes"},
      {"large page too small for the 32 KB nested flag",
       space(kBig, "mmu:\n  page_sizes: [4096, 32768]\n"), 11, "mmu.page_sizes",
       "the large page must hold at least 16 small pages"},
  };
  for (const auto& c : cases) EXPECT_TRUE(rejected_as(c)) << c.what;
}

// Errors only the allocator can see name the region too.
TEST(AddressSpaceConfig, AllocatorErrorsNameTheRegion) {
  struct Case {
    const char* what;
    std::string yaml;
    int line;
    const char* key;
    const char* message;
  } cases[] = {
      // fb's last page holds 9 small pages of data; a small page at unit 10
      // would need the 8-page nested region (units 8-15), over that data.
      {"VA-nested small region needs a nested region over the large data",
       space("        - {name: fb, va: 0x10000000, size: 0x19000, page: large}\n"
             "        - {name: s, va: 0x1001A000, size: 0x1000, page: small}\n"),
       10, "address_space.applications[0].regions[1]", "would cover that region's data"},
      {"nest_into a tail with no room left",
       space("        - {name: fb, va: 0x10000000, size: 0x1C000, page: large}\n"
             "        - {name: s, va: 0x20000000, size: 0x5000, page: small, nest_into: fb}\n"),
       10, "address_space.applications[0].regions[1]", "no room left in the tails of 'fb'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Config cfg;
    ASSERT_NO_THROW(cfg = parse_config(c.yaml, "name.yaml")) << "the config itself is fine";
    try {
      build_address_space(cfg, true);
      ADD_FAILURE() << "allocated";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "name.yaml");
      EXPECT_EQ(e.line(), c.line);
      EXPECT_EQ(e.key(), c.key);
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

// ---------------------------------------------------------------- page tables and data rows

// Issue 8, case 2: with 3 channels and 2 KB granules a row is 6 KB, so the row
// holding the last data granule (PA 0xF800) reached into the first page-table
// frame, and the prime scheme moved that granule onto the root table. The
// tables now start past that row; with channel bits they follow the data.
TEST(AddressSpaceLayout, PageTablesShareNoRowOfGranulesWithData) {
  const std::string region = "address_space:\n  applications:\n"
                             "    - {name: a, process: 0, task_type: 0, regions: [{name: r, va: 0x10000, size: 0x10000, page: large}]}\n";
  struct Case {
    std::string translator;
    unsigned channels;
    uint64_t page_table_base;
  } cases[] = {
      {"translator: {granule_bytes: 2048, prime: 5, default_scheme: prime}\n", 3, 0x20000},  // row 10 = 0xF000-0x107FF
      {"translator: {granule_bytes: 4096}\n", 5, 0x20000},   // rows of 20 KB: 0xF000-0x13FFF
      {"translator: {granule_bytes: 65536}\n", 3, 0x30000},  // the row is frames 0-2
      {"translator: {channel_bits: [8, 9]}\n", 4, 0x10000},   // rows inside pages: no gap
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.translator);
    const Config cfg = config_from("memory: {address_bits: 32, channels: " + std::to_string(c.channels) + "}\n" +
                                   c.translator + region);
    const AddressSpaceImage img = build_address_space(cfg, true);
    EXPECT_EQ(img.page_table_base, c.page_table_base);
    EXPECT_EQ(img.root, c.page_table_base) << "the root is the first table";
    ASSERT_FALSE(img.pte_writes.empty());
    if (!cfg.bit_interleaved()) {
      const uint64_t row = c.channels * cfg.granule_bytes();
      EXPECT_GE(img.pte_writes.front().pa / row * row, uint64_t{0x10000}) << "a table shares a row with data";
    }
    check_walks(cfg, img);
  }
}

// ---------------------------------------------------------------- before-MMU firmware

std::string before_mmu(const std::string& regions) {
  return "memory: {channels: 1}\ntranslator: {position: before_mmu}\n"  // 1-2
         "address_space:\n  applications:\n    - name: a\n      process: 3\n      task_type: 1\n      regions:\n" +  // 3-8
         regions;
}

TEST(AddressSpaceFirmware, BeforeMmuRegionsWithTheirOwnTaskGetAVaRange) {
  const Config cfg = config_from(before_mmu(
      "        - {name: big, va: 0x10000000, size: 0x18000, page: large}\n"
      "        - {name: own, va: 0x20000000, size: 0x2800, page: small, task_type: 7}\n"
      "        - {name: same, va: 0x30000000, size: 0x1000, page: small, task_type: 1}\n"));
  const AddressSpaceImage img = build_address_space(cfg, true);
  RegisterBank bank(register_params(cfg));
  program_registers(cfg, &img, [&](uint32_t off, uint32_t v) { return bank.write(off, 4, v) == RegStatus::kOk; });

  const TranslatorRegisters& t = bank.translator_registers();
  EXPECT_EQ(t.task_for(3, 0x2000'0000, 12), 7u);
  EXPECT_EQ(t.task_for(3, 0x2000'27FF, 12), 7u);
  EXPECT_EQ(t.task_for(3, 0x2000'2FFF, 12), 7u) << "the range covers the region's last page whole";
  EXPECT_EQ(t.task_for(3, 0x2000'3000, 12), 1u);
  EXPECT_EQ(t.task_for(3, 0x1FFF'FFFF, 12), 1u);
  EXPECT_EQ(t.task_for(3, 0x1000'0000, 12), 1u) << "the application's own task type";
  EXPECT_EQ(t.task_for(3, 0x3000'0000, 12), 1u);
  // One range only: a region with the application's task type takes none.
  uint32_t v = 0;
  ASSERT_EQ(bank.read(kRegVaRangeStart, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0x20000u);
  ASSERT_EQ(bank.read(kRegVaRangeEnd, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0x20003u);
  ASSERT_EQ(bank.read(kRegVaRangeTask, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, kVaRangeEnable | 7u);
  ASSERT_EQ(bank.read(kRegVaRangeTask + 4, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0u);
  // And the rest of the MMU's registers.
  EXPECT_EQ(bank.mmu_registers().pt_root, img.root);
  EXPECT_EQ(bank.mmu_registers().invalidations, 1u);
  EXPECT_EQ(t.process_task[3], 1u);
  EXPECT_NE(bank.ctrl() & kCtrlTranslatorPosition, 0u);

  // After the MMU the same address space needs no VA range.
  Config after = cfg;
  after.translator.position = TranslatorPosition::kAfterMmu;
  RegisterBank bank2(register_params(after));
  program_registers(after, &img, [&](uint32_t off, uint32_t val) { return bank2.write(off, 4, val) == RegStatus::kOk; });
  EXPECT_EQ(bank2.translator_registers().task_for(3, 0x2000'0000, 12), 1u);
}

TEST(AddressSpaceFirmware, MoreThanEightOwnTaskRegionsIsAnInputError) {
  auto regions = [](unsigned n) {
    std::string r;
    for (unsigned i = 0; i < n; ++i)
      r += "        - {name: r" + std::to_string(i) + ", va: " + hex(0x2000'0000 + i * 0x10'0000) +
           ", size: 0x1000, page: small, task_type: " + std::to_string(2 + i) + "}\n";
    return r;
  };
  {
    const Config cfg = config_from(before_mmu(regions(8)));
    const AddressSpaceImage img = build_address_space(cfg, true);
    RegisterBank bank(register_params(cfg));
    program_registers(cfg, &img, [&](uint32_t off, uint32_t v) { return bank.write(off, 4, v) == RegStatus::kOk; });
    for (unsigned i = 0; i < 8; ++i)
      EXPECT_EQ(bank.translator_registers().task_for(3, 0x2000'0000 + i * 0x10'0000, 12), 2u + i) << i;
  }
  // The ninth is refused when the config loads, at that region's line.
  EXPECT_TRUE(input_error_at([&] { config_from(before_mmu(regions(9))); }, "test.yaml", 17,
                             "address_space.applications[0].regions[8].task_type", "all 8 are taken"));
}

}  // namespace
}  // namespace gpumem::test
