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
  unsigned application, region_index;  // the region's, for PageMapping
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

// The allocation, one phase a method, in the order build_address_space
// calls them: each phase reads what the ones before it left.
class Allocator {
 public:
  Allocator(const AllocatorParams& params, bool nesting)
      : params_(params),
        as_(params.address_space),
        geo_(params.geometry),
        S_(geo_.small_bytes()),
        L_(geo_.large_bytes()),
        U_(geo_.units_per_large()),
        nesting_(nesting),
        next_frame_(as_.pa_base) {
    img_.layout = PageTableLayout(geo_.small_bits, as_.va_bits);
  }

  // Every large page of every region gets a frame of its own, in order.
  void place_large_pages();
  // Small pages that sit in a large page's VA tail need a nested region there.
  void reserve_va_nested_regions();
  // Each small page nests in a large page's physical tail if it may, else
  // takes a unit of a frame of small pages.
  void place_small_pages();
  // The large pages' mappings, their nested flags covering both nestings.
  void map_large_pages();
  // Page tables, in frames of their own after the data.
  void build_page_tables();
  AddressSpaceImage take() { return std::move(img_); }

 private:
  [[noreturn]] void fail(const RegionConfig* r, const std::string& msg) const {
    throw InputError(params_.source, r->line, as_.region_key(r), msg);
  }

  const AllocatorParams& params_;
  const AddressSpaceConfig& as_;
  const PageGeometry geo_;
  const uint64_t S_, L_;
  const unsigned U_;
  const bool nesting_;
  uint64_t next_frame_;
  AddressSpaceImage img_;
  std::vector<LargePage> large_;
  std::unordered_map<uint64_t, size_t> large_by_vpn_;
  std::vector<SmallFrame> small_frames_;
};

void Allocator::place_large_pages() {
  Fragmentation& f = img_.fragmentation;
  for (unsigned a = 0; a < as_.applications.size(); ++a)
    for (unsigned r = 0; r < as_.applications[a].regions.size(); ++r) {
      const RegionConfig& reg = as_.applications[a].regions[r];
      f.data_bytes += reg.size;
      if (!reg.large_page) continue;
      for (uint64_t off = 0; off < reg.size; off += L_) {
        LargePage lp{reg.va + off, next_frame_, &reg, a, r, as_.applications[a].process, std::min(L_, reg.size - off), 0, 0, 0,
                     std::vector<bool>(U_)};
        lp.used_units = static_cast<unsigned>((lp.used_bytes + S_ - 1) / S_);
        next_frame_ += L_;
        large_by_vpn_[lp.va >> geo_.large_bits] = large_.size();
        large_.push_back(std::move(lp));
      }
    }
}

void Allocator::reserve_va_nested_regions() {
  for (const auto& app : as_.applications)
    for (const auto& reg : app.regions) {
      if (reg.large_page) continue;
      for (uint64_t off = 0; off < reg.size; off += S_) {
        const auto it = large_by_vpn_.find((reg.va + off) >> geo_.large_bits);
        if (it == large_by_vpn_.end()) continue;
        LargePage& lp = large_[it->second];
        const unsigned need = ceil_pow2(U_ - geo_.unit_in_large(reg.va + off));
        if (need > 8 || need > U_ - lp.used_units)
          fail(&reg, "a nested region of " + std::to_string(need) + " small pages in '" + lp.region->name +
                         "' would cover that region's data or exceed the largest nested flag (1000)");
        lp.va_units = std::max(lp.va_units, need);
      }
    }
  // Only the tail placement can take small pages physically: with the head
  // placement the nested region is the large page's own data, and a flag
  // over it would let the large page's VA tail reach the nested pages.
  const bool physical = nesting_ && geo_.placement == NestedPlacement::kTail;
  for (LargePage& lp : large_) lp.cap = physical ? std::min(8u, floor_pow2(U_ - lp.used_units)) : 0;
}

void Allocator::place_small_pages() {
  Fragmentation& f = img_.fragmentation;
  // Units are only ever taken, so a tail once full stays full: per nest_into
  // filter, the large pages before its cursor have no free unit for it, and
  // every small frame but the last is full. First fit as if from the start,
  // without rescanning (a region of a million small pages stays linear).
  std::map<std::string, size_t> tail_cursor;
  for (unsigned a = 0; a < as_.applications.size(); ++a)
    for (unsigned r = 0; r < as_.applications[a].regions.size(); ++r) {
      const ApplicationConfig& app = as_.applications[a];
      const RegionConfig& reg = app.regions[r];
      if (reg.large_page) continue;
      for (uint64_t off = 0; off < reg.size; off += S_) {
        PageMapping m;
        m.va = reg.va + off;
        m.task_type = reg.task_type;
        m.process = app.process;
        m.writable = reg.writable;
        m.application = a;
        m.region = r;
        m.va_nested = large_by_vpn_.count(m.va >> geo_.large_bits) != 0;
        ++f.small_pages;
        f.internal_bytes += S_ - std::min(S_, reg.size - off);
        // Nest physically: the highest free unit of the first tail with room.
        bool placed = false;
        size_t& cursor = tail_cursor[reg.nest_into];
        for (size_t i = cursor; nesting_ && i < large_.size(); ++i) {
          LargePage& lp = large_[i];
          if (reg.nest_into.empty() || lp.region->name == reg.nest_into)
            for (unsigned u = U_; !placed && u-- > U_ - lp.cap;)
              if (!lp.taken[u]) {
                lp.taken[u] = true;
                m.pa = lp.pa + u * S_;
                placed = m.pa_nested = true;
              }
          if (placed) break;
          if (i == cursor) ++cursor;  // no room here for this filter, now or later
        }
        if (!placed && nesting_ && !reg.nest_into.empty())
          fail(&reg, "no room left in the tails of '" + reg.nest_into + "' for the small page at VA " + hex(m.va));
        if (!placed) {
          if (!small_frames_.empty()) {
            SmallFrame& fr = small_frames_.back();
            for (unsigned u = 0; !placed && u < U_; ++u)
              if (!fr.taken[u]) fr.taken[u] = true, m.pa = fr.pa + u * S_, placed = true;
          }
          if (!placed) {
            small_frames_.push_back({next_frame_, std::vector<bool>(U_)});
            next_frame_ += L_;
            small_frames_.back().taken[0] = true;
            m.pa = small_frames_.back().pa;
          }
        }
        f.nested_small_pages += m.pa_nested;
        img_.pages.push_back(m);
      }
    }
}

