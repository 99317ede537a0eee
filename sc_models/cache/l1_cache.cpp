#include "cache/l1_cache.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpumem {

L1Stats& L1Stats::operator+=(const L1Stats& o) {
  reads += o.reads;
  hits += o.hits;
  misses += o.misses;
  mshr_merges += o.mshr_merges;
  mshr_full_stalls += o.mshr_full_stalls;
  mshr_stall_cycles += o.mshr_stall_cycles;
  fills += o.fills;
  evictions += o.evictions;
  prefetch_fills += o.prefetch_fills;
  unused_prefetch_evictions += o.unused_prefetch_evictions;
  buffer_hits += o.buffer_hits;
  writes += o.writes;
  write_hits += o.write_hits;
  bypasses += o.bypasses;
  invalidations += o.invalidations;
  return *this;
}

L1Cache::L1Cache(const L1Params& params)
    : line_bytes_(params.line_bytes),
      sets_(params.sets()),
      ways_(params.ways),
      mshrs_(params.mshrs),
      lines_(size_t{params.sets()} * params.ways),
      data_(size_t{params.sets()} * params.ways * params.line_bytes) {}

L1Cache::Line* L1Cache::find(unsigned space, uint64_t line, unsigned& way) {
  const unsigned set = set_of(line);
  for (unsigned w = 0; w < ways_; ++w) {
    Line& l = lines_[size_t{set} * ways_ + w];
    if (l.valid && l.line == line && l.space == space) {
      way = w;
      return &l;
    }
  }
  return nullptr;
}

const L1Cache::Line* L1Cache::find(unsigned space, uint64_t line, unsigned& way) const {
  return const_cast<L1Cache*>(this)->find(space, line, way);
}

L1Cache::Lookup L1Cache::read(unsigned space, uint64_t address, uint64_t now) {
  ++stats_.reads;
  Lookup at;
  const uint64_t line = line_of(address);
  at.set = set_of(line);
  Line* l = find(space, line, at.way);
  if (!l) {
    ++stats_.misses;
    at.result = L1Result::kMiss;
    return at;
  }
  l->last_use = ++stamp_;
  at.prefetched = l->prefetched;
  l->prefetched = false;
  at.ready = l->ready;
  at.result = l->ready <= now ? L1Result::kHit : L1Result::kMerge;
  ++(at.result == L1Result::kHit ? stats_.hits : stats_.mshr_merges);
  return at;
}

void L1Cache::retire_fills(uint64_t now) {
  in_flight_.erase(std::remove_if(in_flight_.begin(), in_flight_.end(), [&](uint64_t ready) { return ready <= now; }),
                   in_flight_.end());
}

uint64_t L1Cache::mshr_free(uint64_t now, uint64_t at) {
  retire_fills(now);
  // At most `mshrs` are held; all busy at `at` only if every one ends after it.
  const bool full = in_flight_.size() >= mshrs_ &&
                    std::all_of(in_flight_.begin(), in_flight_.end(), [&](uint64_t ready) { return ready > at; });
  if (!full) return at;
  const uint64_t free_at = *std::min_element(in_flight_.begin(), in_flight_.end());
  ++stats_.mshr_full_stalls;
  stats_.mshr_stall_cycles += free_at - at;
  return free_at;
}

L1Cache::Fill L1Cache::fill(unsigned space, uint64_t address, uint64_t now, uint64_t ready, const uint8_t* data, bool prefetch) {
  // A line in two ways would answer from whichever the scan meets first.
  unsigned present = 0;
  if (find(space, line_of(address), present)) throw std::logic_error("L1 cache: line filled while already present");
  // A demand fill's MSHR: the one mshr_free found (a fill that ended by its
  // start has left). A prefetch holds a prefetch queue entry instead.
  if (!prefetch) {
    retire_fills(now);
    if (in_flight_.size() >= mshrs_) in_flight_.erase(std::min_element(in_flight_.begin(), in_flight_.end()));
    in_flight_.push_back(ready);
  }
  return place(space, address, ready, data, prefetch);
}

