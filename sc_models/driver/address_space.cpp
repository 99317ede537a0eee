#include "driver/address_space.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "base/bits.hpp"
#include "base/hex.hpp"
#include "base/input_error.hpp"

namespace gpumem {

namespace {

unsigned floor_pow2(unsigned x) { return x ? 1u << (31 - __builtin_clz(x)) : 0; }
unsigned ceil_pow2(unsigned x) { return x <= 1 ? x : 1u << (32 - __builtin_clz(x - 1)); }

struct LargePage {
  uint64_t va, pa;
  const RegionConfig* region;
  unsigned process;
  uint64_t used_bytes;
  unsigned used_units;
  unsigned cap = 0;        // units the allocator may nest physically
  unsigned va_units = 0;   // nested region the VA-nested small pages need
  std::vector<bool> taken;  // physical tail units given to small pages
};

struct SmallFrame {
  uint64_t pa;
  std::vector<bool> taken;
};


}  // namespace

AddressSpaceImage build_address_space(const AllocatorParams& params, bool nesting) {
  const AddressSpaceConfig& as = *params.address_space;
  const PageGeometry geo = params.geometry;
  const uint64_t S = geo.small_bytes(), L = geo.large_bytes();
  const unsigned U = geo.units_per_large();
  AddressSpaceImage img;
  img.layout = PageTableLayout(geo.small_bits, as.va_bits);
  Fragmentation& f = img.fragmentation;
  auto fail = [&](const RegionConfig* r, const std::string& msg) -> void {
    throw InputError(params.source, r->line, as.region_key(r), msg);
  };

  uint64_t next_frame = as.pa_base;
  std::vector<LargePage> large;
  std::unordered_map<uint64_t, size_t> large_by_vpn;
  for (const auto& app : as.applications)
    for (const auto& reg : app.regions) {
      f.data_bytes += reg.size;
      if (!reg.large_page) continue;
      for (uint64_t off = 0; off < reg.size; off += L) {
        LargePage lp{reg.va + off, next_frame, &reg, app.process, std::min(L, reg.size - off), 0, 0, 0, std::vector<bool>(U)};
        lp.used_units = static_cast<unsigned>((lp.used_bytes + S - 1) / S);
        next_frame += L;
        large_by_vpn[lp.va >> geo.large_bits] = large.size();
        large.push_back(std::move(lp));
      }
    }

  // Small pages that sit in a large page's VA tail need a nested region there.
  for (const auto& app : as.applications)
    for (const auto& reg : app.regions) {
      if (reg.large_page) continue;
      for (uint64_t off = 0; off < reg.size; off += S) {
        const auto it = large_by_vpn.find((reg.va + off) >> geo.large_bits);
        if (it == large_by_vpn.end()) continue;
        LargePage& lp = large[it->second];
        const unsigned need = ceil_pow2(U - geo.unit_in_large(reg.va + off));
        if (need > 8 || need > U - lp.used_units)
          fail(&reg, "a nested region of " + std::to_string(need) + " small pages in '" + lp.region->name +
                         "' would cover that region's data or exceed the largest nested flag (1000)");
        lp.va_units = std::max(lp.va_units, need);
      }
    }
  // Only the tail placement can take small pages physically: with the head
  // placement the nested region is the large page's own data, and a flag
  // over it would let the large page's VA tail reach the nested pages.
  const bool physical = nesting && geo.placement == NestedPlacement::kTail;
  for (LargePage& lp : large) lp.cap = physical ? std::min(8u, floor_pow2(U - lp.used_units)) : 0;

  std::vector<SmallFrame> small_frames;
  // Units are only ever taken, so a tail once full stays full: per nest_into
  // filter, the large pages before its cursor have no free unit for it, and
  // every small frame but the last is full. First fit as if from the start,
  // without rescanning (a region of a million small pages stays linear).
  std::map<std::string, size_t> tail_cursor;
  for (const auto& app : as.applications)
    for (const auto& reg : app.regions) {
      if (reg.large_page) continue;
      for (uint64_t off = 0; off < reg.size; off += S) {
        PageMapping m;
        m.va = reg.va + off;
        m.task_type = reg.task_type;
        m.process = app.process;
        m.writable = reg.writable;
        m.region = &reg;
        m.va_nested = large_by_vpn.count(m.va >> geo.large_bits) != 0;
        ++f.small_pages;
        f.internal_bytes += S - std::min(S, reg.size - off);
        // Nest physically: the highest free unit of the first tail with room.
        bool placed = false;
        size_t& cursor = tail_cursor[reg.nest_into];
        for (size_t i = cursor; nesting && i < large.size(); ++i) {
          LargePage& lp = large[i];
          if (reg.nest_into.empty() || lp.region->name == reg.nest_into)
            for (unsigned u = U; !placed && u-- > U - lp.cap;)
              if (!lp.taken[u]) {
                lp.taken[u] = true;
                m.pa = lp.pa + u * S;
                placed = m.pa_nested = true;
              }
          if (placed) break;
          if (i == cursor) ++cursor;  // no room here for this filter, now or later
        }
        if (!placed && nesting && !reg.nest_into.empty())
          fail(&reg, "no room left in the tails of '" + reg.nest_into + "' for the small page at VA " + hex(m.va));
        if (!placed) {
          if (!small_frames.empty()) {
            SmallFrame& fr = small_frames.back();
            for (unsigned u = 0; !placed && u < U; ++u)
              if (!fr.taken[u]) fr.taken[u] = true, m.pa = fr.pa + u * S, placed = true;
          }
          if (!placed) {
            small_frames.push_back({next_frame, std::vector<bool>(U)});
            next_frame += L;
            small_frames.back().taken[0] = true;
            m.pa = small_frames.back().pa;
          }
        }
        f.nested_small_pages += m.pa_nested;
        img.pages.push_back(m);
      }
    }

  for (LargePage& lp : large) {
    unsigned lowest = U;
    for (unsigned u = 0; u < U; ++u)
      if (lp.taken[u]) lowest = std::min(lowest, u);
    const unsigned units = std::max(lp.va_units, ceil_pow2(U - lowest));
    PageMapping m;
    m.va = lp.va;
    m.pa = lp.pa;
    m.large_page = true;
    m.task_type = lp.region->task_type;
    m.process = lp.process;
    m.writable = lp.region->writable;
    m.region = lp.region;
    m.nested_flag = static_cast<uint8_t>(units);  // units 1, 2, 4, 8 are the one-hot flags 0001 .. 1000
    img.pages.push_back(m);
    ++f.large_pages;
    const uint64_t nested_bytes = std::count(lp.taken.begin(), lp.taken.end(), true) * S;
    f.internal_bytes += L - lp.used_bytes - nested_bytes;
  }
  f.frames_used = large.size() + small_frames.size();
  f.frame_bytes = f.frames_used * L;
  for (const SmallFrame& fr : small_frames) f.external_bytes += std::count(fr.taken.begin(), fr.taken.end(), false) * S;

  // Page tables, in frames of their own after the data. Page tables are not
  // mapped, data is: with a non-power-of-two channel count a row of N granules
  // crosses pages and the prime scheme permutes it, so the tables start past
  // the row holding the last data byte and no mapping can move data onto them.
  if (!params.bit_interleaved) {
    const unsigned __int128 row = (unsigned __int128)params.channels * params.granule_bytes;
    unsigned __int128 start = (next_frame + row - 1) / row * row;
    start = (start + L - 1) / L * L;
    if (start >> 64)
      throw InputError(params.source, 0, "address_space", "the page tables would start past 2^64: more than memory.address_bits holds");
    next_frame = static_cast<uint64_t>(start);
  }
  img.page_table_base = next_frame;
  const PageTableLayout& lay = img.layout;
  const unsigned levels = lay.levels();
  uint64_t table_frame = next_frame, tables_in_frame = U;
  auto new_table = [&]() {
    if (tables_in_frame == U) table_frame = next_frame, next_frame += L, tables_in_frame = 0;
    f.page_table_bytes += S;
    return table_frame + S * tables_in_frame++;
  };
  std::map<uint64_t, uint64_t> entries;                   // PTE address -> value
  std::map<std::pair<unsigned, uint64_t>, uint64_t> tables;  // (level, VA prefix) -> table PA
  img.root = new_table();
  auto leaf_slot = [&](uint64_t va) {
    uint64_t table = img.root;
    for (unsigned level = 0; level + 1 < levels; ++level) {
      const uint64_t slot = table + uint64_t{lay.index(va, level)} * kPteBytes;
      const auto key = std::make_pair(level + 1, va >> lay.shift(level));
      auto it = tables.find(key);
      if (it == tables.end()) {
        it = tables.emplace(key, new_table()).first;
        Pte dir;
        dir.valid = dir.directory = true;
        dir.pfn = it->second >> geo.small_bits;
        entries[slot] = dir.encode();
      }
      table = it->second;
    }
    return table + uint64_t{lay.index(va, levels - 1)} * kPteBytes;
  };
  for (const PageMapping& m : img.pages) {
    Pte p;
    p.valid = p.readable = true;
    p.writable = m.writable;
    p.large_page = m.large_page;
    p.nested_flag = m.nested_flag;
    p.task_type = static_cast<uint8_t>(m.task_type);
    p.pfn = m.pa >> geo.small_bits;
    if (!m.large_page) {
      entries[leaf_slot(m.va)] = p.encode();
      continue;
    }
    for (unsigned u = 0; u < U; ++u) {
      const uint64_t va = m.va + u * S;
      if (!geo.in_nested_region(va, p.nested_flag)) entries[leaf_slot(va)] = p.encode();
    }
  }
  img.pa_end = next_frame;
  if (params.address_bits < 64 && img.pa_end > (uint64_t{1} << params.address_bits))
    throw InputError(params.source, 0, "address_space",
                     "the allocation needs " + std::to_string(img.pa_end) + " bytes of physical memory, more than memory.address_bits holds");
  for (const auto& [pa, v] : entries) img.pte_writes.push_back({pa, v});
  return img;
}

}  // namespace gpumem
