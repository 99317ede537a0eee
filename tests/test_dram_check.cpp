// The checker of DRAM command traces (tb/dram/; gpumem dram-check): each
// constraint of its table catches a command one cycle early and lets it
// pass on time, worked on the toy device whose figures all differ.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/input_error.hpp"
#include "channel/dram_command.hpp"
#include "dram_toy.hpp"
#include "tb/dram/dram_command_check.hpp"
#include "tb/dram/dram_constraints.hpp"

namespace gpumem::tb {
namespace {

DramTraceCommand cmd(uint64_t cycle, const std::string& name, unsigned rank, unsigned bg, unsigned bank, uint32_t row = 0) {
  DramTraceCommand c;
  c.cycle = cycle;
  c.name = name;
  c.rank = rank, c.bank_group = bg, c.bank = bank, c.row = row;
  c.kind = name == "ACT" ? kAct : name == "PRE" ? kPre : name == "RD" || name == "RDA" ? kRd : name == "WR" || name == "WRA" ? kWr : kRef;
  c.auto_precharge = name == "RDA" || name == "WRA";
  c.all_banks = name == "REF";
  c.same_bank = name == "REFsb";
  return c;
}
DramTraceCommand ref(uint64_t cycle, unsigned rank) { return cmd(cycle, "REF", rank, 0, 0); }

// The trace up to its last command, and the last command's earliest legal cycle.
struct Scenario {
  std::vector<DramTraceCommand> before;
  DramTraceCommand last;
  DramSpec spec = toy();  // a constraint the toy leaves 0 is set here
};

// For each constraint, a trace on the toy device (tests/dram_toy.hpp) in
// which that constraint, and no other, sets the last command's cycle.
// tRCD 4, tRP 3, tRAS 8, tRC 13, tRTP 2, tWR 3 (+ CWL 3 + tBL 2), tRRD 4/2,
// tCCD 5/3, tWTR 4/2 (+ CWL + tBL), tFAW 10, tRTRS 2, tRFC 20, CL 5.
const std::map<std::string, std::function<Scenario()>> kScenarios = {
    {"tRC", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(8, "PRE", 0, 0, 0)}, cmd(13, "ACT", 0, 0, 0)}; }},
    {"tRCD", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0)}, cmd(4, "RD", 0, 0, 0)}; }},
    {"tRCD_WR", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0)}, cmd(4, "WR", 0, 0, 0)}; }},  // the toy's tRCD_WR is 0: tRCD
    {"tRAS", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0)}, cmd(8, "PRE", 0, 0, 0)}; }},
    {"tRP", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(20, "PRE", 0, 0, 0)}, cmd(23, "ACT", 0, 0, 0)}; }},
    {"tRTP", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(10, "RD", 0, 0, 0)}, cmd(12, "PRE", 0, 0, 0)}; }},
    {"tWR", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(10, "WR", 0, 0, 0)}, cmd(18, "PRE", 0, 0, 0)}; }},
    {"tPPD",  // toy: none; 3 here
     [] {
       Scenario s{{cmd(0, "ACT", 0, 0, 0), cmd(2, "ACT", 0, 1, 0), cmd(10, "PRE", 0, 0, 0)}, cmd(13, "PRE", 0, 1, 0)};
       s.spec.timing.tPPD = 3;
       return s;
     }},
    {"tRREFD",  // toy: none; 6 here, with same-bank refresh
     [] {
       Scenario s{{cmd(0, "REFsb", 0, 0, 0)}, cmd(6, "ACT", 0, 0, 1)};
       s.spec.refresh = RefreshMode::kSameBank;
       s.spec.timing.tRREFD = 6;
       return s;
     }},
    {"tPBR2PBR",  // toy: none; 5 here, with per-bank refresh
     [] {
       Scenario s{{cmd(0, "REFpb", 0, 0, 0)}, cmd(5, "REFpb", 0, 1, 0)};
       s.spec.refresh = RefreshMode::kPerBank;
       s.spec.timing.tPBR2PBR = 5;
       return s;
     }},
    {"tRRD_L (refresh)",  // per-bank refresh
     [] {
       Scenario s{{cmd(0, "ACT", 0, 0, 0)}, cmd(4, "REFpb", 0, 0, 1)};
       s.spec.refresh = RefreshMode::kPerBank;
       return s;
     }},
    {"tRRD_S (refresh)",
     [] {
       Scenario s{{cmd(0, "ACT", 0, 0, 0)}, cmd(2, "REFpb", 0, 1, 0)};
       s.spec.refresh = RefreshMode::kPerBank;
       return s;
     }},
    {"tRC (refresh)", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(8, "PRE", 0, 0, 0)}, ref(13, 0)}; }},
    {"tRFC", [] { return Scenario{{ref(0, 0)}, cmd(20, "ACT", 0, 0, 0)}; }},
    {"tRRD_L", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0)}, cmd(4, "ACT", 0, 0, 1)}; }},
    {"tRRD_S", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0)}, cmd(2, "ACT", 0, 1, 0)}; }},
    {"tCCD_L",
     [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(10, "ACT", 0, 0, 1), cmd(20, "RD", 0, 0, 0)}, cmd(25, "RD", 0, 0, 1)}; }},
    {"tCCD_L_WR",  // the toy's tCCD_L_WR is 0: tCCD_L
     [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(10, "ACT", 0, 0, 1), cmd(20, "WR", 0, 0, 0)}, cmd(25, "WR", 0, 0, 1)}; }},
    {"tCCD_S",
     [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(10, "ACT", 0, 1, 0), cmd(20, "RD", 0, 0, 0)}, cmd(23, "RD", 0, 1, 0)}; }},
    {"tWTR_L",
     [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(10, "ACT", 0, 0, 1), cmd(20, "WR", 0, 0, 0)}, cmd(29, "RD", 0, 0, 1)}; }},
    {"tWTR_S",
     [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(10, "ACT", 0, 1, 0), cmd(20, "WR", 0, 0, 0)}, cmd(27, "RD", 0, 1, 0)}; }},
    // Checked besides the table.
    {"tFAW",
     [] {
       return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(2, "ACT", 0, 1, 0), cmd(4, "ACT", 0, 0, 1), cmd(6, "ACT", 0, 1, 1)},
                       cmd(10, "ACT", 0, 0, 2)};
     }},
    {"data bus",
     [] { return Scenario{{cmd(0, "ACT", 0, 0, 0), cmd(1, "ACT", 1, 0, 0), cmd(20, "RD", 0, 0, 0)}, cmd(24, "RD", 1, 0, 0)}; }},
    {"command bus", [] { return Scenario{{cmd(0, "ACT", 0, 0, 0)}, cmd(1, "ACT", 1, 0, 0)}; }},
};

