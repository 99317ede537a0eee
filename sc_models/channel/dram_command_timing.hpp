// The command timing checker of the approximately-timed DRAM controller
// (simulation.timing: at; docs/memory.md, "Deciding at command time"):
// given the commands issued so far, in cycle order, the earliest memory
// cycle at which the next one may issue. It holds the same constraints as
// the planner of `lt` (docs/memory.md, "Timing constraints"), kept as the
// earliest cycle each command may follow the last of its kind, per bank,
// bank group, rank and channel (as DRAMsim3's and Ramulator 2's timing
// tables do), because commands only ever join the end of the history here.
// It knows nothing of queues or policies: the controller asks and issues.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "base/dram_spec.hpp"
#include "channel/dram_channel.hpp"

namespace gpumem {

class DramCommandTiming {
 public:
  explicit DramCommandTiming(const DramSpec& spec);

  // The earliest cycle at which `kind` to `at`'s bank (a refresh: its rank,
  // or with per-bank refresh its bank) obeys every constraint against the
  // commands issued so far, the command bus included. It does not check the
  // bank's state (open, closed): that is the controller's.
  uint64_t earliest(DramCommandKind kind, const DramAddress& at) const;
  // Records a command at `cycle`, not before any recorded one and not
  // before earliest(). `auto_precharge`: a closed-page column command's
  // precharge, which takes no command slot; earliest_auto_precharge() says
  // when it falls.
  void issue(uint64_t cycle, DramCommandKind kind, const DramAddress& at);
  // A closed-page access's precharge after its column command: the first
  // cycle tRAS, tRTP or tWR allow. Recorded as a precharge of that bank.
  uint64_t auto_precharge(const DramAddress& at);

  unsigned read_latency() const { return t_.CL; }
  unsigned write_latency() const { return t_.CWL; }
  unsigned burst_cycles() const { return t_.tBL; }

 private:
  struct Bank {
    uint64_t act = 0, pre = 0, read = 0, write = 0;  // earliest next command of each kind
  };
  struct Rank {
    std::vector<uint64_t> act, read, write;  // per bank group: earliest next, from this rank's commands
    std::vector<uint64_t> refresh;           // per bank group: earliest next per-bank or same-bank refresh of a bank in it
    std::array<uint64_t, 4> faw{};           // the last four activates, oldest first (0: none yet)
    unsigned acts = 0;                       // activates recorded, up to 4
    uint64_t pre = 0;                        // earliest next explicit precharge (tPPD)
  };
  size_t bank_index(const DramAddress& a) const {
    return (size_t(a.rank) * spec_.org.bank_groups + a.bank_group) * spec_.org.banks_per_group + a.bank;
  }
  uint64_t command_bus(bool column) const;
  static void at_least(uint64_t& v, uint64_t t) {
    if (v < t) v = t;
  }

  DramSpec spec_;
  DramTiming t_;
  std::vector<Bank> banks_;
  std::vector<Rank> ranks_;
  // The data bus: the last burst, which every new burst follows (commands
  // join the end of the history, and the turnaround rules keep bursts in
  // command order).
  uint64_t burst_end_ = 0;
  unsigned burst_rank_ = 0;
  bool burst_write_ = false, any_burst_ = false;
  // One command a cycle; with dual_command_bus one row and one column command.
  uint64_t next_command_ = 0, next_row_command_ = 0;
};

}  // namespace gpumem
