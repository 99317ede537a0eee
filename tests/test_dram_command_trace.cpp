// The DRAM command trace (gpumem run --dram-commands; docs/memory.md, "The
// command trace"): both timing modes give every command they decide, each
// channel's in cycle order, while holding only a bounded few back.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "channel/dram_channel.hpp"
#include "channel/dram_command.hpp"
#include "channel/dram_controller.hpp"
#include "dram_toy.hpp"
#include "stats/dram_command_csv.hpp"
#include "tb/dram/dram_command_check.hpp"
#include "tb/dram/dram_constraints.hpp"

namespace gpumem {
namespace {

struct Collected final : DramCommandSink {
  void command(unsigned channel, const DramCommand& c) override {
    EXPECT_EQ(channel, 3u);
    commands.push_back(c);
  }
  std::vector<DramCommand> commands;
};

DramCommand at(uint64_t cycle, DramCommandKind kind, unsigned bank, bool auto_precharge = false) {
  return {cycle, kind, 0, 0, bank, 7, auto_precharge, 0, 1};
}

TEST(DramCommandOrder, ReleasesInCycleOrderOnlyWhatIsFinal) {
  Collected out;
  DramCommandOrder order(out, 3);
  order.add(at(5, DramCommandKind::kActivate, 0));
  order.add(at(3, DramCommandKind::kActivate, 1));
  order.add(at(9, DramCommandKind::kRead, 0));
  order.release_before(6);
  ASSERT_EQ(out.commands.size(), 2u);
  EXPECT_EQ(out.commands[0].cycle, 3u);
  EXPECT_EQ(out.commands[1].cycle, 5u);
  EXPECT_EQ(order.held(), 1u);
  order.add(at(9, DramCommandKind::kRead, 1));  // a tie keeps the order of deciding
  order.release_all();
  ASSERT_EQ(out.commands.size(), 4u);
  EXPECT_EQ(out.commands[2].bank, 0u);
  EXPECT_EQ(out.commands[3].bank, 1u);
  EXPECT_EQ(order.held(), 0u);
}

TEST(DramCommandOrder, AnAutoPrechargeMarksItsColumnCommandInsteadOfAddingAPrecharge) {
  Collected out;
  DramCommandOrder order(out, 3);
  order.add(at(4, DramCommandKind::kRead, 2));
  order.add(at(12, DramCommandKind::kPrecharge, 2, true));
  order.add(at(6, DramCommandKind::kWrite, 1));
  order.add(at(13, DramCommandKind::kPrecharge, 0, true));  // another bank's: a precharge of its own
  order.release_all();
  ASSERT_EQ(out.commands.size(), 3u);
  EXPECT_EQ(out.commands[0].kind, DramCommandKind::kRead);
  EXPECT_TRUE(out.commands[0].auto_precharge);
  EXPECT_FALSE(out.commands[1].auto_precharge);
  EXPECT_EQ(out.commands[2].kind, DramCommandKind::kPrecharge);
}

// What the trace must list: the commands as the model decided them (its
// test record), in cycle order (a tie in deciding order), each closed-page
// precharge folded into the column command before it.
std::vector<DramCommand> expected_trace(std::vector<DramCommand> decided) {
  std::vector<DramCommand> out;
  for (const DramCommand& c : decided) {
    const bool column = !out.empty() && (out.back().kind == DramCommandKind::kRead || out.back().kind == DramCommandKind::kWrite);
    if (c.kind == DramCommandKind::kPrecharge && c.auto_precharge && column && out.back().bank == c.bank &&
        out.back().bank_group == c.bank_group && out.back().rank == c.rank) {
      out.back().auto_precharge = true;
      continue;
    }
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(), [](const DramCommand& a, const DramCommand& b) { return a.cycle < b.cycle; });
  return out;
}

void expect_same(const std::vector<DramCommand>& traced, const std::vector<DramCommand>& want) {
  ASSERT_EQ(traced.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const DramCommand &a = traced[i], &b = want[i];
    ASSERT_EQ(std::tie(a.cycle, a.kind, a.rank, a.bank_group, a.bank, a.auto_precharge),
              std::tie(b.cycle, b.kind, b.rank, b.bank_group, b.bank, b.auto_precharge))
        << "command " << i << " at cycle " << b.cycle << " (" << dram_command_name(b.kind) << ")";
    if (a.kind != DramCommandKind::kRefresh) {
      EXPECT_EQ(a.row, b.row) << "command " << i;
    }
  }
}

enum class Traffic { kMixed, kReads, kOneBank, kHits, kDense };

struct Case {
  std::string preset;
  PagePolicy policy;
  Traffic traffic;
  bool shared_queue = false;  // bank_queue 0: one read queue, no bank's own
  RefreshMode refresh = RefreshMode::kAllBank;
};
const char* refresh_name(RefreshMode m) {
  return m == RefreshMode::kPerBank ? "per_bank" : m == RefreshMode::kSameBank ? "same_bank" : "all_bank";
}
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.preset << (c.policy == PagePolicy::kOpen ? " open page, " : " closed page, ")
      << (c.traffic == Traffic::kMixed ? "mixed" : c.traffic == Traffic::kReads ? "reads" : "one bank")
      << (c.shared_queue ? ", one shared queue" : "")
      << (c.refresh != RefreshMode::kAllBank ? std::string(", refresh ") + refresh_name(c.refresh) : std::string());
}

DramSpec spec_of(const Case& c) {
  DramSpec s = *dram_preset(c.preset);
  s.refresh = c.refresh;
  s.page_policy = c.policy;
  if (c.shared_queue) s.bank_queue = 0;
  return s;
}

// The independent checker's first violation in `commands`, written as the
// CSV gpumem run --dram-commands writes and read back (tb/dram/).
std::optional<tb::DramViolation> checked(const std::vector<DramCommand>& commands, const DramSpec& spec) {
  const std::string path = ::testing::TempDir() + "gpumem-dram-commands-" + std::to_string(getpid()) + ".csv";
  {
    DramCommandCsv csv(path, spec.refresh);
    for (const DramCommand& c : commands) csv.command(3, c);
    csv.commit();
  }
  const tb::DramCheckResult r = tb::check_dram_command_trace(path, spec, 4);
  std::remove(path.c_str());
  EXPECT_GT(r.commands, 0u);
  return r.violation;
}

// Random requests, arriving in bursts and gaps; each its id.
struct Arrival {
  uint64_t issue, arrival, local;
  bool write;
};
std::vector<Arrival> traffic(const DramChannel& shape, Traffic kind, uint64_t seed, int count = 4000) {
  std::mt19937_64 rng(seed);
  std::vector<Arrival> v;
  uint64_t t = 0;
  const DramSpec& s = shape.spec();
  for (int i = 0; i < count; ++i) {
    if (kind == Traffic::kDense) t += rng() % 2;
    else t += rng() % 4 == 0 ? rng() % 400 : rng() % 3;  // some gaps long enough for refreshes
    DramAddress a;
    a.rank = unsigned(rng() % s.org.ranks);
    a.bank_group = kind == Traffic::kOneBank ? 0 : unsigned(rng() % s.org.bank_groups);
    a.bank = kind == Traffic::kOneBank ? 0 : unsigned(rng() % s.org.banks_per_group);
    a.row = unsigned(rng() % 8);
    a.column = unsigned(rng() % 8);
    if (kind == Traffic::kHits) {  // two banks of each group of one rank, a row each, reads and writes: column after column
      a.rank = 0;
      a.bank = unsigned(rng() % 2);
      a.row = 1;
    }
    if (kind == Traffic::kOneBank) a.rank = 0;
    const bool write = (kind == Traffic::kMixed || kind == Traffic::kHits || kind == Traffic::kDense) && rng() % 3 == 0;
    v.push_back({t, t + (rng() % 8 == 0 ? rng() % 200 : 0), shape.address_map().encode(a), write});  // a walk's delay now and then
  }
  return v;
}

// Each traced command against the request it names: its bank, row and
// (a column command) its column; a refresh and the precharges before it name none.
void expect_requests(const std::vector<DramCommand>& traced, const std::vector<Arrival>& arrivals, const DramAddressMap& map) {
  for (const DramCommand& c : traced) {
    if (c.kind == DramCommandKind::kRefresh) {
      EXPECT_EQ(c.request, DramCommand::kNoRequest) << "a refresh at " << c.cycle;
      continue;
    }
    if (c.request == DramCommand::kNoRequest) {
      EXPECT_EQ(c.kind, DramCommandKind::kPrecharge) << "at " << c.cycle << ": only a refresh's precharge serves no request";
      continue;
    }
    ASSERT_LT(c.request, arrivals.size());
    const DramAddress want = map.decode(arrivals[c.request].local);
    EXPECT_EQ(std::tie(c.rank, c.bank_group, c.bank), std::tie(want.rank, want.bank_group, want.bank)) << "request " << c.request;
    if (c.kind == DramCommandKind::kActivate || c.kind == DramCommandKind::kRead || c.kind == DramCommandKind::kWrite) {
      EXPECT_EQ(c.row, want.row) << dram_command_name(c.kind) << " of request " << c.request;
    }
    if (c.kind == DramCommandKind::kRead || c.kind == DramCommandKind::kWrite) {
      EXPECT_EQ(c.column, want.column) << "request " << c.request;
    }
  }
}

// Commands a model may hold back: those it may still place before others
// (in lt, up to about three refresh intervals' worth behind a rank that
// idles), never a growing share of the run's.
constexpr size_t kHeldBound = 8192;

// Plays `arrivals` into an lt channel as the trace player does: at most 64
// requests outstanding, so a request issues no earlier than the completion
// of the one 64 before it (which moves its arrival with it). Returns what
// was played; `plain`, when given, gets the same accesses untraced and must
// answer alike; `held_max`: the most commands the channel held back at once.
std::vector<Arrival> play_lt(DramChannel& ch, DramChannel* plain, std::vector<Arrival> arrivals, size_t* held_max) {
  std::vector<uint64_t> finish;
  uint64_t issue = 0;
  for (uint64_t id = 0; id < arrivals.size(); ++id) {
    Arrival& a = arrivals[id];
    const uint64_t delay = a.arrival - a.issue;
    issue = std::max({issue, a.issue, id >= 64 ? finish[id - 64] : 0});
    a.issue = issue, a.arrival = issue + delay;
    const auto x = a.write ? ch.write(a.arrival, a.issue, a.local, id) : ch.read(a.arrival, a.issue, a.local, id);
    finish.push_back(x.finish);
    if (plain) {
      const auto y = a.write ? plain->write(a.arrival, a.issue, a.local) : plain->read(a.arrival, a.issue, a.local);
      EXPECT_EQ(std::tie(x.accept, x.start, x.finish, x.row), std::tie(y.accept, y.start, y.finish, y.row))
          << "request " << id << ": the trace changed its timing";
    }
    if (held_max) *held_max = std::max(*held_max, ch.commands_held());
  }
  return arrivals;
}

// Plays `arrivals` into an at controller in arrival order (sorting them so;
// each its index as id) and drains it; `held_max` as play_lt's.
void play_at(DramController& k, std::vector<Arrival>& arrivals, size_t* held_max) {
  std::stable_sort(arrivals.begin(), arrivals.end(), [](const Arrival& a, const Arrival& b) { return a.arrival < b.arrival; });
  std::vector<DramController::Done> done;
  for (uint64_t id = 0; id < arrivals.size(); ++id) {
    k.run_until(arrivals[id].arrival, done);
    k.arrive(id, arrivals[id].arrival, arrivals[id].local, arrivals[id].write, done, false, id);
    if (held_max) *held_max = std::max(*held_max, k.commands_held());
    done.clear();
  }
  k.drain(arrivals.back().arrival, done);
}

// The most commands an lt channel held back at once over `count` requests.
size_t lt_held_max(const Case& c, int count) {
  const DramSpec spec = spec_of(c);
  DramChannel ch(DramParams{spec, spec.tck_ps});
  Collected out;
  ch.trace_commands(out, 3);
  size_t held_max = 0;
  play_lt(ch, nullptr, traffic(ch, c.traffic, 7, count), &held_max);
  return held_max;
}

TEST(DramCommandTraceMemory, AnLtChannelHoldsNoMoreCommandsForALongerRun) {
  for (const char* preset : kDramPresetNames) {
    const Case c{preset, PagePolicy::kOpen, Traffic::kOneBank};  // DDR4: its second rank idles
    const size_t short_run = lt_held_max(c, 4000), long_run = lt_held_max(c, 16000);
    EXPECT_LE(long_run, short_run * 3 / 2 + 64) << preset << ": held " << short_run << " commands over 4000 requests";
  }
}

// What a drained model's trace must be: nothing held, never more than a
// few held, exactly its decided commands in cycle order, each naming its
// request, and none breaking a constraint (the independent checker).
template <typename Model>
void expect_traced_run(const Model& m, const std::vector<DramCommand>& traced, size_t held_max, const std::vector<Arrival>& arrivals,
                       const DramSpec& spec) {
  EXPECT_EQ(m.commands_held(), 0u) << "drain() gives the rest";
  EXPECT_LT(held_max, kHeldBound);
  expect_same(traced, expected_trace(m.commands()));
  expect_requests(traced, arrivals, m.address_map());
  const auto v = checked(traced, spec);
  EXPECT_FALSE(v) << "dram-check: " << v->text();
}

// Each rank's cycles with a bank open, worked out apart from DramStandby:
// every bank's open spans from the decided commands (a closed page's
// precharge at its own cycle), merged per rank.
std::vector<uint64_t> active_cycles(std::vector<DramCommand> decided, unsigned ranks, uint64_t end) {
  std::stable_sort(decided.begin(), decided.end(), [](const DramCommand& a, const DramCommand& b) { return a.cycle < b.cycle; });
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> spans(ranks);
  std::map<std::tuple<unsigned, unsigned, unsigned>, uint64_t> opened;
  for (const DramCommand& c : decided) {
    const auto bank = std::make_tuple(c.rank, c.bank_group, c.bank);
    if (c.kind == DramCommandKind::kActivate) opened.emplace(bank, c.cycle);
    if (c.kind == DramCommandKind::kPrecharge && opened.count(bank)) {
      spans[c.rank].push_back({opened[bank], c.cycle});
      opened.erase(bank);
    }
  }
  for (const auto& [bank, from] : opened) spans[std::get<0>(bank)].push_back({from, end});
  std::vector<uint64_t> active(ranks);
  for (unsigned r = 0; r < ranks; ++r) {
    std::sort(spans[r].begin(), spans[r].end());
    uint64_t reached = 0;
    for (const auto& [from, to] : spans[r]) {
      if (to > std::max(from, reached)) active[r] += to - std::max(from, reached);
      reached = std::max(reached, to);
    }
  }
  return active;
}

// The standby counts (docs/memory.md, "Energy") of a drained model: the
// same traced as not, and as the decided commands say.
template <typename Model>
void expect_standby(const Model& traced, const DramCounters& plain) {
  const DramCounters& n = traced.counters();
  EXPECT_EQ(n.cycles, plain.cycles);
  const std::vector<uint64_t> want = active_cycles(traced.commands(), unsigned(n.ranks.size()), n.cycles);
  for (size_t r = 0; r < n.ranks.size(); ++r) {
    EXPECT_EQ(n.ranks[r].active_cycles, want[r]) << "rank " << r;
    EXPECT_EQ(plain.ranks[r].active_cycles, want[r]) << "rank " << r << ", untraced";
    EXPECT_EQ(n.ranks[r].refreshes, plain.ranks[r].refreshes) << "rank " << r;
  }
  for (const DramCommand& c : traced.commands()) EXPECT_LE(c.cycle, n.cycles);
}

// stats.epoch_cycles: each command counted in the epoch of its own cycle,
// the epochs' standby splitting the run's, every figure summing to the
// run's. `epoch_cycles` model cycles, the model's clock the memory's.
constexpr uint64_t kEpochCycles = 997;

template <typename Model>
void expect_epochs(const Model& m, const DramCounters& with_epochs) {
  const DramCounters& n = m.counters();  // the same run without epochs
  const std::vector<DramCounters>& epochs = with_epochs.epochs;
  ASSERT_FALSE(epochs.empty());
  EXPECT_TRUE(n.epochs.empty());
  std::vector<DramCounters> counted(epochs.size(), DramCounters{});
  for (DramCounters& e : counted) e.banks.resize(n.banks.size()), e.ranks.resize(n.ranks.size());
  const size_t per_rank = n.banks.size() / n.ranks.size(), per_group = per_rank / m.spec().org.bank_groups;
  for (const DramCommand& c : m.commands()) {
    const size_t e = c.cycle / kEpochCycles;
    ASSERT_LT(e, epochs.size()) << dram_command_name(c.kind) << " at " << c.cycle;
    const size_t bank = c.rank * per_rank + c.bank_group * per_group + c.bank;
    if (c.kind == DramCommandKind::kActivate) ++counted[e].banks[bank].activates;
    if (c.kind == DramCommandKind::kPrecharge) ++counted[e].banks[bank].precharges;
    if (c.kind == DramCommandKind::kRead) ++counted[e].banks[bank].reads;
    if (c.kind == DramCommandKind::kWrite) ++counted[e].banks[bank].writes;
  }
  DramCounters sum;
  sum.banks.resize(n.banks.size()), sum.ranks.resize(n.ranks.size());
  for (size_t e = 0; e < epochs.size(); ++e) {
    const DramCounters& x = epochs[e];
    EXPECT_EQ(x.first_cycle, e * kEpochCycles);
    EXPECT_EQ(x.cycles, e + 1 < epochs.size() ? kEpochCycles : n.cycles - x.first_cycle) << "epoch " << e;
    for (size_t b = 0; b < n.banks.size(); ++b) {
      const DramBankCounters &got = x.banks[b], &want = counted[e].banks[b];
      ASSERT_EQ(std::tie(got.activates, got.precharges, got.reads, got.writes),
                std::tie(want.activates, want.precharges, want.reads, want.writes))
          << "epoch " << e << ", bank " << b;
      DramBankCounters& s = sum.banks[b];
      s.row_hits += got.row_hits, s.row_misses += got.row_misses, s.row_conflicts += got.row_conflicts;
    }
    for (size_t r = 0; r < n.ranks.size(); ++r) {
      EXPECT_LE(x.ranks[r].active_cycles, x.cycles);
      sum.ranks[r].active_cycles += x.ranks[r].active_cycles, sum.ranks[r].refreshes += x.ranks[r].refreshes;
    }
    sum.cycles += x.cycles, sum.refreshes += x.refreshes, sum.data_bus_cycles += x.data_bus_cycles;
  }
  EXPECT_EQ(sum.cycles, n.cycles);
  EXPECT_EQ(sum.refreshes, n.refreshes);
  EXPECT_EQ(sum.data_bus_cycles, n.data_bus_cycles);
  for (size_t r = 0; r < n.ranks.size(); ++r) {
    EXPECT_EQ(sum.ranks[r].active_cycles, n.ranks[r].active_cycles) << "rank " << r;
    EXPECT_EQ(sum.ranks[r].refreshes, n.ranks[r].refreshes) << "rank " << r;
  }
  for (size_t b = 0; b < n.banks.size(); ++b)
    EXPECT_EQ(std::tie(sum.banks[b].row_hits, sum.banks[b].row_misses, sum.banks[b].row_conflicts),
              std::tie(n.banks[b].row_hits, n.banks[b].row_misses, n.banks[b].row_conflicts))
        << "bank " << b;
}

class DramCommandTrace : public ::testing::TestWithParam<Case> {};

TEST_P(DramCommandTrace, LtGivesEveryPlannedCommandInCycleOrderHoldingFewAndChangingNothing) {
  const DramSpec spec = spec_of(GetParam());
  DramChannel traced(DramParams{spec, spec.tck_ps}), plain(DramParams{spec, spec.tck_ps, kEpochCycles});  // and epochs
  Collected out;
  traced.record_commands(true);
  traced.trace_commands(out, 3);
  size_t held_max = 0;
  const std::vector<Arrival> arrivals = play_lt(traced, &plain, traffic(traced, GetParam().traffic, 7), &held_max);
  uint64_t last = 0;
  for (const Arrival& a : arrivals) last = std::max(last, a.arrival);
  traced.drain(last);
  plain.drain(last);
  EXPECT_EQ(traced.counters().refreshes, plain.counters().refreshes);
  EXPECT_EQ(traced.counters().data_bus_cycles, plain.counters().data_bus_cycles);
  expect_traced_run(traced, out.commands, held_max, arrivals, spec);
  expect_standby(traced, plain.counters());
  expect_epochs(traced, plain.counters());
}

TEST_P(DramCommandTrace, AtGivesEveryDecidedCommandInCycleOrderHoldingFew) {
  const DramSpec spec = spec_of(GetParam());
  DramController k(DramParams{spec, spec.tck_ps});
  Collected out;
  k.record_commands(true);
  k.trace_commands(out, 3);
  std::vector<Arrival> arrivals = traffic(DramChannel(DramParams{spec, spec.tck_ps}), GetParam().traffic, 7);
  size_t held_max = 0;
  play_at(k, arrivals, &held_max);
  expect_traced_run(k, out.commands, held_max, arrivals, spec);
  DramController plain(DramParams{spec, spec.tck_ps, kEpochCycles});  // and epochs
  play_at(plain, arrivals, nullptr);
  expect_standby(k, plain.counters());
  expect_epochs(k, plain.counters());
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const char* preset : kDramPresetNames)
    for (PagePolicy policy : {PagePolicy::kOpen, PagePolicy::kClosed})
      for (Traffic t : {Traffic::kMixed, Traffic::kReads, Traffic::kOneBank})
        for (bool shared : {false, true}) v.push_back({preset, policy, t, shared});
  // Every preset with the other refresh modes (whether its standard has them or not: the commands must still obey it).
  for (const char* preset : kDramPresetNames)
    for (PagePolicy policy : {PagePolicy::kOpen, PagePolicy::kClosed})
      for (RefreshMode refresh : {RefreshMode::kPerBank, RefreshMode::kSameBank})
        v.push_back({preset, policy, Traffic::kMixed, false, refresh});
  return v;
}

