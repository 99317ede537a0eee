// The DRAM controller of the approximately-timed mode (simulation.timing:
// at; docs/memory.md, "Deciding at command time"). Where DramChannel plans
// each access on arrival, this decides at each memory cycle at which a
// command could issue, among the requests queued then, as DRAMsim3's and
// Ramulator 2's controllers do: first ready, then oldest (FR-FCFS), a
// row's precharge held back while younger requests hit it, up to
// row_hit_cap of them; writes posted and drained between watermarks;
// refresh. It is event-driven: it does no work on a cycle at which nothing
// can issue.
//
// Its parts, as DRAMSys's controller is cut: the command timing checker
// (DramCommandTiming: when may a command issue), the request queues and
// the scheduler (here: which request's command goes), refresh (here: when
// a rank stops taking activates and is refreshed) and the write queue
// (here: when writes drain). A plain class: tests drive it without a kernel.
#pragma once
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <vector>

#include "base/dram_spec.hpp"
#include "channel/dram_address.hpp"
#include "channel/dram_channel.hpp"
#include "channel/dram_command_timing.hpp"
#include "channel/dram_standby.hpp"

namespace gpumem {

class DramController {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  explicit DramController(const DramParams& params);

  // What the controller says of a request once its timing is known: a read
  // at its column command, a write when it enters the write queue (posted),
  // a read of a posted write's bytes at its arrival (forwarded). Cycles are
  // memory cycles.
  struct Done {
    uint64_t token;
    uint64_t accept;  // entered the read or write queue
    uint64_t start;   // its first command (posted, forwarded: its arrival)
    uint64_t finish;  // a read: its last data; a write: its acceptance
    unsigned depth;   // the queue it joined, itself included
    DramAddress at;
    RowResult row;
  };

  // A request reaching the channel at memory cycle `arrival` (arrivals in
  // nondecreasing cycles, not before the cycles decided). `token` is the
  // caller's, given back in its Done. Handed over ahead of the cycles
  // decided (run_until(now), arrival later: the model's channel does so),
  // it takes part in no decision before its arrival.
  // A read of bytes a posted write holds is answered at once, into `done`.
  // A prefetch (a read) is served after the demand reads: its row hits when
  // no demand command can go, its activates and precharges when no demand
  // read is queued; with prefetch_drop_cycles it is dropped (RowResult::kDropped)
  // when it has waited that long for its first command.
  // `request`: the id the command trace names (DramCommand::request).
  void arrive(uint64_t token, uint64_t arrival, uint64_t local, bool write, std::vector<Done>& done, bool prefetch = false,
              uint64_t request = DramCommand::kNoRequest);
  // Decides every command before memory cycle `until`: every arrival before
  // it must be in. Appends what it learns of requests to `done`, in the
  // order it learns it.
  void run_until(uint64_t until, std::vector<Done>& done);
  // The earliest memory cycle at which run_until has something to decide
  // (kNever: nothing queued; refreshes of an idle channel wait for the next
  // arrival or drain).
  uint64_t next_decision() const { return busy() ? next_ : kNever; }
  // The earliest memory cycle at which an answer could fall (kNever: none
  // queued): a read's last data, CL + tBL after a column command, or a
  // write's acceptance when writes wait for room. Decisions before it can
  // wait until then, in one batch: what they answer falls later.
  uint64_t next_answer() const {
    if (!busy()) return kNever;
    return waiting_writes_.empty() && !(queued_prefetches_ && spec_.prefetch_drop_cycles) ? next_ + t_.CL + t_.tBL : next_;
  }
  bool busy() const { return queued_reads_ > 0 || !waiting_reads_.empty() || !waiting_writes_.empty() || !write_queue_.empty(); }
  // End of the run: every queued request served, then the refreshes due by
  // `cycle`, so the counters cover the whole run.
  void drain(uint64_t cycle, std::vector<Done>& done);

