// Directed tests of the DRAM channel, one per timing constraint and per
// controller rule, each worked by hand on a toy device whose figures are all
// different, so that dropping a constraint or moving it by one cycle changes
// a command's cycle (docs/memory.md, "Timing constraints").
#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>

#include <random>

#include "base/text.hpp"
#include "channel/dram_channel.hpp"
#include "dram_toy.hpp"

namespace gpumem {
namespace {

// The same with a long tRCD, so that column commands stay clear of the
// activates' command slots in the tests that watch activates and columns.
DramSpec wide() {
  DramSpec s = toy();
  s.timing.tRCD = 30, s.timing.tRAS = 30, s.timing.tRC = 33;
  return s;
}

struct Dram {
  explicit Dram(const DramSpec& spec, uint64_t cycle_ps = 1000) : ch(DramParams{spec, cycle_ps}) {
    ch.record_commands(true);
  }
  uint64_t addr(unsigned rank, unsigned bg, unsigned bank, uint32_t row, uint32_t column = 0) const {
    DramAddress a;
    a.rank = rank, a.bank_group = bg, a.bank = bank, a.row = row, a.column = column;
    return ch.address_map().encode(a);
  }
  DramChannel::Access read(uint64_t at, uint64_t local) { return ch.read(at, 0, local); }
  DramChannel::Access write(uint64_t at, uint64_t local) { return ch.write(at, 0, local); }
  // The cycle of the n-th command of a kind (from 0), or -1.
  int64_t cycle(DramCommandKind kind, unsigned n = 0) const {
    for (const DramCommand& c : ch.commands())
      if (c.kind == kind && n-- == 0) return int64_t(c.cycle);
    return -1;
  }
  // The cycle of the first activate of a bank of rank 0, or -1.
  int64_t activate_of(unsigned bg, unsigned bank) const {
    for (const DramCommand& c : ch.commands())
      if (c.kind == DramCommandKind::kActivate && c.bank_group == bg && c.bank == bank) return int64_t(c.cycle);
    return -1;
  }
  size_t count(DramCommandKind kind) const {
    size_t n = 0;
    for (const DramCommand& c : ch.commands()) n += c.kind == kind;
    return n;
  }
  DramChannel ch;
};

TEST(DramAddressMap, FieldsSitAboveTheBurstInTheConfiguredOrder) {
  const DramAddressMap map(toy());
  // 32-byte bursts: 5 offset bits; then column (2), bank (2), bank group (1), rank (1), row (4).
  EXPECT_EQ(map.offset_bits(), 5u);
  EXPECT_EQ(map.field_bits(DramField::kColumn), (std::vector<unsigned>{5, 6}));
  EXPECT_EQ(map.field_bits(DramField::kBank), (std::vector<unsigned>{7, 8}));
  EXPECT_EQ(map.field_bits(DramField::kBankGroup), (std::vector<unsigned>{9}));
  EXPECT_EQ(map.field_bits(DramField::kRank), (std::vector<unsigned>{10}));
  EXPECT_EQ(map.field_bits(DramField::kRow), (std::vector<unsigned>{11, 12, 13, 14}));
  const DramAddress a = map.decode(0b1011'1'0'10'01'00000);
  EXPECT_EQ(a.row, 0b1011u);
  EXPECT_EQ(a.rank, 1u);
  EXPECT_EQ(a.bank_group, 0u);
  EXPECT_EQ(a.bank, 2u);
  EXPECT_EQ(a.column, 1u);
  EXPECT_EQ(map.encode(a), 0b1011'1'0'10'01'00000u);
  // Bits above the capacity alias in timing: the row wraps.
  EXPECT_EQ(map.decode(uint64_t{1} << 15), map.decode(0));
}

TEST(DramTiming, tRCDAndCLAndtBL_ReadToAClosedBank) {
  Dram d(toy());
  const auto r = d.read(0, d.addr(0, 0, 0, 0));
  EXPECT_EQ(d.cycle(ACT), 0);
  EXPECT_EQ(d.cycle(RD), 4);                       // ACT + tRCD
  EXPECT_EQ(r.finish, 4u + 5 + 2);                  // RD + CL + tBL
  EXPECT_EQ(r.row, RowResult::kMiss);
  EXPECT_EQ(r.start, 0u);
}

// HBM3 times an activate to a write apart from one to a read: the write
// follows its activate by tRCD_WR, a read by tRCD (the toy writes at once).
TEST(DramTiming, tRCD_WR_AWriteToAClosedBank) {
  DramSpec s = toy();
  s.timing.tRCD_WR = 6;
  Dram d(s);
  d.write(0, d.addr(0, 0, 0, 0));
  EXPECT_EQ(d.cycle(ACT), 0);
  EXPECT_EQ(d.cycle(WR), 6);  // ACT + tRCD_WR (tRCD: 4)
  d.read(10, d.addr(0, 1, 0, 0));
  EXPECT_EQ(d.cycle(RD), d.cycle(ACT, 1) + 4) << "a read keeps tRCD";
}

// DDR5 spaces two writes in a bank group further apart than two reads.
TEST(DramTiming, tCCD_L_WR_TwoWritesInABankGroup) {
  DramSpec s = toy();
  s.timing.tCCD_L_WR = 9;
  Dram d(s);
  d.write(0, d.addr(0, 0, 0, 0));
  d.write(0, d.addr(0, 0, 1, 0));  // the same bank group, another bank
  EXPECT_EQ(d.cycle(WR, 1) - d.cycle(WR, 0), 9) << "tCCD_L_WR (tCCD_L: 5)";
  d.read(40, d.addr(0, 0, 2, 0));
  d.read(40, d.addr(0, 0, 3, 0));
  EXPECT_EQ(d.cycle(RD, 1) - d.cycle(RD, 0), 5) << "two reads keep tCCD_L";
}

TEST(DramTiming, tRASThentRC_AConflictRightAfterAnActivate) {
  Dram d(toy());
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4
  const auto r = d.read(1, d.addr(0, 0, 0, 1));
  EXPECT_EQ(r.row, RowResult::kConflict);
  EXPECT_EQ(d.cycle(PRE), 8);                       // ACT + tRAS (RD + tRTP = 6 is earlier)
  EXPECT_EQ(d.cycle(ACT, 1), 13);                   // ACT + tRC (PRE + tRP = 11 is earlier)
  EXPECT_EQ(d.cycle(RD, 1), 17);
}

TEST(DramTiming, tRTPThentRP_AConflictAfterALateRead) {
  Dram d(toy());
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4
  d.read(7, d.addr(0, 0, 0, 0, 1));                 // a hit: RD at 9 (tCCD_L after 4)
  EXPECT_EQ(d.cycle(RD, 1), 9);
  d.read(10, d.addr(0, 0, 0, 1));
  EXPECT_EQ(d.cycle(PRE), 11);                      // RD + tRTP
  EXPECT_EQ(d.cycle(ACT, 1), 14);                   // PRE + tRP (ACT + tRC = 13 is earlier)
}

TEST(DramTiming, tWR_PrechargeWaitsForTheWriteRecovery) {
  Dram d(toy());
  d.write(0, d.addr(0, 0, 0, 0));                   // ACT 0, WR 4, data 7..9
  EXPECT_EQ(d.cycle(WR), 4);
  d.read(1, d.addr(0, 0, 0, 1));
  EXPECT_EQ(d.cycle(PRE), 12);                      // WR + CWL + tBL + tWR
  EXPECT_EQ(d.cycle(ACT, 1), 15);                   // PRE + tRP
}

TEST(DramTiming, tRRD_SAndtRRD_L_ActivatesInOneRank) {
  Dram d(wide());
  d.read(0, d.addr(0, 0, 0, 0));
  d.read(0, d.addr(0, 1, 0, 0));
  d.read(0, d.addr(0, 0, 1, 0));
  EXPECT_EQ(d.cycle(ACT, 0), 0);
  EXPECT_EQ(d.cycle(ACT, 1), 2);                    // other bank group: tRRD_S
  EXPECT_EQ(d.cycle(ACT, 2), 4);
  Dram e(wide());
  e.read(0, e.addr(0, 0, 0, 0));
  e.read(0, e.addr(0, 0, 1, 0));
  EXPECT_EQ(e.cycle(ACT, 1), 4);                    // same bank group: tRRD_L
}

TEST(DramTiming, tFAW_TheFifthActivateWaitsForTheWindow) {
  Dram d(wide());
  const unsigned banks[5][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
  for (const auto& b : banks) d.read(0, d.addr(0, b[0], b[1], 0));
  EXPECT_EQ(d.cycle(ACT, 3), 6);
  EXPECT_EQ(d.cycle(ACT, 4), 10);                   // first ACT + tFAW (tRRD would allow 8)
  // The window is per rank: the other rank activates at the next free command slot.
  d.read(0, d.addr(1, 0, 0, 0));
  EXPECT_EQ(d.cycle(ACT, 5), 1);
}

TEST(DramTiming, tCCD_SAndtCCD_L_ColumnsInOneRank) {
  Dram d(wide());
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 30
  d.read(0, d.addr(0, 1, 0, 0));                    // ACT 2, RD >= 32
  EXPECT_EQ(d.cycle(RD, 0), 30);
  EXPECT_EQ(d.cycle(RD, 1), 33);                    // other bank group: 30 + tCCD_S
  Dram e(wide());
  e.read(0, e.addr(0, 0, 0, 0));                    // ACT 0, RD 30
  e.read(0, e.addr(0, 0, 1, 0));                    // ACT 4, RD >= 34
  EXPECT_EQ(e.cycle(RD, 1), 35);                    // same bank group: 30 + tCCD_L
}

TEST(DramTiming, tWTR_LAndtWTR_S_ReadsAfterAWrite) {
  Dram d(wide());
  d.write(0, d.addr(0, 0, 0, 0));                   // ACT 0, WR 30, data 33..35
  d.read(31, d.addr(0, 0, 0, 0, 1));                // same bank group
  EXPECT_EQ(d.cycle(RD, 0), 39);                    // WR + CWL + tBL + tWTR_L
  Dram e(wide());
  e.write(0, e.addr(0, 0, 0, 0));
  e.read(0, e.addr(0, 1, 0, 0));                    // other bank group: ACT 2
  EXPECT_EQ(e.cycle(RD, 0), 37);                    // WR + CWL + tBL + tWTR_S
  Dram f(wide());
  f.write(0, f.addr(0, 0, 0, 0));                   // WR 30
  f.read(38, f.addr(0, 0, 0, 0, 1));                // one cycle short of tWTR_L's end
  EXPECT_EQ(f.cycle(RD, 0), 39);
}

TEST(DramTiming, tRTRS_RankSwitchOnTheDataBus) {
  Dram d(wide());
  d.read(0, d.addr(0, 0, 0, 0));                    // RD 30, data 35..37
  d.read(0, d.addr(1, 0, 0, 0));                    // ACT 1 (command bus), RD >= 31
  EXPECT_EQ(d.cycle(ACT, 1), 1);
  EXPECT_EQ(d.cycle(RD, 1), 34);                    // its data from 37 + tRTRS = 39
}

TEST(DramTiming, ReadToWriteTurnaroundInOneRank) {
  Dram d(wide());
  d.read(0, d.addr(0, 0, 0, 0));                    // RD 30, data 35..37
  d.write(0, d.addr(0, 1, 0, 0));                   // ACT 2, WR >= 33 (tCCD_S)
  EXPECT_EQ(d.cycle(WR, 0), 36);                    // its data from 37 + tRTRS = 39, less CWL
}

TEST(DramTiming, CWL_AWritesDataThenAReadInTheOtherRank) {
  Dram d(wide());
  d.write(0, d.addr(0, 0, 0, 0));                   // WR 30, data 33..35
  d.read(0, d.addr(1, 0, 0, 0));                    // ACT 1, RD >= 31
  EXPECT_EQ(d.cycle(RD, 0), 32);                    // data from 35 + tRTRS = 37, less CL
}

TEST(DramTiming, CommandBus_OneCommandACycle) {
  Dram d(toy());
  d.read(0, d.addr(0, 0, 0, 0));
  d.read(0, d.addr(1, 0, 0, 0));                    // no constraint between ranks but the bus
  EXPECT_EQ(d.cycle(ACT, 1), 1);
}

TEST(DramTiming, DualCommandBus_ARowAndAColumnCommandShareACycle) {
  DramSpec s = toy();
  for (const bool dual : {false, true}) {
    s.dual_command_bus = dual;
    Dram d(s);
    d.read(0, d.addr(0, 0, 0, 0));                  // ACT 0, RD 4
    d.read(4, d.addr(0, 1, 0, 0));
    EXPECT_EQ(d.cycle(ACT, 1), dual ? 4 : 5) << (dual ? "HBM: beside the read" : "one command a cycle");
  }
}

TEST(DramTiming, tREFI_tRFC_AllBankRefresh) {
  DramSpec s = toy();
  s.timing.tREFI = 100;
  Dram d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4; the two ranks refresh in turn: rank 0 at 50, rank 1 at 100
  const auto r = d.read(70, d.addr(0, 0, 0, 0, 1));
  EXPECT_EQ(d.cycle(PRE), 50);                      // the open row closes at the refresh's due cycle
  EXPECT_EQ(d.cycle(REF), 53);                      // PRE + tRP
  EXPECT_EQ(r.row, RowResult::kMiss);               // the refresh closed the row
  EXPECT_EQ(d.cycle(ACT, 1), 73);                   // REF + tRFC
  EXPECT_EQ(d.ch.counters().refreshes, 1u);
  d.ch.drain(400);                                  // rank 0 at 150, 250, 350; rank 1 at 100, 200, 300, 400
  EXPECT_EQ(d.ch.counters().refreshes, 8u);
}

TEST(DramTiming, tRFCb_PerBankRefreshClosesOneBankInTurn) {
  DramSpec s = toy();
  s.org.ranks = 1;
  s.timing.tREFI = 800;  // 8 banks: one bank's refresh every 100 cycles, bank (0,0) first
  s.refresh = RefreshMode::kPerBank;
  Dram d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4 in bank (0,0)
  d.read(0, d.addr(0, 0, 1, 0));                    // ACT 4 in bank (0,1)... (tRRD_L)
  const auto r = d.read(120, d.addr(0, 0, 0, 0, 1));
  EXPECT_EQ(d.cycle(PRE), 100);
  EXPECT_EQ(d.cycle(REF), 103);                     // PRE + tRP
  EXPECT_EQ(r.row, RowResult::kMiss);
  EXPECT_EQ(d.cycle(ACT, 2), 120);                  // REF + tRFCb = 113 is past: at its arrival
  const auto other = d.read(121, d.addr(0, 0, 1, 0, 1));
  EXPECT_EQ(other.row, RowResult::kHit) << "the other banks keep their rows";
  Dram e(s);
  e.read(0, e.addr(0, 0, 0, 0));
  e.read(105, e.addr(0, 0, 0, 0, 1));
  EXPECT_EQ(e.cycle(ACT, 1), 113);                  // REF + tRFCb
}

// DDR5's same-bank refresh (REFsb): bank b of every bank group at once, b
// in turn, every tREFI / banks per group; the other banks keep their rows.
TEST(DramTiming, tRFCb_SameBankRefreshClosesABankOfEveryGroupInTurn) {
  DramSpec s = toy();
  s.org.ranks = 1;
  s.timing.tREFI = 400;  // 4 banks a group: one every 100 cycles, bank 0 of both groups first
  s.refresh = RefreshMode::kSameBank;
  Dram d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0 in bank (0,0)
  d.read(0, d.addr(0, 1, 0, 0));                    // ACT 2 in bank (1,0) (tRRD_S)
  d.read(0, d.addr(0, 0, 1, 0));                    // ACT 4 in bank (0,1) (tRRD_L)
  const auto r = d.read(120, d.addr(0, 1, 0, 0, 1));
  EXPECT_EQ(d.cycle(PRE, 0), 100);                  // bank 0 of each group, one a cycle
  EXPECT_EQ(d.cycle(PRE, 1), 101);
  EXPECT_EQ(d.cycle(REF), 104);                     // the later PRE + tRP
  EXPECT_EQ(r.row, RowResult::kMiss) << "the refresh closed bank (1,0)";
  EXPECT_EQ(d.cycle(ACT, 3), 120);                  // REF + tRFCb = 114 is past: at its arrival
  EXPECT_EQ(d.read(121, d.addr(0, 0, 1, 0, 1)).row, RowResult::kHit) << "bank (0,1) keeps its row";
  d.ch.drain(450);
  std::vector<unsigned> refreshed;
  for (const DramCommand& c : d.ch.commands())
    if (c.kind == REF) refreshed.push_back(c.bank);
  EXPECT_EQ(refreshed, (std::vector<unsigned>{0, 1, 2, 3})) << "at 100, 200, 300, 400";
  Dram e(s);
  e.read(0, e.addr(0, 1, 0, 0));
  e.read(105, e.addr(0, 1, 0, 0, 1));
  EXPECT_EQ(e.cycle(REF), 103);
  EXPECT_EQ(e.cycle(ACT, 1), 113);                  // REF + tRFCb
}

// tRREFD (HBM's; DDR5's tREFSBRD): after a per-bank or same-bank refresh
// the rank's other banks wait this long to activate. lt places a bank's
// refresh when an access to a bank it refreshes would pass its due: here
// one to bank (1,0) at 97 (same-bank: bank 0 of every group, due at 100)
// or to bank (0,0), open, at 46 (per-bank: bank (0,0), due at 50). The
// refresh closes bank (0,0) first (PRE at the due, REF tRP later), and the
// read of bank (0,2) then waits tRREFD for its activate.
TEST(DramTiming, tRREFD_ABanksRefreshHoldsOffTheOtherBanksActivates) {
  for (const RefreshMode mode : {RefreshMode::kSameBank, RefreshMode::kPerBank})
    for (const unsigned rrefd : {0u, 6u}) {
      DramSpec s = toy();
      s.org.ranks = 1;
      s.timing.tREFI = 400;  // same bank: a refresh every 100; per bank: every 50
      s.timing.tRREFD = rrefd;
      s.refresh = mode;
      Dram d(s);
      const bool same = mode == RefreshMode::kSameBank;
      d.read(0, d.addr(0, 0, 0, 0));  // ACT 0 in bank (0,0), which the refresh closes
      if (same) d.read(97, d.addr(0, 1, 0, 0));
      else d.read(46, d.addr(0, 0, 0, 1));
      const uint64_t ref = same ? 103 : 53;
      d.read(ref + 1, d.addr(0, 0, 2, 0));  // bank (0,2): another bank
      EXPECT_EQ(d.cycle(REF), int64_t(ref));
      EXPECT_EQ(d.activate_of(0, 2), int64_t(ref + (rrefd ? rrefd : 1))) << "tRREFD " << rrefd << ", refresh " << int(mode);
    }
}

// A stream through the banks in the order a per-bank refresh takes them
// (HBM3's sequential addresses, 160 reads in flight as the trace player
// keeps them) loses little to the refreshes, as under at (docs/memory.md,
// "Refresh in lt"). When any access whose column passed the due placed a
// bank's refresh, one that entered late (its bank's queue full) refreshed
// the bank the stream was about to reach, before that bank's accesses
// (arrived later, entering earlier) were planned; the stream then met
// every refresh in turn, a quarter of the bandwidth.
TEST(DramTiming, APerBankRefreshDoesNotHoldAStreamBehindEveryRefresh) {
  const auto bandwidth = [](RefreshMode mode) {
    DramSpec s = *dram_preset("hbm3");
    s.refresh = mode;
    DramChannel ch(DramParams{s, s.tck_ps});
    const size_t n = 40000, window = 160;
    std::vector<uint64_t> finish(n);
    uint64_t arrival = 0;  // in order: no read arrives before the last
    for (size_t i = 0; i < n; ++i) {
      arrival = std::max<uint64_t>({arrival, i, i >= window ? finish[i - window] : 0});
      finish[i] = ch.read(arrival, arrival, i * 32).finish;
    }
    return 32.0 * n / double(*std::max_element(finish.begin(), finish.end()));
  };
  const double all = bandwidth(RefreshMode::kAllBank), per_bank = bandwidth(RefreshMode::kPerBank);
  EXPECT_GT(per_bank, 0.95 * all) << "per-bank " << per_bank << " bytes a cycle, all-bank " << all;
}

// A per-bank refresh keeps tRRD from another bank's activate, as an
// activate would: tRRD_L (4) in the activate's group, tRRD_S (2) in
// another. Bank (0,0)'s refresh falls due at 50 (a bank every 50); a read of
// bank (0,1) or (1,1) at 48 or 49 does not place it (lt places a bank's
// refresh for an access to a bank it refreshes), so it goes after that
// read's activate, placed when the run ends.
TEST(DramTiming, ActivateToBankRefresh_ARefreshKeepsTRRDFromAnActivate) {
  for (const RefreshMode mode : {RefreshMode::kPerBank, RefreshMode::kSameBank})
    for (const unsigned bg : {0u, 1u})
      for (const uint64_t arrival : {48u, 49u}) {
        DramSpec s = toy();
        s.org.ranks = 1;
        s.timing.tREFI = mode == RefreshMode::kPerBank ? 400 : 200;  // a refresh every 50
        s.refresh = mode;
        Dram d(s);
        d.read(arrival, d.addr(0, bg, 1, 0));
        d.ch.drain(60);
        // A same-bank refresh holds a bank of every group: tRRD_L whatever the group.
        const unsigned rrd = bg == 0 || mode == RefreshMode::kSameBank ? 4 : 2;
        int64_t ref = std::max<int64_t>(50, int64_t(arrival + rrd));
        if (ref == int64_t(arrival + 4)) ++ref;  // the read's column command (tRCD 4) has that cycle of the one bus
        EXPECT_EQ(d.cycle(ACT), int64_t(arrival));
        EXPECT_EQ(d.cycle(REF), ref) << "bank group " << bg << ", arrival " << arrival << ", refresh " << int(mode);
      }
  // An activate planned before the refresh, its column too (tRRD_L 8 longer
  // than tRCD 4): the refresh due at 50 waits until 45 + 8.
  DramSpec s = toy();
  s.org.ranks = 1;
  s.timing.tREFI = 400;
  s.timing.tRRD_L = 8, s.timing.tRRD_S = 6;
  s.refresh = RefreshMode::kPerBank;
  Dram d(s);
  d.read(45, d.addr(0, 0, 1, 0));
  d.read(100, d.addr(0, 1, 3, 0));
  EXPECT_EQ(d.cycle(ACT), 45);
  EXPECT_EQ(d.cycle(REF), 53);
}

// tPBR2PBR (LPDDR5's tpbR2pbR; HBM's tRREFD): two bank refreshes of a rank
// keep their distance. Bank (0,0)'s refresh, due at 50, waits for its open
// row's precharge (a write at 44: precharge at 52, refresh at 55); bank
// (0,1)'s, due at 100, waits until 55 + 48.
TEST(DramTiming, tPBR2PBR_TwoBankRefreshesKeepTheirDistance) {
  for (const unsigned pbr2pbr : {0u, 48u}) {
    DramSpec s = toy();
    s.org.ranks = 1;
    s.timing.tREFI = 400;
    s.timing.tPBR2PBR = pbr2pbr;
    s.refresh = RefreshMode::kPerBank;
    Dram d(s);
    d.write(40, d.addr(0, 0, 0, 0));
    d.read(150, d.addr(0, 1, 3, 0));
    EXPECT_EQ(d.cycle(REF, 0), 55);
    EXPECT_EQ(d.cycle(REF, 1), pbr2pbr ? 103 : 100) << "tPBR2PBR " << pbr2pbr;
  }
}

// DDR5's and HBM3's tPPD: two precharge commands of a rank keep their distance.
TEST(DramTiming, tPPD_PrechargesOfARankKeepTheirDistance) {
  for (const unsigned ppd : {0u, 3u}) {
    DramSpec s = toy();
    s.timing.tPPD = ppd;
    Dram d(s);
    d.read(0, d.addr(0, 0, 0, 0));                  // ACT 0 in bank (0,0)
    d.read(0, d.addr(0, 1, 0, 0));                  // ACT 2 in bank (1,0)
    d.read(20, d.addr(0, 0, 0, 1));                 // a conflict: PRE 20
    d.read(20, d.addr(0, 1, 0, 1));                 // a conflict: PRE 21; with tPPD 3, 24 (23 is the first's ACT)
    EXPECT_EQ(d.cycle(PRE, 0), 20);
    EXPECT_EQ(d.cycle(PRE, 1), ppd ? 24 : 21) << "tPPD " << ppd;
  }
}

TEST(DramTiming, ARankIdleForAgesCountsItsRefreshesWithoutPlanningEach) {
  for (const RefreshMode mode : {RefreshMode::kAllBank, RefreshMode::kPerBank, RefreshMode::kSameBank}) {
    DramSpec s = toy();
    s.org.ranks = 1;
    s.timing.tREFI = 800;
    s.refresh = mode;
    const uint64_t gap = uint64_t{1} << 36;  // about 2^36 / 800 refreshes (x 8 per bank)
    Dram slow(s);
    slow.ch.record_commands(false);
    slow.read(0, slow.addr(0, 0, 0, 0));
    const auto r = slow.read(gap, slow.addr(0, 0, 0, 0, 1));
    EXPECT_EQ(r.row, RowResult::kMiss) << "a refresh closed the row";
    EXPECT_EQ(r.start, gap) << "nothing of the refreshes is left to wait for";
    const uint64_t interval = 800 / s.refreshes_per_round();
    const uint64_t due = gap / interval;  // refreshes due by the arrival, the first at one interval
    EXPECT_GE(slow.ch.counters().refreshes, due - 2 * 8);
    EXPECT_LE(slow.ch.counters().refreshes, due + 1);
  }
}

TEST(DramQueues, WritesWaitInTheWriteQueueUntilTheHighWatermark) {
  DramSpec s = toy();
  s.write_high = 4, s.write_low = 1;
  Dram d(s);
  d.read(0, d.addr(1, 1, 3, 9));                    // a read still to issue (RD 4): the channel is not idle
  for (uint64_t t = 0; t < 3; ++t) EXPECT_EQ(d.write(t, d.addr(0, 0, 0, 0, uint32_t(t))).row, RowResult::kPosted);
  EXPECT_EQ(d.count(WR), 0u);
  d.write(3, d.addr(0, 1, 0, 0));
  EXPECT_EQ(d.count(WR), 3u);                       // drained to the low watermark
  EXPECT_EQ(d.ch.counters().write_drains, 1u);
  EXPECT_GE(d.cycle(WR, 0), 3);
  // A read of a write still queued is answered from the queue; one already sent goes to its bank.
  EXPECT_EQ(d.read(4, d.addr(0, 1, 0, 0)).row, RowResult::kForwarded);
  EXPECT_NE(d.read(4, d.addr(0, 0, 0, 0, 0)).row, RowResult::kForwarded);
  d.ch.drain(10);
  EXPECT_EQ(d.count(WR), 4u);
}

TEST(DramQueues, WhileNoReadWaitsTheWriteQueueDrainsPastTheLowWatermark) {
  DramSpec s = toy();
  s.write_high = 4, s.write_low = 1;
  Dram d(s);
  d.write(0, d.addr(0, 0, 0, 0));
  EXPECT_EQ(d.count(WR), 0u);                       // at the low watermark: it waits
  d.write(1, d.addr(0, 0, 0, 0, 1));
  EXPECT_EQ(d.count(WR), 2u);                       // past it, and nothing to read: all go
  EXPECT_EQ(d.ch.counters().write_drains, 1u);
}

TEST(DramQueues, DrainSendsRowHitsFirst) {
  DramSpec s = toy();
  s.write_high = 3, s.write_low = 0;
  Dram d(s);
  d.read(0, d.addr(0, 0, 0, 5));                    // row 5 open in bank (0,0)
  d.write(1, d.addr(0, 0, 0, 6));                   // older, another row
  d.write(2, d.addr(0, 0, 0, 5, 1));                // a row hit
  d.write(3, d.addr(0, 1, 0, 0));
  ASSERT_EQ(d.count(WR), 3u);
  const auto& cmds = d.ch.commands();
  std::vector<uint32_t> write_rows;
  for (const auto& c : cmds)
    if (c.kind == WR) write_rows.push_back(c.row);
  EXPECT_EQ(write_rows.front(), 5u);
}

TEST(DramQueues, AFullBankQueueHoldsTheReadQueueAndTheReadsBehindIt) {
  const auto third_activate = [](unsigned read_queue, unsigned bank_queue) {
    DramSpec s = toy();
    s.read_queue = read_queue, s.bank_queue = bank_queue;
    Dram d(s);
    d.read(0, d.addr(0, 0, 0, 0));                  // ACT 0, RD 4
    d.read(0, d.addr(0, 0, 0, 0, 1));               // the same bank: with one slot, it enters the bank's queue at 4
    const auto r = d.read(0, d.addr(0, 1, 0, 0));   // another bank, behind it in the read queue
    return std::make_pair(d.cycle(ACT, 1), r.accept);
  };
  EXPECT_EQ(third_activate(1, 1), std::make_pair(int64_t{5}, uint64_t{4}));  // admitted at 4; the command bus holds 4
  EXPECT_EQ(third_activate(2, 1), std::make_pair(int64_t{2}, uint64_t{0}));  // room in the read queue: tRRD_S only
  EXPECT_EQ(third_activate(1, 2), std::make_pair(int64_t{2}, uint64_t{0}));  // room in the bank's queue: the same
}

TEST(DramQueues, WithoutBankQueuesAReadHoldsItsPlaceInTheSharedQueueUntilItsColumnCommand) {
  DramSpec s = toy();
  s.read_queue = 1, s.bank_queue = 0;
  Dram d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4: in the queue until 4
  const auto r = d.read(0, d.addr(0, 1, 0, 0));     // another bank, the queue full until then
  EXPECT_EQ(r.accept, 4u);
  EXPECT_EQ(d.cycle(ACT, 1), 5);                    // admitted at 4; the command bus holds 4
  s.read_queue = 2;
  Dram e(s);
  e.read(0, e.addr(0, 0, 0, 0));
  EXPECT_EQ(e.read(0, e.addr(0, 1, 0, 0)).accept, 0u) << "room for two";
  EXPECT_EQ(e.cycle(ACT, 1), 2);
}

// Memory flat in the trace's length, with either queue structure: what the
// channel keeps is bounded by its queues and the timing's reach, so a
// million more accesses allocate nothing that stays.
TEST(DramQueues, MemoryStaysFlatWhateverTheTraceLength) {
  for (unsigned bank_queue : {8u, 0u}) {
    DramSpec s = *dram_preset("ddr4");
    s.read_queue = 33, s.bank_queue = bank_queue;
    DramChannel ch(DramParams{s, s.tck_ps});
    std::mt19937_64 rng(7);
    uint64_t t = 0;
    const auto run = [&](unsigned n) {
      for (unsigned i = 0; i < n; ++i, t += 10) {  // below the device's rate: a backlog is the player's to bound
        const uint64_t local = (rng() % (uint64_t{1} << 34)) & ~uint64_t{63};
        if (i % 4 == 3) ch.write(t, t, local);
        else ch.read(t, t, local);
      }
    };
    const auto heap = [] { const struct mallinfo2 m = mallinfo2(); return m.uordblks + m.hblkhd; };  // large blocks are mapped
    run(200000);
    const size_t warm = heap();
    run(1000000);
    EXPECT_LT(heap(), warm + 64 * 1024) << "bank_queue " << bank_queue << ": heap grew with the trace";
  }
}

TEST(DramScheduler, ARowHitOvertakesAnOlderConflictWithinTheCap) {
  DramSpec s = toy();
  s.row_hit_cap = 1;
  Dram d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4
  d.read(20, d.addr(0, 0, 0, 0, 1));                // RD 20: row 0 may close at 22
  d.read(1, d.addr(0, 0, 0, 1));                    // older request for row 1: PRE 22, ACT 25, RD 29
  EXPECT_EQ(d.cycle(PRE), 22);
  const auto hit = d.read(2, d.addr(0, 0, 0, 0, 2));
  EXPECT_EQ(hit.row, RowResult::kHit);              // served before the precharge...
  EXPECT_EQ(d.cycle(RD, 3), 9);                     // ...at RD 4 + tCCD_L
  EXPECT_EQ(d.cycle(PRE), 22);                      // and the older request keeps its cycles
  EXPECT_EQ(d.cycle(ACT, 1), 25);
  // The cap: a second hit on the closing row waits behind the older request.
  const auto late = d.read(3, d.addr(0, 0, 0, 0, 3));
  EXPECT_EQ(late.row, RowResult::kConflict);
}

TEST(DramScheduler, ClosedPagePrechargesAfterEveryAccess) {
  DramSpec s = toy();
  s.page_policy = PagePolicy::kClosed;
  Dram d(s);
  d.read(0, d.addr(0, 0, 0, 0));                    // ACT 0, RD 4, auto-precharge at ACT + tRAS = 8
  EXPECT_EQ(d.cycle(PRE), 8);
  const auto r = d.read(5, d.addr(0, 0, 0, 0, 1));
  EXPECT_EQ(r.row, RowResult::kMiss);
  EXPECT_EQ(d.cycle(ACT, 1), 13);                   // ACT + tRC (PRE + tRP = 11)
}

TEST(DramClock, ModelCyclesConvertToMemoryCyclesAndBack) {
  Dram d(toy(), 2000);                              // the model's cycle is two memory cycles
  const auto r = d.read(3, d.addr(0, 0, 0, 0));     // arrives at memory cycle 6
  EXPECT_EQ(d.cycle(ACT), 6);
  EXPECT_EQ(r.start, 3u);
  EXPECT_EQ(r.finish, 9u);                          // data ends at memory cycle 17: model cycle 8.5, rounded up
}

TEST(DramPresets, EveryPresetKeepsTheStandardsRelations) {
  for (const std::string& name : dram_preset_names()) {
    const DramSpec* s = dram_preset(name);
    ASSERT_NE(s, nullptr) << name;
    const DramTiming& t = s->timing;
    for (const RefreshMode mode : {RefreshMode::kAllBank, RefreshMode::kPerBank, RefreshMode::kSameBank}) {
      EXPECT_EQ(dram_timing_problem(t, mode).name, nullptr) << name << ": " << dram_timing_problem(t, mode).what;
      DramSpec refreshed = *s;
      refreshed.refresh = mode;
      EXPECT_EQ(dram_refresh_problem(refreshed).name, nullptr) << name << ": " << dram_refresh_problem(refreshed).what;
    }
    for (const DramTimingRow& row : kDramTimingRows) {
      EXPECT_GE(t.*row.member, row.least) << name << " " << row.name;
      EXPECT_LE(t.*row.member, row.most) << name << " " << row.name;
    }
    EXPECT_EQ(s->address_order.size(), 5u) << name;
    EXPECT_EQ(s->org.access_bytes() % 32, 0u) << name;
    EXPECT_EQ(dram_power_problem(s->power, t).name, nullptr) << name << ": " << dram_power_problem(s->power, t).what;
    for (const DramPowerRow& row : kDramPowerRows) {
      if (!s->power.given() || (row.vpp && !(s->power.vpp > 0))) {  // no public figures: every one 0
        EXPECT_EQ(s->power.*row.member, 0.0) << name << " " << row.name;
        continue;
      }
      EXPECT_GE(s->power.*row.member, row.least) << name << " " << row.name;
      EXPECT_LE(s->power.*row.member, row.most) << name << " " << row.name;
    }
    EXPECT_GE(s->org.devices, 1u) << name;
  }
  EXPECT_EQ(dram_preset("ddr6"), nullptr);
}

TEST(DramPresets, Hbm2SplitsTheLocalAddressAsDocsMemoryMdSays) {
  const DramAddressMap map(*dram_preset("hbm2"));
  EXPECT_EQ(map.offset_bits(), 6u);
  const auto range = [&](DramField f) {
    const auto b = map.field_bits(f);
    return std::make_pair(b.front(), b.back());
  };
  EXPECT_EQ(range(DramField::kColumn), std::make_pair(6u, 10u));
  EXPECT_EQ(range(DramField::kBank), std::make_pair(11u, 12u));
  EXPECT_EQ(range(DramField::kBankGroup), std::make_pair(13u, 14u));
  EXPECT_TRUE(map.field_bits(DramField::kRank).empty());
  EXPECT_EQ(range(DramField::kRow), std::make_pair(15u, 29u));
}

TEST(DramAddressMap, BankXorFoldsRowBitsIntoTheBankAndStaysABijection) {
  DramSpec s = *dram_preset("hbm2");  // bank bits 11-12, bank group bits 13-14, row from bit 15
  s.bank_xor = {{15}, {16}, {17, 19}, {18}};
  const DramAddressMap map(s);
  const DramAddressMap plain(*dram_preset("hbm2"));
  // Row 1 of bank 0 lands in bank 1; row 2 in bank 2; row 4 in bank group 1; row 8 in bank group 2.
  EXPECT_EQ(map.decode(uint64_t{1} << 15).bank, 1u);
  EXPECT_EQ(map.decode(uint64_t{2} << 15).bank, 2u);
  EXPECT_EQ(map.decode(uint64_t{4} << 15).bank_group, 1u);
  EXPECT_EQ(map.decode(uint64_t{16} << 15).bank_group, 1u) << "row bit 19 joins row bit 17";
  EXPECT_EQ(map.decode(uint64_t{8} << 15).bank_group, 2u);
  EXPECT_EQ(map.decode(uint64_t{1} << 15).row, plain.decode(uint64_t{1} << 15).row) << "the row stays the row";
  for (uint64_t local = 0; local < (uint64_t{1} << 22); local += 0x7c0) {
    const DramAddress a = map.decode(local);
    EXPECT_EQ(map.decode(map.encode(a)), a);
    EXPECT_EQ(map.encode(a), local & ~uint64_t{0x3f}) << "encode inverts decode";
  }
}

TEST(DramAddressMap, BankXorSpreadsARowStrideOverBanks) {
  // Every access the next row of one bank: a conflict each, tRC apart. With
  // the row bits folded into the bank bits they go to 16 banks.
  const auto last_finish = [](const DramSpec& s) {
    DramChannel ch(DramParams{s, s.tck_ps});
    uint64_t last = 0;
    for (uint64_t k = 0; k < 64; ++k) last = std::max(last, ch.read(k, k, k << 15).finish);
    return last;
  };
  DramSpec s = *dram_preset("hbm2");
  const uint64_t plain = last_finish(s);
  s.bank_xor = {{15}, {16}, {17}, {18}};
  const uint64_t spread = last_finish(s);
  EXPECT_GE(plain, 63u * s.timing.tRC) << "one bank: an activate every tRC";
  EXPECT_LT(spread * 4, plain);
}

// Each relation of the standard, broken alone from a preset's figures, is
// charged to the timing the config reader names.
TEST(DramPresets, EachBrokenRelationIsChargedToItsTiming) {
  const DramTiming ok = dram_preset("ddr4")->timing;
  const auto broken = [&](auto change, RefreshMode mode = RefreshMode::kAllBank) {
    DramTiming t = ok;
    change(t);
    return std::string(dram_timing_problem(t, mode).name ? dram_timing_problem(t, mode).name : "none");
  };
  EXPECT_EQ(broken([](DramTiming&) {}), "none");
  EXPECT_EQ(broken([](DramTiming& t) { t.tRC = t.tRAS + t.tRP - 1; }), "tRC");
  EXPECT_EQ(broken([](DramTiming& t) { t.tRAS = t.tRCD - 1, t.tRC = t.tRAS + t.tRP; }), "tRAS");
  EXPECT_EQ(broken([](DramTiming& t) { t.tCCD_L = t.tCCD_S - 1; }), "tCCD_L");
  EXPECT_EQ(broken([](DramTiming& t) { t.tRRD_L = t.tRRD_S - 1; }), "tRRD_L");
  EXPECT_EQ(broken([](DramTiming& t) { t.tWTR_L = t.tWTR_S - 1; }), "tWTR_L");
  EXPECT_EQ(broken([](DramTiming& t) { t.tFAW = t.tRRD_S - 1; }), "tFAW");
  EXPECT_EQ(broken([](DramTiming& t) { t.tRFCb = t.tRFC + 1; }), "tRFCb");
  EXPECT_EQ(broken([](DramTiming& t) { t.tREFI = t.tRFC; }), "tREFI");
  EXPECT_EQ(broken([](DramTiming& t) { t.tREFI = 0; }), "none") << "no refresh";
  const auto rrefd_long = [](DramTiming& t) { t.tRREFD = t.tRFCb + 1; };
  EXPECT_EQ(broken(rrefd_long, RefreshMode::kSameBank), "tRREFD");
  EXPECT_EQ(broken(rrefd_long, RefreshMode::kPerBank), "tRREFD");
  EXPECT_EQ(broken(rrefd_long, RefreshMode::kAllBank), "none") << "an all-bank refresh has no other banks";
}

// docs/config-reference.md's preset table shows every row of the DRAM
// tables as they are (meaning and each preset's value), and names no
// timing the tables lack.
TEST(DramPresets, TheConfigReferenceTableIsTheTables) {
  std::ifstream in(std::string(GPUMEM_SOURCE_DIR) + "/docs/config-reference.md");
  ASSERT_TRUE(in);
  std::map<std::string, std::vector<std::string>> rows;  // key -> its cells after the key
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    for (size_t from = 1, bar; (bar = line.find(" |", from)) != std::string::npos; from = bar + 2) {
      std::string cell = line.substr(from, bar - from);
      const size_t text = cell.find_first_not_of(' ');
      cells.push_back(text == std::string::npos ? "" : cell.substr(text));
    }
    const std::string key = cells.front().substr(1, cells.front().size() - 2);
    cells.erase(cells.begin());
    rows[key] = cells;
  }
  const auto expect_row = [&](const std::string& key, const char* meaning, const std::vector<std::string>& values) {
    ASSERT_TRUE(rows.count(key)) << "docs/config-reference.md has no row for " << key;
    std::vector<std::string> want = {meaning};
    want.insert(want.end(), values.begin(), values.end());
    EXPECT_EQ(rows[key], want) << key;
  };
  const auto values = [](const DramPresetValues& v) {
    std::vector<std::string> out;
    for (unsigned x : v) out.push_back(std::to_string(x));
    return out;
  };
  for (const DramOrganizationRow& row : kDramOrganizationRows) expect_row(row.name, row.meaning, values(row.preset));
  for (const DramTimingRow& row : kDramTimingRows) expect_row(std::string("timing.") + row.name, row.meaning, values(row.preset));
  for (const DramPowerRow& row : kDramPowerRows) {
    std::vector<std::string> figures;
    for (double x : row.preset) figures.push_back(x > 0 ? decimal_text(x) : "-");  // no power figures
    expect_row(std::string("power.") + row.name, row.meaning, figures);
  }
  for (const auto& row : rows) {
    const std::string& key = row.first;  // not a structured binding: a lambda below takes it
    if (key.rfind("timing.", 0) != 0) continue;
    EXPECT_TRUE(std::any_of(std::begin(kDramTimingRows), std::end(kDramTimingRows),
                            [&](const DramTimingRow& r) { return key == std::string("timing.") + r.name; }))
        << key << " is no DRAM timing";
  }
  // The figures the tables do not hold, from the presets themselves.
  std::vector<std::string> tck, order, dual;
  for (const char* name : kDramPresetNames) {
    const DramSpec& s = *dram_preset(name);
    tck.push_back(std::to_string(s.tck_ps));
    order.push_back(address_order_text(s.address_order));
    dual.push_back(s.dual_command_bus ? "true" : "false");
  }
  ASSERT_TRUE(rows.count("tck_ps") && rows.count("address_order") && rows.count("dual_command_bus"));
  EXPECT_EQ(std::vector<std::string>(rows["tck_ps"].begin() + 1, rows["tck_ps"].end()), tck);
  EXPECT_EQ(std::vector<std::string>(rows["address_order"].begin() + 1, rows["address_order"].end()), order);
  EXPECT_EQ(std::vector<std::string>(rows["dual_command_bus"].begin() + 1, rows["dual_command_bus"].end()), dual);
}

}  // namespace
}  // namespace gpumem
