// The TLB (sc_models/mmu/tlb.hpp) against a reference written again the
// plainest way, over random geometries and random access sequences
// (RapidCheck, shrunk to a minimal sequence on failure): every lookup's
// result, set, way and entry, every fill's way and victim, the translated
// address, LRU ages and the next victim of every set. The reference keeps
// LRU as a recency list (front: most recently used) and tree-PLRU as "which
// half of each range of ways was used last", so a slip in the Tlb's ages or
// heap-ordered bits does not repeat itself here.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mmu/tlb.hpp"

namespace gpumem::test {
namespace {

class ReferenceTlb {
 public:
  explicit ReferenceTlb(const TlbParams& p)
      : sets_(p.entries / p.ways), ways_(p.ways), policy_(p.replacement), geo_(p.geometry),
        slots_(sets_, std::vector<std::optional<TlbEntry>>(ways_)), recency_(sets_), used_half_(sets_) {
    invalidate_all();
  }

  unsigned set_of(uint64_t va) const { return static_cast<unsigned>((va >> geo_.large_bits) % sets_); }

  // tlb.hpp's lookup: a small page hit wins; a large hit in its page's nested
  // region is kNested and does not count as a use.
  TlbLookup lookup(uint64_t va) {
    TlbLookup out;
    out.set = set_of(va);
    std::optional<unsigned> small, large;
    for (unsigned w = 0; w < ways_; ++w) {
      const auto& e = slots_[out.set][w];
      if (!e) continue;
      if (!e->large_page && e->vpn == va >> geo_.small_bits) small = w;
      if (e->large_page && e->vpn == va >> geo_.large_bits) large = w;
    }
    if (small) {
      out.result = TlbResult::kHitSmall;
      out.way = *small;
      use(out.set, out.way);
    } else if (large) {
      out.way = *large;
      const bool nested = geo_.in_nested_region(va, slots_[out.set][*large]->nested_flag);
      out.result = nested ? TlbResult::kNested : TlbResult::kHitLarge;
      if (!nested) use(out.set, out.way);
    } else {
      return out;
    }
    out.hit = &*slots_[out.set][out.way];
    return out;
  }

  TlbFill fill(uint64_t va, const Pte& leaf) {
    TlbFill out;
    out.set = set_of(va);
    out.way = next_victim(out.set);
    auto& slot = slots_[out.set][out.way];
    if (slot) {
      out.evicted = true;
      out.victim = *slot;
    }
    TlbEntry e;
    e.valid = true;
    e.large_page = leaf.large_page;
    e.vpn = va >> (leaf.large_page ? geo_.large_bits : geo_.small_bits);
    e.pfn = leaf.pfn;
    e.nested_flag = leaf.nested_flag;
    e.task_type = leaf.task_type;
    e.readable = leaf.readable;
    e.writable = leaf.writable;
    slot = e;
    use(out.set, out.way);
    return out;
  }

  void invalidate_all() {
    for (unsigned s = 0; s < sets_; ++s) {
      for (auto& slot : slots_[s]) slot.reset();
      recency_[s].clear();
      for (unsigned w = 0; w < ways_; ++w) recency_[s].push_back(w);  // way 0 the most recent, as after reset
      used_half_[s].clear();                                           // nothing used: the left half is the victim's
    }
  }

  uint64_t translate(const TlbEntry& e, uint64_t va) const {
    const uint64_t page = e.large_page ? geo_.large_bytes() : geo_.small_bytes();
    return e.pfn * geo_.small_bytes() + va % page;
  }

  // The lowest free way, else the policy's choice.
  unsigned next_victim(unsigned set) const {
    for (unsigned w = 0; w < ways_; ++w)
      if (!slots_[set][w]) return w;
    if (policy_ == Replacement::kLru) return recency_[set].back();
    unsigned lo = 0, hi = ways_;
    while (hi - lo > 1) {
      const unsigned mid = (lo + hi) / 2;
      const auto it = used_half_[set].find({lo, hi});
      const bool right_used_last = it == used_half_[set].end() || it->second;  // never used: as after reset
      if (right_used_last) hi = mid;
      else lo = mid;
    }
    return lo;
  }

  unsigned lru_age(unsigned set, unsigned way) const {
    const auto& r = recency_[set];
    return static_cast<unsigned>(std::distance(r.begin(), std::find(r.begin(), r.end(), way)));
  }
  const std::optional<TlbEntry>& slot(unsigned set, unsigned way) const { return slots_[set][way]; }
  unsigned sets() const { return sets_; }
  unsigned ways() const { return ways_; }

