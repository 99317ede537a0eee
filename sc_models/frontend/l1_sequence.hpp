// The L1 access-sequence generator of CN106407063B: thread scheduling (1b),
// coalescing (1c) and ordering (1d) of a per-thread trace into each SM's
// ordered L1 request sequence. Plain C++: `gpumem trace order` writes what
// it produces, `gpumem run --threads` feeds it to one TLM initiator per SM.
// docs/frontend.md states the rules and how the patent is read where it is open.
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <ostream>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "frontend/coalescer.hpp"
#include "frontend/frontend_params.hpp"
#include "frontend/record_store.hpp"
#include "sources/thread_trace.hpp"
#include "sources/trace_kind.hpp"
#include "payload/request.hpp"

namespace gpumem {

// One request of an SM's ordered sequence.
struct L1Request {
  unsigned sm = 0;
  uint64_t slot = 0;     // the tick it issued at: every SM makes one issue attempt per tick
  uint32_t kernel = 0;   // the kernel's position in the trace, from 0
  unsigned process = 0;  // the kernel's (its task type without an address space)
  uint32_t block = 0;
  uint32_t warp = 0;     // kernel-wide warp id: thread_id / 32
  // The warp's place on its SM (block slot * kMaxWarpsPerBlock + warp in
  // the block): no other warp of the SM has it while this one has requests.
  uint16_t warp_slot = 0;
  unsigned latency = 0;  // the ordering latency T drawn for it, in ticks
  bool first_of_instruction = false;  // the first request of its warp instruction
  bool last_of_warp = false;  // its warp has no request after it
  CoalescedAccess access;
};

struct SmSequenceStats {
  uint64_t requests = 0;
  uint64_t thread_accesses = 0;  // per-thread records merged into them
  uint64_t blocks = 0;           // blocks it ran
  uint64_t mshr_full_ticks = 0;  // a request waited: outstanding == mshr_entries
  uint64_t blocked_ticks = 0;    // work resident, but every warp with work was blocked by a dependent request
  uint64_t idle_ticks = 0;       // no block resident
};

struct SequenceStats {
  uint64_t thread_accesses = 0;    // per-thread records read
  uint64_t warp_instructions = 0;
  uint64_t requests = 0;           // coalesced requests, strided ones among them
  // Strided requests (CN104199782B), their elements and the line requests coalescing made of the same instructions.
  uint64_t strided_requests = 0, strided_elements = 0, strided_line_requests = 0;
  uint64_t kernels = 0, blocks = 0, warps = 0;
  uint64_t ticks = 0;
  // Records of resident blocks in memory at most, and records spilled to the
  // temporary file (frontend.max_records_in_memory).
  uint64_t records_in_memory_max = 0, records_spilled = 0;
  std::vector<SmSequenceStats> sm;
};

// The ordered sequence as `gpumem trace order` writes it (docs/frontend.md,
// "Ordered sequence"; its header, kL1SequenceHeader, in sources/trace_kind.hpp):
// one line per request, in tick order, SMs in order within a tick.
void write_l1_request(std::FILE* f, const L1Request& r);

// The Request an SM issues for `r` (id, cycle and data aside), as gpumem
// run --threads's observers see it: with an address space the kernel's
// process and a VA, else its task type and a PA.
void describe_request(const L1Request& r, bool virtual_addresses, Request& req);

// How a warp instruction that coalesces into several requests is ordered
// (docs/frontend.md, "Running a per-thread trace").
enum class InstructionOrder {
  // CN106407063B, as `gpumem trace order` writes it and `issue_timing: ordering`
  // issues it: the round robin picks request by request, and each dependent
  // request blocks its warp until its own latency ends.
  kPerRequest,
  // `issue_timing: memory`: an instruction's requests are picked in
  // consecutive ticks, and a dependent instruction blocks its warp after its
  // last request, until the latencies of all of them have ended.
  kWholeInstruction,
};

// The order a run issues from under frontend.issue_timing.
inline InstructionOrder instruction_order(IssueTiming timing) {
  return timing == IssueTiming::kMemory ? InstructionOrder::kWholeInstruction : InstructionOrder::kPerRequest;
}

// What ends an issued request's latency, releasing its warp, its MSHR and
// at last its block.
enum class LatencySource {
  kDrawn,   // CN106407063B: the T drawn for it runs out (lt, `gpumem trace order`)
  // simulation.timing: at: the memory system's answer, handed back with
  // complete(); a tick is a cycle, and each SM picks by frontend.scheduler.
  kMemory,
};

class L1SequenceGenerator {
 public:
  // Records are checked against `params.limits` (process or task type,
  // address width) as they are read; errors name the source's position.
  // kMemory needs kWholeInstruction (issue_timing: memory).
  L1SequenceGenerator(const FrontendParams& params, ThreadTraceSource& source,
                      InstructionOrder order = InstructionOrder::kPerRequest, LatencySource latency = LatencySource::kDrawn);

