#include "tb/dram/dram_command_check.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "base/input_error.hpp"
#include "channel/dram_command.hpp"
#include "tb/dram/dram_constraints.hpp"

namespace gpumem::tb {

namespace {

constexpr unsigned kKinds = 5;  // DramCommandSet's bits
unsigned kind_index(unsigned kind) { return unsigned(__builtin_ctz(kind)); }

std::string where(const DramTraceCommand& c) {
  std::string s = "channel " + std::to_string(c.channel) + ", rank " + std::to_string(c.rank);
  if (c.same_bank) s += ", bank " + std::to_string(c.bank) + " of every bank group";
  else if (!c.all_banks) s += ", bank group " + std::to_string(c.bank_group) + ", bank " + std::to_string(c.bank);
  return s;
}

std::string cycles(uint64_t n) { return std::to_string(n) + (n == 1 ? " cycle" : " cycles"); }

}  // namespace

DramTraceMark DramTraceMark::of(const DramTraceCommand& c) {
  DramTraceMark m;
  m.line = c.line;
  m.cycle = c.cycle;
  std::strncpy(m.name, c.name.c_str(), sizeof m.name - 1);
  return m;
}

std::string DramViolation::text() const {
  std::string s = constraint + ": " + command.name + " at cycle " + std::to_string(command.cycle) + " (" + where(command) + ")";
  if (early() > 0) {
    s += " is " + cycles(early()) + " early: ";
    if (earlier) {
      if (earlier->auto_precharge)
        s += "the precharge of " + std::string(earlier->name) + " at line " + std::to_string(earlier->line) + ", from cycle " +
             std::to_string(earlier->cycle) + ",";
      else
        s += std::string(earlier->name) + " at line " + std::to_string(earlier->line) + " (cycle " + std::to_string(earlier->cycle) + ")";
      s += " allows it from cycle " + std::to_string(allowed_from);
    } else {
      s += "allowed from cycle " + std::to_string(allowed_from);
    }
    return s + " (" + why + ")";
  }
  return s + ": " + why;
}

DramCommandChecker::DramCommandChecker(const DramSpec& spec, unsigned channels) : spec_(spec), channels_(channels) {
  const DramOrganization& o = spec_.org;
  const size_t banks = size_t(o.ranks) * o.banks(), groups = size_t(o.ranks) * o.bank_groups;
  for (Channel& ch : channels_) {
    ch.banks.resize(banks);
    ch.by_bank.assign(banks * kKinds, Seen{});
    ch.by_group.assign(groups * kKinds, Seen{});
    ch.by_rank.assign(size_t(o.ranks) * kKinds, Seen{});
    ch.activates.resize(o.ranks);
    ch.last_refresh.assign(spec_.refresh == RefreshMode::kPerBank    ? banks
                           : spec_.refresh == RefreshMode::kSameBank ? size_t(o.ranks) * o.banks_per_group
                                                                     : o.ranks,
                           0);
  }
}

size_t DramCommandChecker::bank_index(const DramTraceCommand& c) const {
  return (size_t(c.rank) * spec_.org.bank_groups + c.bank_group) * spec_.org.banks_per_group + c.bank;
}

DramCommandChecker::Banks DramCommandChecker::banks_of(const DramTraceCommand& c) const {
  const size_t first = size_t(c.rank) * spec_.org.banks();
  if (c.all_banks) return {first, 1, spec_.org.banks()};
  if (c.same_bank) return {first + c.bank, spec_.org.banks_per_group, spec_.org.bank_groups};
  return {bank_index(c), 1, 1};
}

size_t DramCommandChecker::refresh_key(const DramTraceCommand& c) const {
  if (c.same_bank) return size_t(c.rank) * spec_.org.banks_per_group + c.bank;
  return c.all_banks ? c.rank : bank_index(c);
}

std::optional<DramViolation> DramCommandChecker::check(const DramTraceCommand& c) {
  Channel& ch = channels_.at(c.channel);
  std::optional<DramViolation> v = state(ch, c);
  if (!v) v = distances(ch, c);
  if (!v) v = four_activates(ch, c);
  if (!v) v = command_bus(ch, c);
  if (!v) v = data_bus(ch, c);
  if (!v) v = refresh_interval(ch, c);
  remember(ch, c);
  return v;
}

std::optional<DramViolation> DramCommandChecker::state(const Channel& ch, const DramTraceCommand& c) const {
  auto bad = [&](const std::string& why) { return DramViolation{"bank state", c, std::nullopt, 0, why}; };
  if (c.kind == kRef) {
    const Banks banks = banks_of(c);
    for (size_t j = 0, b = banks.first; j < banks.count; ++j, b += banks.stride)
      if (ch.banks[b].open)
        return bad("a refresh of bank group " + std::to_string(b % spec_.org.banks() / spec_.org.banks_per_group) + ", bank " +
                   std::to_string(b % spec_.org.banks_per_group) + ", whose row " + std::to_string(ch.banks[b].row) +
                   " is open (ACT at line " + std::to_string(ch.banks[b].opened.line) + ")");
    return std::nullopt;
  }
  const Bank& b = ch.banks[bank_index(c)];
  const std::string open = b.open ? "row " + std::to_string(b.row) + " is open (ACT at line " + std::to_string(b.opened.line) + ")" : "";
  if (c.kind == kAct && b.open) return bad("an activate of row " + std::to_string(c.row) + " while " + open);
  if (c.kind & kColumn) {
    if (!b.open) return bad("row " + std::to_string(c.row) + " of a closed bank");
    if (b.row != c.row) return bad("row " + std::to_string(c.row) + " while " + open);
  }
  if (c.kind == kPre && !b.open) return bad("a precharge of a closed bank");
  if (c.kind == kPre && b.row != c.row) return bad("a precharge naming row " + std::to_string(c.row) + " while " + open);
  return std::nullopt;
}

std::optional<DramViolation> DramCommandChecker::distances(const Channel& ch, const DramTraceCommand& c) const {
  for (const DramConstraint& row : kDramConstraints) {
    if (!(row.to & c.kind)) continue;
    const unsigned d = row.cycles(spec_);
    // The keys of the scope the earlier command is in: a refresh's banks, or one.
    const std::vector<Seen>& table = row.scope == DramScope::kBank ? ch.by_bank : row.scope == DramScope::kBankGroup ? ch.by_group : ch.by_rank;
    Banks keys = banks_of(c);
    if (row.scope == DramScope::kBankGroup) {
      const size_t group = size_t(c.rank) * spec_.org.bank_groups;
      keys = c.all_banks || c.same_bank ? Banks{group, 1, spec_.org.bank_groups} : Banks{group + c.bank_group, 1, 1};
    }
    if (row.scope == DramScope::kRank) keys = {c.rank, 1, 1};
    for (size_t j = 0, key = keys.first; j < keys.count; ++j, key += keys.stride)
      for (unsigned f = row.from; f; f &= f - 1) {
        const Seen& s = table[key * kKinds + kind_index(f & -f)];
        if (s.any && c.cycle < s.mark.cycle + d)
          return DramViolation{row.name, c, s.mark, s.mark.cycle + d, std::string(row.between) + ", " + cycles(d)};
      }
  }
  return std::nullopt;
}

std::optional<DramViolation> DramCommandChecker::four_activates(const Channel& ch, const DramTraceCommand& c) const {
  const std::deque<DramTraceMark>& acts = ch.activates[c.rank];
  if (c.kind != kAct || acts.size() < 4 || c.cycle >= acts.front().cycle + spec_.timing.tFAW) return std::nullopt;
  return DramViolation{"tFAW", c, acts.front(), acts.front().cycle + spec_.timing.tFAW,
                       "a fifth activate of the rank within tFAW of the first of four, " + cycles(spec_.timing.tFAW)};
}

std::optional<DramViolation> DramCommandChecker::command_bus(const Channel& ch, const DramTraceCommand& c) const {
  if (!ch.any || c.cycle != ch.last_cycle) return std::nullopt;
  const bool column = (c.kind & kColumn) != 0;
  const bool taken = spec_.dual_command_bus ? (column ? ch.column_bus_used : ch.row_bus_used) : ch.row_bus_used || ch.column_bus_used;
  if (!taken) return std::nullopt;
  const DramTraceMark& other = spec_.dual_command_bus ? (column ? ch.column_bus_command : ch.row_bus_command)
                                                      : (ch.row_bus_used ? ch.row_bus_command : ch.column_bus_command);
  return DramViolation{"command bus", c, std::nullopt, 0,
                       std::string("a second ") + (spec_.dual_command_bus ? (column ? "column " : "row ") : "") + "command in cycle " +
                           std::to_string(c.cycle) + ", after " + other.name + " at line " + std::to_string(other.line)};
}

std::optional<DramViolation> DramCommandChecker::data_bus(Channel& ch, const DramTraceCommand& c) const {
  if (!(c.kind & kColumn)) return std::nullopt;
  const DramTiming& t = spec_.timing;
  const bool write = c.kind == kWr;
  // A later command's burst starts no earlier than this: older bursts that
  // end, with a gap, before it can no longer come close to one.
  const uint64_t horizon = c.cycle + std::min(t.CL, t.CWL);
  ch.bursts.erase(std::remove_if(ch.bursts.begin(), ch.bursts.end(),
                                 [&](const Burst& b) { return b.end + t.tRTRS <= horizon; }),
                  ch.bursts.end());
  const uint64_t start = c.cycle + (write ? t.CWL : t.CL), end = start + t.tBL;
  for (const Burst& b : ch.bursts) {
    const unsigned gap = b.rank != c.rank || b.write != write ? t.tRTRS : 0;
    if (start >= b.end + gap || end + gap <= b.start) continue;
    return DramViolation{"data bus", c, b.command, c.cycle + (b.end + gap - start),
                         std::string("its burst, cycles ") + std::to_string(start) + " to " + std::to_string(end) + ", meets that one's, " +
                             std::to_string(b.start) + " to " + std::to_string(b.end) +
                             (gap ? ", which needs a gap of tRTRS, " + cycles(gap) : std::string())};
  }
  return std::nullopt;
}

std::optional<DramViolation> DramCommandChecker::refresh_interval(const Channel& ch, const DramTraceCommand& c) const {
  if (c.kind != kRef || !spec_.timing.tREFI) return std::nullopt;
  const size_t key = refresh_key(c);
  const uint64_t most = 9ull * spec_.timing.tREFI;
  if (c.cycle - ch.last_refresh[key] <= most) return std::nullopt;
  return DramViolation{"tREFI", c, std::nullopt, 0,
                       cycles(c.cycle - ch.last_refresh[key]) + " since the " + (ch.last_refresh[key] ? "last refresh" : "trace's start") +
                           ", more than nine refresh intervals (" + cycles(most) + "): at most eight may be postponed"};
}

std::optional<DramViolation> DramCommandChecker::finish() {
  if (!spec_.timing.tREFI) return std::nullopt;
  const uint64_t most = 9ull * spec_.timing.tREFI;
  for (size_t c = 0; c < channels_.size(); ++c) {
    const Channel& ch = channels_[c];
    if (!ch.any) continue;
    for (size_t key = 0; key < ch.last_refresh.size(); ++key) {
      if (ch.last_cycle - ch.last_refresh[key] <= most) continue;
      DramTraceCommand end;
      end.line = ch.row_bus_used || ch.column_bus_used ? std::max(ch.row_bus_command.line, ch.column_bus_command.line) : 0;
      end.cycle = ch.last_cycle;
      end.channel = unsigned(c);
      const bool per_bank = spec_.refresh == RefreshMode::kPerBank, same_bank = spec_.refresh == RefreshMode::kSameBank;
      const unsigned bpg = spec_.org.banks_per_group;
      end.rank = unsigned(per_bank ? key / spec_.org.banks() : same_bank ? key / bpg : key);
      end.bank_group = unsigned(per_bank ? key % spec_.org.banks() / bpg : 0);
      end.bank = unsigned(per_bank || same_bank ? key % bpg : 0);
      end.all_banks = !per_bank && !same_bank;
      end.same_bank = same_bank;
      end.name = "end of trace";
      return DramViolation{"tREFI", end, std::nullopt, 0,
                           "no refresh for the last " + cycles(ch.last_cycle - ch.last_refresh[key]) +
                               ", more than nine refresh intervals (" + cycles(most) + ")"};
    }
  }
  return std::nullopt;
}

void DramCommandChecker::remember_kind(Channel& ch, const DramTraceCommand& c, unsigned kind, const DramTraceMark& mark,
                                       bool banks_only) {
  const unsigned k = kind_index(kind);
  const Banks banks = banks_of(c);
  for (size_t j = 0, b = banks.first; j < banks.count; ++j, b += banks.stride) ch.by_bank[b * kKinds + k] = {true, mark};
  if (banks_only) return;
  ch.by_group[(size_t(c.rank) * spec_.org.bank_groups + c.bank_group) * kKinds + k] = {true, mark};
  ch.by_rank[size_t(c.rank) * kKinds + k] = {true, mark};
}

void DramCommandChecker::remember(Channel& ch, const DramTraceCommand& c) {
  const DramTraceMark mark = DramTraceMark::of(c);
  if (!ch.any || c.cycle != ch.last_cycle) ch.row_bus_used = ch.column_bus_used = false;
  ch.any = true;
  ch.last_cycle = c.cycle;
  if (c.kind & kColumn) ch.column_bus_used = true, ch.column_bus_command = mark;
  else ch.row_bus_used = true, ch.row_bus_command = mark;
  remember_kind(ch, c, c.kind, mark, c.kind == kRef);
  if (c.kind == kRef) {
    ch.by_rank[size_t(c.rank) * kKinds + kind_index(kRef)] = {true, mark};  // for tRREFD and tPBR2PBR
    ch.last_refresh[refresh_key(c)] = c.cycle;
    return;
  }
  Bank& bank = ch.banks[bank_index(c)];
  if (c.kind == kAct) {
    bank.open = true;
    bank.row = c.row;
    bank.opened = mark;
    std::deque<DramTraceMark>& acts = ch.activates[c.rank];
    acts.push_back(mark);
    if (acts.size() > 4) acts.pop_front();
  }
  if (c.kind == kPre) bank.open = false;
  if (c.kind & kColumn) {
    const DramTiming& t = spec_.timing;
    const bool write = c.kind == kWr;
    const uint64_t start = c.cycle + (write ? t.CWL : t.CL);
    ch.bursts.push_back({start, start + t.tBL, c.rank, write, mark});
  }
  if (!c.auto_precharge) return;
  // RDA, WRA: the bank precharges as soon as every constraint on a
  // precharge allows, and is closed from then on.
  uint64_t at = c.cycle;
  for (const DramConstraint& row : kDramConstraints) {
    if (!(row.to & kPre) || row.scope != DramScope::kBank) continue;
    for (unsigned f = row.from; f; f &= f - 1) {
      const Seen& s = ch.by_bank[bank_index(c) * kKinds + kind_index(f & -f)];
      if (s.any) at = std::max<uint64_t>(at, s.mark.cycle + row.cycles(spec_));
    }
  }
  DramTraceMark pre = mark;
  pre.cycle = at;
  pre.auto_precharge = true;
  remember_kind(ch, c, kPre, pre, true);  // its bank's: no command, so no tPPD from it
  bank.open = false;
}

DramTraceReader::DramTraceReader(std::istream& in, std::string path, const DramSpec& spec, unsigned channels)
    : in_(in), path_(std::move(path)), spec_(spec), channels_(channels), last_cycle_(channels, 0) {
  std::string header;
  if (!std::getline(in_, header)) throw InputError(path_, 0, "", "empty: not a DRAM command trace (gpumem run --dram-commands writes one)");
  line_ = 1;
  if (!header.empty() && header.back() == '\r') header.pop_back();
  if (header != kDramCommandHeader)
    throw InputError(path_, 1, "",
                     "not a DRAM command trace: its first line is '" + header.substr(0, 80) + "', not '" + kDramCommandHeader +
                         "' (gpumem run --dram-commands writes one)");
}

namespace {

constexpr const char* kColumns[] = {"cycle", "channel", "rank", "bank_group", "bank", "row", "column", "command", "request"};

struct Named {
  const char* name;
  unsigned kind;
  bool auto_precharge;
  RefreshMode refresh;  // a refresh: the mode that issues it
};
constexpr RefreshMode kAny = RefreshMode::kAllBank;
constexpr Named kNames[] = {{"ACT", kAct, false, kAny},  {"PRE", kPre, false, kAny},
                            {"RD", kRd, false, kAny},    {"WR", kWr, false, kAny},
                            {"RDA", kRd, true, kAny},    {"WRA", kWr, true, kAny},
                            {"REF", kRef, false, RefreshMode::kAllBank}, {"REFpb", kRef, false, RefreshMode::kPerBank},
                            {"REFsb", kRef, false, RefreshMode::kSameBank}};
const char* refresh_name(RefreshMode m) {
  return m == RefreshMode::kPerBank    ? "one bank at a time (REFpb)"
         : m == RefreshMode::kSameBank ? "a bank of every bank group at a time (REFsb)"
                                       : "all banks at once (REF)";
}

}  // namespace

bool DramTraceReader::next(DramTraceCommand& c) {
  std::string& text = text_;
  if (!std::getline(in_, text)) return false;
  ++line_;
  if (!text.empty() && text.back() == '\r') text.pop_back();
  const int line = int(line_);
  std::vector<std::string>& f = fields_;
  f.clear();
  for (size_t from = 0;;) {
    const size_t comma = text.find(',', from);
    f.emplace_back(text, from, comma == std::string::npos ? std::string::npos : comma - from);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (f.size() != 9)
    throw InputError(path_, line, "", std::to_string(f.size()) + " fields, not 9 (" + kDramCommandHeader + ")");
  auto number = [&](size_t i, uint64_t below, const std::string& what) {
    const std::string& s = f[i];
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
      throw InputError(path_, line, kColumns[i], "'" + s + "' is not an unsigned integer");
    const uint64_t v = std::stoull(s);
    if (v >= below) throw InputError(path_, line, kColumns[i], s + " is past the " + what + " (" + std::to_string(below) + ")");
    return v;
  };
  auto empty = [&](size_t i, const std::string& why) {
    if (!f[i].empty()) throw InputError(path_, line, kColumns[i], "'" + f[i] + "': " + why);
  };
  const Named* n = nullptr;
  for (const Named& x : kNames)
    if (f[7] == x.name) n = &x;
  if (!n)
    throw InputError(path_, line, "command", "unknown command '" + f[7] + "' (ACT, PRE, RD, WR, RDA, WRA, REF, REFpb, REFsb)");
  if (n->kind == kRef && n->refresh != spec_.refresh)
    throw InputError(path_, line, "command", f[7] + ": the config's device refreshes " + refresh_name(spec_.refresh));
  const DramOrganization& o = spec_.org;
  c = DramTraceCommand{};
  c.line = line_;
  c.cycle = number(0, ~uint64_t{0}, "cycles");
  c.channel = unsigned(number(1, channels_, "config's channels"));
  c.rank = unsigned(number(2, o.ranks, "config's ranks"));
  c.kind = n->kind;
  c.auto_precharge = n->auto_precharge;
  c.all_banks = n->kind == kRef && n->refresh == RefreshMode::kAllBank;
  c.same_bank = n->kind == kRef && n->refresh == RefreshMode::kSameBank;
  c.name = n->name;
  if (c.all_banks) {
    empty(3, "a refresh of every bank names no bank group");
    empty(4, "a refresh of every bank names no bank");
  } else if (c.same_bank) {
    empty(3, "a same-bank refresh names no bank group: it refreshes its bank in every one");
    c.bank = unsigned(number(4, o.banks_per_group, "config's banks per group"));
  } else {
    c.bank_group = unsigned(number(3, o.bank_groups, "config's bank groups"));
    c.bank = unsigned(number(4, o.banks_per_group, "config's banks per group"));
  }
  if (c.kind == kRef) empty(5, "a refresh names no row");
  else c.row = uint32_t(number(5, o.rows, "config's rows"));
  if (c.kind & kColumn) c.column = uint32_t(number(6, o.columns, "config's columns"));
  else empty(6, "only a read or a write names a column");
  if (!f[8].empty()) number(8, ~uint64_t{0}, "ids");
  if (c.cycle < last_cycle_[c.channel])
    throw InputError(path_, line, "cycle",
                     std::to_string(c.cycle) + " comes after cycle " + std::to_string(last_cycle_[c.channel]) + " of channel " +
                         std::to_string(c.channel) + ": each channel's commands come in cycle order");
  last_cycle_[c.channel] = c.cycle;
  ++commands_;
  return true;
}

DramCheckResult check_dram_command_trace(const std::string& path, const DramSpec& spec, unsigned channels) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", std::string("cannot open: ") + std::strerror(errno));
  DramTraceReader reader(in, path, spec, channels);
  DramCommandChecker checker(spec, channels);
  DramCheckResult r;
  DramTraceCommand c;
  while (!r.violation && reader.next(c)) r.violation = checker.check(c);
  if (!r.violation) r.violation = checker.finish();
  r.commands = reader.commands();
  return r;
}

}  // namespace gpumem::tb