std::vector<DramTraceCommand> numbered(std::vector<DramTraceCommand> v) {
  for (size_t i = 0; i < v.size(); ++i) v[i].line = i + 2;  // after the header
  return v;
}

// The first violation of the trace, or none.
std::optional<DramViolation> first_violation(const DramSpec& spec, const std::vector<DramTraceCommand>& trace) {
  DramCommandChecker checker(spec, 1);
  for (const DramTraceCommand& c : numbered(trace))
    if (auto v = checker.check(c)) return v;
  return checker.finish();
}

std::vector<std::string> constraint_names() {
  std::vector<std::string> names;
  for (const DramConstraint& c : kDramConstraints) names.push_back(c.name);
  for (const char* c : kDramCheckedBesides)
    if (std::string(c) != "tREFI" && std::string(c) != "bank state") names.push_back(c);  // their own tests below
  return names;
}

class DramCheckConstraint : public ::testing::TestWithParam<std::string> {};

TEST_P(DramCheckConstraint, CatchesTheCommandOneCycleEarlyAndPassesItOnTime) {
  const auto it = kScenarios.find(GetParam());
  ASSERT_NE(it, kScenarios.end()) << "constraint " << GetParam() << " has no scenario here: add one";
  Scenario s = it->second();
  std::vector<DramTraceCommand> trace = s.before;
  trace.push_back(s.last);
  const auto on_time = first_violation(s.spec, trace);
  EXPECT_FALSE(on_time) << on_time->text();
  --trace.back().cycle;
  const auto early = first_violation(s.spec, trace);
  ASSERT_TRUE(early) << GetParam() << ": one cycle early went unseen";
  EXPECT_EQ(early->constraint, GetParam()) << early->text();
  if (GetParam() != "command bus") {
    EXPECT_EQ(early->early(), 1u) << early->text();
  }
}

