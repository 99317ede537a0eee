// The TLM shell of one SM's L1 data cache: `target` faces the SM, `memory`
// the MMU path (through the SM interconnect). A read hit or a merge is
// answered here; a read miss sends one line fill down, installs the line
// and answers from it; writes and strided requests pass down, and a write
// updates a present line. Timing rides on How::cycle as everywhere in the
// model (docs/cache.md gives the cycles).
//
// Approximately timed (simulation.timing: at): requests come with
// nb_transport_fw. A hit is answered at once; a miss takes an MSHR (or
// waits for one), its line fill goes out `hit_latency` cycles later through
// the event calendar, and the miss and every read merged into it are
// answered when the fill is. The data a miss returns is the memory's at its
// issue (read by debug transport then), as in lt: a read returns the last
// write issued before it whatever the fills' timing. Writes and strided
// requests pass down, their answers back.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <deque>
#include <memory>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "cache/l1_unit_params.hpp"
#include "payload/answer_order.hpp"
#include "payload/event_calendar.hpp"
#include "payload/issue_clock.hpp"
#include "payload/payload_extensions.hpp"
#include "prefetch/bfs_prefetcher.hpp"
#include "prefetch/prefetch_queue.hpp"
#include "regs/register_bank.hpp"

namespace gpumem {


class L1CacheTlm : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<L1CacheTlm> target;
  tlm_utils::simple_initiator_socket<L1CacheTlm> memory;

  L1CacheTlm(sc_core::sc_module_name name, const L1UnitParams& params, const Clock& clock);

  L1Cache& cache() { return cache_; }
  const L1Cache& cache() const { return cache_; }
  const PrefetchStats& prefetch_stats() const { return prefetch_stats_; }

  // The classifier's ranges are the register bank's (PF_CTRL, PF_RANGE_*):
  // the BFS prefetcher looks before each demand read, and a commit takes
  // effect from the next read on. Without them the classifier matches nothing.
  void classifier_from(const PrefetchClassifierRegisters& regs) { classifier_regs_ = &regs; }

  // A kernel launch: the L1 and the prefetch buffer empty, the prefetcher's
  // table forgets the old kernel's warps.
  void kernel_start();

