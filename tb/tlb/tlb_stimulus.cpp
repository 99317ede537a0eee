#include "tb/tlb/tlb_stimulus.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "params/block_params.hpp"
#include "mmu/mmu.hpp"

namespace gpumem::tb {

namespace {

// Every leaf gets a permission combination and, mostly, a frame number drawn
// across the whole PFN width; a handful become malformed. A large page's PTE
// stands in each of its leaf slots, so the new value is chosen per distinct
// leaf and written to every slot that holds it.
void roughen_leaves(AddressSpaceImage& image, const PageGeometry& geo, std::mt19937_64& rng) {
  const uint64_t pfn_mask = (uint64_t{1} << kPfnBits) - 1;
  const uint64_t large_align = geo.units_per_large() - 1;
  std::unordered_map<uint64_t, uint64_t> leaf;  // allocator's raw leaf -> the bench's
  std::vector<uint64_t> plain_large, small;      // candidates to malform, in PA order
  for (const PteWrite& w : image.pte_writes) {
    const Pte p = Pte::decode(w.value);
    if (!p.valid || p.directory || leaf.count(w.value)) continue;
    Pte q = p;
    const uint64_t r = rng();
    q.readable = r & 1;
    q.writable = (r >> 1) & 1;
    switch ((r >> 2) % 4) {
      case 0: case 1: q.pfn = rng() & pfn_mask; break;                 // anywhere in the PFN width
      case 2: q.pfn = pfn_mask - ((r >> 8) & 0xFFFFF); break;          // near the top
      default: break;                                                  // where the allocator put it
    }
    if (q.large_page) q.pfn &= ~large_align;
    leaf[w.value] = q.encode();
    if (p.large_page && p.nested_flag == 0) plain_large.push_back(w.value);
    if (!p.large_page) small.push_back(w.value);
  }
  // Spread the malformed ones over the regions: shuffle (Fisher-Yates with
  // the run's own generator, so one seed is one run on every library).
  for (std::vector<uint64_t>* v : {&plain_large, &small})
    for (size_t i = v->size(); i > 1; --i) std::swap((*v)[i - 1], (*v)[rng() % i]);
  size_t next = 0;
  auto spoil_large = [&](auto&& spoil) {
    if (next < plain_large.size()) {
      uint64_t& v = leaf[plain_large[next++]];
      v = spoil(v);
    }
  };
  for (uint64_t f = 3; f < 16; ++f)
    if (nested_units(static_cast<uint8_t>(f)) < 0)
      spoil_large([&](uint64_t v) { return (v & ~kPteNestedFlag.mask()) | kPteNestedFlag.put(f); });
  // Every reserved bit set (each must toggle on the TLB's PTE port), and the
  // all-ones frame: unaligned, and its PA carries into the PA port's top bit.
  spoil_large([&](uint64_t v) { return v | kPteReservedLow.mask(); });
  spoil_large([&](uint64_t v) { return v | kPteReservedHigh.mask(); });
  spoil_large([&](uint64_t v) { return v | kPtePfn.mask(); });
  for (size_t i = 0; i < std::min<size_t>(2, small.size()); ++i) {
    uint64_t& v = leaf[small[i]];
    v |= kPteNestedFlag.put(uint64_t{1} << (rng() % kPteNestedFlag.width));
  }
  for (PteWrite& w : image.pte_writes)
    if (const auto it = leaf.find(w.value); it != leaf.end()) w.value = it->second;
}

// The tables at a random physical base: every table frame and every
// directory entry's frame number moved by the same number of pages, so the
// walker reads PTEs across the PA width the PFN spans.
void move_tables(AddressSpaceImage& image, const PageGeometry& geo, std::mt19937_64& rng) {
  if (image.pte_writes.empty()) return;
  const unsigned sb = geo.small_bits;
  const uint64_t first = image.pte_writes.front().pa >> sb, last = image.pte_writes.back().pa >> sb;
  const uint64_t to = rng() % ((uint64_t{1} << kPfnBits) - (last - first + 1));
  auto moved = [&](uint64_t page) { return page - first + to; };
  for (PteWrite& w : image.pte_writes) {
    Pte p = Pte::decode(w.value);
    if (p.valid && p.directory) w.value = (w.value & ~kPtePfn.mask()) | kPtePfn.put(moved(p.pfn));
    w.pa = moved(w.pa >> sb) << sb | (w.pa & (geo.small_bytes() - 1));
  }
  image.root = moved(image.root >> sb) << sb;
  image.page_table_base = to << sb;
}

// Two size-alias pairs (TlbSizeAlias), each a one-page region of either
// size where no region is: a large page whose VPN L has (L >> d) and L in
// the same set (d = large_bits - small_bits), so that the small page at VA
// L << small_bits falls in L's set too.
void add_size_aliases(std::vector<RegionConfig>& regions, const PageGeometry& geo, unsigned va_bits, unsigned sets,
                      std::mt19937_64& rng, std::vector<TlbSizeAlias>& aliases) {
  const uint64_t S = geo.small_bytes(), L = geo.large_bytes();
  const unsigned d = geo.large_bits - geo.small_bits;
  const auto free = [&](uint64_t va, uint64_t bytes) {
    for (const RegionConfig& r : regions) {
      const uint64_t page = r.large_page ? L : S, end = r.va + (r.size + page - 1) / page * page;
      if (va < end && r.va < va + bytes) return false;
    }
    return true;
  };
  for (unsigned k = 0, tries = 0; k < 2 && tries < 100000; ++tries) {
    const uint64_t vpn = rng() & ((uint64_t{1} << (va_bits - geo.large_bits)) - 1);
    if (((vpn >> d) & (sets - 1)) != (vpn & (sets - 1))) continue;
    const uint64_t large_va = vpn << geo.large_bits, small_va = vpn << geo.small_bits;
    if (!free(large_va, L) || !free(small_va, S) || (small_va >= large_va && small_va < large_va + L)) continue;
    for (const bool large : {true, false}) {  // one page each, writable, any task type
      RegionConfig& r = regions.emplace_back();
      r.name = "alias" + std::to_string(k) + (large ? "" : "_small");
      r.task_type = static_cast<unsigned>(rng() % 16);
      r.writable = true;
      r.large_page = large;
      r.va = large ? large_va : small_va;
      r.size = large ? L : S;
    }
    aliases.push_back({large_va, small_va});
    ++k;
  }
}

}  // namespace

TlbBenchParams tlb_bench_params(const Config& cfg) { return {mmu_params(cfg), allocator_params(cfg)}; }

TlbPageTables random_page_tables(const TlbBenchParams& base, uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x7f4a7c15u);
  const PageGeometry geo = base.mmu.tlb.geometry;
  const uint64_t S = geo.small_bytes(), L = geo.large_bytes();
  const unsigned U = geo.units_per_large();
  const unsigned va_bits = base.mmu.va_bits;
  // 32 slots of the VA space, one region each (plus its nested small region):
  // regions never overlap, and their sets spread over the whole TLB.
  constexpr unsigned kSlots = 32;
  const uint64_t slot_bytes = uint64_t{1} << (va_bits - 5);
  // A region starts anywhere in its slot that leaves room for its largest
  // size (4 large pages and a nested tail): every VA bit of the slot is set
  // in some region (half the slot left the slot's top bit 0 in every fill).
  const uint64_t max_pages_in_slot = slot_bytes / L > 8 ? slot_bytes / L - 8 : 1;

