#include "tlb_cosim.hpp"

#include <algorithm>
#include <deque>
#include <sstream>
#include <stdexcept>

#include "mmu.hpp"
#include "page_table.hpp"

namespace gpumem::tb {

std::string tlb_geometry_difference(const Config& cfg, const RtlTlbGeometry& rtl) {
  if (!cfg.has_mmu()) return "the config has no MMU (address_space section): the TLB has nothing to translate";
  std::ostringstream s;
  const PageGeometry geo = cfg.mmu.geometry();
  auto differ = [&](const char* what, const std::string& key, uint64_t config, const char* param, uint64_t rtl_value) {
    if (config != rtl_value)
      s << what << ": config " << key << " = " << config << ", RTL " << param << " = " << rtl_value << "\n";
  };
  differ("VA bits", "address_space.va_bits", cfg.address_space.va_bits, "VA_BITS", rtl.va_bits);
  differ("small page", "mmu.page_sizes[0]", geo.small_bytes(), "2^SMALL_BITS", uint64_t{1} << rtl.small_bits);
  differ("large page", "mmu.page_sizes[1]", geo.large_bytes(), "2^LARGE_BITS", uint64_t{1} << rtl.large_bits);
  differ("entries", "mmu.tlb.entries", cfg.mmu.tlb_entries, "ENTRIES", rtl.entries);
  differ("ways", "mmu.tlb.ways", cfg.mmu.tlb_ways, "WAYS", rtl.ways);
  const bool plru = cfg.mmu.replacement == Replacement::kPlru;
  if (plru != rtl.plru)
    s << "replacement: config mmu.tlb.replacement = " << replacement_name(cfg.mmu.replacement) << ", RTL PLRU = " << rtl.plru
      << "\n";
  const bool tail = geo.placement == NestedPlacement::kTail;
  if (tail != rtl.nested_tail)
    s << "nested placement: config mmu.nested_placement = " << (tail ? "tail" : "head")
      << ", RTL NESTED_TAIL = " << rtl.nested_tail << "\n";
  std::string d = s.str();
  if (!d.empty()) d += "(the RTL parameters are set in verilator/CMakeLists.txt, gpumem_verilate_tlb)";
  return d;
}

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
    reg.task = r % 16;  // every task type, twice
    reg.writable = rng() % 4 != 0;
    reg.va = r * slot_bytes + (rng() % max_pages_in_slot) * L;
    if (r % 5 == 4) {  // a small region of its own
      reg.large = false;
      reg.size = (1 + rng() % 24) * S;
      app.regions.push_back(reg);
      continue;
    }
    reg.large = true;
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
    nested.task = (r + 7) % 16;
    nested.writable = rng() % 2 != 0;
    nested.large = false;
    nested.va = reg.va + pages * L - d * S;
    nested.size = d * S;
    app.regions.push_back(nested);
  }
  as.applications.push_back(app);
  as.present = true;

  TlbPageTables t;
  for (bool nesting : {true, false}) {
    t.images.push_back(build_address_space(cfg, nesting));
    auto& mem = t.memory.emplace_back();
    for (const PteWrite& w : t.images.back().pte_writes) mem[w.pa] = w.value;
  }
  return t;
}

namespace {
const RtlTlbGeometry& matching_variant(const Config& cfg) {
  if (!cfg.has_mmu()) throw std::invalid_argument(tlb_geometry_difference(cfg, rtl_tlb_variants().front()));
  std::string why;
  for (const RtlTlbGeometry& v : rtl_tlb_variants()) {
    const std::string d = tlb_geometry_difference(cfg, v);
    if (d.empty()) return v;
    why += "the '" + v.variant + "' variant:\n" + d + "\n";
  }
  throw std::invalid_argument("no verilated TLB matches the config's MMU:\n" + why);
}
}  // namespace

std::string tlb_wave_layout(const Config& cfg) {
  return matching_variant(cfg).variant == "lru" ? "tlb-lru.gtkw" : "tlb.gtkw";
}

TlbCosim::TlbCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves)
    : seed_(seed), cfg_(cfg), variant_(matching_variant(cfg)), driver_(variant_, waves), scoreboard_(tlb_config(cfg), seed) {
  driver_.reset();
}

void TlbCosim::reset() {
  if (scoreboard_.outstanding()) throw std::logic_error("TLB co-simulation: reset with a response outstanding");
  driver_.reset();
  rsp_pending_ = false;
}

TlbEdge TlbCosim::cycle(const TlbPins& pins, const TlbOpContext& context) {
  const TlbEdge e = driver_.cycle(pins);
  if (e.rsp_taken) scoreboard_.response_taken(e.rsp, driver_.cycles());
  if (e.rsp_stalled) scoreboard_.response_stalled();
  if (e.req_accepted) scoreboard_.operation_accepted(pins, context);
  if (pins.flush) scoreboard_.flushed(e.req_accepted || (rsp_pending_ && !e.rsp_taken));
  rsp_pending_ = e.req_accepted || (rsp_pending_ && !e.rsp_taken);
  return e;
}