  // simulation.timing: at: the calendar the fills go out through, at this rank.
  void use_calendar(EventCalendar& calendar, unsigned rank);

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans) { return memory->transport_dbg(trans); }
  void read(tlm::tlm_generic_payload& trans, RequestExtension& ext, sc_core::sc_time& delay);
  DemandRead demand_read(const RequestExtension& ext, uint64_t now, uint64_t address, uint64_t size, const uint8_t* data) const;
  // Shows the prefetcher a demand read, and sends what it asks for.
  void observe(const DemandRead& d, const RequestExtension& ext, const sc_core::sc_time& at_issue);
  // Sends the prefetches `pending_` holds, and those their lines trigger.
  // `demand`: the request whose read triggered them, issued at `now`.
  void prefetch(const RequestInfo& demand, uint64_t now, const sc_core::sc_time& at_issue);
  void count_use(const L1Cache::Lookup& at, uint64_t now);
  void refresh_classifier();
  L1Cache::Lookup look_up(unsigned space, uint64_t address, uint64_t now, bool at);
  L1Cache::Lookup moved_from_buffer(const L1Cache::Lookup& in_buffer, const L1Cache::Fill& f);

  // simulation.timing: at.
  struct Waiter {
    tlm::tlm_generic_payload* trans;
    uint64_t issue;
  };
  struct Mshr;
  struct FillSlot {  // a line fill from its miss until its data is back (its completion cycle)
    RequestPayload payload;
    std::vector<uint8_t> scratch;  // what the memory writes into the fill (the line's data was read at the miss)
    std::vector<uint8_t> line;     // l1.allocate: fill: the line's data until it is placed
    unsigned space = 0;
    uint64_t address = 0;          // of the demand that missed
    uint64_t out = 0;              // the cycle it goes out
    uint64_t seq = 0;              // the L1's fills in the order of their misses
    std::vector<Waiter> waiters;   // the miss first, then the reads merged into it (a prefetch's: only merged reads)
    bool prefetch = false;         // a prefetch unit's (into the buffer with prefetch.fill: buffer)
    bool used = true;              // a prefetch: a demand read merged into it
    bool answered = false;         // its answer came before its completion: reads merging now are answered at once
    bool current = true;           // of the kernel running: a launch empties the L1, and a fill from before places nothing
    uint64_t finish = 0;           // once answered: its completion cycle
    PrefetchRequest request;       // a prefetch: what asked for it
  };
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum read_at(tlm::tlm_generic_payload& trans, RequestExtension& ext, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  // read_at's two slow cases: a read merging into the fill under way of its
  // line (`at` its look-up), and a miss, which starts a fill.
  tlm::tlm_sync_enum merge_into_fill(tlm::tlm_generic_payload& trans, How& how, const L1Cache::Lookup& at, FillSlot& f,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum start_fill(tlm::tlm_generic_payload& trans, RequestExtension& ext, tlm::tlm_phase& phase);
  FillSlot* filling(unsigned space, uint64_t address);  // the fill under way of the line holding `address`
  void send_fill(FillSlot& f);
  void observe_at(tlm::tlm_generic_payload& trans, uint64_t done);
  void schedule_prefetches(const RequestInfo& demand);
  void send_prefetch(const PrefetchRequest& p, const RequestInfo& demand);
  // Calendar keys besides fills' (their number): a strided read's answer, by request id; a prefetch, by number.
  static constexpr uint64_t kStridedKey = uint64_t{1} << 63, kPrefetchKey = uint64_t{1} << 62;
  uint64_t prefetch_seq_ = 0;
  unsigned prefetches_unanswered_ = 0, queue_entries_ = 0;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> prefetch_releases_;
  void fill_answered(FillSlot& f);
  // The fill's data is in at its completion: the line placed (or made
  // ready), the MSHR's line no longer under way, the slot free.
  void fill_in(FillSlot& f);
  // Answers a waiting request at `cycle`.
  void answer(tlm::tlm_generic_payload& trans, uint64_t cycle);
  uint64_t now_cycle() const { return clock_.cycles(sc_core::sc_time_stamp()); }
  L1Allocate allocate_ = L1Allocate::kOnMiss;
  EventCalendar* calendar_ = nullptr;
  unsigned rank_ = 0;
  SlotPool<FillSlot> fills_;
  std::unordered_map<uint64_t, FillSlot*> filling_;  // by (space, line): fills whose data is not in yet
  uint64_t fill_seq_ = 0;
  unsigned fills_unanswered_ = 0;                    // MSHRs held by fills not yet answered
  // Completions of answered fills whose MSHR is still held, earliest first.
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> releases_;
  std::deque<FillSlot*> mshr_wait_;                  // misses waiting for an MSHR, oldest first
  uint64_t key(unsigned space, uint64_t line) const { return line ^ (uint64_t{space} << 56); }

  L1Cache cache_;
  const Clock& clock_;
  unsigned hit_latency_;
  RequestPayload fill_;  // the one payload line fills travel in
  std::vector<uint8_t> line_;
  // The prefetch unit (prefetch.kind other than none).
  std::unique_ptr<Prefetcher> prefetcher_;
  BfsPrefetcher* bfs_ = nullptr;  // prefetcher_, when it is the BFS one
  const PrefetchClassifierRegisters* classifier_regs_ = nullptr;
  uint64_t classifier_commits_seen_ = ~uint64_t{0};
  std::optional<L1Cache> buffer_;  // prefetch.fill: buffer
  PrefetchQueue queue_;
  PrefetchStats prefetch_stats_;
  std::vector<PrefetchRequest> pending_;
  RequestPayload prefetch_;
};

}  // namespace gpumem