  // The trace's memory-init items, in order, before anything else; false
  // once they are all handed out.
  bool next_memory_init(MemoryInit& init);

  // One tick on every SM, in SM order; appends what they issued to `issued`.
  // False when the whole trace has been issued and retired.
  bool tick(std::vector<L1Request>& issued);

  uint64_t now() const { return now_; }

  // LatencySource::kMemory. The ticks from now() to `tick` have nothing to
  // do (no SM awake): the clock moves to `tick`, which complete() and the
  // next tick() then happen at.
  void advance_to(uint64_t tick);
  // The memory system has answered `r` (one tick() issued): its warp goes on
  // if this was the last dependent request it waited for, its MSHR is free,
  // and its block ends if this was its last request (a block of the next
  // kernel may start). Takes effect from the current tick.
  void complete(const L1Request& r);
  // Whether the next tick could issue or pick: an SM awake. When none is,
  // only a complete() changes that.
  bool any_awake() const {
    for (const uint64_t w : awake_)
      if (w) return true;
    return false;
  }
  // Requests issued and not yet complete, on every SM.
  uint64_t outstanding() const { return outstanding_; }
  // SM `s` has no block and none can come before the running kernel ends
  // (its last blocks are on other SMs): ticks until then give it nothing.
  bool idle_until_kernel_ends(unsigned s) const {
    return sms_[s].resident == 0 && resident_blocks_ > 0 && !next_block_ && (peek_ == Peek::kKernel || peek_ == Peek::kEnd);
  }
  // Changes whenever idle_until_kernel_ends may have changed for some SM.
  uint64_t idle_epoch() const { return idle_epoch_; }
  const SequenceStats& stats() const {
    count_sleep();
    return stats_;
  }
  const KernelInfo& kernel() const { return kernel_; }  // the kernel running now

 private:
  struct Warp {
    // Its records, each instruction's coalesced when the warp reaches it
    // (the first when the block is loaded, the next when the last request of
    // the one before is taken), so a warp holds one instruction's requests.
    RecordQueue records;
    uint64_t instructions_left = 0;      // not yet coalesced
    std::vector<CoalescedAccess> queue;  // the current instruction's requests
    size_t next = 0;                     // the first not yet taken
    bool has_work() const { return next < queue.size(); }
    uint32_t id = 0;
    uint64_t age = 0;      // launch order over the run: lower is older (gto)
    bool blocked = false;  // a dependent request is outstanding
    unsigned dependent_outstanding = 0;  // kWholeInstruction: its dependent requests not yet ended
  };
  struct Block {
    bool live = false;
    uint32_t id = 0;
    std::vector<Warp> warps;
    uint64_t remaining = 0;  // requests queued and instructions not yet coalesced: 0 when all are taken
    uint64_t pending = 0;    // issued, latency not yet expired
  };
  struct Pending {
    uint64_t expiry;
    unsigned slot, warp;
    bool dependent;
    bool operator>(const Pending& o) const { return expiry > o.expiry; }
  };
  struct Sm {
    std::vector<Block> slots;
    unsigned resident = 0;  // live slots
    unsigned ready = 0;     // warps of live slots with requests queued and not blocked
    // The same warps as bits, warp slot * warps_per_block + w: the round
    // robin finds the next one without visiting the others.
    std::vector<uint64_t> ready_mask;
    size_t rr = SIZE_MAX;  // last warp picked, as slot * warps_per_block + warp (none yet: the scan starts at 0)
    std::optional<std::pair<unsigned, unsigned>> held_from;  // (slot, warp) of the held request
    CoalescedAccess held;
    bool held_first = false, held_last = false;  // the held request is the first, the last of its instruction
    // kWholeInstruction: the warp (as rr) whose instruction has requests not yet picked.
    std::optional<size_t> continuing;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending;
    unsigned outstanding = 0;  // kMemory: issued and not yet complete (pending is empty)
    std::mt19937_64 rng;
    std::optional<double> spare;  // the second deviate of the last Box-Muller pair
    // Asleep (not in awake_): until wake_at (a latency's end) or a new
    // block, its ticks would only count, in the counter `sleep_counter`
    // says; they are counted from asleep_from when it wakes.
    bool asleep = true;
    uint64_t wake_at = kNoWake;
    mutable uint64_t asleep_from = 0;
    uint64_t SmSequenceStats::*sleep_counter = &SmSequenceStats::idle_ticks;
  };
  static constexpr uint64_t kNoWake = ~uint64_t{0};