INSTANTIATE_TEST_SUITE_P(, DramCommandTrace, ::testing::ValuesIn(cases()), [](const auto& info) {
  const Case& c = info.param;
  const char* traffic = c.traffic == Traffic::kMixed ? "mixed" : c.traffic == Traffic::kReads ? "reads" : "one_bank";
  return c.preset + (c.policy == PagePolicy::kOpen ? "_open_" : "_closed_") + traffic + (c.shared_queue ? "_shared_queue" : "") +
         (c.refresh != RefreshMode::kAllBank ? std::string("_") + refresh_name(c.refresh) : std::string());
});

}  // namespace
}  // namespace gpumem

namespace gpumem {
namespace {

// The controllers' commands for `arrivals` on a device whose figures are
// `spec`'s: lt played as the trace player plays it, at in arrival order.
std::vector<DramCommand> lt_commands(const DramSpec& spec, const std::vector<Arrival>& arrivals) {
  DramChannel ch(DramParams{spec, spec.tck_ps});
  Collected out;
  ch.trace_commands(out, 3);
  uint64_t last = 0;
  for (const Arrival& a : play_lt(ch, nullptr, arrivals, nullptr)) last = std::max(last, a.arrival);
  ch.drain(last);
  return out.commands;
}

std::vector<DramCommand> at_commands(const DramSpec& spec, std::vector<Arrival> arrivals) {
  DramController k(DramParams{spec, spec.tck_ps});
  Collected out;
  k.trace_commands(out, 3);
  play_at(k, arrivals, nullptr);
  return out.commands;
}

struct Mutant {
  const char* field;
  unsigned DramTiming::*member;
};
constexpr Mutant kMutants[] = {
    {"tRCD", &DramTiming::tRCD},     {"tRCD_WR", &DramTiming::tRCD_WR}, {"tRP", &DramTiming::tRP},       {"tPPD", &DramTiming::tPPD},       {"tRAS", &DramTiming::tRAS},     {"tRC", &DramTiming::tRC},
    {"tRTP", &DramTiming::tRTP},     {"tWR", &DramTiming::tWR},       {"tRRD_L", &DramTiming::tRRD_L}, {"tRRD_S", &DramTiming::tRRD_S},
    {"tCCD_L", &DramTiming::tCCD_L}, {"tCCD_L_WR", &DramTiming::tCCD_L_WR}, {"tCCD_S", &DramTiming::tCCD_S}, {"tWTR_L", &DramTiming::tWTR_L}, {"tWTR_S", &DramTiming::tWTR_S},
    {"tFAW", &DramTiming::tFAW},     {"tRTRS", &DramTiming::tRTRS},   {"tRFC", &DramTiming::tRFC},     {"CL", &DramTiming::CL},
    {"CWL", &DramTiming::CWL},       {"tBL", &DramTiming::tBL},
};

// The first violation the checker finds in the commands of a controller
// built with `mutated` (the device it checks against: `spec`), over traffic
// of every kind until one shows it; "" when none does.
std::string caught(const DramSpec& spec, const DramSpec& mutated, bool at) {
  const DramChannel shape(DramParams{spec, spec.tck_ps});
  for (Traffic t : {Traffic::kDense, Traffic::kMixed, Traffic::kOneBank, Traffic::kHits}) {
    const std::vector<Arrival> arrivals = traffic(shape, t, 11, 6000);
    if (const auto v = checked(at ? at_commands(mutated, arrivals) : lt_commands(mutated, arrivals), spec)) return v->constraint;
  }
  return "";
}

// Each constraint of either controller, in turn off by one or dropped, on
// the toy device (every figure different, so no constraint hides behind
// another; refreshing every 400 cycles): the checker finds it on random
// traffic, under its own name where its table has that constraint. (On the
// presets some are equivalent mutants: DDR4's and HBM2's tRC equals tRAS +
// tRP, so tRC never binds; their tCCD_S equals tBL, the data bus's spacing.)
TEST(DramCheckMutants, EveryConstraintOffByOneOrDroppedInEitherControllerIsCaught) {
  DramSpec spec = toy();
  spec.timing.tREFI = 400;
  spec.timing.tRCD_WR = 6;     // writes timed apart from reads (dropped: tRCD's 4)
  spec.timing.tCCD_L_WR = 7;   // and spaced apart from one another in a bank group (dropped: tCCD_L's 5)
  spec.timing.tPPD = 3;        // precharges spaced apart (dropped: the command bus's 1)
  for (const Mutant& m : kMutants)
    for (bool dropped : {false, true})
      for (bool at : {false, true}) {
        DramSpec mutated = spec;
        mutated.timing.*m.member = dropped ? (std::string(m.field) == "tBL" ? 1 : 0) : spec.timing.*m.member - 1;
        const std::string found = caught(spec, mutated, at);
        const std::string mutant = std::string(m.field) + (dropped ? " dropped" : " off by one") + (at ? " in at" : " in lt");
        EXPECT_FALSE(found.empty()) << mutant << ": not caught";
        bool named = std::string(m.field) == "tFAW";
        for (const tb::DramConstraint& c : tb::kDramConstraints) named = named || m.field == std::string(c.name);
        if (named && !found.empty()) {
          EXPECT_EQ(found, m.field) << mutant;
        }
      }
  // tRFCb, off by one or dropped, with per-bank and with same-bank refresh (charged to the table's tRFC row).
  for (const RefreshMode refresh : {RefreshMode::kPerBank, RefreshMode::kSameBank})
    for (bool dropped : {false, true})
      for (bool at : {false, true}) {
        DramSpec device = spec;
        device.refresh = refresh;
        device.timing.tREFI = 800;  // a bank's refresh every 100 (per bank) or 200 (same bank) cycles
        DramSpec mutated = device;
        mutated.timing.tRFCb = dropped ? 0 : device.timing.tRFCb - 1;
        EXPECT_EQ(caught(device, mutated, at), "tRFC") << "tRFCb " << (dropped ? "dropped" : "off by one") << (at ? " in at" : " in lt")
                                                      << ", refresh " << refresh_name(refresh);
      }
  // tRREFD, off by one or dropped, with per-bank and with same-bank refresh.
  for (const RefreshMode refresh : {RefreshMode::kPerBank, RefreshMode::kSameBank})
    for (bool dropped : {false, true})
      for (bool at : {false, true}) {
        DramSpec device = spec;
        device.refresh = refresh;
        device.timing.tREFI = 800;
        device.timing.tRREFD = 6;
        DramSpec mutated = device;
        mutated.timing.tRREFD = dropped ? 0 : 5;
        EXPECT_EQ(caught(device, mutated, at), "tRREFD") << "tRREFD " << (dropped ? "dropped" : "off by one") << (at ? " in at" : " in lt")
                                                        << ", refresh " << refresh_name(refresh);
      }
  // tPBR2PBR, off by one or dropped, with per-bank and with same-bank
  // refresh: 99, so that any refresh a busy bank delays holds the next.
  for (const RefreshMode refresh : {RefreshMode::kPerBank, RefreshMode::kSameBank})
    for (bool dropped : {false, true})
      for (bool at : {false, true}) {
        DramSpec device = spec;
        device.refresh = refresh;
        device.timing.tREFI = refresh == RefreshMode::kPerBank ? 800 : 400;  // a bank refresh every 100 cycles
        device.timing.tPBR2PBR = 99;
        DramSpec mutated = device;
        mutated.timing.tPBR2PBR = dropped ? 0 : 98;
        EXPECT_EQ(caught(device, mutated, at), "tPBR2PBR") << "tPBR2PBR " << (dropped ? "dropped" : "off by one") << (at ? " in at" : " in lt")
                                                          << ", refresh " << refresh_name(refresh);
      }
  // The command bus: a controller that takes a row and a column command a cycle on a device with one bus.
  for (bool at : {false, true}) {
    DramSpec mutated = spec;
    mutated.dual_command_bus = true;
    EXPECT_EQ(caught(spec, mutated, at), "command bus") << (at ? "at" : "lt");
  }
}

}  // namespace
}  // namespace gpumem
