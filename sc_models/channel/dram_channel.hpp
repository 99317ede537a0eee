// One DRAM channel behind the router (memory.model: dram): banks with their
// rows, the JEDEC timing between commands, a command bus and a data bus, a
// read queue and a write queue, refresh. docs/memory.md is the model's
// contract; the directed tests (tests/test_dram_timing.cpp) work each
// constraint by hand.
//
// Why a planner and not a cycle-stepped controller: the model is loosely
// timed. A request's completion is announced when it reaches the channel,
// and the front end, the L1 and the MMU's walk act on that cycle at once. So
// each access's commands are planned when it arrives, in arrival order,
// each at the earliest cycle every constraint allows against every command
// already planned (earlier arrivals keep their cycles; a later arrival takes
// any gap between them that fits). A row hit that arrives while its bank
// waits to close that row for an older request is served before the
// precharge when it fits there (first ready), at most row_hit_cap times per
// row; it never moves the older request, whose completion is already known.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/dram_spec.hpp"
#include "base/ring_buffer.hpp"
#include "base/simulation_options.hpp"
#include "channel/dram_address.hpp"
#include "channel/dram_command.hpp"
#include "channel/dram_counters.hpp"
#include "channel/dram_standby.hpp"

namespace gpumem {

struct DramParams {
  DramSpec spec;
  uint64_t cycle_ps = SimulationOptions{}.cycle_ps();  // the model's cycle; memory cycles are spec.tck_ps
  uint64_t epoch_cycles = 0;  // stats.epoch_cycles: the counters per epoch of this many model cycles (0: none)
};

// The model's cycles and the memory's (docs/memory.md, "Clocks").
struct DramClocks {
  uint64_t cycle_ps, tck_ps;
  // The first memory edge at or after a model cycle, and the first model edge at or after a memory cycle.
  uint64_t to_memory(uint64_t c) const { return cycle_ps == tck_ps ? c : (c * cycle_ps + tck_ps - 1) / tck_ps; }
  uint64_t to_model(uint64_t m) const { return cycle_ps == tck_ps ? m : (m * tck_ps + cycle_ps - 1) / cycle_ps; }
  // The first model cycle c with to_memory(c) > m: when every memory cycle up to m lies in the past.
  uint64_t model_cycle_after(uint64_t m) const { return cycle_ps == tck_ps ? m + 1 : m * tck_ps / cycle_ps + 1; }
};

class DramChannel {
 public:
  explicit DramChannel(const DramParams& params);

  // One access, in the model's cycles. `horizon`: no later call arrives
  // before it (see ChannelModel::schedule).
  struct Access {
    uint64_t accept;  // entered the read or write queue (after waiting for room in a full one)
    uint64_t start;   // first command's cycle (a posted write: its arrival)
    uint64_t finish;  // a read: its last data; a write: its acceptance
    DramAddress at;
    RowResult row;
  };
  // `request`: the id the command trace names (DramCommand::request).
  Access read(uint64_t arrival, uint64_t horizon, uint64_t local, uint64_t request = DramCommand::kNoRequest);
  Access write(uint64_t arrival, uint64_t horizon, uint64_t local, uint64_t request = DramCommand::kNoRequest);
  // Sends the posted writes and the refreshes due by `cycle` (model cycles),
  // so the counters cover the whole run. Call once at the end.
  void drain(uint64_t cycle);

  const DramCounters& counters() const { return counting_.total(); }
  const DramAddressMap& address_map() const { return map_; }
  const DramSpec& spec() const { return spec_; }
  // Peak bandwidth as bytes per memory cycle.
  double peak_bytes_per_cycle() const { return double(spec_.org.access_bytes()) / spec_.timing.tBL; }
  void record_commands(bool on) { recording_ = on; }  // commands(): every command as planned, for tests
  // The command trace: this channel's commands to `sink`, in cycle order, as
  // they become final (and the rest at drain()).
  void trace_commands(DramCommandSink& sink, unsigned channel);
  size_t commands_held() const { return trace_ ? trace_->held() : 0; }  // decided, not yet given to the sink
  const std::vector<DramCommand>& commands() const { return commands_; }

  uint64_t to_memory(uint64_t model_cycle) const { return clocks_.to_memory(model_cycle); }
  uint64_t to_model(uint64_t memory_cycle) const { return clocks_.to_model(memory_cycle); }

 private:
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    uint64_t act = 0;        // the open row's activate
    uint64_t act_ready = 0;  // earliest next activate
    uint64_t pre_ready = 0;  // earliest precharge of the open row
    // The row the last planned precharge closes, for first-ready hits.
    bool prev_open = false;
    uint32_t prev_row = 0;
    uint64_t prev_act = 0, prev_pre = 0;
    unsigned prev_hits = 0;
  };
  struct Act {
    uint64_t cycle;
    unsigned bank_group;
  };
  static constexpr unsigned kEveryGroup = ~0u;
  struct Column {
    uint64_t cycle;
    unsigned bank_group;
    bool write;
  };
  struct Burst {
    uint64_t start, end;
    unsigned rank;
    bool write;
  };
  struct Rank {
    RingBuffer<Act> acts{16};
    RingBuffer<uint64_t> precharges{16};  // with tPPD: the explicit precharges (not a column command's auto-precharge)
    RingBuffer<Act> refreshes{4};         // the per-bank or same-bank refreshes (a same-bank one's group: kEveryGroup)
    RingBuffer<Column> columns{32};
    uint64_t next_refresh = 0;
    unsigned refresh_bank = 0;  // per-bank or same-bank refresh: the round's turn next (DramSpec::refresh_target)
    // One past the latest read and write column command ever planned (0:
    // none), so a column whose write-to-read window holds no opposite
    // command skips the scan of `columns`.
    uint64_t reads_end = 0, writes_end = 0;
  };
  struct Posted {
    uint64_t arrival;  // memory cycles
    uint64_t line;     // local address >> offset bits
    DramAddress at;
    uint64_t request;
  };
  struct Plan {
    DramAddress at;
    RowResult row;
    bool bypass = false;
    uint64_t pre = 0, act = 0, column = 0;  // pre/act unused on a hit
    bool has_pre = false, has_act = false;
  };