void Allocator::map_large_pages() {
  Fragmentation& f = img_.fragmentation;
  for (LargePage& lp : large_) {
    unsigned lowest = U_;
    for (unsigned u = 0; u < U_; ++u)
      if (lp.taken[u]) lowest = std::min(lowest, u);
    const unsigned units = std::max(lp.va_units, ceil_pow2(U_ - lowest));
    PageMapping m;
    m.va = lp.va;
    m.pa = lp.pa;
    m.large_page = true;
    m.task_type = lp.region->task_type;
    m.process = lp.process;
    m.writable = lp.region->writable;
    m.application = lp.application;
    m.region = lp.region_index;
    m.nested_flag = static_cast<uint8_t>(units);  // units 1, 2, 4, 8 are the one-hot flags 0001 .. 1000
    img_.pages.push_back(m);
    ++f.large_pages;
    const uint64_t nested_bytes = std::count(lp.taken.begin(), lp.taken.end(), true) * S_;
    f.internal_bytes += L_ - lp.used_bytes - nested_bytes;
  }
  f.frames_used = large_.size() + small_frames_.size();
  f.frame_bytes = f.frames_used * L_;
  for (const SmallFrame& fr : small_frames_) f.external_bytes += std::count(fr.taken.begin(), fr.taken.end(), false) * S_;
}

void Allocator::build_page_tables() {
  Fragmentation& f = img_.fragmentation;
  // Page tables are not mapped, data is: with a non-power-of-two channel
  // count a row of N granules crosses pages and the prime scheme permutes
  // it, so the tables start past the row holding the last data byte and no
  // mapping can move data onto them.
  if (!params_.bit_interleaved) {
    const unsigned __int128 row = (unsigned __int128)params_.channels * params_.granule_bytes;
    unsigned __int128 start = (next_frame_ + row - 1) / row * row;
    start = (start + L_ - 1) / L_ * L_;
    if (start >> 64)
      throw InputError(params_.source, 0, "address_space", "the page tables would start past 2^64: more than memory.address_bits holds");
    next_frame_ = static_cast<uint64_t>(start);
  }
  img_.page_table_base = next_frame_;
  const PageTableLayout& lay = img_.layout;
  const unsigned levels = lay.levels();
  uint64_t table_frame = next_frame_, tables_in_frame = U_;
  auto new_table = [&]() {
    if (tables_in_frame == U_) table_frame = next_frame_, next_frame_ += L_, tables_in_frame = 0;
    f.page_table_bytes += S_;
    return table_frame + S_ * tables_in_frame++;
  };
  std::map<uint64_t, uint64_t> entries;                   // PTE address -> value
  std::map<std::pair<unsigned, uint64_t>, uint64_t> tables;  // (level, VA prefix) -> table PA
  img_.root = new_table();
  auto leaf_slot = [&](uint64_t va) {
    uint64_t table = img_.root;
    for (unsigned level = 0; level + 1 < levels; ++level) {
      const uint64_t slot = table + uint64_t{lay.index(va, level)} * kPteBytes;
      const auto key = std::make_pair(level + 1, va >> lay.shift(level));
      auto it = tables.find(key);
      if (it == tables.end()) {
        it = tables.emplace(key, new_table()).first;
        Pte dir;
        dir.valid = dir.directory = true;
        dir.pfn = it->second >> geo_.small_bits;
        entries[slot] = dir.encode();
      }
      table = it->second;
    }
    return table + uint64_t{lay.index(va, levels - 1)} * kPteBytes;
  };
  for (const PageMapping& m : img_.pages) {
    Pte p;
    p.valid = p.readable = true;
    p.writable = m.writable;
    p.large_page = m.large_page;
    p.nested_flag = m.nested_flag;
    p.task_type = static_cast<uint8_t>(m.task_type);
    p.pfn = m.pa >> geo_.small_bits;
    if (!m.large_page) {
      entries[leaf_slot(m.va)] = p.encode();
      continue;
    }
    for (unsigned u = 0; u < U_; ++u) {
      const uint64_t va = m.va + u * S_;
      if (!geo_.in_nested_region(va, p.nested_flag)) entries[leaf_slot(va)] = p.encode();
    }
  }
  img_.pa_end = next_frame_;
  if (params_.address_bits < 64 && img_.pa_end > (uint64_t{1} << params_.address_bits))
    throw InputError(params_.source, 0, "address_space",
                     "the allocation needs " + std::to_string(img_.pa_end) + " bytes of physical memory, more than memory.address_bits holds");
  for (const auto& [pa, v] : entries) img_.pte_writes.push_back({pa, v});
}

}  // namespace

AddressSpaceImage build_address_space(const AllocatorParams& params, bool nesting) {
  Allocator a(params, nesting);
  a.place_large_pages();
  a.reserve_va_nested_regions();
  a.place_small_pages();
  a.map_large_pages();
  a.build_page_tables();
  return a.take();
}

}  // namespace gpumem
