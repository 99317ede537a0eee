// Directed tests of the controller of simulation.timing: at, which decides
// at command time (docs/memory.md, "Deciding at command time"), worked by
// hand on the toy device (dram_toy.hpp); and its agreement with
// the planner of lt wherever requests do not compete.
#include <gtest/gtest.h>
#include <malloc.h>

#include <map>
#include <random>
#include <string>
#include <tuple>

#include "channel/dram_channel.hpp"
#include "channel/dram_controller.hpp"
#include "dram_toy.hpp"

namespace gpumem {
namespace {

struct Ctl {
  explicit Ctl(const DramSpec& spec) : c(DramParams{spec, spec.tck_ps}) { c.record_commands(true); }
  uint64_t addr(unsigned rank, unsigned bg, unsigned bank, uint32_t row, uint32_t column = 0) const {
    DramAddress a;
    a.rank = rank, a.bank_group = bg, a.bank = bank, a.row = row, a.column = column;
    return c.address_map().encode(a);
  }
  // A request arriving at cycle t (every cycle before it decided first); its token.
  uint64_t read(uint64_t t, uint64_t local) { return arrive(t, local, false); }
  uint64_t prefetch(uint64_t t, uint64_t local) {
    c.run_until(t, done);
    c.arrive(next, t, local, false, done, true);
    return next++;
  }
  uint64_t write(uint64_t t, uint64_t local) { return arrive(t, local, true); }
  uint64_t arrive(uint64_t t, uint64_t local, bool write) {
    c.run_until(t, done);
    c.arrive(next, t, local, write, done);
    return next++;
  }
  void run(uint64_t until) { c.run_until(until, done); }
  void drain(uint64_t cycle = 0) { c.drain(cycle, done); }
  // What the controller said of a request, running on until it says it.
  DramController::Done of(uint64_t token) {
    for (;;) {
      for (const auto& d : done)
        if (d.token == token) return d;
      if (!c.busy()) break;
      c.run_until(c.next_decision() + 1, done);
    }
    ADD_FAILURE() << "no answer for request " << token;
    return {};
  }
  int64_t cycle(DramCommandKind kind, unsigned n = 0) const {
    for (const DramCommand& x : c.commands())
      if (x.kind == kind && n-- == 0) return int64_t(x.cycle);
    return -1;
  }
  size_t count(DramCommandKind kind) const {
    size_t n = 0;
    for (const DramCommand& x : c.commands()) n += x.kind == kind;
    return n;
  }
  DramController c;
  std::vector<DramController::Done> done;
  uint64_t next = 0;
};

TEST(DramController, AReadToAClosedBank_tRCDAndCLAndtBL) {
  Ctl d(toy());
  const auto r = d.of(d.read(0, d.addr(0, 0, 0, 0)));
  EXPECT_EQ(d.cycle(ACT), 0);
  EXPECT_EQ(d.cycle(RD), 4);         // ACT + tRCD
  EXPECT_EQ(r.finish, 4u + 5 + 2);   // RD + CL + tBL
  EXPECT_EQ(r.row, RowResult::kMiss);
  EXPECT_EQ(r.start, 0u);
  EXPECT_EQ(r.accept, 0u);
}

// tRCD_WR: a write follows its activate by it, a read by tRCD.
TEST(DramController, AWriteToAClosedBank_tRCD_WR) {
  DramSpec s = toy();
  s.timing.tRCD_WR = 6;
  Ctl d(s);
  d.write(0, d.addr(0, 0, 0, 0));
  d.read(10, d.addr(0, 1, 0, 0));
  d.run(100);
  EXPECT_EQ(d.cycle(ACT), 0);
  EXPECT_EQ(d.cycle(WR), 6);  // ACT + tRCD_WR (tRCD: 4)
  EXPECT_EQ(d.cycle(RD), d.cycle(ACT, 1) + 4) << "a read keeps tRCD";
}

// tCCD_L_WR: two writes in a bank group that far apart, two reads tCCD_L.
TEST(DramController, TwoWritesInABankGroup_tCCD_L_WR) {
  DramSpec s = toy();
  s.timing.tCCD_L_WR = 9;
  Ctl d(s);
  d.write(0, d.addr(0, 0, 0, 0));
  d.write(0, d.addr(0, 0, 1, 0));  // the same bank group, another bank
  d.read(40, d.addr(0, 0, 2, 0));
  d.read(40, d.addr(0, 0, 3, 0));
  d.run(200);
  EXPECT_EQ(d.cycle(WR, 1) - d.cycle(WR, 0), 9) << "tCCD_L_WR (tCCD_L: 5)";
  EXPECT_EQ(d.cycle(RD, 1) - d.cycle(RD, 0), 5) << "two reads keep tCCD_L";
}

// The channel decides the cycles up to now and may then hand over a request
// whose cycle lies a little ahead (the MMU passes a TLB hit on with its
// cycle one later): it waits in its queue until it arrives, no command for
// it before then (before, its activate went at 2, four cycles before it
// arrived; in the model such a request's queue delay came out at -1).
TEST(DramController, ARequestHandedOverAheadOfItsArrivalGetsNoCommandBeforeIt) {
  Ctl d(toy());
  d.read(0, d.addr(0, 0, 0, 0));  // ACT 0, RD 4: the controller looks at cycle 1 next
  d.run(1);
  const uint64_t token = d.next++;
  d.c.arrive(token, 6, d.addr(0, 1, 0, 0), false, d.done);  // another bank group; cycles from 1 on not decided
  const auto r = d.of(token);
  EXPECT_EQ(d.cycle(ACT, 1), 6);
  EXPECT_EQ(r.accept, 6u);
  EXPECT_EQ(r.start, 6u);
  EXPECT_EQ(r.finish, 6u + 4 + 5 + 2);  // ACT + tRCD + CL + tBL
}

TEST(DramController, AConflictRightAfterAnActivate_tRASThentRC) {
  Ctl d(toy());
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4
  const auto r = d.of(d.read(1, d.addr(0, 0, 0, 1)));
  EXPECT_EQ(r.row, RowResult::kConflict);
  EXPECT_EQ(d.cycle(PRE), 8);                       // ACT + tRAS (RD + tRTP = 6 is earlier)
  EXPECT_EQ(d.cycle(ACT, 1), 13);                   // ACT + tRC (PRE + tRP = 11 is earlier)
  EXPECT_EQ(d.cycle(RD, 1), 17);
}

TEST(DramController, tWRAndtWTRAndTheDataBus) {
  Ctl d(toy());
  d.write(0, d.addr(0, 0, 0, 0));                   // posted; ACT 0, WR 4, data 7..9
  d.drain();
  EXPECT_EQ(d.cycle(WR), 4);
  const auto r = d.of(d.read(5, d.addr(0, 0, 0, 1)));  // another row: PRE waits for WR + CWL + tBL + tWR
  EXPECT_EQ(d.cycle(PRE), 12);
  EXPECT_EQ(d.cycle(ACT, 1), 15);                   // PRE + tRP
  EXPECT_EQ(r.finish, 15u + 4 + 5 + 2);
  Ctl e(toy());
  e.write(0, e.addr(0, 0, 0, 0));
  e.drain();
  e.of(e.read(5, e.addr(0, 0, 0, 0, 1)));           // a hit in the same bank group: WR + CWL + tBL + tWTR_L
  EXPECT_EQ(e.cycle(RD), 4 + 3 + 2 + 4);
  Ctl f(toy());
  f.read(0, f.addr(0, 0, 0, 0));                    // RD 4, data 9..11
  f.write(5, f.addr(0, 0, 0, 0, 1));                // the write's data 2 (tRTRS) after: WR at 11 + 2 - CWL = 10
  f.drain();
  EXPECT_EQ(f.cycle(WR), 10);
}

// The case lt cannot model: the older request's precharge is not yet
// issued when the younger row hit arrives, so the hit goes first.
TEST(DramController, ALaterRowHitIsServedBeforeAnOlderConflictThatHasNotIssued) {
  Ctl d(toy());
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4: row 0 open
  const uint64_t older = d.read(5, d.addr(0, 0, 0, 1));  // row 1: its precharge could go at 8 (tRAS)
  const uint64_t hit = d.read(6, d.addr(0, 0, 0, 0, 1));
  const auto h = d.of(hit), o = d.of(older);
  EXPECT_EQ(h.row, RowResult::kHit);
  EXPECT_EQ(d.cycle(RD, 1), 9);                     // RD 4 + tCCD_L
  EXPECT_EQ(h.finish, 9u + 5 + 2);
  EXPECT_EQ(d.cycle(PRE), 11);                      // the hit's RD + tRTP
  EXPECT_EQ(d.cycle(ACT, 1), 14);                   // PRE + tRP
  EXPECT_EQ(o.row, RowResult::kConflict);
  EXPECT_EQ(o.finish, 18u + 5 + 2);                 // ACT + tRCD, + CL + tBL
  // The planner of lt had fixed the older request's cycles on arrival: the hit waits behind it.
  DramChannel lt(DramParams{toy(), 1000});
  lt.read(0, 0, d.addr(0, 0, 0, 0));
  lt.read(5, 5, d.addr(0, 0, 0, 1));
  EXPECT_EQ(lt.read(6, 6, d.addr(0, 0, 0, 0, 1)).row, RowResult::kConflict);
}

TEST(DramController, RowHitCapBoundsHowLongHitsHoldTheOlderRequestsPrecharge) {
  const auto second_hit = [](unsigned cap) {
    DramSpec s = toy();
    s.row_hit_cap = cap;
    Ctl d(s);
    d.read(0, d.addr(0, 0, 0, 0));                  // row 0 open, RD 4
    const uint64_t older = d.read(5, d.addr(0, 0, 0, 1));
    d.read(6, d.addr(0, 0, 0, 0, 1));               // hit: RD 9
    const uint64_t second = d.read(6, d.addr(0, 0, 0, 0, 2));
    const auto r = d.of(second);
    d.of(older);
    return std::make_pair(r.row, d.cycle(PRE));
  };
  // Cap 4: the second hit goes at 14 (tCCD_L), the precharge after it at 16 (tRTP).
  EXPECT_EQ(second_hit(4), std::make_pair(RowResult::kHit, int64_t{16}));
  // Cap 1: one hit has overtaken; the precharge goes when ready (11), and the second hit reopens its row later.
  EXPECT_EQ(second_hit(1), std::make_pair(RowResult::kConflict, int64_t{11}));
}

// memory.dram.row_commands: any (Ramulator 2's FRFCFS: first ready, then
// oldest, whatever the command): a younger request's precharge, legal while
// an older hit waits on tCCD_L, closes the hit's row, which is then opened
// again. With row_commands: oldest (the default) only the bank's oldest
// request has row commands, so the hit goes first.
TEST(DramController, WithRowCommandsAnyAYoungerRequestClosesTheRowAnOlderHitWaitsFor) {
  const auto run = [](bool any) {
    DramSpec s = toy();
    s.row_commands_any = any;
    Ctl d(s);
    d.read(0, d.addr(0, 0, 0, 0));                     // ACT 0, RD 4: row 0 open
    const uint64_t hit = d.read(5, d.addr(0, 0, 0, 0, 1));   // its RD no earlier than 9 (tCCD_L)
    const uint64_t other = d.read(6, d.addr(0, 0, 0, 1));    // its PRE legal at 8 (tRAS; tRTP: 6)
    const auto h = d.of(hit), o = d.of(other);
    d.drain();
    return std::make_tuple(h.row, h.finish, o.finish, d.cycle(PRE), d.count(ACT));
  };
  // oldest: the hit's RD 9; PRE 11 (RD + tRTP); ACT 14 (PRE + tRP), RD 18.
  EXPECT_EQ(run(false), std::make_tuple(RowResult::kHit, uint64_t{9 + 5 + 2}, uint64_t{18 + 5 + 2}, int64_t{8 + 3}, size_t{2}));
  // any: PRE 8 for the younger; the older reopens row 0 first: ACT 13 (tRC), RD 17;
  // then PRE 21 (ACT + tRAS), ACT 26 (ACT + tRC), RD 30.
  EXPECT_EQ(run(true), std::make_tuple(RowResult::kMiss, uint64_t{17 + 5 + 2}, uint64_t{30 + 5 + 2}, int64_t{8}, size_t{3}));
}

// With an active buffer (Ramulator 2's controller serves it before its
// other buffers), the column command of a request whose row was activated
// for it goes before an older hit's, when both can go.
TEST(DramController, AColumnCommandOfTheActiveBufferGoesBeforeAnOlderHits) {
  const auto run = [](unsigned active_buffer) {
    DramSpec s = toy();
    s.bank_queue = 0, s.active_buffer = active_buffer;
    Ctl d(s);
    d.read(0, d.addr(0, 0, 0, 0));                     // ACT 0, RD 4: bank 0's row 0
    const uint64_t older = d.read(1, d.addr(0, 0, 0, 0, 1));  // a hit: RD no earlier than 9 (tCCD_L)
    const uint64_t activated = d.read(2, d.addr(0, 0, 1, 0)); // bank 1, same bank group: ACT 5 (RD 4 went first), RD 9
    return std::make_pair(d.of(activated).finish, d.of(older).finish);
  };
  EXPECT_EQ(run(4), std::make_pair(uint64_t{9 + 5 + 2}, uint64_t{14 + 5 + 2}));
  EXPECT_EQ(run(0), std::make_pair(uint64_t{14 + 5 + 2}, uint64_t{9 + 5 + 2}));
}

TEST(DramController, RefreshClosesTheRankAtItsDueCycle_tREFIAndtRFC) {
  DramSpec s = toy();
  s.timing.tREFI = 100;
  Ctl d(s);
  d.of(d.read(0, d.addr(0, 0, 0, 0)));              // ACT 0, RD 4; rank 0 refreshes at 50, rank 1 at 100
  const auto r = d.of(d.read(70, d.addr(0, 0, 0, 0, 1)));
  EXPECT_EQ(d.cycle(PRE), 50);
  EXPECT_EQ(d.cycle(REF), 53);                      // PRE + tRP
  EXPECT_EQ(r.row, RowResult::kMiss);
  EXPECT_EQ(d.cycle(ACT, 1), 73);                   // REF + tRFC
  d.drain(400);                                     // rank 0 at 150, 250, 350; rank 1 at 100, 200, 300, 400
  EXPECT_EQ(d.c.counters().refreshes, 8u);
}

// DDR5's same-bank refresh (REFsb) as lt's planner has it
// (DramTiming.tRFCb_SameBankRefreshClosesABankOfEveryGroupInTurn).
TEST(DramController, SameBankRefreshClosesABankOfEveryGroupInTurn_tRFCb) {
  DramSpec s = toy();
  s.org.ranks = 1;
  s.timing.tREFI = 400;  // one every 100 cycles, bank 0 of both groups first
  s.refresh = RefreshMode::kSameBank;
  Ctl d(s);
  const uint64_t a = d.read(0, d.addr(0, 0, 0, 0)), b = d.read(0, d.addr(0, 1, 0, 0)), c = d.read(0, d.addr(0, 0, 1, 0));
  for (const uint64_t id : {a, b, c}) d.of(id);
  const uint64_t missed = d.read(120, d.addr(0, 1, 0, 0, 1)), kept = d.read(121, d.addr(0, 0, 1, 0, 1));
  const auto r = d.of(missed);
  EXPECT_EQ(d.cycle(PRE, 0), 100);                  // bank 0 of each group, one a cycle
  EXPECT_EQ(d.cycle(PRE, 1), 101);
  EXPECT_EQ(d.cycle(REF), 104);                     // the later PRE + tRP
  EXPECT_EQ(r.row, RowResult::kMiss) << "the refresh closed bank (1,0)";
  EXPECT_EQ(d.cycle(ACT, 3), 120);                  // REF + tRFCb = 114 is past: at its arrival
  EXPECT_EQ(d.of(kept).row, RowResult::kHit) << "bank (0,1) keeps its row";
  d.drain(450);
  std::vector<unsigned> refreshed;
  for (const DramCommand& c : d.c.commands())
    if (c.kind == REF) refreshed.push_back(c.bank);
  EXPECT_EQ(refreshed, (std::vector<unsigned>{0, 1, 2, 3})) << "at 100, 200, 300, 400";
  Ctl e(s);
  e.of(e.read(0, e.addr(0, 1, 0, 0)));
  e.of(e.read(105, e.addr(0, 1, 0, 0, 1)));
  EXPECT_EQ(e.cycle(REF), 103);
  EXPECT_EQ(e.cycle(ACT, 1), 113);                  // REF + tRFCb
}

// tRREFD as lt's planner has it (DramTiming.tRREFD_ABanksRefreshHoldsOffTheOtherBanksActivates).
TEST(DramController, tRREFD_ABanksRefreshHoldsOffTheOtherBanksActivates) {
  for (const RefreshMode mode : {RefreshMode::kSameBank, RefreshMode::kPerBank})
    for (const unsigned rrefd : {0u, 6u}) {
      DramSpec s = toy();
      s.org.ranks = 1;
      s.timing.tREFI = 400;
      s.timing.tRREFD = rrefd;
      s.refresh = mode;
      Ctl d(s);
      d.of(d.read(0, d.addr(0, 0, 0, 0)));
      d.of(d.read(104, d.addr(0, 0, 2, 0)));
      const bool same = mode == RefreshMode::kSameBank;
      if (mode == RefreshMode::kSameBank) {
        EXPECT_EQ(d.cycle(REF), 103);
      }
      EXPECT_EQ(d.cycle(ACT, 1), !rrefd ? 104 : same ? 109 : 106) << "tRREFD " << rrefd << ", refresh " << int(mode);
    }
}

// tRRD before a bank refresh (DramTiming.ActivateToBankRefresh_ARefreshKeepsTRRDFromAnActivate):
// at decides at command time, so the activate at its arrival comes first
// and the refresh due at 50 waits for it, tRRD_L (4) in its group or where
// it refreshes every group, tRRD_S (2) in another.
TEST(DramController, ActivateToBankRefresh_ARefreshKeepsTRRDFromAnActivate) {
  for (const RefreshMode mode : {RefreshMode::kPerBank, RefreshMode::kSameBank})
    for (const unsigned bg : {0u, 1u})
      for (const uint64_t arrival : {48u, 49u}) {
        DramSpec s = toy();
        s.org.ranks = 1;
        s.timing.tREFI = mode == RefreshMode::kPerBank ? 400 : 200;
        s.refresh = mode;
        Ctl d(s);
        d.of(d.read(arrival, d.addr(0, bg, 1, 0)));
        const unsigned rrd = bg == 0 || mode == RefreshMode::kSameBank ? 4 : 2;
        EXPECT_EQ(d.cycle(ACT), int64_t(arrival));
        EXPECT_EQ(d.cycle(REF), std::max<int64_t>(50, int64_t(arrival + rrd)))
            << "bank group " << bg << ", arrival " << arrival << ", refresh " << int(mode);
      }
  // An activate planned before the refresh, its column too (tRRD_L 8 longer
  // than tRCD 4): the refresh due at 50 waits until 45 + 8.
  DramSpec s = toy();
  s.org.ranks = 1;
  s.timing.tREFI = 400;
  s.timing.tRRD_L = 8, s.timing.tRRD_S = 6;
  s.refresh = RefreshMode::kPerBank;
  Ctl d(s);
  d.of(d.read(45, d.addr(0, 0, 1, 0)));
  d.of(d.read(100, d.addr(0, 1, 3, 0)));
  EXPECT_EQ(d.cycle(ACT), 45);
  EXPECT_EQ(d.cycle(REF), 53);
}

// tPBR2PBR as at has it (DramTiming.tPBR2PBR_TwoBankRefreshesKeepTheirDistance).
TEST(DramController, tPBR2PBR_TwoBankRefreshesKeepTheirDistance) {
  for (const unsigned pbr2pbr : {0u, 48u}) {
    DramSpec s = toy();
    s.org.ranks = 1;
    s.timing.tREFI = 400;
    s.timing.tPBR2PBR = pbr2pbr;
    s.refresh = RefreshMode::kPerBank;
    Ctl d(s);
    d.of(d.write(40, d.addr(0, 0, 0, 0)));
    d.of(d.read(150, d.addr(0, 1, 3, 0)));
    EXPECT_EQ(d.cycle(REF, 0), 55);
    EXPECT_EQ(d.cycle(REF, 1), pbr2pbr ? 103 : 100) << "tPBR2PBR " << pbr2pbr;
  }
}

// tPPD as lt's planner has it (DramTiming.tPPD_PrechargesOfARankKeepTheirDistance).
TEST(DramController, tPPD_PrechargesOfARankKeepTheirDistance) {
  for (const unsigned ppd : {0u, 3u}) {
    DramSpec s = toy();
    s.timing.tPPD = ppd;
    Ctl d(s);
    const uint64_t a = d.read(0, d.addr(0, 0, 0, 0)), b = d.read(0, d.addr(0, 1, 0, 0));
    const uint64_t c = d.read(20, d.addr(0, 0, 0, 1)), e = d.read(20, d.addr(0, 1, 0, 1));
    for (const uint64_t id : {a, b, c, e}) d.of(id);
    EXPECT_EQ(d.cycle(PRE, 0), 20);
    EXPECT_EQ(d.cycle(PRE, 1), ppd ? 24 : 21) << "tPPD " << ppd;  // 23 is the first's ACT
  }
}

TEST(DramController, ABusyRankIsRefreshedOnTime) {
  DramSpec s = toy();
  s.org.ranks = 1;
  s.timing.tREFI = 60;
  Ctl d(s);
  // Reads to one row, back to back, across the refresh at 60.
  std::vector<uint64_t> ids;
  for (uint64_t t = 0; t < 80; t += 5) ids.push_back(d.read(t, d.addr(0, 0, 0, 0, uint32_t(t / 5 % 4))));
  for (uint64_t id : ids) d.of(id);
  ASSERT_GE(d.cycle(REF), 60);
  EXPECT_LE(d.cycle(REF), 60 + 8);                  // the open row's precharge (tRTP after a read), then tRP
  for (const DramCommand& c : d.c.commands())       // no activate into the refresh's tRFC
    if (c.kind == ACT) {
      EXPECT_TRUE(c.cycle < uint64_t(d.cycle(REF)) || c.cycle >= uint64_t(d.cycle(REF)) + 20);
    }
}

TEST(DramController, PostedWritesDrainBetweenTheWatermarks) {
  DramSpec s = toy();
  s.write_high = 4, s.write_low = 1;
  Ctl d(s);
  d.read(0, d.addr(1, 1, 3, 9));                    // reads wait (the first: ACT 0, RD 4)
  for (uint64_t t = 0; t < 3; ++t) EXPECT_EQ(d.of(d.write(t, d.addr(0, 0, 0, 0, uint32_t(t)))).row, RowResult::kPosted);
  d.read(3, d.addr(1, 1, 3, 9, 1));
  d.run(4);
  EXPECT_EQ(d.count(WR), 0u);                       // below the high watermark, reads waiting: the writes wait
  d.write(4, d.addr(0, 1, 0, 0));                   // the high watermark
  // A read of a write still queued is answered from the queue at its arrival.
  const auto f = d.of(d.read(5, d.addr(0, 1, 0, 0)));
  EXPECT_EQ(f.row, RowResult::kForwarded);
  EXPECT_EQ(f.finish, 5u);
  d.drain();
  EXPECT_EQ(d.c.counters().write_drains, 2u);       // at the high watermark, and once no read waited
  // The read whose row was opened before the drain still goes (its row is
  // not closed under it); the drain stops at the low watermark while a read
  // waits: three writes (row hits first), the other read, then the last write.
  std::string order;
  for (const DramCommand& c : d.c.commands())
    if (c.kind == WR || c.kind == RD) order += c.kind == WR ? 'W' : 'R';
  EXPECT_EQ(order, "RWWWRW");
}

// Turning to writes does not close a row opened for a read that has not had
// its column command yet (Ramulator 2's active buffer): the read goes on.
TEST(DramController, AWriteDrainLeavesAReadItsOpenedRow) {
  Ctl d(toy());                                     // write_high 1: every write starts a drain
  const uint64_t read = d.read(0, d.addr(0, 0, 0, 0));  // ACT 0, RD at 4 (tRCD)
  d.write(1, d.addr(0, 0, 0, 1));                   // the same bank, another row
  d.drain();
  const auto r = d.of(read);
  EXPECT_EQ(r.finish, 4u + 5 + 2);
  EXPECT_EQ(r.row, RowResult::kMiss);
  EXPECT_EQ(d.cycle(PRE), 8);                       // the write's precharge after the read (tRAS; tRTP 6)
  EXPECT_EQ(d.cycle(ACT, 1), 13);                   // tRC after the read's activate
  EXPECT_EQ(d.cycle(WR), 17);
  EXPECT_EQ(d.count(ACT), 2u);
}

// Prefetches rank after demand reads (Lee et al.'s prefetch-aware
// controller): a demand read to another row of the same bank passes an
// older prefetch that has not started.
TEST(DramController, ADemandReadPassesAQueuedPrefetch) {
  Ctl d(toy());
  d.read(0, d.addr(0, 0, 0, 0));                    // row 0 open: ACT 0, RD 4
  const uint64_t p = d.prefetch(1, d.addr(0, 0, 0, 1));  // older, row 1
  const uint64_t r = d.read(2, d.addr(0, 0, 0, 2));      // younger demand, row 2
  const auto dr = d.of(r), dp = d.of(p);
  EXPECT_EQ(d.cycle(PRE), 8);                       // tRAS: for the demand read
  EXPECT_EQ(d.cycle(ACT, 1), 13);                   // tRC after the first activate
  EXPECT_EQ(dr.finish, 13u + 4 + 5 + 2);
  EXPECT_EQ(dr.row, RowResult::kConflict);
  EXPECT_GT(dp.finish, dr.finish);
  EXPECT_EQ(dp.row, RowResult::kConflict);
  // Without the prefetch mark the older request goes first, as FR-FCFS has it.
  Ctl e(toy());
  e.read(0, e.addr(0, 0, 0, 0));
  const uint64_t older = e.read(1, e.addr(0, 0, 0, 1));
  const uint64_t younger = e.read(2, e.addr(0, 0, 0, 2));
  EXPECT_LT(e.of(older).finish, e.of(younger).finish);
}

// memory.dram.prefetch_priority: equal: a prefetch ranks as any read, so
// the older prefetch goes before the younger demand read (FR-FCFS), where
// with the default (low) the demand read passes it (the test above).
TEST(DramController, WithEqualPriorityAPrefetchIsServedInItsTurn) {
  DramSpec spec = toy();
  spec.prefetch_below_demand = false;
  Ctl d(spec);
  d.read(0, d.addr(0, 0, 0, 0));
  const uint64_t p = d.prefetch(1, d.addr(0, 0, 0, 1));  // older, row 1
  const uint64_t r = d.read(2, d.addr(0, 0, 0, 2));      // younger demand, row 2
  EXPECT_LT(d.of(p).finish, d.of(r).finish);
  EXPECT_EQ(d.of(p).finish, 13u + 4 + 5 + 2) << "the conflict the demand read had with low priority";
}

// A prefetch's row hit still goes while no demand command can (it costs
// the demand reads nothing); its precharge or activate waits until no
// demand read is queued.
TEST(DramController, APrefetchRowHitGoesWhenNoDemandCommandCan) {
  Ctl d(toy());
  d.read(0, d.addr(0, 0, 0, 0));                    // bank X: ACT 0, RD 4
  d.read(0, d.addr(0, 1, 0, 0));                    // bank Y: ACT 2 (tRRD_S), RD 7 (tCCD_S)
  const uint64_t c = d.read(8, d.addr(0, 0, 0, 1)); // demand, X's other row: PRE 8 (tRAS), ACT 13 (tRC), RD 17
  const uint64_t p = d.prefetch(8, d.addr(0, 1, 0, 0, 1));  // a hit in Y: ready at 12 (tCCD_L after 7)
  const uint64_t m = d.prefetch(8, d.addr(0, 1, 1, 3));     // a closed bank: its activate could go at 9
  const auto dc = d.of(c), dp = d.of(p), dm = d.of(m);
  EXPECT_EQ(dp.row, RowResult::kHit);
  EXPECT_EQ(dp.finish, 12u + 5 + 2);                // at 12 no demand command can go
  EXPECT_EQ(d.cycle(ACT, 2), 13);                   // and the demand's activate is not delayed
  EXPECT_EQ(dc.finish, 17u + 5 + 2);
  EXPECT_EQ(dc.row, RowResult::kConflict);
  EXPECT_EQ(dm.start, 18u) << "the prefetch's activate waits until no demand read is queued (its RD at 17)";
  EXPECT_EQ(dm.row, RowResult::kMiss);
}

// Per-bank queues of one entry: bank X's holds a prefetch that needs a row
// command; a demand read for X waits in the read queue for room there,
// while a demand read of bank Y is being served. The prefetch may go once
// no demand read the scheduler can serve is queued (the one waiting for
// X's queue does not count: the prefetch is what it waits for), and then
// the demand read follows: neither waits for the other forever.
TEST(DramController, ADemandReadWaitingForABankQueueFullOfPrefetchesIsServed) {
  DramSpec spec = toy();
  spec.bank_queue = 1;
  Ctl d(spec);
  d.read(0, d.addr(0, 0, 0, 0));                          // X: row 0 open
  const uint64_t p = d.prefetch(1, d.addr(0, 0, 0, 1));   // X's queue: a prefetch of row 1
  const uint64_t x = d.read(2, d.addr(0, 0, 0, 2));       // X's demand read: waits for X's queue
  const uint64_t y = d.read(2, d.addr(0, 1, 0, 0));       // Y's demand read
  const auto dp = d.of(p), dx = d.of(x), dy = d.of(y);
  EXPECT_LT(dy.finish, dp.finish);
  EXPECT_LT(dp.finish, dx.finish) << "the prefetch leaves X's queue first, then the demand read enters";
  EXPECT_EQ(dx.row, RowResult::kConflict);
}

// memory.dram.prefetch_drop_cycles: a prefetch still waiting for its first
// command that long after it entered the read queue is dropped.
TEST(DramController, AStalePrefetchIsDropped) {
  DramSpec s = toy();
  s.prefetch_drop_cycles = 10;
  Ctl d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // row 0 open: RD 4
  const uint64_t p = d.prefetch(1, d.addr(0, 0, 0, 1));  // another row of the bank
  for (uint32_t i = 0; i < 8; ++i) d.read(2 + i, d.addr(0, 0, 0, 2 + i % 2));  // demand reads keep the bank busy
  const auto dp = d.of(p);
  EXPECT_EQ(dp.row, RowResult::kDropped);
  EXPECT_EQ(dp.finish, 1u + 10);                    // accepted at 1, dropped 10 cycles later
  EXPECT_EQ(d.c.counters().dropped_prefetches, 1u);
  d.drain();
  EXPECT_EQ(d.count(RD), 9u) << "the dropped prefetch never reached its bank";
  // Without a bound it waits, and is served.
  Ctl e(toy());
  e.read(0, e.addr(0, 0, 0, 0));
  const uint64_t q = e.prefetch(1, e.addr(0, 0, 0, 1));
  for (uint32_t i = 0; i < 8; ++i) e.read(2 + i, e.addr(0, 0, 0, 2 + i % 2));
  EXPECT_EQ(e.of(q).row, RowResult::kConflict);
}

TEST(DramController, AFullReadQueueAcceptsTheNextReadWhenARoomFrees) {
  DramSpec s = toy();
  s.read_queue = 1, s.bank_queue = 0;
  Ctl d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4: holds the queue until its column command
  const auto r = d.of(d.read(0, d.addr(0, 1, 0, 0)));
  EXPECT_EQ(r.accept, 5u);                          // the cycle after the RD at 4 freed its place
  EXPECT_EQ(d.cycle(ACT, 1), 5);
  EXPECT_EQ(r.finish - r.accept, 4u + 5 + 2);       // latency counts from the read queue
}

// memory.dram.active_buffer (Ramulator 2's): the request a row was
// activated for leaves the read queue until its column command, so the
// queue takes the next read at once; one activated while the buffer is
// full keeps its place in the queue.
TEST(DramController, AnActivatedReadLeavesTheReadQueueForTheActiveBuffer) {
  DramSpec s = toy();
  s.read_queue = 1, s.bank_queue = 0, s.active_buffer = 1;
  Ctl d(s);
  const uint64_t a = d.read(0, d.addr(0, 0, 0, 0));  // ACT 0: into the active buffer, RD 4
  const uint64_t b = d.read(0, d.addr(0, 1, 0, 0));  // the queue's place A left
  const uint64_t c = d.read(0, d.addr(0, 0, 1, 0));
  EXPECT_EQ(d.of(b).accept, 1u);                     // the step after A's activate (without the buffer: 5)
  EXPECT_EQ(d.cycle(ACT, 1), 2);                     // tRRD_S after A's; the buffer is full: B keeps its place
  EXPECT_EQ(d.cycle(RD, 0), 4);
  EXPECT_EQ(d.cycle(RD, 1), 7);                      // A's RD + tCCD_S (B's ACT + tRCD is 6)
  EXPECT_EQ(d.of(c).accept, 8u);                     // the step after B's column command
  EXPECT_EQ(d.of(a).finish - d.of(a).accept, 4u + 5 + 2);
  EXPECT_EQ(d.of(b).depth, 1u) << "the read queue's depth leaves the active buffer out";
}

// The same for writes: a write whose row was activated for it leaves the
// write queue, so the next posted write reports the queue without it.
TEST(DramController, AnActivatedWriteLeavesTheWriteQueueForTheActiveBuffer) {
  DramSpec s = toy();  // write_high 1: a write goes to its bank at once
  s.bank_queue = 0, s.active_buffer = 1;
  Ctl d(s);
  d.write(0, d.addr(0, 0, 0, 0));                    // ACT 0: into the active buffer
  const uint64_t w = d.write(1, d.addr(0, 1, 0, 0));
  EXPECT_EQ(d.cycle(ACT), 0);
  EXPECT_EQ(d.of(w).depth, 1u) << "the write queue's depth leaves the active buffer out (without it: 2)";
}

TEST(DramController, ClosedPagePrechargesAfterEveryAccess) {
  DramSpec s = toy();
  s.page_policy = PagePolicy::kClosed;
  Ctl d(s);
  d.of(d.read(0, d.addr(0, 0, 0, 0)));              // ACT 0, RD 4, auto-precharge at ACT + tRAS = 8
  EXPECT_EQ(d.cycle(PRE), 8);
  const auto r = d.of(d.read(9, d.addr(0, 0, 0, 0, 1)));
  EXPECT_EQ(r.row, RowResult::kMiss);
  EXPECT_EQ(d.cycle(ACT, 1), 13);                   // tRC after the first activate (PRE + tRP = 11)
}

// A step skips a bank whose commands it found could not issue before some
// cycle, until something about the bank changes: that must change nothing.
// Random traffic on a few banks and rows (reads, writes, prefetches, each
// queue structure, refresh, closed pages, stale prefetches dropped) through
// two controllers, one visiting every bank at every step: the same answers
// and the same commands, cycle for cycle.
TEST(DramController, SkippingBanksThatCannotIssueYetChangesNothing) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> names = dram_preset_names();
  for (unsigned trial = 0; trial < 400; ++trial) {
    DramSpec s = *dram_preset(names[trial % names.size()]);
    if (trial % 2) s.bank_queue = 0, s.read_queue = 8 + rng() % 30;
    else s.bank_queue = 1 + rng() % 8;
    s.write_queue = 4 + rng() % 28;
    s.write_high = 1 + rng() % s.write_queue;
    s.write_low = rng() % s.write_high;
    s.row_hit_cap = rng() % 6;
    if (trial % 5 == 0) s.page_policy = PagePolicy::kClosed;
    if (trial % 3 == 0) s.prefetch_drop_cycles = 50 + rng() % 400;
    if (s.bank_queue == 0 && trial % 4 == 1) s.active_buffer = 1 + rng() % 33;
    s.prefetch_below_demand = trial % 7 != 0;
    s.row_commands_any = trial % 6 == 3;
    s.timing.tREFI = 2 * s.timing.tRFC + rng() % 3000;
    Ctl all(s), skip(s);
    all.c.visit_every_bank(true);
    const unsigned banks = 1 + rng() % 4, rows = 1 + rng() % 3;
    uint64_t t = 0;
    for (unsigned i = 0; i < 400; ++i) {
      t += rng() % 3 == 0 ? rng() % 40 : 0;
      const unsigned bank = rng() % banks;
      const uint64_t a = all.addr(0, bank % s.org.bank_groups, bank / s.org.bank_groups % s.org.banks_per_group, rng() % rows,
                                  rng() % 16);
      const unsigned kind = rng() % 10;
      for (Ctl* c : {&all, &skip}) {
        if (kind < 2) c->write(t, a);
        else if (kind < 4) c->prefetch(t, a);
        else c->read(t, a);
      }
    }
    all.drain(t + 1000);
    skip.drain(t + 1000);
    ASSERT_EQ(all.done.size(), skip.done.size()) << "trial " << trial;
    for (size_t i = 0; i < all.done.size(); ++i) {
      const auto &x = all.done[i], &y = skip.done[i];
      ASSERT_TRUE(x.token == y.token && x.accept == y.accept && x.start == y.start && x.finish == y.finish && x.depth == y.depth &&
                  x.row == y.row)
          << "trial " << trial << ", answer " << i << " (request " << x.token << ")";
    }
    ASSERT_EQ(all.c.commands().size(), skip.c.commands().size()) << "trial " << trial;
    for (size_t i = 0; i < all.c.commands().size(); ++i) {
      const DramCommand &x = all.c.commands()[i], &y = skip.c.commands()[i];
      ASSERT_TRUE(x.cycle == y.cycle && x.kind == y.kind && x.rank == y.rank && x.bank_group == y.bank_group && x.bank == y.bank &&
                  x.row == y.row)
          << "trial " << trial << ", command " << i;
    }
  }
}

// Where requests do not compete (each access alone in the channel), the
// controller that decides at command time and the planner of lt are the
// same machine: every read's finish agrees to the cycle, on every preset.
// Without refresh: a refresh competes, for the command bus and for the
// banks it closes, with the access it meets (lt places it when the run
// passes it, at as it falls due), and DDR5's tRFC outlasts the gap here.
TEST(DramController, AgreesWithThePlannerOfLtOnAccessesThatDoNotCompete) {
  for (const std::string& name : dram_preset_names()) {
    DramSpec s = *dram_preset(name);
    s.timing.tREFI = 0;
    Ctl at(s);
    DramChannel lt(DramParams{s, s.tck_ps});
    std::mt19937_64 rng(3);
    uint64_t t = 0;
    std::vector<DramChannel::Access> planned;
    for (int i = 0; i < 3000; ++i) {
      // Few banks and rows, so hits, misses and conflicts all come up.
      const uint64_t local = at.addr(0, unsigned(rng() % 2), 0, uint32_t(rng() % 3), uint32_t(rng() % 8));
      planned.push_back(lt.read(t, t, local));
      at.read(t, local);
      t += 400 + rng() % 100;  // every access done before the next arrives
    }
    for (uint64_t i = 0; i < planned.size(); ++i) {
      const auto a = at.of(i);
      ASSERT_EQ(a.finish, planned[i].finish) << name << " read " << i;
      ASSERT_EQ(a.row, planned[i].row) << name << " read " << i;
    }
  }
}

// The commonest GPU pattern: c[i] = a[i] + b[i] with arrays 1 MiB apart,
// both in one bank, offered faster than the memory serves (Ramulator 2's
// queue structure). Deciding at command time keeps the open row while its
// stream's reads are queued; planning on arrival closes it for every other
// read.
TEST(DramController, TwoStreamsInOneBankKeepTheirRowsOpen) {
  DramSpec s = *dram_preset("ddr4");
  s.org.ranks = 1;
  s.read_queue = 33, s.bank_queue = 0, s.write_high = 26, s.write_low = 6;
  s.timing.tREFI = 0;
  Ctl at(s);
  DramChannel lt(DramParams{s, s.tck_ps});
  const int n = 20000;
  uint64_t last_at = 0, last_lt = 0;
  std::vector<uint64_t> ids;
  for (int i = 0; i < n; ++i) {
    const uint64_t local = (i % 2 ? uint64_t{1} << 20 : 0) + uint64_t(i / 2) * 64;
    ids.push_back(at.read(uint64_t(i), local));
    last_lt = std::max(last_lt, lt.read(uint64_t(i), uint64_t(i), local).finish);
  }
  for (uint64_t id : ids) last_at = std::max(last_at, at.of(id).finish);
  uint64_t hits_at = 0, hits_lt = 0;
  for (const auto& b : at.c.counters().banks) hits_at += b.row_hits;
  for (const auto& b : lt.counters().banks) hits_lt += b.row_hits;
  EXPECT_GT(double(hits_at) / n, 0.9);              // Ramulator 2: 97.5 %
  EXPECT_LT(double(hits_lt) / n, 0.75);             // the planner of lt: 66 % (issue 49)
  EXPECT_LT(double(last_at) * 2, double(last_lt));  // more than twice the bandwidth
}

TEST(DramController, MemoryStaysFlatWhateverTheTraceLength) {
  for (unsigned bank_queue : {8u, 0u}) {
    DramSpec s = *dram_preset("ddr4");
    s.read_queue = 33, s.bank_queue = bank_queue;
    Ctl d(s);
    d.c.record_commands(false);
    std::mt19937_64 rng(7);
    uint64_t t = 0;
    const auto run = [&](unsigned n) {
      for (unsigned i = 0; i < n; ++i, t += 10) {
        const uint64_t local = (rng() % (uint64_t{1} << 34)) & ~uint64_t{63};
        d.arrive(t, local, i % 4 == 3);
        d.done.clear();
      }
    };
    const auto heap = [] { const struct mallinfo2 m = mallinfo2(); return m.uordblks + m.hblkhd; };
    run(100000);
    const size_t warm = heap();
    run(400000);
    EXPECT_LT(heap(), warm + 64 * 1024) << "bank_queue " << bank_queue << ": heap grew with the trace";
  }
}

}  // namespace
}  // namespace gpumem