INSTANTIATE_TEST_SUITE_P(, DramCheckConstraint, ::testing::ValuesIn(constraint_names()), [](const auto& info) {
  std::string n = info.param;
  for (char& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
});

TEST(DramCheck, ARefreshAfterNineIntervalsIsLate) {
  DramSpec s = toy();
  s.timing.tREFI = 100;
  EXPECT_FALSE(first_violation(s, {ref(100, 1), ref(900, 0), ref(1000, 1), ref(1800, 0), ref(1900, 1)}));
  const auto late = first_violation(s, {ref(900, 0), ref(1801, 0)});
  ASSERT_TRUE(late);
  EXPECT_EQ(late->constraint, "tREFI");
  // A rank left without one to the end of the trace.
  const auto never = first_violation(s, {ref(900, 0), ref(901 + 900, 1)});
  ASSERT_TRUE(never);
  EXPECT_EQ(never->constraint, "tREFI") << never->text();
}

TEST(DramCheck, TheBanksStateIsHeld) {
  const auto closed = first_violation(toy(), {cmd(10, "RD", 0, 0, 0)});
  ASSERT_TRUE(closed);
  EXPECT_EQ(closed->constraint, "bank state");
  const auto other_row = first_violation(toy(), {cmd(0, "ACT", 0, 0, 0, 3), cmd(10, "RD", 0, 0, 0, 4)});
  ASSERT_TRUE(other_row);
  EXPECT_EQ(other_row->constraint, "bank state") << other_row->text();
  const auto twice = first_violation(toy(), {cmd(0, "ACT", 0, 0, 0), cmd(20, "ACT", 0, 0, 0)});
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->constraint, "bank state");
  const auto refresh_open = first_violation(toy(), {cmd(0, "ACT", 0, 0, 2), ref(30, 0)});
  ASSERT_TRUE(refresh_open);
  EXPECT_EQ(refresh_open->constraint, "bank state");
  EXPECT_FALSE(first_violation(toy(), {cmd(0, "ACT", 0, 0, 2), ref(30, 1)})) << "the other rank's banks are closed";
}

// DDR5's same-bank refresh: REFsb names a bank and refreshes it in every
// bank group, each kept from an activate for tRFCb (toy: 10); the other
// banks are free, and each bank of a group is owed its refresh apart.
TEST(DramCheck, ASameBankRefreshHoldsItsBankInEveryGroup) {
  DramSpec s = toy();
  s.refresh = RefreshMode::kSameBank;
  EXPECT_FALSE(first_violation(s, {cmd(0, "REFsb", 0, 0, 2), cmd(10, "ACT", 0, 1, 2)}));
  const auto early = first_violation(s, {cmd(0, "REFsb", 0, 0, 2), cmd(9, "ACT", 0, 1, 2)});
  ASSERT_TRUE(early);
  EXPECT_EQ(early->constraint, "tRFC") << early->text();
  EXPECT_EQ(early->early(), 1u);
  EXPECT_EQ(early->text().substr(0, 60), "tRFC: ACT at cycle 9 (channel 0, rank 0, bank group 1, bank ");
  EXPECT_FALSE(first_violation(s, {cmd(0, "REFsb", 0, 0, 2), cmd(1, "ACT", 0, 1, 3)})) << "another bank";
  const auto open = first_violation(s, {cmd(0, "ACT", 0, 1, 2), cmd(30, "REFsb", 0, 0, 2)});
  ASSERT_TRUE(open);
  EXPECT_EQ(open->constraint, "bank state") << open->text();
  EXPECT_FALSE(first_violation(s, {cmd(0, "ACT", 0, 1, 2), cmd(30, "REFsb", 0, 0, 1)})) << "bank 1 of every group is closed";
  s.timing.tREFI = 100;
  s.org.ranks = 1;
  std::vector<DramTraceCommand> round;  // banks 0-3 in turn, each every 400 cycles
  for (uint64_t t = 25; t <= 1225; t += 25) round.push_back(cmd(t, "REFsb", 0, 0, unsigned(t / 25 % 4)));
  const auto on_time = first_violation(s, round);
  EXPECT_FALSE(on_time) << on_time->text();
  round.push_back(cmd(2200, "REFsb", 0, 0, 0));
  const auto late = first_violation(s, round);
  ASSERT_TRUE(late);
  EXPECT_EQ(late->constraint, "tREFI") << late->text();
  EXPECT_NE(late->text().find("bank 0 of every bank group"), std::string::npos) << late->text();
}