  AllocatorParams allocator = base.allocator;
  AddressSpaceConfig& as = allocator.address_space;
  as.applications.clear();
  ApplicationConfig app;
  app.name = "cosim";
  for (unsigned r = 0; r < kSlots; ++r) {
    RegionConfig reg;
    reg.name = "r" + std::to_string(r);
    reg.task_type = r % 16;  // every task type, twice
    reg.writable = rng() % 4 != 0;
    reg.va = r * slot_bytes + (rng() % max_pages_in_slot) * L;
    if (r % 5 == 4) {  // a small region of its own
      reg.large_page = false;
      reg.size = (1 + rng() % 24) * S;
      app.regions.push_back(reg);
      continue;
    }
    reg.large_page = true;
    const unsigned pages = 1 + rng() % 4;
    const unsigned slack = rng() % U;  // unused small pages at the end of the last large page
    reg.size = pages * L - slack * S;
    app.regions.push_back(reg);
    // Small pages in that large page's VA tail: the allocator gives it a nested
    // flag of ceil_pow2(d) units, which must fit in the slack and in 1000.
    const unsigned cap = std::min(8u, slack);
    if (cap == 0 || rng() % 8 == 0) continue;
    unsigned room = 1;
    while (room * 2 <= cap) room *= 2;
    const unsigned d = 1 + rng() % room;
    RegionConfig nested;
    nested.name = reg.name + "_tail";
    nested.task_type = (r + 7) % 16;
    nested.writable = rng() % 2 != 0;
    nested.large_page = false;
    nested.va = reg.va + pages * L - d * S;
    nested.size = d * S;
    app.regions.push_back(nested);
  }
  TlbPageTables t;
  add_size_aliases(app.regions, geo, va_bits, base.mmu.tlb.entries / base.mmu.tlb.ways, rng, t.aliases);
  as.applications.push_back(app);
  as.present = true;

