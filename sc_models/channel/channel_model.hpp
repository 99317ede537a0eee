// One memory channel: its share of memory (a SparseMemory indexed by the
// channel-local address) and its timing, by one of two models
// (memory.model): `simple`, one access per service_cycles, a request
// starting at the earliest free slot at or after its arrival; or `dram`,
// banks, rows and JEDEC timing (channel/dram_channel.hpp). Both add a fixed
// pipelined latency that does not hold the channel (memory.latency_cycles).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>

#include "base/channel_timing.hpp"
#include "base/memory_options.hpp"
#include "base/simulation_options.hpp"
#include "base/sliding_vector.hpp"
#include "base/sparse_memory.hpp"
#include "base/types.hpp"
#include "channel/channel_queue.hpp"
#include "channel/dram_channel.hpp"
#include "channel/dram_controller.hpp"

namespace gpumem {

// What a channel is elaborated with (params/ fills it from the config).
struct ChannelParams : ChannelTiming {  // base/channel_timing.hpp
  MemoryModel model = MemoryOptions{}.model;
  DramParams dram;              // dram: the channel's organisation and timing
  TimingMode timing = SimulationOptions{}.timing;  // at: a DRAM decides at command time (DramController)
};

class ChannelModel {
 public:
  // `pages`: where the channel's memory takes its pages (null: its own).
  explicit ChannelModel(const ChannelParams& params, PagePool* pages = nullptr)
      : service_cycles_(params.service_cycles), latency_cycles_(params.latency_cycles), memory_(pages) {
    if (params.model != MemoryModel::kDram) return;
    access_bits_ = dram_offset_bits(params.dram.spec);
    if (params.timing == TimingMode::kAt) controller_ = std::make_unique<DramController>(params.dram);
    else dram_ = std::make_unique<DramChannel>(params.dram);
  }
  ChannelModel(const ChannelModel&) = delete;  // owns its memory
  ChannelModel& operator=(const ChannelModel&) = delete;
  ChannelModel(ChannelModel&&) = default;
  ChannelModel& operator=(ChannelModel&&) = default;

  struct Slot {
    uint64_t start;
    uint64_t finish;
    // dram only: when it entered the read or write queue, where it landed and what its row did.
    uint64_t accept = 0;
    DramAddress at{};
    RowResult row = RowResult::kHit;
  };

  // One access by whichever model the channel has; the completion includes
  // memory.latency_cycles. `request`: the id the DRAM's command trace names.
  Slot access(uint64_t arrival, uint64_t horizon, uint64_t local, bool write, uint64_t request = DramCommand::kNoRequest) {
    if (!dram_) {
      Slot s = schedule(arrival, horizon);
      queue_.arrive(arrival, s.finish, horizon);
      s.finish += latency_cycles_;
      return s;
    }
    ++accesses_;
    const DramChannel::Access a =
        write ? dram_->write(arrival, horizon, local, request) : dram_->read(arrival, horizon, local, request);
    queue_.arrive(arrival, a.finish, horizon);
    return {a.start, a.finish + latency_cycles_, a.accept, a.at, a.row};
  }
  // A request of `bytes` at `local`: on a DRAM, one access for each burst
  // (memory.dram's access bytes) it covers, queued from its arrival, as
  // GPGPU-Sim gives a request wider than its DRAM's atom one column command
  // per atom; the slot is the first's, finishing with the last.
  Slot request(uint64_t arrival, uint64_t horizon, uint64_t local, unsigned bytes, bool write,
               uint64_t request = DramCommand::kNoRequest) {
    const unsigned n = accesses_of(local, bytes);
    if (n == 1) return access(arrival, horizon, local, write, request);
    Slot first = access(arrival, horizon, local, write, request);
    for (unsigned i = 1; i < n; ++i)
      first.finish = std::max(first.finish, access(arrival, horizon, access_address(local, i), write, request).finish);
    return first;
  }
  // The DRAM accesses a request of `bytes` at `local` takes (1 on a simple
  // channel, which serves a request as one access whatever its size).
  unsigned accesses_of(uint64_t local, unsigned bytes) const {
    if ((!dram_ && !controller_) || bytes <= 1) return 1;
    return unsigned(((local + bytes - 1) >> access_bits_) - (local >> access_bits_)) + 1;
  }
  // Where the request at `local`'s access `i` lands: its own address, then each next burst's first byte.
  uint64_t access_address(uint64_t local, unsigned i) const {
    return i == 0 ? local : ((local >> access_bits_) + i) << access_bits_;
  }
  DramChannel* dram() { return dram_.get(); }
  const DramChannel* dram() const { return dram_.get(); }
  // simulation.timing: at on a DRAM: the controller that decides at command
  // time; the TLM shell feeds it and answers as it decides.
  DramController* controller() { return controller_.get(); }
  // The DRAM's command trace (nothing on a simple channel, which has no commands).
  void trace_commands(DramCommandSink& sink, unsigned channel) {
    if (dram_) dram_->trace_commands(sink, channel);
    if (controller_) controller_->trace_commands(sink, channel);
  }
  unsigned latency_cycles() const { return latency_cycles_; }
  void count_access() { ++accesses_; }
  // The accesses the channel holds (its mean and max queue depth); at's shell feeds the controller's.
  ChannelQueue& queue() { return queue_; }
  const ChannelQueue& queue() const { return queue_; }