namespace {
TlbResponse one_operation(TlbCosim& c, const TlbPins& op) {
  TlbPins p = op;
  for (unsigned i = 0; !c.cycle(p).req_accepted; ++i)
    if (i > 16) throw std::runtime_error("TLB co-simulation: operation never accepted");
  p = TlbPins{};
  for (unsigned i = 0;; ++i) {
    const TlbEdge e = c.cycle(p);
    if (e.rsp_taken) return e.rsp;
    if (i > 16) throw std::runtime_error("TLB co-simulation: no response");
  }
}
}  // namespace

TlbResponse TlbCosim::lookup(uint64_t va) {
  TlbPins p;
  p.req_valid = true;
  p.req_va = va;
  return one_operation(*this, p);
}

TlbResponse TlbCosim::fill(uint64_t va, const Pte& leaf) {
  TlbPins p;
  p.req_valid = p.req_fill = true;
  p.req_va = va;
  p.req_pte = leaf.encode();
  return one_operation(*this, p);
}

void TlbCosim::flush() {
  TlbPins p;
  p.flush = true;
  cycle(p);
}

namespace {

// One translation of the test bench's MMU, from its first lookup to a hit or a fault.
struct Translation {
  enum class State { kFree, kNeedLookup, kWaitResponse, kWalking, kNeedFill } state = State::kFree;
  uint64_t id = 0, va = 0;
  unsigned attempt = 0;    // lookups issued
  unsigned countdown = 0;  // walk cycles left
  Pte leaf;
  unsigned walk_reads = 0;
};

// VAs the way a GPU kernel touches them: mostly pages it used recently (TLB
// hits), new pages of the mapped regions (misses, evictions), the nested
// regions of flagged large pages on purpose, and a few unmapped VAs (faults).
class VaSource {
 public:
  VaSource(const TlbPageTables& tables, const PageGeometry& geo, unsigned va_bits)
      : tables_(tables), geo_(geo), va_mask_((uint64_t{1} << va_bits) - 1) {}
  uint64_t next(std::mt19937_64& rng, unsigned image) {
    const uint64_t r = rng();
    const uint64_t small_mask = geo_.small_bytes() - 1;
    uint64_t va;
    if (r % 100 < 55 && !recent_.empty()) {
      va = (recent_[(r >> 8) % recent_.size()] & ~small_mask) | ((r >> 24) & small_mask & ~uint64_t{7});
      return va;
    }
    if (r % 100 < 58) {
      va = rng() & va_mask_ & ~uint64_t{7};
    } else {
      const auto& pages = tables_.images[image].pages;
      const PageMapping& m = pages[(r >> 8) % pages.size()];
      const unsigned U = geo_.units_per_large();
      uint64_t offset = rng() & (m.large ? geo_.large_bytes() - 1 : small_mask) & ~uint64_t{7};
      const int units = nested_units(m.nested_flag);
      if (m.large && units > 0 && (r >> 40) % 3 == 0) {  // into the nested region on purpose
        const unsigned first = geo_.placement == NestedPlacement::kTail ? U - units : 0;
        offset = (offset & small_mask) + uint64_t{first + static_cast<unsigned>((r >> 44) % units)} * geo_.small_bytes();
      }
      va = m.va + offset;
    }
    if (recent_.size() < 48) recent_.push_back(va);
    else recent_[(r >> 32) % recent_.size()] = va;
    return va;
  }

 private:
  const TlbPageTables& tables_;
  PageGeometry geo_;
  uint64_t va_mask_;
  std::vector<uint64_t> recent_;
};

}  // namespace