 private:
  void use(unsigned set, unsigned way) {
    recency_[set].remove(way);
    recency_[set].push_front(way);
    unsigned lo = 0, hi = ways_;
    while (hi - lo > 1) {
      const unsigned mid = (lo + hi) / 2;
      const bool right = way >= mid;
      used_half_[set][{lo, hi}] = right;
      if (right) lo = mid;
      else hi = mid;
    }
  }

  unsigned sets_, ways_;
  Replacement policy_;
  PageGeometry geo_;
  std::vector<std::vector<std::optional<TlbEntry>>> slots_;
  std::vector<std::list<unsigned>> recency_;
  // [set][(lo, hi)]: true when the right half of ways lo..hi-1 was used
  // last; a range never used counts as true (after reset the victim is on the left).
  std::vector<std::map<std::pair<unsigned, unsigned>, bool>> used_half_;
};

// One step of the access sequence: a lookup, the MMU's lookup-then-fill, or
// a flush.
struct Step {
  enum Kind : unsigned { kLookup, kAccess, kFlush };
  Kind kind;
  unsigned large_page_number, unit, offset;
  bool fill_large;      // on a miss, fill the large page (else the small one)
  uint8_t nested_flag;  // of a filled large page
  uint8_t task_type;
  bool readable, writable;
  uint64_t pfn;
};

std::string show(const Step& s) {
  const char* kinds[] = {"lookup", "access", "flush"};
  return std::string(kinds[s.kind]) + " lpn " + std::to_string(s.large_page_number) + " unit " + std::to_string(s.unit) +
         (s.fill_large ? " fill large flag " + std::to_string(s.nested_flag) : " fill small") + " pfn " + std::to_string(s.pfn);
}

rc::Gen<Step> step_gen(unsigned large_pages, unsigned units) {
  using namespace rc;
  return gen::map(
      gen::tuple(gen::weightedElement<unsigned>({{8, Step::kLookup}, {16, Step::kAccess}, {1, Step::kFlush}}),
                 gen::inRange(0u, large_pages), gen::inRange(0u, units), gen::inRange(0u, 64u), gen::arbitrary<bool>(),
                 gen::element<uint8_t>(0, 1, 2, 4, 8), gen::inRange<uint8_t>(0, 16), gen::arbitrary<bool>(),
                 gen::arbitrary<bool>(), gen::inRange<uint64_t>(0, uint64_t{1} << 20)),
      [](const std::tuple<unsigned, unsigned, unsigned, unsigned, bool, uint8_t, uint8_t, bool, bool, uint64_t>& t) {
        Step s;
        s.kind = static_cast<Step::Kind>(std::get<0>(t));
        s.large_page_number = std::get<1>(t);
        s.unit = std::get<2>(t);
        s.offset = std::get<3>(t);
        s.fill_large = std::get<4>(t);
        s.nested_flag = std::get<5>(t);
        s.task_type = std::get<6>(t);
        s.readable = std::get<7>(t);
        s.writable = std::get<8>(t);
        s.pfn = std::get<9>(t);
        return s;
      });
}

void check_same_state(const Tlb& tlb, const ReferenceTlb& ref, Replacement policy) {
  for (unsigned s = 0; s < ref.sets(); ++s) {
    RC_ASSERT(tlb.victim(s) == ref.next_victim(s));
    for (unsigned w = 0; w < ref.ways(); ++w) {
      const auto& want = ref.slot(s, w);
      RC_ASSERT(tlb.entry(s, w).valid == want.has_value());
      if (want) RC_ASSERT(tlb.entry(s, w) == *want);
      if (policy == Replacement::kLru) RC_ASSERT(tlb.lru_age(s, w) == ref.lru_age(s, w));
    }
  }
}

void tlb_agrees_with_reference(Replacement policy) {
  TlbParams p;
  p.replacement = policy;
  const unsigned sets = *rc::gen::element(1u, 2u, 4u, 8u);
  p.ways = policy == Replacement::kPlru ? *rc::gen::element(1u, 2u, 4u, 8u, 16u) : *rc::gen::inRange(1u, 13u);
  p.entries = sets * p.ways;
  p.geometry.small_bits = *rc::gen::inRange(10u, 15u);
  p.geometry.large_bits = p.geometry.small_bits + *rc::gen::inRange(3u, 6u);  // room for the 8-page nested flag
  p.geometry.placement = *rc::gen::element(NestedPlacement::kTail, NestedPlacement::kHead);
  RC_LOG() << "sets " << sets << " ways " << p.ways << " small_bits " << p.geometry.small_bits << " large_bits "
           << p.geometry.large_bits << (p.geometry.placement == NestedPlacement::kTail ? " tail" : " head") << "\n";

  // Twice as many large pages as entries, so sets fill and evict.
  const unsigned large_pages = 2 * p.entries + 1;
  const auto steps = *rc::gen::container<std::vector<Step>>(step_gen(large_pages, p.geometry.units_per_large()));

  Tlb tlb(p);
  ReferenceTlb ref(p);
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    RC_LOG() << "step " << i << ": " << show(s) << "\n";
    if (s.kind == Step::kFlush) {
      tlb.invalidate_all();
      ref.invalidate_all();
      check_same_state(tlb, ref, policy);
      continue;
    }
    const uint64_t va = (uint64_t{s.large_page_number} << p.geometry.large_bits) |
                        (uint64_t{s.unit} << p.geometry.small_bits) | s.offset;
    const TlbLookup got = tlb.lookup(va);
    const TlbLookup want = ref.lookup(va);
    RC_ASSERT(got.result == want.result);
    RC_ASSERT(got.set == want.set);
    RC_ASSERT(got.way == want.way);
    RC_ASSERT((got.hit == nullptr) == (want.hit == nullptr));
    if (want.hit) {
      RC_ASSERT(*got.hit == *want.hit);
      RC_ASSERT(tlb.translate(*got.hit, va) == ref.translate(*want.hit, va));
    }
    const bool must_walk = want.result == TlbResult::kMiss || want.result == TlbResult::kNested;
    if (s.kind == Step::kAccess && must_walk) {
      Pte leaf;
      leaf.valid = true;
      leaf.large_page = want.result == TlbResult::kMiss && s.fill_large;  // a nested region is a small page's
      leaf.nested_flag = leaf.large_page ? s.nested_flag : 0;
      leaf.task_type = s.task_type;
      leaf.readable = s.readable;
      leaf.writable = s.writable;
      leaf.pfn = s.pfn;
      const TlbFill gf = tlb.fill(va, leaf);
      const TlbFill wf = ref.fill(va, leaf);
      RC_ASSERT(gf.set == wf.set);
      RC_ASSERT(gf.way == wf.way);
      RC_ASSERT(gf.evicted == wf.evicted);
      if (wf.evicted) RC_ASSERT(gf.victim == wf.victim);
    }
    check_same_state(tlb, ref, policy);
  }
}

RC_GTEST_PROP(TlbProperties, LruTlbAgreesWithAReferenceLru, ()) { tlb_agrees_with_reference(Replacement::kLru); }

RC_GTEST_PROP(TlbProperties, PlruTlbAgreesWithAReferenceTreePlru, ()) { tlb_agrees_with_reference(Replacement::kPlru); }

// Tree-PLRU's promise, whatever the sequence: once a set is full, the next
// victim is never the way used last (with two or more ways), and with two
// ways it is exactly LRU.
RC_GTEST_PROP(TlbProperties, PlruNeverEvictsTheWayUsedLastAndIsLruOnTwoWays, ()) {
  TlbParams p;
  p.replacement = Replacement::kPlru;
  p.ways = *rc::gen::element(2u, 4u, 8u, 16u);
  p.entries = p.ways;  // one set
  Tlb plru(p);
  p.replacement = Replacement::kLru;
  Tlb lru(p);
  const uint64_t large = p.geometry.large_bytes();
  const auto pages = *rc::gen::container<std::vector<unsigned>>(rc::gen::inRange(0u, 3 * p.ways));
  for (const unsigned page : pages) {
    const uint64_t va = uint64_t{page} * large;
    Pte leaf;
    leaf.valid = leaf.large_page = leaf.readable = true;
    leaf.pfn = page;
    unsigned used;
    for (Tlb* t : {&plru, &lru}) {
      const TlbLookup l = t->lookup(va);
      used = l.result == TlbResult::kMiss ? t->fill(va, leaf).way : l.way;
      if (t == &plru && plru.entry(0, plru.victim(0)).valid) RC_ASSERT(plru.victim(0) != used);
    }
    if (p.ways == 2) RC_ASSERT(plru.victim(0) == lru.victim(0));
  }
}

}  // namespace
}  // namespace gpumem::test