  for (bool nesting : {true, false}) {
    AddressSpaceImage& image = t.images.emplace_back(build_address_space(allocator, nesting));
    roughen_leaves(image, geo, rng);
    move_tables(image, geo, rng);
    SparseMemory& mem = t.memory.emplace_back();
    for (const PteWrite& w : t.images.back().pte_writes) mem.write_u64(w.pa, w.value);  // a later write to a PA wins
  }
  return t;
}

// VAs the way a GPU kernel touches them: mostly pages it used recently (TLB
// hits), new pages of the mapped regions (misses, evictions), the nested
// regions of flagged large pages on purpose, and a few unmapped VAs (faults);
// any byte of a page. And VAs no kernel means to touch: a recent VA with one
// tag bit flipped, the page an entry whose tag compare drops that bit would
// wrongly hit.
class TlbStimulus::VaSource {
 public:
  VaSource(const TlbPageTables& tables, const PageGeometry& geo, unsigned va_bits, std::vector<unsigned> tag_bits)
      : tables_(tables), geo_(geo), va_mask_((uint64_t{1} << va_bits) - 1), tag_bits_(std::move(tag_bits)) {}
  uint64_t next(std::mt19937_64& rng, unsigned image) {
    const uint64_t r = rng();
    const uint64_t small_mask = geo_.small_bytes() - 1;
    uint64_t va;
    if (r % 100 == 99 && !tables_.aliases.empty()) {  // a page of a size-alias pair, then again as a recent page
      const TlbSizeAlias& a = tables_.aliases[(r >> 16) % tables_.aliases.size()];
      va = (r >> 24) & 1 ? a.large_va + (rng() & (geo_.large_bytes() - 1)) : a.small_va + (rng() & small_mask);
      remember(r, va);
      return va;
    }
    if (r % 100 < 55 && !recent_.empty()) {
      va = (recent(r) & ~small_mask) | ((r >> 24) & small_mask);
      return va;
    }
    if (r % 100 < 58 && !recent_.empty())
      return recent(r) ^ (uint64_t{1} << tag_bits_[(r >> 32) % tag_bits_.size()]);
    if (r % 100 < 61) {
      va = rng() & va_mask_;
    } else {
      const auto& pages = tables_.images[image].pages;
      const PageMapping& m = pages[(r >> 8) % pages.size()];
      const unsigned U = geo_.units_per_large();
      uint64_t offset = rng() & (m.large_page ? geo_.large_bytes() - 1 : small_mask);
      const int units = nested_units(m.nested_flag);
      if (m.large_page && units > 0 && (r >> 40) % 3 == 0) {  // into the nested region on purpose
        const unsigned first = geo_.placement == NestedPlacement::kTail ? U - units : 0;
        offset = (offset & small_mask) + uint64_t{first + static_cast<unsigned>((r >> 44) % units)} * geo_.small_bytes();
      }
      va = m.va + offset;
    }
    remember(r, va);
    return va;
  }

 private:
  void remember(uint64_t r, uint64_t va) {
    if (recent_.size() < kRecent) recent_.push_back(va);
    else recent_[(r >> 32) % kRecent] = va;
  }
  uint64_t recent(uint64_t r) const {
    // A constant divisor once the list is full: a multiply, not a divide.
    return recent_[recent_.size() == kRecent ? (r >> 8) % kRecent : (r >> 8) % recent_.size()];
  }
  static constexpr size_t kRecent = 48;
  const TlbPageTables& tables_;
  PageGeometry geo_;
  uint64_t va_mask_;
  std::vector<unsigned> tag_bits_;
  std::vector<uint64_t> recent_;
};