// A same-bank refresh refreshes a bank of the activate's group, whatever
// its group: tRRD_L (toy: 4) after it, not tRRD_S. An all-bank refresh
// waits tRC, and tRRD adds nothing (the refresh rows' figure is 0).
TEST(DramCheck, ASameBankRefreshKeepsTRRD_LFromAnActivateOfAnyGroup) {
  DramSpec s = toy();
  s.refresh = RefreshMode::kSameBank;
  EXPECT_FALSE(first_violation(s, {cmd(0, "ACT", 0, 1, 0), cmd(4, "REFsb", 0, 0, 2)}));
  const auto early = first_violation(s, {cmd(0, "ACT", 0, 1, 0), cmd(3, "REFsb", 0, 0, 2)});
  ASSERT_TRUE(early);
  EXPECT_EQ(early->constraint, "tRRD_L (refresh)") << early->text();
  EXPECT_EQ(early->early(), 1u);
  s.refresh = RefreshMode::kAllBank;
  EXPECT_FALSE(first_violation(s, {cmd(0, "ACT", 0, 1, 0), cmd(8, "PRE", 0, 1, 0), cmd(13, "REF", 0, 0, 0)}));
}

// A trace's refresh must be the config's kind, REFsb naming its bank alone.
TEST(DramCheck, ARefreshOfAnotherKindThanTheDevicesIsRefused) {
  DramSpec s = toy();
  s.refresh = RefreshMode::kSameBank;
  const auto read = [&](const std::string& line) {
    std::istringstream in(std::string(kDramCommandHeader) + "\n" + line + "\n");
    DramTraceReader reader(in, "d.csv", s, 1);
    DramTraceCommand c;
    try {
      reader.next(c);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string(c.same_bank ? "REFsb of bank " + std::to_string(c.bank) : "other");
  };
  EXPECT_EQ(read("7,0,1,,3,,,REFsb,"), "REFsb of bank 3");
  EXPECT_NE(read("7,0,1,0,3,,,REFsb,").find("d.csv:2: bank_group: '0': a same-bank refresh names no bank group"), std::string::npos);
  EXPECT_NE(read("7,0,1,,,,,REF,").find("REF: the config's device refreshes a bank of every bank group at a time (REFsb)"),
            std::string::npos);
  s.refresh = RefreshMode::kAllBank;
  EXPECT_NE(read("7,0,1,,3,,,REFsb,").find("REFsb: the config's device refreshes all banks at once (REF)"), std::string::npos);
}

TEST(DramCheck, AnAutoPrechargeClosesTheBankWhenItsConstraintsAllow) {
  // RDA at 4: the precharge begins at ACT + tRAS = 8, the next ACT tRP later.
  EXPECT_FALSE(first_violation(toy(), {cmd(0, "ACT", 0, 0, 0), cmd(4, "RDA", 0, 0, 0), cmd(13, "ACT", 0, 0, 0)}));
  const auto early = first_violation(toy(), {cmd(0, "ACT", 0, 0, 0), cmd(4, "RDA", 0, 0, 0), cmd(20, "RD", 0, 0, 0)});
  ASSERT_TRUE(early);
  EXPECT_EQ(early->constraint, "bank state") << "no column command after RDA";
  // WRA at 10: its precharge waits CWL + tBL + tWR = 8, to 18; ACT at 21.
  const auto act = first_violation(toy(), {cmd(0, "ACT", 0, 0, 0), cmd(10, "WRA", 0, 0, 0), cmd(20, "ACT", 0, 0, 0)});
  ASSERT_TRUE(act);
  EXPECT_EQ(act->constraint, "tRP");
  EXPECT_EQ(act->allowed_from, 21u) << act->text();
}

// tPPD spaces precharge commands; an RDA's precharge is none.
TEST(DramCheck, AnAutoPrechargeIsNotSpacedFromAPrecharge) {
  DramSpec s = toy();
  s.timing.tPPD = 3;
  // RDA at 4: its precharge begins at ACT + tRAS = 8; a PRE of another bank at 9 is in time.
  EXPECT_FALSE(first_violation(s, {cmd(0, "ACT", 0, 0, 0), cmd(2, "ACT", 0, 1, 0), cmd(4, "RDA", 0, 0, 0), cmd(10, "PRE", 0, 1, 0)}));
}

TEST(DramCheck, TheReportNamesBothCommandsTheConstraintAndTheCycles) {
  const auto v = first_violation(toy(), {cmd(0, "ACT", 0, 1, 2), cmd(3, "RD", 0, 1, 2)});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->text(),
            "tRCD: RD at cycle 3 (channel 0, rank 0, bank group 1, bank 2) is 1 cycle early: ACT at line 2 (cycle 0) allows "
            "it from cycle 4 (activate, then read, 4 cycles)");
}

}  // namespace
}  // namespace gpumem::tb
