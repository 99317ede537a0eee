#include "channel/dram_energy.hpp"

namespace gpumem {

DramEnergyParts& DramEnergyParts::operator+=(const DramEnergyParts& o) {
  activate += o.activate, read += o.read, write += o.write, refresh += o.refresh;
  active_standby += o.active_standby, precharge_standby += o.precharge_standby;
  return *this;
}

DramEnergyCosts dram_energy_costs(const DramSpec& spec) {
  const DramPower& p = spec.power;
  const DramTiming& t = spec.timing;
  // mA x V = mW; x ns = pJ.
  const double scale = p.vdd * spec.org.devices * double(spec.tck_ps) / 1000.0;
  const double all_bank = (p.idd5ab - p.idd3n) * t.tRFC * scale;
  return {
      (p.idd0 * t.tRC - (p.idd3n * t.tRAS + p.idd2n * t.tRP)) * scale,
      (p.idd4r - p.idd3n) * t.tBL * scale,
      (p.idd4w - p.idd3n) * t.tBL * scale,
      // A per-bank or same-bank refresh does its banks' share of an all-bank one's work.
      all_bank / spec.refreshes_per_round(),
      p.idd3n * scale,
      p.idd2n * scale,
  };
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