// Walks by page-table image and small page, remembered: a walk depends on
// nothing else (the walker indexes with the VA bits above the small page),
// and the same pages are walked again after every eviction and flush, so a
// probe replaces several PTE reads. Open addressing, at most half full.
class TlbStimulus::WalkMemo {
 public:
  using Walk = Walked;
  const Walk* find(uint64_t key) const {
    for (size_t i = slot(key);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].key_plus_1 == key + 1) return &slots_[i].walk;
      if (slots_[i].key_plus_1 == 0) return nullptr;
    }
  }
  const Walk& insert(uint64_t key, const Walk& w) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    ++count_;
    return place(key, w);
  }

 private:
  struct Slot {
    uint64_t key_plus_1 = 0;  // 0: empty
    Walk walk;
  };
  size_t slot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15u) >> 40) & (slots_.size() - 1); }
  const Walk& place(uint64_t key, const Walk& w) {
    size_t i = slot(key);
    while (slots_[i].key_plus_1 != 0) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = {key + 1, w};
    return slots_[i].walk;
  }
  void grow() {
    std::vector<Slot> old(2 * slots_.size());
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.key_plus_1) place(s.key_plus_1 - 1, s.walk);
  }
  std::vector<Slot> slots_ = std::vector<Slot>(1024);
  size_t count_ = 0;
};

TlbStimulus::TlbStimulus(const TlbBenchParams& p, uint64_t seed, const TlbRandomRun& run, const TlbScoreboard& scoreboard,
                         uint64_t first_id)
    : run_(run),
      scoreboard_(scoreboard),
      rng_(seed),
      tables_(random_page_tables(p, seed)),
      geo_(p.mmu.tlb.geometry),
      walker_(tables_.images[0].layout, geo_),
      leaf_level_reads_(tables_.images[0].layout.levels()),
      walk_level_cycles_(p.mmu.walk_level_cycles),
      source_(std::make_unique<VaSource>(tables_, geo_, p.mmu.va_bits, tlb_tag_bits(p.mmu.tlb, p.mmu.va_bits))),
      walked_(std::make_unique<WalkMemo>()),
      slots_(std::max(1u, run.max_in_flight)),
      in_order_(slots_.size()),
      next_id_(first_id) {
  if (slots_.size() > 64) throw std::invalid_argument("TLB co-simulation: at most 64 translations in flight");
  in_state_[kFree] = slots_.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << slots_.size()) - 1;
}

TlbStimulus::~TlbStimulus() = default;

int TlbStimulus::choose_operation() {
  // A walk ends here rather than in observe: nothing else asks before.
  for (uint64_t w = in_state_[kWalking]; w; w &= w - 1) {
    const size_t i = static_cast<size_t>(__builtin_ctzll(w));
    if (slots_[i].walk_done <= edges_) set_state(i, kNeedFill);
  }
  for (uint64_t f = in_state_[kNeedFill]; f; f &= f - 1) {  // finished walks first: they free a slot
    const size_t i = static_cast<size_t>(__builtin_ctzll(f));
    const Translation& t = slots_[i];
    // Another translation filled this page meanwhile: look up again instead,
    // as an MMU's miss handling does (the TLB never holds a page twice).
    if (scoreboard_.cached(t.va, t.leaf.large_page)) {
      set_state(i, kNeedLookup);
      continue;
    }
    pins_.req_fill = true;
    pins_.req_va = t.va;
    pins_.req_pte = t.leaf_raw;
    return static_cast<int>(i);
  }
  if (const uint64_t l = in_state_[kNeedLookup]) {
    const size_t i = static_cast<size_t>(__builtin_ctzll(l));
    pins_.req_fill = false;
    pins_.req_va = slots_[i].va;
    return static_cast<int>(i);
  }
  return -1;
}

void TlbStimulus::abandon_all() {
  for (uint64_t busy = ~in_state_[kFree] & (slots_.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << slots_.size()) - 1);
       busy; busy &= busy - 1) {
    set_state(static_cast<size_t>(__builtin_ctzll(busy)), kFree);
    --started_;  // started again under a new id, so the run still finishes its count
  }
  while (!in_order_.empty()) in_order_.drop_front();
  held_ = -1;
}

