// Nested-page TLB (CN113836054A claims 6-9). Plain C++: the MMU, the TLM
// shell and the RTL scoreboard use it directly. The RTL implements exactly
// the algorithm written down here, so every choice below is part of the
// contract, not an implementation detail.
//
// Organisation
//   sets = entries / ways. Required: ways >= 1, entries % ways == 0, sets a
//   power of two, and for tree-PLRU ways a power of two; the page geometry
//   needs 2 <= small_bits < large_bits < 64. Anything else throws
//   std::invalid_argument naming the parameter. ways == entries is the fully
//   associative TLB (CN113836054A claim 7): one set, every entry compared.
//
// Set index
//   set = (va >> large_bits) & (sets - 1): taken from the large-page VPN for
//   both sizes, so a small page and the large page around it share a set and
//   one set scan finds both.
//
// Entries
//   vpn is stored at the entry's own size (large: va >> large_bits, small:
//   va >> small_bits); pfn is in small-page units, as in the PTE.
//   translate(): large: (pfn << small_bits) + (va & (large_bytes - 1))
//                small: (pfn << small_bits) + (va & (small_bytes - 1))
//   With a 32-bit VA and 64 KB pages the large VPN is VA[31:16] and the
//   offset VA[15:0] (CN113836054A claim 8).
//
// lookup(va)
//   Every way of the set is compared. A small entry hits when valid, !large
//   and vpn == va >> small_bits; a large entry when valid, large and
//   vpn == va >> large_bits. At most one of each size can hit (a small page
//   inside a cached large page); more is std::logic_error.
//     small hit                              -> kHitSmall, touch its way
//     else large hit, VA in nested region    -> kNested, no touch
//     else large hit                         -> kHitLarge, touch its way
//     else                                   -> kMiss, no state change
//   The small entry has priority because it is the finer mapping: inside a
//   nested region it is the page the large entry does not own. A kNested
//   result did not translate (the walker must fetch the small page's leaf,
//   CN113836054A claim 6 step S16), so it does not count as a use. The nested region is
//   PageGeometry::in_nested_region(va, nested_flag) (claim 9: offset[15:12]
//   against the flag; tail or head placement from the geometry); a flag that
//   is not one-hot has no region.
//   The returned way is the entry that hit (the large one for kNested); 0 on
//   a miss.
//
// fill(va, leaf)
//   leaf must be valid and not a table entry (std::logic_error otherwise).
//   The entry's size is leaf.large. A valid entry for the same page (same
//   size, same vpn) in the set is std::logic_error: the MMU fills only after
//   a miss or a kNested result, which both mean that page is absent.
//   Victim: the lowest-numbered invalid way if any, else the replacement
//   policy's choice. The entry is written, its way touched, and the replaced
//   valid entry (if any) returned.
//
// LRU
//   Per set an age per way, a permutation of 0..ways-1, 0 = most recently
//   used. Reset: age[w] = w. touch(w): every way with age < age[w] gets +1,
//   then age[w] = 0. Victim when all ways are valid: the way with age
//   ways - 1.
//
// Tree-PLRU
//   Per set ways - 1 bits in heap order: node 1 is the root, the children of
//   node n are 2n (left) and 2n + 1 (right), leaf ways + w is way w (so the
//   leaves are the ways left to right). Bit 0: the next victim is in the left
//   subtree; 1: in the right. Reset: all bits 0. touch(w): on the path from
//   the root to way w every node's bit is set to point away from w (1 if w is
//   in its left subtree, 0 if in its right). Victim when all ways are valid:
//   from the root, follow the bits to a leaf. With one way there are no bits.
//
// invalidate_all() clears every valid bit and resets the replacement state of
// every set.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/tlb_geometry.hpp"
#include "base/types.hpp"
#include "mmu/pte.hpp"
#include "payload/tlb_entry.hpp"
#include "payload/tlb_result.hpp"

namespace gpumem {

// Its entries, ways and replacement (base/tlb_geometry.hpp), and the pages it maps.
struct TlbParams : TlbGeometry {
  PageGeometry geometry;
};

struct TlbLookup {
  TlbResult result = TlbResult::kMiss;
  unsigned set = 0;
  unsigned way = 0;                // the small or large entry that hit; 0 on a miss
  const TlbEntry* hit = nullptr;   // that entry; valid until the next fill or invalidation
};

struct TlbFill {
  unsigned set = 0;
  unsigned way = 0;
  bool evicted = false;
  TlbEntry victim;  // the valid entry replaced, when evicted
};

class Tlb {
 public:
  explicit Tlb(const TlbParams& cfg);