  const DramCounters& counters() const { return counting_.total(); }
  const DramAddressMap& address_map() const { return map_; }
  const DramSpec& spec() const { return spec_; }
  const DramClocks& clocks() const { return clocks_; }
  void record_commands(bool on) { recording_ = on; }  // commands(): every command as decided, for tests
  // The command trace: this channel's commands to `sink`, in cycle order, as
  // they become final (and the rest at drain()).
  void trace_commands(DramCommandSink& sink, unsigned channel) { trace_ = std::make_unique<DramCommandOrder>(sink, channel); }
  size_t commands_held() const { return trace_ ? trace_->held() : 0; }  // decided, not yet given to the sink
  // Every step looks at every bank that holds a request, none skipped for
  // a cycle it worked out before: for tests, that the skipping changes
  // nothing.
  void visit_every_bank(bool on) { visit_every_bank_ = on; }
  const std::vector<DramCommand>& commands() const { return commands_; }
  // Requests waiting for room, queued, and posted, now.
  size_t reads_queued() const { return queued_reads_; }
  size_t writes_queued() const { return write_queue_.size(); }

 private:
  // A prefetch ranks after every demand request, whatever its age.
  static constexpr uint64_t kPrefetchRank = uint64_t{1} << 63;
  struct Entry {
    uint64_t token;
    uint64_t request;  // for the command trace
    uint64_t seq;      // the rank FR-FCFS compares: arrival order, prefetches after demand requests
    uint64_t arrival;  // memory cycle
    uint64_t accept = 0;
    uint64_t start = 0;
    uint64_t line;
    DramAddress at;
    uint32_t bank;  // bank_index(at)
    unsigned depth = 0;
    bool write;
    bool prefetch = false;
    bool started = false;  // its first command issued
    bool active = false;   // in the active buffer (spec active_buffer): its row was activated for it
    RowResult row = RowResult::kHit;
  };
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    unsigned bypassed = 0;  // hits served past an older request waiting for another row, since the row opened
    // No earlier than these can its next row command or a column command
    // to its open row issue, while the bank's requests and state stay as
    // they were (constraints only ever push a command later).
    uint64_t row_not_before = 0, column_not_before[2] = {0, 0};  // column: [read, write]
    uint64_t idle_until = 0;  // no command of its queue's requests before this
    void forget() { row_not_before = column_not_before[0] = column_not_before[1] = idle_until = 0; }
  };
  struct Rank {
    uint64_t next_refresh = 0;
    unsigned refresh_bank = 0;  // per-bank or same-bank refresh: the round's turn next (DramSpec::refresh_target)
  };
  // A command the scheduler may issue now, and for whom.
  struct Choice {
    DramCommandKind kind;
    std::vector<Entry>* queue = nullptr;
    size_t index = 0;
    uint64_t seq = kNever;
    bool active = false;  // its request is in the active buffer: its column command goes first
    // Whether this choice goes before request `e`'s command of the same kind.
    bool before(const Entry& e) const { return queue && (active != e.active ? active : seq < e.seq); }
  };

  size_t bank_index(const DramAddress& a) const {
    return (size_t(a.rank) * spec_.org.bank_groups + a.bank_group) * spec_.org.banks_per_group + a.bank;
  }
  bool refresh_due(const DramAddress& a, uint64_t t) const;
  void enter(Entry e, uint64_t t, std::vector<Done>& done);  // into its read or write queue at t
  void admit(uint64_t t, std::vector<Done>& done);
  bool step(uint64_t t, std::vector<Done>& done);  // one decision cycle; true if a command issued
  bool refresh_step(uint64_t t);  // a refresh's precharge or the refresh itself, if one can issue at t (a rank's refresh due by t)
  void refresh_done(unsigned rank, uint64_t cycle);  // its refresh command issued at `cycle`
  void idle_refreshes(uint64_t until);  // an idle channel's refreshes due before `until`, in cycle order
  // Per bank, its oldest request and whether one hits its open row (oldest_, has_hit_), of those arrived by t.
  void survey(const std::vector<Entry>& q, bool started_only, uint64_t t);
  [[gnu::always_inline]] void survey_bank(const std::vector<Entry>& q, uint32_t bank, bool started_only, uint64_t t);
  [[gnu::always_inline]] void consider(std::vector<Entry>& q, bool started_only, uint64_t t, Choice& row_cmd, Choice& column_cmd);
  void issue(const Choice& c, uint64_t t, std::vector<Done>& done);
  void decide_until(uint64_t until, std::vector<Done>& done);  // run_until, without releasing the command trace
  void record(uint64_t t, DramCommandKind kind, const DramAddress& at, uint64_t request, bool auto_pre = false);
  void update_mode(uint64_t t);
  void drop_stale_prefetches(uint64_t t, std::vector<Done>& done);
  void soonest(uint64_t t) {
    if (t < soonest_) soonest_ = t;
  }