void L1Cache::set_ready(unsigned space, uint64_t address, uint64_t ready) {
  unsigned way = 0;
  if (Line* l = find(space, line_of(address), way); l && l->ready == kPendingReady) l->ready = ready;
}

void L1Cache::drop_pending(unsigned space, uint64_t address) {
  unsigned way = 0;
  if (Line* l = find(space, line_of(address), way); l && l->ready == kPendingReady) *l = Line{};
}

L1Cache::Fill L1Cache::place(unsigned space, uint64_t address, uint64_t ready, const uint8_t* data, bool prefetch) {
  Fill f;
  const uint64_t line = line_of(address);
  f.set = set_of(line);
  unsigned present = 0;
  if (find(space, line, present)) throw std::logic_error("L1 cache: line filled while already present");
  Line* base = &lines_[size_t{f.set} * ways_];
  unsigned victim = ways_;
  for (unsigned w = 0; w < ways_ && victim == ways_; ++w)
    if (!base[w].valid) victim = w;
  if (victim == ways_) {
    victim = 0;
    for (unsigned w = 1; w < ways_; ++w)
      if (base[w].last_use < base[victim].last_use) victim = w;
    const Line& v = base[victim];
    f.evicted = true;
    f.victim_space = v.space;
    f.victim_line = v.line;
    f.victim_unused_prefetch = v.prefetched;
    ++stats_.evictions;
    stats_.unused_prefetch_evictions += v.prefetched;
  }
  f.way = victim;
  Line& l = base[victim];
  l.valid = true;
  l.prefetched = prefetch;
  l.space = space;
  l.line = line;
  l.ready = ready;
  l.last_use = ++stamp_;
  std::memcpy(data_of(f.set, victim), data, line_bytes_);
  ++stats_.fills;
  stats_.prefetch_fills += prefetch;
  return f;
}

bool L1Cache::write(unsigned space, uint64_t address, const uint8_t* data, const uint8_t* enables, unsigned length, uint64_t now) {
  ++stats_.writes;
  const bool hit = update(space, address, data, enables, length, now);
  stats_.write_hits += hit;
  return hit;
}

bool L1Cache::update(unsigned space, uint64_t address, const uint8_t* data, const uint8_t* enables, unsigned length, uint64_t) {
  unsigned way = 0;
  const uint64_t line = line_of(address);
  Line* l = find(space, line, way);
  if (!l) return false;
  l->last_use = ++stamp_;
  uint8_t* bytes = data_of(set_of(line), way) + (address - line);
  for (unsigned i = 0; i < length; ++i)
    if (!enables || enables[i]) bytes[i] = data[i];
  return true;
}

void L1Cache::copy_out(const Lookup& at, uint64_t address, uint8_t* out, unsigned length) const {
  std::memcpy(out, data_of(at.set, at.way) + (address - line_of(address)), length);
}

bool L1Cache::holds(unsigned space, uint64_t address) const {
  unsigned way = 0;
  return find(space, line_of(address), way) != nullptr;
}

void L1Cache::drop(const Lookup& at) { lines_[size_t{at.set} * ways_ + at.way] = Line{}; }

void L1Cache::invalidate_all() {
  for (Line& l : lines_) l = Line{};
  ++stats_.invalidations;
}

std::vector<uint64_t> L1Cache::lru_order(unsigned set) const {
  std::vector<const Line*> valid;
  for (unsigned w = 0; w < ways_; ++w)
    if (lines_[size_t{set} * ways_ + w].valid) valid.push_back(&lines_[size_t{set} * ways_ + w]);
  std::sort(valid.begin(), valid.end(), [](const Line* a, const Line* b) { return a->last_use > b->last_use; });
  std::vector<uint64_t> out;
  for (const Line* l : valid) out.push_back(l->line);
  return out;
}

}  // namespace gpumem
