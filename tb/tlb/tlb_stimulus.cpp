#include "tb/tlb/tlb_stimulus.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "mmu/mmu.hpp"

namespace gpumem::tb {

TlbPageTables random_page_tables(const Config& base, uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x7f4a7c15u);
  const PageGeometry geo = base.mmu.geometry();
  const uint64_t S = geo.small_bytes(), L = geo.large_bytes();
  const unsigned U = geo.units_per_large();
  const unsigned va_bits = base.address_space.va_bits;
  // 32 slots of the VA space, one region each (plus its nested small region):
  // regions never overlap, and their sets spread over the whole TLB.
  constexpr unsigned kSlots = 32;
  const uint64_t slot_bytes = uint64_t{1} << (va_bits - 5);
  const uint64_t max_pages_in_slot = std::max<uint64_t>(1, slot_bytes / L / 2);

  Config cfg = base;
  AddressSpaceConfig& as = cfg.address_space;
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
  as.applications.push_back(app);
  as.present = true;

  TlbPageTables t;
  for (bool nesting : {true, false}) {
    t.images.push_back(build_address_space(cfg, nesting));
    SparseMemory& mem = t.memory.emplace_back();
    for (const PteWrite& w : t.images.back().pte_writes) mem.write_u64(w.pa, w.value);  // a later write to a PA wins
  }
  return t;
}

// VAs the way a GPU kernel touches them: mostly pages it used recently (TLB
// hits), new pages of the mapped regions (misses, evictions), the nested
// regions of flagged large pages on purpose, and a few unmapped VAs (faults).
class TlbStimulus::VaSource {
 public:
  VaSource(const TlbPageTables& tables, const PageGeometry& geo, unsigned va_bits)
      : tables_(tables), geo_(geo), va_mask_((uint64_t{1} << va_bits) - 1) {}
  uint64_t next(std::mt19937_64& rng, unsigned image) {
    const uint64_t r = rng();
    const uint64_t small_mask = geo_.small_bytes() - 1;
    uint64_t va;
    if (r % 100 < 55 && !recent_.empty()) {
      // A constant divisor once the list is full: a multiply, not a divide.
      const size_t pick = recent_.size() == kRecent ? (r >> 8) % kRecent : (r >> 8) % recent_.size();
      va = (recent_[pick] & ~small_mask) | ((r >> 24) & small_mask & ~uint64_t{7});
      return va;
    }
    if (r % 100 < 58) {
      va = rng() & va_mask_ & ~uint64_t{7};
    } else {
      const auto& pages = tables_.images[image].pages;
      const PageMapping& m = pages[(r >> 8) % pages.size()];
      const unsigned U = geo_.units_per_large();
      uint64_t offset = rng() & (m.large_page ? geo_.large_bytes() - 1 : small_mask) & ~uint64_t{7};
      const int units = nested_units(m.nested_flag);
      if (m.large_page && units > 0 && (r >> 40) % 3 == 0) {  // into the nested region on purpose
        const unsigned first = geo_.placement == NestedPlacement::kTail ? U - units : 0;
        offset = (offset & small_mask) + uint64_t{first + static_cast<unsigned>((r >> 44) % units)} * geo_.small_bytes();
      }
      va = m.va + offset;
    }
    if (recent_.size() < kRecent) recent_.push_back(va);
    else recent_[(r >> 32) % kRecent] = va;
    return va;
  }

 private:
  static constexpr size_t kRecent = 48;
  const TlbPageTables& tables_;
  PageGeometry geo_;
  uint64_t va_mask_;
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

TlbStimulus::TlbStimulus(const Config& cfg, uint64_t seed, const TlbRandomRun& run, const TlbScoreboard& scoreboard,
                         uint64_t first_id)
    : run_(run),
      scoreboard_(scoreboard),
      rng_(seed),
      tables_(random_page_tables(cfg, seed)),
      geo_(cfg.mmu.geometry()),
      walker_(tables_.images[0].layout, geo_),
      walk_level_cycles_(cfg.mmu.walk_level_cycles),
      source_(std::make_unique<VaSource>(tables_, geo_, cfg.address_space.va_bits)),
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
    pins_.req_pte = t.leaf.encode();
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

const TlbPins& TlbStimulus::next() {
  const uint64_t r = r_ = rng_();
  if (held_ < 0 && started_ < run_.translations && (r & 0xFF) < run_.start_per_256) {
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
  const Walked fresh{w.fault != FaultReason::kNone, w.leaf, w.reads};
  if (!fresh.fault) return walked_->insert(key, fresh);
  // Faults are not kept: most are random unmapped VAs, rarely walked twice,
  // which would fill the memo with cache misses.
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
      ++translations_;
    } else {
      // A miss, or a hit in a large page's nested region: walk (claim 6 S16).
      if (t.attempt > 8) throw std::logic_error("TLB co-simulation: translation " + std::to_string(t.id) + " never hits");
      const Walked& w = walk(t.va);
      ++walks_;
      const bool leaf_owns_va = !(w.leaf.large_page && (e.rsp.result == TlbResult::kNested ||
                                                   geo_.in_nested_region(t.va, w.leaf.nested_flag)));
      if (w.fault || !leaf_owns_va) {
        set_state(i, kFree);
        ++translations_;
        ++faults_;
      } else {
        t.leaf = w.leaf;
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
    ++image_switches_;
  }
}

}  // namespace gpumem::tb