  DramSpec spec_;
  DramTiming t_;
  DramClocks clocks_;
  DramAddressMap map_;
  DramCommandTiming timing_;
  std::vector<Bank> banks_;
  std::vector<Rank> ranks_;
  uint64_t refresh_interval_;
  uint64_t next_refresh_ = kNever;  // the earliest rank's next_refresh (kNever: no refresh)
  std::deque<Entry> waiting_reads_, waiting_writes_;  // arrived, no room yet in their queue
  // Reads not yet in their bank's queue (bank_queue 0: none after admit()),
  // as slots of read_slots_, so that moving some on shifts no entries.
  std::vector<uint32_t> read_queue_;
  std::vector<Entry> read_slots_;
  std::vector<uint32_t> free_slots_;
  std::vector<std::vector<Entry>> bank_queues_;      // per bank, reads waiting for their column command (bank_queue 0: the shared buffer's, by bank)
  std::vector<uint64_t> queued_banks_;               // a bit a bank whose queue holds a read, so a step visits only those
  std::vector<uint32_t> pending_;                    // per bank: its reads in read_queue_
  // The active buffer's requests (spec active_buffer) hold no place in the queues.
  bool read_queue_room() const { return (spec_.bank_queue ? read_queue_.size() : queued_reads_ - active_reads_) < spec_.read_queue; }
  size_t writes_in_queue() const { return write_queue_.size() - active_writes_; }
  bool write_queue_room() const { return writes_in_queue() < spec_.write_queue; }
  // A read left the bank's queue: admit() looks again if one waits to move in.
  void room_in_bank(uint32_t bank) {
    if (!spec_.bank_queue || pending_[bank]) bank_room_ = true;
  }
  void bank_queue_changed(uint32_t bank) {
    const uint64_t bit = uint64_t{1} << (bank & 63);
    if (bank_queues_[bank].empty()) queued_banks_[bank >> 6] &= ~bit;
    else queued_banks_[bank >> 6] |= bit;
  }
  std::vector<Entry> write_queue_;                   // posted writes
  size_t queued_reads_ = 0;                          // in read_queue_ and bank_queues_
  size_t queued_prefetches_ = 0;                     // of them, prefetches
  size_t started_writes_ = 0;                        // posted writes whose row was opened or closed for them
  size_t active_reads_ = 0, active_writes_ = 0;      // of the queued requests, those in the active buffer
  // Demand reads the scheduler can serve: in the read queue (bank_queue 0)
  // or in a bank queue. One waiting for room in a bank queue full of
  // prefetches does not hold those back: they would never make room.
  size_t schedulable_demands_ = 0;
  bool bank_room_ = false;                           // since admit() last looked, a read that has room in its bank's queue entered the read queue, or room came for one
  bool write_mode_ = false;
  uint64_t seq_ = 0;
  uint64_t next_ = 0;     // the next cycle run_until looks at
  uint64_t decided_ = 0;  // every cycle before it is decided: no arrival may come before it
  bool undecided_ = false;     // during consider(): a command could go now, or one was passed over unasked
  uint64_t soonest_ = kNever;  // during a step: the earliest cycle a command not issued could
  // Per bank, during a step: its oldest request and whether a request hits its open row.
  std::vector<const Entry*> oldest_;
  std::vector<uint8_t> has_hit_;  // bit 0: a demand request hits the open row; bit 1: a prefetch; bit 2: one the row was opened for
  std::vector<uint64_t> seen_;  // per bank: the step (generation) that last surveyed it
  uint64_t generation_ = 0;
  bool visit_every_bank_ = false;
  DramCounting counting_;
  bool recording_ = false;
  std::vector<DramCommand> commands_;
  std::unique_ptr<DramCommandOrder> trace_;
  DramStandby standby_;
};

}  // namespace gpumem
