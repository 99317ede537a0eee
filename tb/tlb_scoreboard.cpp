#include "tlb_scoreboard.hpp"

#include <cstdio>
#include <stdexcept>

namespace gpumem::tb {

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string flag_bits(uint8_t f) {
  std::string s;
  for (int b = 3; b >= 0; --b) s += ((f >> b) & 1) ? '1' : '0';
  return s;
}

std::string entry_text(const TlbEntry& e) {
  if (!e.valid) return "-";
  return std::string(e.large ? "large" : "small") + " vpn " + hex(e.vpn) + " pfn " + hex(e.pfn) + " flag " +
         flag_bits(e.nested_flag) + " task " + std::to_string(e.task) + (e.readable ? " r" : " -") +
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
    s += "  input: fill va " + hex(va) + " with leaf PTE " + hex(pte) + " (" + (p.large ? "large" : "small") + " pfn " +
         hex(p.pfn) + " flag " + flag_bits(p.nested_flag) + " task " + std::to_string(p.task) + "), walk of " +
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

TlbScoreboard::TlbScoreboard(const TlbConfig& cfg, uint64_t seed)
    : evictions_by_way(cfg.ways), seed_(seed), model_(cfg) {}

bool TlbScoreboard::cached(uint64_t va, bool large) const {
  const unsigned set = model_.set_index(va);
  const uint64_t vpn = va >> (large ? model_.geometry().large_bits : model_.geometry().small_bits);
  for (unsigned w = 0; w < model_.ways(); ++w) {
    const TlbEntry& e = model_.entry(set, w);
    if (e.valid && e.large == large && e.vpn == vpn) return true;
  }
  return false;
}

void TlbScoreboard::operation_accepted(const TlbPins& pins, const TlbOpContext& context) {
  Pending p{operations_++, pins, context, {}, {}, {}};
  TlbResponse& e = p.expected;
  e.set = model_.set_index(pins.req_va);
  // The set as it was, for the report: cheap next to the Verilated cycle.
  p.set_before.reserve(model_.ways());
  for (unsigned w = 0; w < model_.ways(); ++w) {
    p.set_before.push_back(model_.entry(e.set, w));
    if (model_.replacement() == Replacement::kLru) p.replacement_before.push_back(model_.lru_age(e.set, w));
    else if (w > 0) p.replacement_before.push_back(model_.plru_bit(e.set, w));
  }
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
  pending_.push_back(std::move(p));
}

void TlbScoreboard::flushed(bool operation_in_flight) {
  model_.invalidate_all();
  ++flushes;
  if (operation_in_flight) ++flushes_in_flight;
}

void TlbScoreboard::cover_lookup(const TlbResponse& e) {
  ++per_result[static_cast<unsigned>(e.result)];
  if (e.result == TlbResult::kMiss) return;
  if (e.entry.large) {
    const int units = nested_units(e.entry.nested_flag);
    const unsigned bin = units <= 0 ? 0 : units == 1 ? 1 : units == 2 ? 2 : units == 4 ? 3 : 4;
    if (units >= 0) ++large_by_flag[bin];
    if (units > 0) ++(e.result == TlbResult::kNested ? large_flagged_inside : large_flagged_outside);
  }
  if (e.result != TlbResult::kNested) ++hits_by_task[e.entry.task & 0xF];
}

bool TlbScoreboard::response_taken(const TlbResponse& actual, uint64_t cycle) {
  if (pending_.empty()) throw std::logic_error("TLB scoreboard: a response without an operation");
  Pending p = std::move(pending_.front());
  pending_.pop_front();
  ++compared_;
  const TlbResponse& e = p.expected;
  if (e.fill) {
    ++fills_by_size[Pte::decode(p.pins.req_pte).large ? 1 : 0];
    if (e.evicted) ++evictions_by_way.at(e.way);
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