  // Inline: the MMU's hot path. Each way is compared without a branch, by
  // one key that holds the entry's vpn, size and valid bit; a double hit
  // costs nothing until it fires.
  TlbLookup lookup(uint64_t va) {
    TlbLookup out;
    out.set = set_index(va);
    const uint64_t small_vpn = va >> geo_.small_bits, large_vpn = va >> geo_.large_bits;
    const uint64_t small_key = key(small_vpn, kSmallKey), large_key = key(large_vpn, kLargeKey);
    const uint64_t* keys = &keys_[size_t{out.set} * ways_];
    unsigned small_hits = 0, large_hits = 0, small_way = 0, large_way = 0;
    for (unsigned w = 0; w < ways_; ++w) {
      const bool small = keys[w] == small_key;
      const bool large = keys[w] == large_key;
      small_way = small ? w : small_way;
      large_way = large ? w : large_way;
      small_hits += small;
      large_hits += large;
    }
    if (small_hits > 1 || large_hits > 1) double_hit(out.set, small_vpn, large_vpn);
    const TlbEntry* row = &entries_[size_t{out.set} * ways_];
    if (small_hits) {
      out.result = TlbResult::kHitSmall;
      out.way = small_way;
      touch(out.set, out.way);
    } else if (large_hits) {
      out.way = large_way;
      if (geo_.in_nested_region(va, row[out.way].nested_flag)) {
        out.result = TlbResult::kNested;
      } else {
        out.result = TlbResult::kHitLarge;
        touch(out.set, out.way);
      }
    } else {
      return out;
    }
    out.hit = &row[out.way];
    return out;
  }
  TlbFill fill(uint64_t va, const Pte& leaf);
  void invalidate_all();

  uint64_t translate(const TlbEntry& e, uint64_t va) const;
  const TlbEntry& entry(unsigned set, unsigned way) const;
  unsigned sets() const { return sets_; }
  unsigned ways() const { return ways_; }
  Replacement replacement() const { return replacement_; }
  const PageGeometry& geometry() const { return geo_; }
  unsigned set_index(uint64_t va) const { return static_cast<unsigned>((va >> geo_.large_bits) & (sets_ - 1)); }
  // The way the next fill of this set would use; no side effect.
  unsigned victim(unsigned set) const;
  // The way holding va's page of that size, or -1: the page is cached. fill()
  // refuses a cached page; an MMU (or a test bench playing one) asks first.
  int way_holding(uint64_t va, bool large) const {
    const unsigned set = set_index(va);
    const uint64_t vpn = va >> (large ? geo_.large_bits : geo_.small_bits);
    const TlbEntry* row = &entries_[size_t{set} * ways_];
    for (unsigned w = 0; w < ways_; ++w)
      if (row[w].valid && row[w].large_page == large && row[w].vpn == vpn) return static_cast<int>(w);
    return -1;
  }

  // Replacement state, for comparing with the RTL's and for tests.
  unsigned lru_age(unsigned set, unsigned way) const;    // LRU only
  bool plru_bit(unsigned set, unsigned node) const;      // PLRU only; node in 1..ways-1

  // Unchecked, for a co-simulation scoreboard that reads them on every
  // operation: the set's ways() entries, and a copy of the set's replacement
  // state into `out` (LRU: ways() ages; PLRU: the ways() - 1 bits of nodes 1..).
  const TlbEntry* set_entries(unsigned set) const { return &entries_[size_t{set} * ways_]; }
  void copy_replacement(unsigned set, unsigned* out) const;

 private:
  void check_set(unsigned set) const;
  [[noreturn]] void double_hit(unsigned set, uint64_t small_vpn, uint64_t large_vpn) const;
  void reset_replacement();
  __attribute__((always_inline)) void touch(unsigned set, unsigned way) {
    const size_t base = size_t{set} * ways_;
    if (replacement_ == Replacement::kLru) {
      const unsigned old = age_[base + way];
      for (unsigned w = 0; w < ways_; ++w)
        if (age_[base + w] < old) ++age_[base + w];
      age_[base + way] = 0;
      return;
    }
    // Walk up from the leaf: a left child (even node) makes its parent point right.
    for (unsigned node = ways_ + way; node > 1; node /= 2) plru_[base + node / 2] = (node % 2 == 0) ? 1 : 0;
  }
  unsigned policy_victim(unsigned set) const;
  TlbEntry& at(unsigned set, unsigned way) { return entries_[size_t{set} * ways_ + way]; }
  const TlbEntry& at(unsigned set, unsigned way) const { return entries_[size_t{set} * ways_ + way]; }

  unsigned sets_;
  unsigned ways_;
  Replacement replacement_;
  PageGeometry geo_;
  std::vector<TlbEntry> entries_;  // [set * ways + way]
  // What lookup() compares, kept beside entries_ by fill() and
  // invalidate_all(): vpn * 4 + 1 for a valid small entry, + 2 for a large
  // one, + 0 when invalid (which no lookup's key equals). Lossless, since
  // small_bits >= 2 leaves every vpn below 2^62.
  static constexpr uint64_t kInvalidKey = 0, kSmallKey = 1, kLargeKey = 2;
  static uint64_t key(uint64_t vpn, uint64_t kind) { return vpn << 2 | kind; }
  std::vector<uint64_t> keys_;     // [set * ways + way]
  std::vector<unsigned> age_;      // LRU: [set * ways + way]
  std::vector<uint8_t> plru_;      // PLRU: [set * ways + node], node 0 unused
};

}  // namespace gpumem