bool TlbCosim::run_random(const TlbRandomRun& run) {
  std::mt19937_64 rng(seed_);
  const TlbPageTables tables = random_page_tables(cfg_, seed_);
  const PageGeometry geo = cfg_.mmu.geometry();
  const PageTableWalker walker(tables.images[0].layout, geo);
  VaSource source(tables, geo, cfg_.address_space.va_bits);
  unsigned image = 0;

  std::vector<Translation> slots(std::max(1u, run.max_in_flight));
  std::deque<size_t> in_order;  // translations whose operation was accepted, oldest first
  int held = -1;                // the translation whose operation is on the pins
  TlbPins pins;
  uint64_t started = 0, next_id = translations_;
  const uint64_t target = translations_ + run.translations;

  auto choose_operation = [&]() {
    for (size_t i = 0; i < slots.size(); ++i) {  // finished walks first: they free a slot
      Translation& t = slots[i];
      if (t.state != Translation::State::kNeedFill) continue;
      // Another translation filled this page meanwhile: look up again instead,
      // as an MMU's miss handling does (the TLB never holds a page twice).
      if (scoreboard_.cached(t.va, t.leaf.large)) {
        t.state = Translation::State::kNeedLookup;
        continue;
      }
      pins.req_fill = true;
      pins.req_va = t.va;
      pins.req_pte = t.leaf.encode();
      return static_cast<int>(i);
    }
    for (size_t i = 0; i < slots.size(); ++i)
      if (slots[i].state == Translation::State::kNeedLookup) {
        pins.req_fill = false;
        pins.req_va = slots[i].va;
        return static_cast<int>(i);
      }
    return -1;
  };

  while (translations_ < target) {
    const uint64_t r = rng();
    if (held < 0 && started < run.translations && (r & 0xFF) < run.start_per_256) {
      for (Translation& t : slots)
        if (t.state == Translation::State::kFree) {
          t = Translation{};
          t.state = Translation::State::kNeedLookup;
          t.id = next_id++;
          t.va = source.next(rng, image);
          ++started;
          break;
        }
    }
    if (held < 0) held = choose_operation();
    pins.req_valid = held >= 0;
    pins.rsp_ready = ((r >> 8) & 0xFF) < run.rsp_ready_per_256;
    pins.flush = ((r >> 16) & 0xFFFF) < run.flush_per_65536;
    TlbOpContext context;
    if (held >= 0) context = {slots[held].id, slots[held].attempt, slots[held].walk_reads};

    const TlbEdge e = cycle(pins, context);

    for (Translation& t : slots)
      if (t.state == Translation::State::kWalking && --t.countdown == 0) t.state = Translation::State::kNeedFill;
    if (e.rsp_taken) {
      Translation& t = slots[in_order.front()];
      in_order.pop_front();
      if (e.rsp.fill) {
        t.state = Translation::State::kNeedLookup;
      } else if (e.rsp.result == TlbResult::kHitSmall || e.rsp.result == TlbResult::kHitLarge) {
        t.state = Translation::State::kFree;
        ++translations_;
      } else {
        // A miss, or a hit in a large page's nested region: walk (claim 6 S16).
        if (t.attempt > 8) throw std::logic_error("TLB co-simulation: translation " + std::to_string(t.id) + " never hits");
        const auto& mem = tables.memory[image];
        const WalkResult w = walker.walk(tables.images[image].root, t.va, [&](uint64_t pa) {
          const auto it = mem.find(pa);
          return it == mem.end() ? uint64_t{0} : it->second;
        });
        ++walks_;
        const bool leaf_owns_va = !(w.leaf.large && (e.rsp.result == TlbResult::kNested ||
                                                     geo.in_nested_region(t.va, w.leaf.nested_flag)));
        if (w.fault != FaultReason::kNone || !leaf_owns_va) {
          t.state = Translation::State::kFree;
          ++translations_;
          ++faults_;
        } else {
          t.leaf = w.leaf;
          t.walk_reads = w.reads;
          t.countdown = std::max(1u, w.reads * cfg_.mmu.walk_level_cycles);
          t.state = Translation::State::kWalking;
        }
      }
    }
    if (e.req_accepted) {
      in_order.push_back(static_cast<size_t>(held));
      ++slots[held].attempt;
      slots[held].state = Translation::State::kWaitResponse;
      held = -1;
    }
    // A flush with a remap: the driver rewrote the page tables and invalidated
    // the TLB. Walks in flight finish with the old leaves, as they would in hardware.
    if (pins.flush && (r >> 40) % 2) {
      image ^= 1;
      ++image_switches_;
    }
    if (run.stop_at_first_mismatch && scoreboard_.mismatches()) return false;
    if (driver_.assertion_failed()) return false;
  }
  return scoreboard_.mismatches() == 0 && !driver_.assertion_failed();
}

MismatchArtifacts write_tlb_mismatch_artifacts(const Config& cfg, const std::string& config_path, uint64_t seed,
                                               const TlbRandomRun& run, uint64_t fail_cycle, const std::string& dir,
                                               uint64_t window) {
  const ReplayCommand command{"tlb", tlb_wave_layout(cfg), config_path, seed, run.translations, !run.stop_at_first_mismatch, ""};
  return write_mismatch_artifacts(command, fail_cycle, dir, window, [&](const WaveWindow& w) -> uint64_t {
    TlbCosim again(cfg, seed, w);  // destroyed here: the FST file is closed
    again.run_random(run);
    if (again.assertion_failed()) return again.cycles();
    const auto& first = again.scoreboard().first_mismatch();
    return first ? first->cycle : 0;
  });
}

}  // namespace gpumem::tb