  // Serves an access at the earliest `service_cycles` slot at or after its
  // arrival that no earlier reservation holds. Arrivals need not come in
  // order: a page-table walk calls at a later cycle than the next request's
  // first access, which must still be served in the gap before it rather
  // than queue behind it. `horizon` is a cycle no later call can arrive
  // before (its request's issue cycle; issue cycles never decrease), so
  // reservations that end by then are forgotten.
  Slot schedule(uint64_t arrival, uint64_t horizon) {
    ++accesses_;
    while (!held_.empty() && held_.front().finish <= horizon) {
      held_.drop_front();
      if (gapless_from_ > 0) --gapless_from_;
    }
    // Reservations are by start and do not overlap, so their finishes ascend
    // too: those still busy at the arrival are a suffix, from index `k`.
    size_t k = held_.size();
    if (!held_.empty() && held_.back().finish > arrival) {
      size_t lo = 0, hi = held_.size() - 1;
      while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (held_[mid].finish <= arrival) lo = mid + 1;
        else hi = mid;
      }
      k = lo;
    }
    uint64_t start = arrival;
    if (k < held_.size() && start + service_cycles_ > held_[k].start) {
      if (k >= gapless_from_) {
        start = held_.back().finish;
        k = held_.size();
      } else {
        const size_t first = k;
        while (k < held_.size() && start + service_cycles_ > held_[k].start) start = held_[k++].finish;
        if (k == held_.size()) gapless_from_ = std::min(gapless_from_, first);  // no room found from `first` on
      }
    }
    const uint64_t finish = start + service_cycles_;
    const Reservation r{start, finish};
    if (k < held_.size()) ++gapless_from_;  // into a gap, which lies before the gapless tail: the tail moves up one
    else if (k > 0 && gap_between(held_[k - 1], r)) gapless_from_ = k;  // room before it: the tail starts at it
    held_.insert(k, r);
    return {start, finish};
  }

  // The channel's share of memory, by channel-local address.
  void prefetch(uint64_t local, unsigned len, bool for_write) const { memory_.prefetch(local, len, for_write); }
  void read(uint64_t local, uint8_t* dst, unsigned len) const { memory_.read(local, dst, len); }
  void write(uint64_t local, const uint8_t* src, unsigned len) { memory_.write(local, src, len); }

  uint64_t accesses() const { return accesses_; }  // data and page-table accesses alike
  size_t reservations_held() const { return held_.size(); }  // not yet forgotten: bounded by the requests in flight

 private:
  struct Reservation {
    uint64_t start, finish;
  };
  // Whether an access fits between two neighbouring reservations.
  bool gap_between(const Reservation& a, const Reservation& b) const { return b.start >= a.finish + service_cycles_; }

  unsigned service_cycles_;
  unsigned latency_cycles_;
  unsigned access_bits_ = 0;  // dram: log2 of its access bytes
  std::unique_ptr<DramChannel> dram_;
  std::unique_ptr<DramController> controller_;
  uint64_t accesses_ = 0;
  // Reservations by start cycle, non-overlapping; arrivals in order append,
  // and a page-table walk's reads, which arrive late, go into gaps.
  SlidingVector<Reservation> held_{64};
  // No two neighbours in held_ from this index on have room for an access
  // between them (the least such index may be lower).
  size_t gapless_from_ = 0;
  ChannelQueue queue_;
  SparseMemory memory_;
};

}  // namespace gpumem
