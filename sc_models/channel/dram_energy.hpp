// A channel's DRAM energy from its counters and its preset's IDD figures
// (docs/memory.md, "Energy"): each activate, read, write and refresh costs
// the current it draws above active standby for its duration; each rank's
// background is active standby (IDD3N) while a bank is open and precharge
// standby (IDD2N) while none is; times VDD and the devices of a rank. This
// is DRAMsim3's model (and the core of DRAMPower's), figure for figure.
// Where the preset gives VPP's currents too (ddr5), the same model on them
// adds VPP's share, as Ramulator 2.0's DDR5 energy does.
#pragma once
#include <vector>

#include "base/dram_spec.hpp"
#include "channel/dram_counters.hpp"

namespace gpumem {

// Energy in picojoules, by what spent it.
struct DramEnergyParts {
  double activate = 0, read = 0, write = 0, refresh = 0;
  double active_standby = 0, precharge_standby = 0;
  double total() const { return activate + read + write + refresh + active_standby + precharge_standby; }
  DramEnergyParts& operator+=(const DramEnergyParts& o);
};

// One command's energy, or one cycle's of standby, in picojoules, for a whole rank.
struct DramEnergyCosts {
  double activate, read, write, refresh, active_standby_cycle, precharge_standby_cycle;
};
DramEnergyCosts dram_energy_costs(const DramSpec& spec);

struct DramChannelEnergy {
  DramEnergyParts all;
  std::vector<DramEnergyParts> ranks;
  std::vector<DramEnergyParts> banks;  // activate, read and write only: refresh and standby belong to the rank
  double average_power_mw = 0;         // over DramCounters::cycles
};
DramChannelEnergy dram_energy(const DramSpec& spec, const DramCounters& counters);

}  // namespace gpumem
