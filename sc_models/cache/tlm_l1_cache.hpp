// The TLM shell of one SM's L1 data cache: `target` faces the SM, `memory`
// the MMU path (through the SM interconnect). A read hit or a merge is
// answered here; a read miss sends one line fill down, installs the line
// and answers from it; writes and strided requests pass down, and a write
// updates a present line. Timing rides on How::cycle as everywhere in the
// model (docs/cache.md gives the cycles).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include <memory>
#include <optional>

#include "cache/l1_unit_params.hpp"
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