  Access access(uint64_t arrival, uint64_t horizon, uint64_t local, bool write, uint64_t request);
  Access plan_access(uint64_t a, uint64_t arrival, uint64_t local, bool write, uint64_t request);  // a: arrival in memory cycles
  Plan plan(const DramAddress& at, uint64_t lo, bool write) const;
  void commit(const Plan& p, bool write, uint64_t request);
  // plan (refreshing first if due) and commit
  void send(const DramAddress& at, uint64_t lo, bool write, uint64_t request, Plan* out);
  void refresh(unsigned rank);
  void skip_idle_refreshes(unsigned rank, uint64_t until);  // counts, without planning, refreshes an idle rank sleeps through
  void refresh_idle_ranks(uint64_t horizon);
  bool idle_refreshes_to_skip(unsigned rank, uint64_t until) const {  // inline: every access asks
    return refresh_interval_ && ranks_[rank].next_refresh + idle_margin_ < until;
  }
  uint64_t bank_admission(const DramAddress& at, uint64_t t);  // when the bank's queue has room at or after t
  bool idle(uint64_t t) const;  // no read waits and no admitted access is still to issue at t
  void drain_writes(uint64_t lo, size_t keep);
  void forget_before(uint64_t memory_cycle);

  // Whether the rank's next refresh goes before plan `p` (of an access
  // entering at `lo`): an all-bank refresh once a column passes its due; a
  // bank's refresh once a column of a bank it refreshes does, or once an
  // access enters a whole interval after it. Other banks' accesses do not
  // place it, as they do not hold it in at: planned in arrival order, their
  // enter times run out of order (a bank's queue holds some back), and one
  // entering late would refresh a bank before the earlier accesses that
  // arrive after it are planned, which at serves before the refresh is due
  // (with the refresh order a stream's, over and over).
  bool refresh_first(const Plan& p, uint64_t lo) const;
  uint64_t command_slot(uint64_t t, bool column) const;
  uint64_t activate_slot(uint64_t t, unsigned rank, unsigned bg) const;
  // The first cycle from `t` a precharge of `rank` may take: a row command slot, tPPD from its others.
  uint64_t precharge_slot(uint64_t t, unsigned rank) const;
  // The first cycle from `t` a per-bank or same-bank refresh of `rank` may
  // take, of a bank in group `bg` (kEveryGroup: a same-bank refresh).
  uint64_t bank_refresh_slot(uint64_t t, unsigned rank, unsigned bg) const;
  void add_precharge(uint64_t t, unsigned rank);  // an explicit precharge, for tPPD
  uint64_t column_slot(uint64_t t, unsigned rank, unsigned bg, bool write) const;
  void add_command(uint64_t t, DramCommandKind kind, const DramAddress& at, uint64_t request, bool auto_pre = false);
  // No command planned from now on, for arrivals at or after memory cycle
  // h, falls before this (refreshes are planned when an arrival passes them).
  uint64_t final_before(uint64_t h) const;
  Bank& bank(const DramAddress& a) { return banks_[bank_index(a)]; }
  const Bank& bank(const DramAddress& a) const { return banks_[bank_index(a)]; }
  size_t bank_index(const DramAddress& a) const {  // the counts are powers of two
    return (size_t(a.rank) << rank_shift_) | (size_t(a.bank_group) << group_shift_) | a.bank;
  }
  unsigned write_to_read(unsigned same_group) const;

  DramSpec spec_;
  DramTiming t_;
  DramClocks clocks_;
  DramAddressMap map_;
  uint64_t lookback_;  // no command constrains one further away than this
  uint64_t refresh_interval_;  // between one rank's refreshes (per bank: tREFI / banks); 0: none
  uint64_t idle_margin_;       // skip_idle_refreshes' distance: closer than this, it has nothing to skip
  uint64_t forgotten_until_ = 0;  // the horizon of the last forget_before
  uint64_t idle_refresh_after_;   // no rank is idle enough for refresh_idle_ranks until the horizon passes this
  unsigned group_shift_, rank_shift_;  // bank_index's fields
  std::vector<Bank> banks_;
  std::vector<RingBuffer<uint64_t>> bank_queues_;  // per bank: column cycles of admitted accesses, ascending
  uint64_t last_column_ = 0;                       // the latest column command planned
  std::vector<Rank> ranks_;
  RingBuffer<uint64_t> command_bus_{64};  // cycles with a command, ascending (dual: column commands)
  RingBuffer<uint64_t> row_bus_{64};      // dual_command_bus: cycles with a row command
  RingBuffer<Burst> data_bus_{64};        // bursts by start, non-overlapping
  RingBuffer<uint64_t> read_queue_{64};   // reads' cycles of leaving for their bank's queue (bank_queue 0: their column command), ascending
  std::vector<Posted> write_queue_;
  // Posted writes per line hash: most reads skip the write queue's scan.
  static constexpr size_t kPostedFilter = 256;
  std::array<uint32_t, kPostedFilter> posted_lines_{};  // the write queue may hold 2^16 writes of one hash
  DramCounting counting_;
  bool recording_ = false;
  std::vector<DramCommand> commands_;
  std::unique_ptr<DramCommandOrder> trace_;
  DramStandby standby_;
};

}  // namespace gpumem
