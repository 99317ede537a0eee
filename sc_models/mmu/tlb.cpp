#include "mmu/tlb.hpp"

#include <stdexcept>
#include <string>

#include "base/bits.hpp"
#include "base/tlb_geometry.hpp"

namespace gpumem {

namespace {

// Validated before any member is sized, so a bad config never allocates.
unsigned checked_sets(const TlbParams& c) {
  const std::string n = "TLB: ";
  if (const std::string why = c.problem(); !why.empty())
    throw std::invalid_argument(n + why);
  const unsigned sets = c.entries / c.ways;
  if (c.geometry.small_bits < 2 || c.geometry.small_bits >= c.geometry.large_bits || c.geometry.large_bits >= 64)
    throw std::invalid_argument(n + "page geometry needs 2 <= small_bits < large_bits < 64 (small_bits " +
                                std::to_string(c.geometry.small_bits) + ", large_bits " +
                                std::to_string(c.geometry.large_bits) + ")");
  return sets;
}

}  // namespace

Tlb::Tlb(const TlbParams& cfg)
    : sets_(checked_sets(cfg)),
      ways_(cfg.ways),
      replacement_(cfg.replacement),
      geo_(cfg.geometry),
      entries_(size_t{sets_} * ways_),
      keys_(size_t{sets_} * ways_, kInvalidKey),
      age_(replacement_ == Replacement::kLru ? size_t{sets_} * ways_ : 0),
      plru_(replacement_ == Replacement::kPlru ? size_t{sets_} * ways_ : 0) {
  reset_replacement();
}

void Tlb::check_set(unsigned set) const {
  if (set >= sets_) throw std::out_of_range("TLB: set " + std::to_string(set) + " of " + std::to_string(sets_));
}

void Tlb::reset_replacement() {
  for (unsigned s = 0; s < sets_; ++s)
    for (unsigned w = 0; w < ways_; ++w) {
      if (replacement_ == Replacement::kLru) age_[size_t{s} * ways_ + w] = w;
      else plru_[size_t{s} * ways_ + w] = 0;
    }
}

// Names the size whose second hit comes first in way order.
void Tlb::double_hit(unsigned set, uint64_t small_vpn, uint64_t large_vpn) const {
  bool seen[2] = {false, false};
  for (unsigned w = 0; w < ways_; ++w) {
    const TlbEntry& e = at(set, w);
    if (!e.valid || e.vpn != (e.large_page ? large_vpn : small_vpn)) continue;
    if (seen[e.large_page])
      throw std::logic_error(std::string("TLB: two ") + (e.large_page ? "large" : "small") + " entries hit in set " +
                             std::to_string(set));
    seen[e.large_page] = true;
  }
  throw std::logic_error("TLB: a double hit that the entries do not show");
}

unsigned Tlb::policy_victim(unsigned set) const {
  const size_t base = size_t{set} * ways_;
  if (replacement_ == Replacement::kLru) {
    for (unsigned w = 0; w < ways_; ++w)
      if (age_[base + w] == ways_ - 1) return w;
    throw std::logic_error("TLB: LRU ages of a set are not a permutation");
  }
  unsigned node = 1;
  while (node < ways_) node = 2 * node + plru_[base + node];
  return node - ways_;
}

unsigned Tlb::victim(unsigned set) const {
  check_set(set);
  for (unsigned w = 0; w < ways_; ++w)
    if (!at(set, w).valid) return w;
  return policy_victim(set);
}

TlbFill Tlb::fill(uint64_t va, const Pte& leaf) {
  if (!leaf.valid || leaf.directory) throw std::logic_error("TLB: fill needs a valid leaf PTE");
  TlbEntry e;
  e.valid = true;
  e.large_page = leaf.large_page;
  e.vpn = va >> (leaf.large_page ? geo_.large_bits : geo_.small_bits);
  e.pfn = leaf.pfn;
  e.nested_flag = leaf.nested_flag;
  e.task_type = leaf.task_type;
  e.readable = leaf.readable;
  e.writable = leaf.writable;

  TlbFill out;
  out.set = set_index(va);
  if (const int w = way_holding(va, e.large_page); w >= 0)
    throw std::logic_error("TLB: fill of a page already present in set " + std::to_string(out.set) + " way " +
                           std::to_string(w));
  out.way = victim(out.set);
  TlbEntry& slot = at(out.set, out.way);
  if (slot.valid) {
    out.evicted = true;
    out.victim = slot;
  }
  slot = e;
  keys_[size_t{out.set} * ways_ + out.way] = key(e.vpn, e.large_page ? kLargeKey : kSmallKey);
  touch(out.set, out.way);
  return out;
}

void Tlb::invalidate_all() {
  for (TlbEntry& e : entries_) e.valid = false;
  for (uint64_t& k : keys_) k = kInvalidKey;
  reset_replacement();
}

uint64_t Tlb::translate(const TlbEntry& e, uint64_t va) const {
  const uint64_t offset_mask = (e.large_page ? geo_.large_bytes() : geo_.small_bytes()) - 1;
  return (e.pfn << geo_.small_bits) + (va & offset_mask);
}

const TlbEntry& Tlb::entry(unsigned set, unsigned way) const {
  check_set(set);
  if (way >= ways_) throw std::out_of_range("TLB: way " + std::to_string(way) + " of " + std::to_string(ways_));
  return at(set, way);
}

unsigned Tlb::lru_age(unsigned set, unsigned way) const {
  if (replacement_ != Replacement::kLru) throw std::logic_error("TLB: lru_age on a PLRU TLB");
  check_set(set);
  if (way >= ways_) throw std::out_of_range("TLB: way " + std::to_string(way) + " of " + std::to_string(ways_));
  return age_[size_t{set} * ways_ + way];
}

bool Tlb::plru_bit(unsigned set, unsigned node) const {
  if (replacement_ != Replacement::kPlru) throw std::logic_error("TLB: plru_bit on an LRU TLB");
  check_set(set);
  if (node < 1 || node >= ways_)
    throw std::out_of_range("TLB: PLRU node " + std::to_string(node) + " (nodes 1.." + std::to_string(ways_ - 1) + ")");
  return plru_[size_t{set} * ways_ + node] != 0;
}

void Tlb::copy_replacement(unsigned set, unsigned* out) const {
  const size_t base = size_t{set} * ways_;
  if (replacement_ == Replacement::kLru)
    for (unsigned w = 0; w < ways_; ++w) out[w] = age_[base + w];
  else
    for (unsigned node = 1; node < ways_; ++node) out[node - 1] = plru_[base + node];
}

}  // namespace gpumem