  enum class Peek { kNone, kKernel, kRecord, kEnd };
  void read_item();                        // fills the one-item lookahead
  bool load_block(Block& b);               // the next block of the running kernel into b
  bool start_next_kernel();
  void dispatch();
  void place_blocks();
  void sm_tick(unsigned s, std::vector<L1Request>& issued);
  // sm_tick's steps 6b (the next ready warp's next request held, `warps`
  // the SM's warp slots) and 6e (the held request issued); inlined, as they
  // run for every SM every tick.
  [[gnu::always_inline]] inline void hold_next(Sm& sm, size_t warps);
  [[gnu::always_inline]] inline void issue_held(unsigned s, Sm& sm, std::vector<L1Request>& issued);
  void coalesce_next(Block& b, Warp& w);  // the warp's next instruction into its queue
  void skip_quiet_ticks();
  // An SM whose next ticks would change nothing but a counter sleeps; the
  // ticks visit the awake SMs only (docs/frontend.md, "How fast").
  void sleep_if_quiet(unsigned s);
  void wake(unsigned s);
  void wake_due();
  void count_sleep() const;  // the sleeping SMs' ticks so far into stats_
  unsigned draw_latency(Sm& sm);
  void set_ready(Sm& sm, unsigned slot, unsigned warp, bool ready);
  size_t next_ready(const Sm& sm, size_t first, size_t warps) const;  // the first ready warp from `first` on, round the end
  size_t pick(const Sm& sm, size_t warps) const;  // the warp the SM's scheduler picks now (one is ready)
  bool is_ready(const Sm& sm, size_t i) const { return sm.ready_mask[i / 64] >> (i % 64) & 1; }
  // A request's end: its warp, its MSHR, its block (6c of the ordering).
  void retire(unsigned s, unsigned slot, unsigned warp, bool dependent);
  unsigned in_flight(const Sm& sm) const { return latency_ == LatencySource::kMemory ? sm.outstanding : unsigned(sm.pending.size()); }
  void check_record(const ThreadRecord& r) const;
  void check_kernel() const;
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const;

  const FrontendParams fe_;
  ThreadTraceSource& source_;
  const InstructionOrder order_;
  const LatencySource latency_;
  uint64_t outstanding_ = 0;  // kMemory: over all SMs
  uint64_t warps_launched_ = 0;  // ages of the warps (gto)
  // One item of lookahead: a block ends where the next record's block differs.
  Peek peek_ = Peek::kNone;
  MemoryInit init_;
  KernelInfo next_kernel_;
  ThreadRecord record_;
  bool started_ = false;  // a kernel has been read
  KernelInfo kernel_;
  uint32_t kernel_index_ = 0;
  unsigned warps_per_block_ = 0;
  uint64_t last_block_ = 0;
  bool any_block_ = false;
  std::optional<Block> next_block_;
  std::vector<Sm> sms_;
  unsigned dispatch_ptr_ = 0;
  uint64_t resident_blocks_ = 0;  // over all SMs
  uint64_t idle_epoch_ = 0;
  uint64_t now_ = 0;
  bool done_ = false;
  mutable SequenceStats stats_;
  std::vector<uint64_t> awake_;  // a bit per SM
  // (wake_at, SM) of sleeping SMs; an entry whose SM woke before is stale.
  std::priority_queue<std::pair<uint64_t, unsigned>, std::vector<std::pair<uint64_t, unsigned>>, std::greater<>> wakes_;
  RecordStore store_;  // every resident block's records, and the next block's
  std::vector<ThreadRecord> instruction_;  // records of the warp instruction being read
};

// The summary `gpumem trace order` prints: totals, coalescing efficiency
// (per-thread accesses per request) and each SM's share.
void print_sequence_stats(std::ostream& os, const SequenceStats& s);

}  // namespace gpumem