const TlbPins& TlbStimulus::next() {
  const uint64_t r = r_ = rng_();
  // A reset in the middle of traffic: two cycles of rst_ni low, nothing else
  // driven. The operation on the pins is withdrawn; the translations in
  // flight are lost with the RTL's state (the scoreboard discards theirs).
  if (reset_cycles_left_ == 0 && started_ > 0 && (r >> 48) < run_.reset_per_65536) {
    reset_cycles_left_ = 2;
    abandon_all();
    ++counts_.resets;
  }
  if (reset_cycles_left_ > 0) {
    --reset_cycles_left_;
    pins_.reset = true;
    pins_.req_valid = pins_.flush = pins_.rsp_ready = false;
    context_ = {};
    return pins_;
  }
  pins_.reset = false;
  if (held_ < 0 && started_ < run_.transactions && (r & 0xFF) < run_.start_per_256) {
    if (const uint64_t free = in_state_[kFree]) {
      const size_t i = static_cast<size_t>(__builtin_ctzll(free));
      Translation& t = slots_[i] = Translation{};
      set_state(i, kNeedLookup);
      t.id = next_id_++;
      t.va = source_->next(rng_, image_);
      ++started_;
    }
  }
  if (held_ < 0) held_ = choose_operation();
  pins_.req_valid = held_ >= 0;
  pins_.rsp_ready = ((r >> 8) & 0xFF) < run_.rsp_ready_per_256;
  pins_.flush = ((r >> 16) & 0xFFFF) < run_.flush_per_65536;
  context_ = held_ >= 0 ? TlbOpContext{slots_[held_].id, slots_[held_].attempt, slots_[held_].walk_reads} : TlbOpContext{};
  return pins_;
}

const TlbStimulus::Walked& TlbStimulus::walk(uint64_t va) {
  const uint64_t key = (va >> geo_.small_bits) << 1 | image_;
  if (const Walked* known = walked_->find(key)) return *known;
  const SparseMemory& mem = tables_.memory[image_];
  const WalkResult w = walker_.walk(tables_.images[image_].root, va, [&mem](uint64_t pa) { return mem.read_u64(pa); });
  const Pte last = Pte::decode(w.last_pte);
  const bool malformed = w.fault == FaultReason::kPageTableError && w.reads == leaf_level_reads_ && last.valid &&
                         !last.directory;
  const Walked fresh{w.fault != FaultReason::kNone, malformed ? last : w.leaf, w.last_pte, w.reads, malformed};
  if (!fresh.fault || malformed) return walked_->insert(key, fresh);
  // Other faults are not kept: most are random unmapped VAs, rarely walked
  // twice, which would fill the memo with cache misses.
  last_fault_ = fresh;
  return last_fault_;
}

void TlbStimulus::observe(const TlbEdge& e) {
  ++edges_;
  if (e.rsp_taken) {
    if (in_order_.empty()) throw std::logic_error("TLB co-simulation: a response without an operation");
    const size_t i = in_order_.pop_front();
    Translation& t = slots_[i];
    if (e.rsp.fill) {
      set_state(i, kNeedLookup);
    } else if (e.rsp.result == TlbResult::kHitSmall || e.rsp.result == TlbResult::kHitLarge) {
      set_state(i, kFree);
      ++counts_.transactions;
    } else {
      // A miss, or a hit in a large page's nested region: walk (CN113836054A claim 6, S16).
      if (t.attempt > 8) throw std::logic_error("TLB co-simulation: translation " + std::to_string(t.id) + " never hits");
      const Walked& w = walk(t.va);
      ++counts_.walks;
      const bool leaf_owns_va = !(w.leaf.large_page && (e.rsp.result == TlbResult::kNested ||
                                                   geo_.in_nested_region(t.va, w.leaf.nested_flag)));
      const bool fill_malformed = w.malformed && leaf_owns_va && ((r_ >> 41) & 1);
      counts_.malformed_fills += fill_malformed;
      if ((w.fault && !fill_malformed) || !leaf_owns_va) {
        set_state(i, kFree);
        ++counts_.transactions;
        ++counts_.faults;
      } else {
        t.leaf = w.leaf;
        t.leaf_raw = w.raw;
        t.walk_reads = w.reads;
        t.walk_done = edges_ + std::max(1u, w.reads * walk_level_cycles_);
        set_state(i, kWalking);
      }
    }
  }
  if (e.req_accepted) {
    if (in_order_.size() == slots_.size()) throw std::logic_error("TLB co-simulation: more operations than translations");
    in_order_.push_back(static_cast<size_t>(held_));
    ++slots_[held_].attempt;
    set_state(static_cast<size_t>(held_), kWaitResponse);
    held_ = -1;
  }
  // A flush with a remap: the driver rewrote the page tables and invalidated
  // the TLB. Walks in flight finish with the old leaves, as they would in hardware.
  if (pins_.flush && (r_ >> 40) % 2) {
    image_ ^= 1;
    ++counts_.image_switches;
  }
}

}  // namespace gpumem::tb
