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

}  // namespace

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
  if (!fill) s += row("result", tlb_result_name(expected.result), tlb_result_name(actual.result));
  s += row("set", std::to_string(expected.set), std::to_string(actual.set));
  s += row(fill ? "way" : "hit way", std::to_string(expected.way), std::to_string(actual.way));
  if (fill) {
    s += row("evicted", expected.evicted ? "yes" : "no", actual.evicted ? "yes" : "no");
    s += row("victim", entry_text(expected.entry), entry_text(actual.entry));
  } else {
    s += row("pa", hex(expected.pa), hex(actual.pa));
    s += row("entry", entry_text(expected.entry), entry_text(actual.entry));
  }
  if (expected.fill != actual.fill) s += row("op", expected.fill ? "fill" : "lookup", actual.fill ? "fill" : "lookup");
  return s;
}

TlbScoreboard::TlbScoreboard(const TlbParams& cfg, uint64_t seed)
    : seed_(seed), model_(cfg), coverage_(cfg.ways) {}

void TlbScoreboard::edge(const TlbPins& pins, const TlbEdge& e, const TlbOpContext& context, uint64_t cycle) {
  if (e.rsp_taken) response_taken(e.rsp, cycle);
  if (e.rsp_stalled) response_stalled();
  if (e.req_accepted) operation_accepted(pins, context);
  // "In flight" from the bench's handshakes alone, not from the RTL's state.
  const bool in_flight = e.req_accepted || (rsp_pending_ && !e.rsp_taken);
  if (pins.flush) flushed(in_flight);
  rsp_pending_ = in_flight;
}

void TlbScoreboard::operation_accepted(const TlbPins& pins, const TlbOpContext& context) {
  Pending& p = pending_.push_back();
  p.operation = operations_++;
  p.pins = pins;
  p.context = context;
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
    const TlbFill f = model_.fill(pins.req_va, Pte::decode(pins.req_pte));
    e.fill = true;
    e.way = f.way;
    e.evicted = f.evicted;
    if (f.evicted) e.entry = f.victim;
  } else {
    const TlbLookup lk = model_.lookup(pins.req_va);
    e.result = lk.result;
    e.way = lk.way;
    if (lk.hit) e.entry = *lk.hit;
    if (lk.result == TlbResult::kHitSmall || lk.result == TlbResult::kHitLarge) e.pa = model_.translate(*lk.hit, pins.req_va);
  }
}

void TlbScoreboard::flushed(bool operation_in_flight) {
  model_.invalidate_all();
  ++flushes_;
  if (operation_in_flight) coverage_.flush.hit(0);
}

void TlbScoreboard::cover_lookup(const TlbResponse& e) {
  coverage_.lookup.hit(static_cast<unsigned>(e.result));
  if (e.result == TlbResult::kMiss) return;
  if (e.entry.large_page) {
    const int units = nested_units(e.entry.nested_flag);  // 0, 1, 2, 4, 8; -1 for a flag that is not one-hot
    if (units >= 0) coverage_.large_entry_flag.hit(units == 0 ? 0 : 1 + __builtin_ctz(static_cast<unsigned>(units)));
    if (units > 0) coverage_.flagged_large_page.hit(e.result == TlbResult::kNested ? 1 : 0);
  }
  if (e.result != TlbResult::kNested) coverage_.hit_task_type.hit(e.entry.task_type);
}

bool TlbScoreboard::response_taken(const TlbResponse& actual, uint64_t cycle) {
  if (pending_.empty()) throw std::logic_error("TLB scoreboard: a response without an operation");
  Pending& p = pending_.front();  // its slot stays as it is until the next operation is accepted
  pending_.drop_front();
  ++compared_;
  const TlbResponse& e = p.expected;
  if (e.fill) {
    coverage_.fill.hit(Pte::decode(p.pins.req_pte).large_page ? 1 : 0);
    if (e.evicted) coverage_.evicted_way.hit(e.way);
  } else {
    cover_lookup(e);
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
