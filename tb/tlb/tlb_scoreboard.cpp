#include "tb/tlb/tlb_scoreboard.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/hex.hpp"

namespace gpumem::tb {

namespace {

std::string flag_bits(uint8_t f) {
  std::string s;
  for (int b = 3; b >= 0; --b) s += ((f >> b) & 1) ? '1' : '0';
  return s;
}

std::string entry_text(const TlbEntry& e) {
  if (!e.valid) return "-";
  return std::string(e.large_page ? "large" : "small") + " vpn " + hex(e.vpn) + " pfn " + hex(e.pfn) + " flag " +
         flag_bits(e.nested_flag) + " task " + std::to_string(e.task_type) + (e.readable ? " r" : " -") +
         (e.writable ? "w" : "-");
}

// As entry_text, but an entry that is not valid and still holds something
// (ports that should show zeros and do not) shows what it holds.
std::string entry_fields(const TlbEntry& e) {
  if (e.valid || e == TlbEntry{}) return entry_text(e);
  TlbEntry shown = e;
  shown.valid = true;
  return "not valid: " + entry_text(shown);
}

}  // namespace

std::string describe(const TlbRequest& r) {
  if (!r.fill) return "lookup va " + hex(r.va);
  return "fill va " + hex(r.va) + " pte " + hex(r.pte);
}

std::string describe(const TlbResponse& r) {
  if (r.fill)
    return "fill set " + std::to_string(r.set) + " way " + std::to_string(r.way) +
           (r.evicted ? " evicted " + entry_text(r.entry) : " nothing evicted");
  return std::string(tlb_result_name(r.result)) + " set " + std::to_string(r.set) + " way " + std::to_string(r.way) +
         " pa " + hex(r.pa) + " entry " + entry_text(r.entry);
}

std::string TlbMismatch::report() const {
  char buf[1024];
  auto row = [&](const char* name, const std::string& model, const std::string& rtl) {
    std::snprintf(buf, sizeof buf, "  %-9s %-50s %-50s%s\n", name, model.c_str(), rtl.c_str(),
                  model != rtl ? " <-- differs" : "");
    return std::string(buf);
  };
  std::snprintf(buf, sizeof buf,
                "tlb mismatch: transaction %llu (operation %llu, lookup attempt %u), cycle %llu, seed %llu\n",
                static_cast<unsigned long long>(context.translation), static_cast<unsigned long long>(operation),
                context.attempt, static_cast<unsigned long long>(cycle), static_cast<unsigned long long>(seed));
  std::string s = buf;
  if (fill) {
    const Pte p = Pte::decode(pte);
    s += "  input: fill va " + hex(va) + " with leaf PTE " + hex(pte) + " (" + (p.large_page ? "large" : "small") + " pfn " +
         hex(p.pfn) + " flag " + flag_bits(p.nested_flag) + " task " + std::to_string(p.task_type) + "), walk of " +
         std::to_string(context.walk_reads) + " page-table reads\n";
  } else {
    s += "  input: lookup va " + hex(va) + "\n";
  }
  s += "  the model's set " + std::to_string(expected.set) + " before the operation:\n";
  for (size_t w = 0; w < set_before.size(); ++w) {
    s += "    way " + std::to_string(w) + ": " + entry_text(set_before[w]);
    if (!plru) s += "  (LRU age " + std::to_string(replacement_before[w]) + ")";
    s += "\n";
  }
  if (plru) {
    s += "    PLRU bits (node 1..):";
    for (unsigned b : replacement_before) s += " " + std::to_string(b);
    s += "\n";
  }
  std::snprintf(buf, sizeof buf, "  %-9s %-50s %s\n", "", "model", "rtl");
  s += buf;
  // Every field TlbResponse compares, so that one that differs has its
  // row: the operation's own fields always, the others when they differ (a
  // PA held on a fill's response, a stale entry on ports that show none).
  if (!fill || expected.result != actual.result)
    s += row("result", tlb_result_name(expected.result), tlb_result_name(actual.result));
  s += row("set", std::to_string(expected.set), std::to_string(actual.set));
  s += row(fill ? "way" : "hit way", std::to_string(expected.way), std::to_string(actual.way));
  if (fill || expected.evicted != actual.evicted)
    s += row("evicted", expected.evicted ? "yes" : "no", actual.evicted ? "yes" : "no");
  if (!fill || expected.pa != actual.pa) s += row("pa", hex(expected.pa), hex(actual.pa));
  s += row(fill ? "victim" : "entry", entry_fields(expected.entry), entry_fields(actual.entry));
  if (expected.fill != actual.fill) s += row("op", expected.fill ? "fill" : "lookup", actual.fill ? "fill" : "lookup");
  return s;
}

std::vector<unsigned> tlb_tag_bits(const TlbParams& tlb, unsigned va_bits) {
  const unsigned set_bits = static_cast<unsigned>(__builtin_ctz(tlb.entries / tlb.ways));
  std::vector<unsigned> bits;
  for (unsigned b = tlb.geometry.small_bits; b < va_bits; ++b)
    if (b < tlb.geometry.large_bits || b >= tlb.geometry.large_bits + set_bits) bits.push_back(b);
  return bits;
}

namespace {
std::vector<std::string> va_bit_names(const std::vector<unsigned>& bits) {
  std::vector<std::string> names;
  for (unsigned b : bits) names.push_back("VA[" + std::to_string(b) + "]");
  return names;
}
}  // namespace

TlbScoreboard::Coverage::Coverage(unsigned ways, const std::vector<unsigned>& tag_bits)
    : tag_alias("tag alias", va_bit_names(tag_bits)), evicted_way(CoverageGroup::indexed("evicted way", ways)) {}

CoverageGroup TlbScoreboard::Coverage::flag_group() {
  std::vector<std::string> bins;
  for (unsigned f = 0; f < 16; ++f) bins.push_back(flag_bits(static_cast<uint8_t>(f)));
  return CoverageGroup("large-entry flag", std::move(bins));
}

CoverageGroup TlbScoreboard::Coverage::frame_bit_group() {
  std::vector<std::string> bins;
  for (unsigned b = 0; b < kPfnBits; ++b) bins.push_back("pfn[" + std::to_string(b) + "]");
  return CoverageGroup("hit frame bit", std::move(bins));
}

TlbScoreboard::TlbScoreboard(const TlbParams& tlb, unsigned va_bits, uint64_t seed)
    : seed_(seed),
      model_(tlb),
      geo_(tlb.geometry),
      protocol_("tlb", "operation", 1, seed),
      coverage_(tlb.ways, tlb_tag_bits(tlb, va_bits)) {
  tag_bin_.fill(-1);
  const std::vector<unsigned> bits = tlb_tag_bits(tlb, va_bits);
  for (size_t i = 0; i < bits.size(); ++i) tag_bin_[bits[i]] = static_cast<int8_t>(i);

  // The ports of rtl/gpumem_nested_tlb.sv at the variant's widths.
  ToggleCoverage& t = coverage_.toggle;
  const unsigned sets = tlb.entries / tlb.ways;
  sets_ = sets > 1;
  ways_ = tlb.ways > 1;
  const auto log2 = [](unsigned n) { return static_cast<unsigned>(__builtin_ctz(n)); };
  port_.handshake = t.signals("handshake", {"rst_ni", "flush_i", "req_valid_i", "req_ready_o", "rsp_valid_o", "rsp_ready_i"});
  port_.req_fill = t.port("req_fill_i", 1);
  port_.va_lookup = t.port("req_va_i (lookup)", va_bits);
  port_.va_fill = t.port("req_va_i (fill)", va_bits);
  // A fill's PTE is a valid leaf by the interface's contract (FillIsLeaf_A).
  port_.pte = t.port("req_pte_i (fill)", 64, kPteValid.mask() | kPteDirectory.mask());
  port_.response_bits = t.signals("response bits", {"rsp_fill_o", "rsp_evicted_o", "rsp_entry_large_page_o",
                                                    "rsp_entry_readable_o", "rsp_entry_writable_o"});
  port_.result = t.port("rsp_result_o", 2);
  if (sets_) port_.set = t.port("rsp_set_o", log2(sets));
  if (ways_) port_.way = t.port("rsp_way_o", log2(tlb.ways));
  // The port is PTE_PFN_BITS + LARGE_BITS wide; the largest PA, an all-ones
  // frame plus a large page's offset, is below 2^(PTE_PFN_BITS + small_bits + 1).
  port_.pa = t.port("rsp_pa_o", kPfnBits + tlb.geometry.small_bits + 1);
  port_.entry_vpn = t.port("rsp_entry_vpn_o", va_bits - tlb.geometry.small_bits);
  port_.entry_pfn = t.port("rsp_entry_pfn_o", kPfnBits);
  port_.entry_flag = t.port("rsp_entry_nested_flag_o", kPteNestedFlag.width);
  port_.entry_task_type = t.port("rsp_entry_task_type_o", kPteTaskType.width);
}

void TlbScoreboard::sample_toggles(const TlbPins& pins, const TlbEdge& e) {
  ToggleCoverage& t = coverage_.toggle;
  t.sample(port_.handshake, uint64_t{!pins.reset} | uint64_t{pins.flush} << 1 | uint64_t{pins.req_valid} << 2 |
                                uint64_t{e.req_ready} << 3 | uint64_t{e.rsp_valid} << 4 | uint64_t{pins.rsp_ready} << 5);
  if (pins.reset) return;
  if (e.req_accepted) {
    t.sample(port_.req_fill, pins.req_fill);
    if (pins.req_fill) {
      t.sample(port_.va_fill, pins.req_va);
      t.sample(port_.pte, pins.req_pte);
    } else {
      t.sample(port_.va_lookup, pins.req_va);
    }
  }
  if (!e.rsp_taken) return;
  const TlbResponse& r = e.rsp;
  t.sample(port_.response_bits, uint64_t{r.fill} | uint64_t{r.evicted} << 1 | uint64_t{r.entry.large_page} << 2 |
                                    uint64_t{r.entry.readable} << 3 | uint64_t{r.entry.writable} << 4);
  if (!r.fill) t.sample(port_.result, static_cast<uint64_t>(r.result));
  if (sets_) t.sample(port_.set, r.set);
  if (ways_) t.sample(port_.way, r.way);
  if (!r.fill) t.sample(port_.pa, r.pa);
  t.sample(port_.entry_vpn, r.entry.vpn);
  t.sample(port_.entry_pfn, r.entry.pfn);
  t.sample(port_.entry_flag, r.entry.nested_flag);
  t.sample(port_.entry_task_type, r.entry.task_type);
}

void TlbScoreboard::edge(const TlbPins& pins, const TlbEdge& e, const TlbOpContext& context, uint64_t cycle) {
  sample_toggles(pins, e);
  if (pins.reset) {
    protocol_.reset();
    return reset_edge();
  }
  in_reset_ = false;
  if (!protocol_.edge({pins.req_valid, e.req_accepted, tlb_request(pins)}, {e.rsp_valid, pins.rsp_ready, e.rsp}, cycle))
    return;
  if (e.rsp_taken) response_taken(e.rsp, cycle);
  if (e.rsp_stalled) response_stalled();
  stalled_ = e.rsp_stalled;
  if (e.req_accepted) operation_accepted(pins, context);
  // "In flight" from the bench's handshakes alone, not from the RTL's state.
  const bool in_flight = e.req_accepted || (rsp_pending_ && !e.rsp_taken);
  if (pins.flush) flushed(in_flight);
  rsp_pending_ = in_flight;
}

void TlbScoreboard::reset_edge() {
  if (in_reset_) return;  // the reset's later edges change nothing more
  in_reset_ = true;
  coverage_.reset.hit(pending_.empty() ? 0 : 1);
  if (stalled_) coverage_.reset.hit(2);
  if (filled_) coverage_.reset.hit(3);
  discarded_ += pending_.size();
  while (!pending_.empty()) pending_.drop_front();
  model_.invalidate_all();
  rsp_pending_ = stalled_ = filled_ = false;
}

void TlbScoreboard::cover_tag_alias(uint64_t va, const std::vector<TlbEntry>& set) {
  for (const TlbEntry& entry : set) {
    if (!entry.valid) continue;
    const unsigned page_bits = entry.large_page ? geo_.large_bits : geo_.small_bits;
    const uint64_t d = (va >> page_bits) ^ entry.vpn;
    if (d == 0 || (d & (d - 1))) continue;
    const int bin = tag_bin_[page_bits + static_cast<unsigned>(__builtin_ctzll(d))];
    if (bin >= 0) coverage_.tag_alias.hit(static_cast<size_t>(bin));
  }
}

namespace {

// A nested flag's class in the crosses: 0000, one-hot (a region), any other.
size_t flag_class(uint8_t flag) {
  flag &= 0xF;
  return flag == 0 ? 0 : (flag & (flag - 1)) == 0 ? 1 : 2;
}

}  // namespace

uint8_t TlbScoreboard::size_alias(uint64_t va, const std::vector<TlbEntry>& set) const {
  uint8_t alias = 0;
  for (const TlbEntry& entry : set) {
    if (!entry.valid) continue;
    if (entry.large_page && entry.vpn == va >> geo_.small_bits) alias |= 1;
    if (!entry.large_page && entry.vpn == va >> geo_.large_bits) alias |= 2;
  }
  return alias;
}

void TlbScoreboard::operation_accepted(const TlbPins& pins, const TlbOpContext& context) {
  Pending& p = pending_.push_back();
  p.operation = operations_++;
  p.pins = pins;
  p.context = context;
  p.size_alias = 0;
  TlbResponse& e = p.expected = TlbResponse{};
  e.set = model_.set_index(pins.req_va);
  // The set as it was, for the report: two short copies into the slot's own
  // storage, sized once.
  const unsigned ways = model_.ways();
  if (p.set_before.size() != ways) {
    p.set_before.resize(ways);
    p.replacement_before.resize(model_.replacement() == Replacement::kLru ? ways : ways - 1);
  }
  std::copy_n(model_.set_entries(e.set), ways, p.set_before.data());
  model_.copy_replacement(e.set, p.replacement_before.data());
  if (pins.req_fill) {
    filled_ = true;
    const TlbFill f = model_.fill(pins.req_va, Pte::decode(pins.req_pte));
    e.fill = true;
    e.way = f.way;
    e.evicted = f.evicted;
    if (f.evicted) e.entry = f.victim;
  } else {
    cover_tag_alias(pins.req_va, p.set_before);
    p.size_alias = size_alias(pins.req_va, p.set_before);
    const TlbLookup lk = model_.lookup(pins.req_va);
    e.result = lk.result;
    e.way = lk.way;
    if (lk.hit) e.entry = *lk.hit;
    if (lk.result == TlbResult::kHitSmall || lk.result == TlbResult::kHitLarge) e.pa = model_.translate(*lk.hit, pins.req_va);
  }
}

void TlbScoreboard::flushed(bool operation_in_flight) {
  model_.invalidate_all();
  filled_ = false;
  ++flushes_;
  if (operation_in_flight) coverage_.flush.hit(0);
}

void TlbScoreboard::cover_lookup(const TlbResponse& e, uint8_t size_alias) {
  coverage_.lookup.hit(static_cast<unsigned>(e.result));
  const unsigned found = e.result == TlbResult::kMiss ? 0 : 1;
  if (size_alias & 1) coverage_.size_alias.hit(found);
  if (size_alias & 2) coverage_.size_alias.hit(2 + found);
  if (e.result == TlbResult::kMiss) return;
  if (e.entry.large_page) {
    coverage_.large_entry_flag.hit(e.entry.nested_flag & 0xF);
    if (nested_units(e.entry.nested_flag) > 0) coverage_.flagged_large_page.hit(e.result == TlbResult::kNested ? 1 : 0);
  }
  if (e.result == TlbResult::kNested) return;
  coverage_.hit_task_type.hit(e.entry.task_type);
  coverage_.hit_permission.hit((e.entry.readable ? 1 : 0) | (e.entry.writable ? 2 : 0));
  coverage_.frame_bits |= e.entry.pfn;
}

bool TlbScoreboard::response_taken(const TlbResponse& actual, uint64_t cycle) {
  if (pending_.empty()) throw std::logic_error("TLB scoreboard: a response without an operation");
  Pending& p = pending_.front();  // its slot stays as it is until the next operation is accepted
  pending_.drop_front();
  ++compared_;
  const TlbResponse& e = p.expected;
  if (e.fill) {
    const uint64_t raw = p.pins.req_pte;
    const Pte leaf = Pte::decode(raw);
    coverage_.fill.hit(leaf.large_page ? 1 : 0);
    if (raw & kPteReservedMask) coverage_.malformed_fill.hit(0);
    if (nested_units(leaf.nested_flag) < 0) coverage_.malformed_fill.hit(1);
    if (!leaf.large_page && leaf.nested_flag) coverage_.malformed_fill.hit(2);
    if (leaf.large_page && (leaf.pfn & (geo_.units_per_large() - 1))) coverage_.malformed_fill.hit(3);
    if (e.evicted) coverage_.evicted_way.hit(e.way);
    coverage_.fill_cross.hit_cross({e.evicted ? 1u : 0u, leaf.large_page ? 1u : 0u, flag_class(leaf.nested_flag)});
  } else {
    cover_lookup(e, p.size_alias);
    coverage_.lookup_cross.hit_cross({p.context.attempt ? 1u : 0u, static_cast<size_t>(e.result),
                                      e.result == TlbResult::kMiss ? 0u : flag_class(e.entry.nested_flag)});
  }
  if (e == actual) return true;
  ++mismatches_;
  if (!first_mismatch_)
    first_mismatch_ = TlbMismatch{p.operation,   cycle,          seed_,        p.pins.req_fill,
                                  p.pins.req_va, p.pins.req_pte, p.context,    std::move(p.set_before),
                                  std::move(p.replacement_before), model_.replacement() == Replacement::kPlru, e, actual};
  return false;
}

}  // namespace gpumem::tb
