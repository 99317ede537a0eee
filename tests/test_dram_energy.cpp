// DRAM energy (docs/memory.md, "Energy"): the IDD model's costs, each
// rank's standby counted from its commands, and a channel's energy in both
// timing modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "channel/dram_channel.hpp"
#include "channel/dram_controller.hpp"
#include "channel/dram_energy.hpp"
#include "channel/dram_standby.hpp"
#include "dram_toy.hpp"

namespace gpumem {
namespace {

// A rank's banks opening (+) and closing (-): (cycle, rank, +1 or -1).
struct Change {
  uint64_t cycle;
  unsigned rank;
  int delta;
};

// Counters of `org`'s shape, for DramStandby::finish.
DramCounters shaped(const DramOrganization& org) {
  DramCounters n;
  n.ranks.resize(org.ranks);
  return n;
}

DramStandby counted(const std::vector<Change>& changes, uint64_t end) {
  DramStandby s(toy().org, nullptr);
  for (const Change& c : changes) (c.delta > 0 ? s.opened(c.cycle, c.rank) : s.closed(c.cycle, c.rank));
  DramCounters n = shaped(toy().org);
  s.finish(end, n);
  for (unsigned r = 0; r < toy().org.ranks; ++r) EXPECT_EQ(n.ranks[r].active_cycles, s.active_cycles(r));
  EXPECT_EQ(n.cycles, s.cycles());
  return s;
}

TEST(DramStandby, ARankIsActiveWhileAnyOfItsBanksIsOpen) {
  // One bank open 10-30, another 20-50 (overlapping), the first again from 70 to the end.
  const DramStandby s = counted({{10, 0, 1}, {20, 0, 1}, {30, 0, -1}, {50, 0, -1}, {70, 0, 1}}, 100);
  EXPECT_EQ(s.active_cycles(0), (50u - 10u) + (100u - 70u));
  EXPECT_EQ(s.active_cycles(1), 0u);
  EXPECT_EQ(s.cycles(), 100u);
}

TEST(DramStandby, ChangesComeInAnyOrderAheadOfWhatIsCounted) {
  // As lt decides them: a later bank's activate before an earlier one's precharge; ranks apart.
  const DramStandby s = counted({{40, 0, 1}, {5, 1, 1}, {9, 0, 1}, {60, 0, -1}, {20, 0, -1}, {15, 1, -1}}, 80);
  EXPECT_EQ(s.active_cycles(0), (20u - 9u) + (60u - 40u));
  EXPECT_EQ(s.active_cycles(1), 10u);
}

TEST(DramStandby, ChangesDecidedFarAheadAreCountedAsTheCountingReachesThem) {
  // Rank 0 open 300 cycles of each 1000; rank 1 ten, decided 100,000 cycles
  // ahead (past the largest ring, 65,536); settled 200 cycles behind rank 0.
  DramStandby s(toy().org, nullptr);
  for (uint64_t i = 0; i < 50; ++i) {
    if (i) s.settled_before(i * 1000 - 200);
    s.opened(i * 1000, 0);
    s.closed(i * 1000 + 300, 0);
    s.opened(i * 1000 + 100000, 1);
    s.closed(i * 1000 + 100010, 1);
  }
  DramCounters n = shaped(toy().org);
  s.finish(0, n);
  EXPECT_EQ(s.active_cycles(0), 50u * 300u);
  EXPECT_EQ(s.active_cycles(1), 50u * 10u);
  EXPECT_EQ(s.cycles(), 49u * 1000u + 100010u) << "to the last change";
  // Settled but not yet counted (the ring had room): the same at the end.
  DramStandby t(toy().org, nullptr);
  t.opened(10, 0);
  t.settled_before(500);
  t.closed(700, 0);
  DramCounters m = shaped(toy().org);
  t.finish(800, m);
  EXPECT_EQ(t.active_cycles(0), 690u);
}

TEST(DramStandby, AChangeAgesAheadOfWhatIsSettledWaitsApartAndCostsNoRing) {
  // A caller that vouches for nothing (horizon 0) and a rank idle for 2^36 cycles.
  for (unsigned rank : {0u, 1u}) {
    DramOrganization org = toy().org;
    org.ranks = rank + 1;  // one rank, then two (the general count)
    DramStandby s(org, nullptr);
    const uint64_t far = uint64_t{1} << 36;
    s.opened(0, rank);
    s.closed(800, rank);
    s.opened(far, rank);
    s.closed(far + 5000, rank);  // beyond the ring from where the counting stands
    s.opened(far + 2, rank);     // the ring's again, and before the last
    s.closed(far + 4, rank);
    DramCounters n = shaped(org);
    s.finish(far + 6000, n);
    EXPECT_EQ(n.ranks[rank].active_cycles, 800u + 5000u);
    EXPECT_EQ(s.active_cycles(rank), 800u + 5000u) << org.ranks << " ranks";
    EXPECT_EQ(s.cycles(), far + 6000);
  }
}

TEST(DramStandby, AChangeBeforeWhatIsCountedIsAModelError) {
  DramStandby s(toy().org, nullptr);
  s.opened(10, 0);
  s.settled_before(5000);  // counted to 5000
  EXPECT_THROW(s.closed(4999, 0), std::logic_error);
  EXPECT_THROW(s.opened(20, 1), std::logic_error);
  s.closed(5000, 0);
}

// DRAMsim3's increments for its DDR4_8Gb_x8_3200 (V x mA x cycles x devices; docs/memory.md), in pJ at tCK 0.625 ns.
TEST(DramEnergyCosts, Ddr4PresetCostsAreDramsim3sIncrementsInPicojoules) {
  const DramEnergyCosts c = dram_energy_costs(*dram_preset("ddr4"));
  const double tck = 0.625;
  EXPECT_DOUBLE_EQ(c.activate, 1.2 * (57 * 74 - (52 * 52 + 37 * 22)) * 8 * tck);  // 6720 x tCK
  EXPECT_DOUBLE_EQ(c.read, 1.2 * (168 - 52) * 4 * 8 * tck);                        // 4454.4 x tCK
  EXPECT_DOUBLE_EQ(c.write, 1.2 * (150 - 52) * 4 * 8 * tck);
  EXPECT_DOUBLE_EQ(c.refresh, 1.2 * (250 - 52) * 560 * 8 * tck);
  EXPECT_DOUBLE_EQ(c.active_standby_cycle, 1.2 * 52 * 8 * tck);
  EXPECT_DOUBLE_EQ(c.precharge_standby_cycle, 1.2 * 37 * 8 * tck);
  const DramEnergyCosts h = dram_energy_costs(*dram_preset("hbm2"));
  EXPECT_DOUBLE_EQ(h.activate, 828.0);  // one device, tCK 1 ns
  EXPECT_DOUBLE_EQ(h.read, 804.0);
  EXPECT_DOUBLE_EQ(h.write, 1068.0);
}

// ddr5 gives VPP's currents too: each cost adds VPP's share to VDD's, an
// activate and its precharge as Ramulator 2.0's DDR5 charges them (tRC =
// tRAS + tRP here), in pJ over four devices at tCK 0.416 ns.
TEST(DramEnergyCosts, Ddr5AddsVppsShareToEachCostAsRamulator2Does) {
  const DramSpec& s = *dram_preset("ddr5");
  ASSERT_EQ(s.timing.tRC, s.timing.tRAS + s.timing.tRP);
  const DramEnergyCosts c = dram_energy_costs(s);
  const double scale = 4 * 0.416;
  const double act = 1.1 * (60 - 55) * 77 + 1.8 * (3 - 3) * 77, pre = 1.1 * (60 - 50) * 34 + 1.8 * (3 - 3) * 34;
  EXPECT_DOUBLE_EQ(c.activate, (act + pre) * scale);
  EXPECT_DOUBLE_EQ(c.read, (1.1 * (145 - 55) + 1.8 * (3 - 3)) * 8 * scale);
  EXPECT_DOUBLE_EQ(c.write, (1.1 * (145 - 55) + 1.8 * (3 - 3)) * 8 * scale);
  EXPECT_DOUBLE_EQ(c.refresh, (1.1 * (362 - 55) + 1.8 * (48 - 3)) * 710 * scale);
  EXPECT_DOUBLE_EQ(c.active_standby_cycle, (1.1 * 55 + 1.8 * 3) * scale);
  EXPECT_DOUBLE_EQ(c.precharge_standby_cycle, (1.1 * 50 + 1.8 * 3) * scale);
  // Without VPP's figures, VDD's alone (DRAMsim3's model).
  DramSpec vdd_only = s;
  for (const DramPowerRow& row : kDramPowerRows)
    if (row.vpp) vdd_only.power.*row.member = 0;
  EXPECT_DOUBLE_EQ(dram_energy_costs(vdd_only).precharge_standby_cycle, 1.1 * 50 * scale);
  EXPECT_DOUBLE_EQ(dram_energy_costs(vdd_only).refresh, 1.1 * (362 - 55) * 710 * scale);
}

// Each IPP current in its IDD namesake's role: VPP's share of every cost is
// what VDD's would be at VPP's voltage with the IPP currents (figures all
// different, so that two currents swapped show; ddr5's are mostly 3 mA).
TEST(DramEnergyCosts, EachIppCurrentCountsAsItsIddNamesake) {
  DramSpec s = *dram_preset("ddr5");
  DramPower& p = s.power;
  p.vpp = 2.5, p.ipp0 = 9, p.ipp2n = 2, p.ipp3n = 4, p.ipp4r = 11, p.ipp4w = 13, p.ipp5ab = 40;
  DramSpec vdd_only = s, vpp_as_vdd = s;
  for (const DramPowerRow& row : kDramPowerRows)
    if (row.vpp) vdd_only.power.*row.member = 0, vpp_as_vdd.power.*row.member = 0;
  DramPower& q = vpp_as_vdd.power;
  q.vdd = p.vpp, q.idd0 = p.ipp0, q.idd2n = p.ipp2n, q.idd3n = p.ipp3n, q.idd4r = p.ipp4r, q.idd4w = p.ipp4w, q.idd5ab = p.ipp5ab;
  const DramEnergyCosts both = dram_energy_costs(s), a = dram_energy_costs(vdd_only), b = dram_energy_costs(vpp_as_vdd);
  EXPECT_DOUBLE_EQ(both.activate, a.activate + b.activate);
  EXPECT_DOUBLE_EQ(both.read, a.read + b.read);
  EXPECT_DOUBLE_EQ(both.write, a.write + b.write);
  EXPECT_DOUBLE_EQ(both.refresh, a.refresh + b.refresh);
  EXPECT_DOUBLE_EQ(both.active_standby_cycle, a.active_standby_cycle + b.active_standby_cycle);
  EXPECT_DOUBLE_EQ(both.precharge_standby_cycle, a.precharge_standby_cycle + b.precharge_standby_cycle);
}

TEST(DramEnergyCosts, APerBankRefreshCostsItsBanksShareOfAnAllBankOne) {
  DramSpec s = *dram_preset("gddr6");
  const double all_bank = dram_energy_costs(s).refresh;
  s.refresh = RefreshMode::kPerBank;
  EXPECT_DOUBLE_EQ(dram_energy_costs(s).refresh * s.org.banks(), all_bank);
}

TEST(DramEnergy, SumsBanksIntoRanksAndRanksIntoTheChannel) {
  const DramSpec spec = *dram_preset("ddr4");  // two ranks
  const DramEnergyCosts cost = dram_energy_costs(spec);
  DramCounters n;
  n.banks.resize(size_t(spec.org.ranks) * spec.org.banks());
  n.ranks.resize(spec.org.ranks);
  n.banks[3].activates = 2, n.banks[3].reads = 5;
  n.banks[20].writes = 7;  // rank 1
  n.ranks[0] = {3, 400};
  n.ranks[1] = {2, 100};
  n.cycles = 1000;
  const DramChannelEnergy e = dram_energy(spec, n);
  EXPECT_DOUBLE_EQ(e.banks[3].total(), 2 * cost.activate + 5 * cost.read);
  EXPECT_DOUBLE_EQ(e.ranks[1].write, 7 * cost.write);
  EXPECT_DOUBLE_EQ(e.ranks[0].refresh, 3 * cost.refresh);
  EXPECT_DOUBLE_EQ(e.ranks[0].active_standby, 400 * cost.active_standby_cycle);
  EXPECT_DOUBLE_EQ(e.ranks[0].precharge_standby, 600 * cost.precharge_standby_cycle);
  EXPECT_DOUBLE_EQ(e.all.total(), e.ranks[0].total() + e.ranks[1].total());
  EXPECT_DOUBLE_EQ(e.average_power_mw, e.all.total() / (1000 * 0.625));
}

// A toy device with one device a rank and round figures.
DramSpec powered_toy(PagePolicy policy) {
  DramSpec s = toy();
  s.org.devices = 1;
  s.power = {1.0, 10, 2, 3, 20, 30, 40};
  s.page_policy = policy;
  return s;
}

// The same reads through both timing modes: one to a closed bank at memory
// cycle 0, one to another row of it at 100; drained at 300.
TEST(DramEnergy, BothTimingModesCountTheSameStandbyForSeparateAccesses) {
  for (PagePolicy policy : {PagePolicy::kOpen, PagePolicy::kClosed}) {
    const DramSpec spec = powered_toy(policy);
    DramChannel lt(DramParams{spec, spec.tck_ps});
    DramController at(DramParams{spec, spec.tck_ps});
    const uint64_t first = lt.address_map().encode({0, 0, 0, 1, 0}), second = lt.address_map().encode({0, 0, 0, 2, 0});
    lt.read(0, 0, first);
    lt.read(100, 100, second);
    lt.drain(300);
    std::vector<DramController::Done> done;
    at.arrive(0, 0, first, false, done);
    at.run_until(100, done);
    at.arrive(1, 100, second, false, done);
    at.drain(300, done);
    for (const DramCounters* n : {&lt.counters(), &at.counters()}) {
      EXPECT_EQ(n->cycles, 300u);
      // Open page: from the first activate (0) to the end but for tRP (3)
      // after the precharge at 100; closed: tRAS (8) from each activate.
      EXPECT_EQ(n->ranks[0].active_cycles, policy == PagePolicy::kOpen ? 297u : 16u) << (n == &lt.counters() ? "lt" : "at");
      EXPECT_EQ(n->ranks[1].active_cycles, 0u);
    }
    const DramChannelEnergy a = dram_energy(spec, lt.counters()), b = dram_energy(spec, at.counters());
    EXPECT_DOUBLE_EQ(a.all.total(), b.all.total());
  }
}

}  // namespace
}  // namespace gpumem
