#include "frontend/l1_sequence.hpp"

#include <limits>
#include <stdexcept>
#include <tuple>

#include <cmath>
#include <iomanip>

#include "base/bits.hpp"
#include "base/hex.hpp"
#include "base/input_error.hpp"

namespace gpumem {

namespace {

// Uniform in (0, 1]: 53 random bits, never 0 (Box-Muller takes its log).
double unit(std::mt19937_64& rng) { return (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53; }

}  // namespace

L1SequenceGenerator::L1SequenceGenerator(const FrontendParams& params, ThreadTraceSource& source, InstructionOrder order,
                                         LatencySource latency)
    : fe_(params), source_(source), order_(order), latency_(latency), sms_(params.num_sms), store_(params.max_records_in_memory) {
  if (latency_ == LatencySource::kMemory && order_ != InstructionOrder::kWholeInstruction)
    throw std::logic_error("L1SequenceGenerator: the memory's latencies need whole instructions");
  stats_.sm.resize(fe_.num_sms);
  awake_.assign((fe_.num_sms + 63) / 64, 0);
  for (unsigned s = 0; s < fe_.num_sms; ++s) {
    sms_[s].slots.resize(fe_.blocks_per_sm);
    sms_[s].ready_mask.assign((size_t{fe_.blocks_per_sm} * kMaxWarpsPerBlock + 63) / 64, 0);
    // One generator per SM, so an SM's latencies do not depend on how many SMs there are.
    sms_[s].rng.seed(splitmix64(fe_.seed ^ splitmix64(s + 1)));
  }
}

void L1SequenceGenerator::fail(const std::string& key, const std::string& msg) const {
  throw input_error_at(source_.where(), key, msg);
}

void L1SequenceGenerator::check_record(const ThreadRecord& r) const {
  if (r.width > fe_.line_bytes) fail("width", "width " + std::to_string(r.width) + " is wider than a line");
  const unsigned bits = fe_.limits.address_bits;
  const uint64_t last = r.address + r.width - 1;
  if (bits >= 64 || !(last >> bits)) return;
  // Where the address is written, in the trace's own hex, with the bits it needs.
  const std::string what = (fe_.limits.virtual_addresses ? "VA " : "address ") + hex(r.address) + " needs " +
                           std::to_string(64 - __builtin_clzll(last)) + " bits: it is outside the " + std::to_string(bits) +
                           (fe_.limits.virtual_addresses ? "-bit virtual address space" : "-bit physical address space");
  const InputError at = input_error_at(source_.where(), "address", what);
  throw InputError(at.file(), at.line(), at.line() > 0 ? source_.address_column() : 0, "address", what);
}

void L1SequenceGenerator::check_kernel() const {
  if (fe_.limits.virtual_addresses && !fe_.limits.has_process(next_kernel_.process))
    fail("process", "kernel '" + next_kernel_.name + "': no application has process id " + std::to_string(next_kernel_.process));
  if (!fe_.limits.virtual_addresses && next_kernel_.process >= kMaxTaskTypes)
    fail("process", "kernel '" + next_kernel_.name + "': task type out of range (0-15)");
}

void L1SequenceGenerator::read_item() {
  if (peek_ != Peek::kNone) return;
  switch (source_.next(init_, next_kernel_, record_)) {
    case ThreadTraceSource::Item::kEnd:
      peek_ = Peek::kEnd;
      return;
    case ThreadTraceSource::Item::kMemoryInit:
      fail("init", "memory-init after the first kernel: memory-init items come before every kernel");
    case ThreadTraceSource::Item::kKernel:
      check_kernel();
      peek_ = Peek::kKernel;
      return;
    case ThreadTraceSource::Item::kRecord:
      if (!started_) fail("thread", "a record before the first kernel line");
      check_record(record_);
      peek_ = Peek::kRecord;
      return;
  }
}

bool L1SequenceGenerator::next_memory_init(MemoryInit& init) {
  if (started_ || peek_ != Peek::kNone) return false;
  while (true) {
    switch (source_.next(init, next_kernel_, record_)) {
      case ThreadTraceSource::Item::kMemoryInit:
        if (fe_.limits.virtual_addresses && !fe_.limits.has_process(init.process))
          fail("process", "memory-init: no application has process id " + std::to_string(init.process));
        return true;
      case ThreadTraceSource::Item::kKernel:
        check_kernel();
        peek_ = Peek::kKernel;
        return false;
      case ThreadTraceSource::Item::kEnd:
        peek_ = Peek::kEnd;
        return false;
      case ThreadTraceSource::Item::kRecord:
        fail("thread", "a record before the first kernel line");
    }
  }
}

bool L1SequenceGenerator::start_next_kernel() {
  MemoryInit init;
  if (!started_ && peek_ == Peek::kNone)
    while (next_memory_init(init)) {}  // a caller with no memory to load skips them
  read_item();
  if (peek_ == Peek::kEnd) return false;
  if (peek_ != Peek::kKernel) throw std::logic_error("L1SequenceGenerator: a kernel must start at a kernel line");
  if (started_) ++kernel_index_;
  started_ = true;
  kernel_ = next_kernel_;
  warps_per_block_ = kernel_.warps_per_block ? kernel_.warps_per_block : fe_.warps_per_block;
  any_block_ = false;
  peek_ = Peek::kNone;
  ++stats_.kernels;
  return true;
}

bool L1SequenceGenerator::load_block(Block& b) {
  if (!started_) return false;
  read_item();
  if (peek_ != Peek::kRecord) return false;
  const uint64_t block = record_.thread_id / kWarpSize / warps_per_block_;
  if (any_block_ && block <= last_block_)
    fail("thread", "thread " + std::to_string(record_.thread_id) + " is in block " + std::to_string(block) + ", after block " +
                       std::to_string(last_block_) + "'s records: records come block by block in ascending block order");
  any_block_ = true;
  last_block_ = block;
  b.live = true;
  b.id = static_cast<uint32_t>(block);
  b.warps.assign(warps_per_block_, Warp{});
  for (unsigned w = 0; w < warps_per_block_; ++w) {
    b.warps[w].id = static_cast<uint32_t>(block * warps_per_block_ + w);
    b.warps[w].age = warps_launched_++;
  }
  b.remaining = 0;
  b.pending = 0;

  // Records go to their warps' queues; a warp instruction is a run of one
  // warp's records with one PC and no lane twice, and its first record is
  // marked, as coalescing waits until the warp reaches it.
  Warp* open = nullptr;  // the warp of the open instruction
  uint64_t open_pc = 0;
  uint32_t lanes = 0;    // lanes in the open instruction
  auto close_instruction = [&]() {
    if (!open) return;
    ++open->instructions_left;
    ++b.remaining;
    ++stats_.warp_instructions;
    open = nullptr;
    lanes = 0;
  };
  while (peek_ == Peek::kRecord && record_.thread_id / kWarpSize / warps_per_block_ == block) {
    const ThreadRecord& r = record_;
    const uint32_t lane = bit(r.thread_id % kWarpSize);
    Warp& w = b.warps[(r.thread_id / kWarpSize) % warps_per_block_];
    if (open && (&w != open || r.pc != open_pc || (lanes & lane))) close_instruction();
    PackedRecord p;
    p.pc = r.pc;
    p.address = r.address;
    p.data = r.data;
    p.thread_id = r.thread_id;
    p.width = static_cast<uint8_t>(r.width);
    p.flags = static_cast<uint8_t>((r.op == Op::kWrite ? PackedRecord::kWrite : 0) | (r.dependent ? PackedRecord::kDependent : 0) |
                                   (r.has_data ? PackedRecord::kHasData : 0) | (open ? 0 : PackedRecord::kInstructionStart));
    store_.push(w.records, p);
    open = &w;
    open_pc = r.pc;
    lanes |= lane;
    ++stats_.thread_accesses;
    peek_ = Peek::kNone;
    read_item();
  }
  close_instruction();
  for (Warp& w : b.warps) {
    stats_.warps += w.instructions_left > 0;
    if (w.instructions_left > 0) coalesce_next(b, w);
  }
  ++stats_.blocks;
  return true;
}

void L1SequenceGenerator::coalesce_next(Block& b, Warp& w) {
  --w.instructions_left;
  instruction_.clear();
  do {
    const PackedRecord& p = store_.front(w.records);
    ThreadRecord r;
    r.thread_id = p.thread_id;
    r.pc = p.pc;
    r.address = p.address;
    r.width = p.width;
    r.op = p.flags & PackedRecord::kWrite ? Op::kWrite : Op::kRead;
    r.dependent = p.flags & PackedRecord::kDependent;
    r.has_data = p.flags & PackedRecord::kHasData;
    r.data = p.data;
    instruction_.push_back(r);
    store_.pop(w.records);
  } while (!w.records.empty() && !(store_.front(w.records).flags & PackedRecord::kInstructionStart));
  w.queue.clear();
  w.next = 0;
  coalesce(instruction_.data(), instruction_.size(), fe_.line_bytes, w.queue);
  CoalescedAccess strided;
  if (fe_.strided_requests && stride_instruction(instruction_.data(), instruction_.size(), static_cast<unsigned>(w.queue.size()), strided)) {
    ++stats_.strided_requests;
    stats_.strided_elements += strided.elements;
    stats_.strided_line_requests += strided.line_requests;
    w.queue.clear();
    w.queue.push_back(std::move(strided));
  }
  b.remaining += w.queue.size() - 1;  // the instruction, counted as one, is now its requests
  stats_.requests += w.queue.size();
}

// Blocks go to SMs round robin, each to the next SM (after the last one
// given a block) that has a free slot; a block waits until one has.
void L1SequenceGenerator::dispatch() {
  const auto before = std::make_tuple(resident_blocks_, next_block_.has_value(), peek_);
  place_blocks();
  if (std::make_tuple(resident_blocks_, next_block_.has_value(), peek_) != before) ++idle_epoch_;
}

void L1SequenceGenerator::place_blocks() {
  while (true) {
    if (!next_block_) {
      Block b;
      if (load_block(b)) next_block_ = std::move(b);
      else if (resident_blocks_ > 0) return;  // the kernel's last blocks are still running
      else if (start_next_kernel()) continue;
      else return;
    }
    bool placed = false;
    if (resident_blocks_ == uint64_t{fe_.num_sms} * fe_.blocks_per_sm) return;  // no slot free
    for (unsigned i = 0; i < fe_.num_sms && !placed; ++i) {
      const unsigned s = (dispatch_ptr_ + i) % fe_.num_sms;
      for (Block& slot : sms_[s].slots)
        if (!slot.live) {
          slot = std::move(*next_block_);
          for (unsigned w = 0; w < slot.warps.size(); ++w)
            if (slot.warps[w].has_work()) set_ready(sms_[s], static_cast<unsigned>(&slot - sms_[s].slots.data()), w, true);
          ++sms_[s].resident;
          ++resident_blocks_;
          wake(s);
          next_block_.reset();
          ++stats_.sm[s].blocks;
          dispatch_ptr_ = (s + 1) % fe_.num_sms;
          placed = true;
          break;
        }
    }
    if (!placed) return;
  }
}

unsigned L1SequenceGenerator::draw_latency(Sm& sm) {
  // T = M + |N(0, sigma)| (CN106407063B), rounded to whole ticks and at least 1.
  // Box-Muller by hand: std::normal_distribution differs between libraries,
  // and the same seed must give the same order everywhere. Each pair of
  // uniforms gives two deviates (cosine, then sine), drawn in a fixed order.
  double z;
  if (sm.spare) {
    z = *sm.spare;
    sm.spare.reset();
  } else {
    const double u = unit(sm.rng);
    const double v = unit(sm.rng);
    const double r = std::sqrt(-2.0 * std::log(u));
    z = r * std::cos(2.0 * M_PI * v);
    sm.spare = r * std::sin(2.0 * M_PI * v);
  }
  const double t = fe_.latency_min + std::round(std::fabs(z) * fe_.latency_sigma);
  return t < 1 ? 1u : static_cast<unsigned>(t);
}

void L1SequenceGenerator::set_ready(Sm& sm, unsigned slot, unsigned warp, bool ready) {
  const size_t i = size_t{slot} * warps_per_block_ + warp;
  uint64_t& word = sm.ready_mask[i / 64];
  const uint64_t b = uint64_t{1} << (i % 64);
  if (ready == !!(word & b)) throw std::logic_error("L1 ordering: warp readiness set twice");
  word ^= b;
  if (ready) ++sm.ready;
  else --sm.ready;
}

size_t L1SequenceGenerator::next_ready(const Sm& sm, size_t first, size_t warps) const {
  auto scan = [&](size_t from, size_t to) {  // [from, to)
    for (size_t i = from; i < to; i = (i / 64 + 1) * 64) {
      const uint64_t bits = sm.ready_mask[i / 64] & (~uint64_t{0} << (i % 64));
      if (bits) {
        const size_t at = i / 64 * 64 + static_cast<size_t>(__builtin_ctzll(bits));
        return at < to ? at : SIZE_MAX;
      }
    }
    return SIZE_MAX;
  };
  size_t at = scan(first, warps);
  if (at == SIZE_MAX) at = scan(0, first);
  if (at == SIZE_MAX) throw std::logic_error("L1 ordering: no ready warp though the count says there is one");
  return at;
}

size_t L1SequenceGenerator::pick(const Sm& sm, size_t warps) const {
  if (latency_ != LatencySource::kMemory || fe_.scheduler == WarpScheduler::kLrr)
    return next_ready(sm, sm.rr == SIZE_MAX ? 0 : (sm.rr + 1) % warps, warps);
  // gto: the warp picked last keeps the SM while it is ready (greedy), else
  // the oldest ready warp (GPGPU-Sim's order: the one launched first).
  if (sm.rr != SIZE_MAX && is_ready(sm, sm.rr)) return sm.rr;
  size_t best = SIZE_MAX;
  uint64_t best_age = ~uint64_t{0};
  for (size_t word = 0; word < sm.ready_mask.size(); ++word)
    for (uint64_t bits = sm.ready_mask[word]; bits; bits &= bits - 1) {
      const size_t i = word * 64 + static_cast<size_t>(__builtin_ctzll(bits));
      const uint64_t age = sm.slots[i / warps_per_block_].warps[i % warps_per_block_].age;
      if (age < best_age) {
        best_age = age;
        best = i;
      }
    }
  if (best == SIZE_MAX) throw std::logic_error("L1 ordering: no ready warp though the count says there is one");
  return best;
}

void L1SequenceGenerator::retire(unsigned s, unsigned slot, unsigned warp, bool dependent) {
  Sm& sm = sms_[s];
  Block& b = sm.slots[slot];
  if (dependent) {
    Warp& w = b.warps[warp];
    // kWholeInstruction: the warp waits for every dependent request of its instruction.
    --w.dependent_outstanding;
    const bool released = order_ == InstructionOrder::kPerRequest || (w.dependent_outstanding == 0 && w.blocked);
    if (released) {
      w.blocked = false;
      if (w.has_work()) set_ready(sm, slot, warp, true);
    }
  }
  if (--b.pending == 0 && b.remaining == 0 && !(sm.held_from && sm.held_from->first == slot)) {
    for (Warp& w : b.warps) store_.clear(w.records);  // empty unless a bug left records behind
    b = Block{};
    --sm.resident;
    --resident_blocks_;
    ++idle_epoch_;
  }
}

void L1SequenceGenerator::advance_to(uint64_t tick) {
  if (tick < now_) throw std::logic_error("L1 ordering: the clock cannot go back");
  now_ = tick;
}

void L1SequenceGenerator::complete(const L1Request& r) {
  if (latency_ != LatencySource::kMemory) throw std::logic_error("L1 ordering: complete() is for the memory's latencies");
  Sm& sm = sms_[r.sm];
  if (sm.outstanding == 0) throw std::logic_error("L1 ordering: a request completed twice");
  --sm.outstanding;
  --outstanding_;
  const uint64_t blocks = resident_blocks_;
  retire(r.sm, r.warp_slot / kMaxWarpsPerBlock, r.warp_slot % kMaxWarpsPerBlock, r.access.dependent);
  wake(r.sm);
  if (resident_blocks_ != blocks) dispatch();  // a slot is free: the next block, perhaps of the next kernel
}

// lrr and CN106407063B: warps in order from the one after the last pick, that one last.
void L1SequenceGenerator::hold_next(Sm& sm, size_t warps) {
  const unsigned wpb = warps_per_block_;
  const size_t pick = sm.continuing ? *sm.continuing : this->pick(sm, warps);
  const unsigned slot = static_cast<unsigned>(pick / wpb), warp = static_cast<unsigned>(pick % wpb);
  Block& b = sm.slots[slot];
  Warp& w = b.warps[warp];
  sm.held_first = w.next == 0;
  sm.held = std::move(w.queue[w.next++]);
  sm.held_last = !w.has_work();
  if (order_ == InstructionOrder::kWholeInstruction) {
    if (sm.held_last) sm.continuing.reset();
    else sm.continuing = pick;
  }
  --b.remaining;
  if (!w.has_work() && w.instructions_left > 0) coalesce_next(b, w);
  if (!w.has_work()) set_ready(sm, slot, warp, false);
  // The warp's next request is picked a round later: fetch it now,
  // as a block's requests were made long before and are cold.
  if (w.has_work()) {
    const char* next = reinterpret_cast<const char*>(&w.queue[w.next]);
    // Every line it touches: an array of them need not start on a line.
    for (size_t at = 0; at < sizeof(CoalescedAccess) + 63; at += 64) __builtin_prefetch(next + at);
  }
  sm.held_from = std::make_pair(slot, warp);
  sm.rr = pick;
}

void L1SequenceGenerator::issue_held(unsigned s, Sm& sm, std::vector<L1Request>& issued) {
  SmSequenceStats& st = stats_.sm[s];
  const auto [slot, warp] = *sm.held_from;
  sm.held_from.reset();
  Block& b = sm.slots[slot];
  L1Request r;
  r.sm = s;
  r.slot = now_;
  r.kernel = kernel_index_;
  r.process = kernel_.process;
  r.block = b.id;
  r.warp = b.warps[warp].id;
  r.warp_slot = static_cast<uint16_t>(slot * kMaxWarpsPerBlock + warp);
  r.first_of_instruction = sm.held_first;
  r.last_of_warp = !b.warps[warp].has_work();
  r.access = std::move(sm.held);
  if (latency_ == LatencySource::kMemory) {
    ++sm.outstanding;
    ++outstanding_;
  } else {
    r.latency = draw_latency(sm);
    sm.pending.push({now_ + r.latency, slot, warp, r.access.dependent});
  }
  ++b.pending;
  Warp& w = b.warps[warp];
  w.dependent_outstanding += r.access.dependent;
  // CN106407063B: a dependent request blocks its warp; kWholeInstruction: the
  // last request of an instruction does while any of its dependent ones is out.
  const bool block = order_ == InstructionOrder::kPerRequest ? r.access.dependent : sm.held_last && w.dependent_outstanding > 0;
  if (block) {
    w.blocked = true;
    if (w.has_work()) set_ready(sm, slot, warp, false);
  }
  ++st.requests;
  st.thread_accesses += r.access.threads;
  issued.push_back(std::move(r));
}

void L1SequenceGenerator::sm_tick(unsigned s, std::vector<L1Request>& issued) {
  Sm& sm = sms_[s];
  SmSequenceStats& st = stats_.sm[s];
  const size_t warps = sm.slots.size() * warps_per_block_;
  const bool resident = sm.resident > 0;  // at the tick's start: a block ending in it still counts

  // 6b: the next ready warp after the last one picked gives its next request
  // (kWholeInstruction: the warp whose instruction is under way, until its
  // last request is picked).
  if (!sm.held_from && sm.ready > 0) hold_next(sm, warps);
  // 6c: requests whose latency ends now release their warp (only the
  // dependent request that blocked it does) and, the last of a block, its slot.
  // (kMemory: complete() did, as the answers came.)
  while (!sm.pending.empty() && sm.pending.top().expiry <= now_) {
    const Pending p = sm.pending.top();
    sm.pending.pop();
    retire(s, p.slot, p.warp, p.dependent);
  }
  if (!sm.held_from) {
    if (!resident) ++st.idle_ticks;
    else ++st.blocked_ticks;
    return;
  }
  // 6d: no issue while every MSHR holds an outstanding request.
  if (in_flight(sm) >= fe_.mshr_entries) {
    ++st.mshr_full_ticks;
    return;
  }
  // 6e: issue.
  issue_held(s, sm, issued);
}


// After an SM's tick: if its next ticks can neither pick (no ready warp,
// or a request held) nor issue (nothing held, or its MSHRs full) until an
// outstanding request's latency ends, they would only count a tick as idle,
// blocked or MSHR-full. It sleeps until that latency ends (or a block
// comes), and the ticks are counted when it wakes. The sequence is the
// same; only the time to compute it is not.
void L1SequenceGenerator::sleep_if_quiet(unsigned s) {
  Sm& sm = sms_[s];
  const bool quiet = sm.held_from ? in_flight(sm) >= fe_.mshr_entries : sm.ready == 0;
  if (!quiet) return;
  sm.asleep = true;
  awake_[s / 64] &= ~(uint64_t{1} << (s % 64));
  sm.asleep_from = now_ + 1;
  sm.sleep_counter = sm.held_from ? &SmSequenceStats::mshr_full_ticks
                     : sm.resident > 0 ? &SmSequenceStats::blocked_ticks
                                       : &SmSequenceStats::idle_ticks;
  sm.wake_at = sm.pending.empty() ? kNoWake : sm.pending.top().expiry;
  if (sm.wake_at != kNoWake) wakes_.emplace(sm.wake_at, s);
}

void L1SequenceGenerator::wake(unsigned s) {
  Sm& sm = sms_[s];
  if (!sm.asleep) return;
  stats_.sm[s].*sm.sleep_counter += now_ - sm.asleep_from;
  sm.asleep = false;
  awake_[s / 64] |= uint64_t{1} << (s % 64);
}

void L1SequenceGenerator::count_sleep() const {
  for (unsigned s = 0; s < sms_.size(); ++s) {
    const Sm& sm = sms_[s];
    if (!sm.asleep || sm.asleep_from >= now_) continue;
    stats_.sm[s].*sm.sleep_counter += now_ - sm.asleep_from;
    sm.asleep_from = now_;
  }
}

void L1SequenceGenerator::wake_due() {
  while (!wakes_.empty() && wakes_.top().first <= now_) {
    const auto [at, s] = wakes_.top();
    wakes_.pop();
    if (sms_[s].asleep && sms_[s].wake_at == at) wake(s);
  }
}

// Ticks in which every SM sleeps change nothing until the first
// outstanding request's latency ends: they are skipped.
void L1SequenceGenerator::skip_quiet_ticks() {
  wake_due();
  for (const uint64_t w : awake_)
    if (w) return;
  while (!wakes_.empty() && !(sms_[wakes_.top().second].asleep && sms_[wakes_.top().second].wake_at == wakes_.top().first))
    wakes_.pop();  // stale
  // Blocks resident, yet none can act and nothing is outstanding: no tick
  // would ever change that. A bug, reported rather than ticked through forever.
  if (wakes_.empty())
    throw std::logic_error("L1 ordering stuck at tick " + std::to_string(now_) + ": blocks resident but no warp can issue");
  now_ = wakes_.top().first;
  wake_due();
}

bool L1SequenceGenerator::tick(std::vector<L1Request>& issued) {
  if (done_) return false;
  dispatch();
  if (resident_blocks_ == 0) {
    done_ = true;
    return false;
  }
  // kMemory: the caller ticks while an SM is awake, and moves the clock
  // (advance_to) to the next answer otherwise.
  if (latency_ == LatencySource::kDrawn) skip_quiet_ticks();
  // The awake SMs in SM order (a tick does not wake another SM).
  for (size_t w = 0; w < awake_.size(); ++w)
    for (uint64_t bits = awake_[w]; bits; bits &= bits - 1) {
      const unsigned s = static_cast<unsigned>(w * 64 + static_cast<unsigned>(__builtin_ctzll(bits)));
      sm_tick(s, issued);
      sleep_if_quiet(s);
    }
  ++now_;
  stats_.ticks = now_;
  stats_.records_in_memory_max = store_.in_memory_max();
  stats_.records_spilled = store_.spilled();
  return true;
}

}  // namespace gpumem

namespace gpumem {

void describe_request(const L1Request& r, bool virtual_addresses, Request& req) {
  const CoalescedAccess& a = r.access;
  req.address = a.base();
  req.process = virtual_addresses ? r.process : 0;
  req.task_type = virtual_addresses ? 0 : r.process;
  req.op = a.op;
  req.size = a.bytes();
  req.sm = r.sm;
  req.warp = r.warp;
  req.kernel = r.kernel;
}

void write_l1_request(std::FILE* f, const L1Request& r) {
  const CoalescedAccess& a = r.access;
  std::fprintf(f, "%llu,%u,%u,%u,%u,%u,%u,0x%llx,%c,0x%llx,%u,%d,%u,%u,%llu,%u\n", static_cast<unsigned long long>(r.slot), r.sm,
               r.kernel, r.process, r.block, r.warp, a.thread_id, static_cast<unsigned long long>(a.pc),
               a.op == Op::kWrite ? 'W' : 'R', static_cast<unsigned long long>(a.address), a.width, a.dependent ? 1 : 0,
               a.threads, r.latency, static_cast<unsigned long long>(a.stride), a.elements);
}

void print_sequence_stats(std::ostream& os, const SequenceStats& s) {
  const double efficiency = s.requests ? static_cast<double>(s.thread_accesses) / s.requests : 0;
  os << "kernels " << s.kernels << ", blocks " << s.blocks << ", warps " << s.warps << ", warp instructions "
     << s.warp_instructions << "\n"
     << "per-thread accesses " << s.thread_accesses << " -> requests " << s.requests << " (coalescing: " << std::fixed
     << std::setprecision(2) << efficiency << " accesses per request)\n"
     << "strided requests " << s.strided_requests << " (" << s.strided_elements << " elements, in place of "
     << s.strided_line_requests << " line requests)\n"
     << "ticks " << s.ticks << "\n"
     << "resident records: at most " << s.records_in_memory_max << " in memory, " << s.records_spilled
     << " spilled to a temporary file\n"
     << "  sm  blocks  requests  accesses  mshr_full  blocked     idle\n";
  for (size_t i = 0; i < s.sm.size(); ++i) {
    const SmSequenceStats& m = s.sm[i];
    os << std::setw(4) << i << std::setw(8) << m.blocks << std::setw(10) << m.requests << std::setw(10) << m.thread_accesses
       << std::setw(11) << m.mshr_full_ticks << std::setw(9) << m.blocked_ticks << std::setw(9) << m.idle_ticks << "\n";
  }
}

}  // namespace gpumem
