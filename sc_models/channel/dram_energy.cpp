#include "channel/dram_energy.hpp"

namespace gpumem {

DramEnergyParts& DramEnergyParts::operator+=(const DramEnergyParts& o) {
  activate += o.activate, read += o.read, write += o.write, refresh += o.refresh;
  active_standby += o.active_standby, precharge_standby += o.precharge_standby;
  return *this;
}

namespace {

// One supply's share: its currents over each command's time, above the
// standby that time is already charged (mA x V = mW; x ns = pJ).
DramEnergyCosts supply_costs(const DramSpec& spec, double volts, double i0, double i2n, double i3n, double i4r, double i4w,
                             double i5ab) {
  const DramTiming& t = spec.timing;
  const double scale = volts * spec.org.devices * double(spec.tck_ps) / 1000.0;
  const double all_bank = (i5ab - i3n) * t.tRFC * scale;
  return {
      (i0 * t.tRC - (i3n * t.tRAS + i2n * t.tRP)) * scale,
      (i4r - i3n) * t.tBL * scale,
      (i4w - i3n) * t.tBL * scale,
      // A per-bank or same-bank refresh does its banks' share of an all-bank one's work.
      all_bank / spec.refreshes_per_round(),
      i3n * scale,
      i2n * scale,
  };
}

}  // namespace

DramEnergyCosts dram_energy_costs(const DramSpec& spec) {
  const DramPower& p = spec.power;
  DramEnergyCosts c = supply_costs(spec, p.vdd, p.idd0, p.idd2n, p.idd3n, p.idd4r, p.idd4w, p.idd5ab);
  if (!(p.vpp > 0)) return c;  // DRAMsim3's model: VDD alone
  const DramEnergyCosts v = supply_costs(spec, p.vpp, p.ipp0, p.ipp2n, p.ipp3n, p.ipp4r, p.ipp4w, p.ipp5ab);
  c.activate += v.activate, c.read += v.read, c.write += v.write, c.refresh += v.refresh;
  c.active_standby_cycle += v.active_standby_cycle, c.precharge_standby_cycle += v.precharge_standby_cycle;
  return c;
}

DramChannelEnergy dram_energy(const DramSpec& spec, const DramCounters& counters) {
  const DramEnergyCosts cost = dram_energy_costs(spec);
  DramChannelEnergy e;
  e.ranks.resize(counters.ranks.size());
  for (const DramBankCounters& n : counters.banks) {
    DramEnergyParts b;
    b.activate = double(n.activates) * cost.activate;
    b.read = double(n.reads) * cost.read;
    b.write = double(n.writes) * cost.write;
    e.ranks[e.banks.size() / spec.org.banks()] += b;
    e.banks.push_back(b);
  }
  for (size_t r = 0; r < counters.ranks.size(); ++r) {
    const DramRankCounters& n = counters.ranks[r];
    DramEnergyParts& p = e.ranks[r];
    p.refresh = double(n.refreshes) * cost.refresh;
    p.active_standby = double(n.active_cycles) * cost.active_standby_cycle;
    p.precharge_standby = double(counters.cycles - n.active_cycles) * cost.precharge_standby_cycle;
    e.all += p;
  }
  // pJ over ns is mW.
  const double ns = double(counters.cycles) * double(spec.tck_ps) / 1000.0;
  e.average_power_mw = ns > 0 ? e.all.total() / ns : 0.0;
  return e;
}

}  // namespace gpumem
