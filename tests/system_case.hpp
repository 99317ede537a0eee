// The whole-system read-after-write property: a random
// accepted config and a random per-thread trace whose reads and writes
// overlap on lines and pages, run through every block (front end, L1 with
// its prefetch unit and buffer, MMU, translator in either position, router,
// channels), and an oracle that says what every read must return.
//
// The case is built from a Chooser, so RapidCheck (which shrinks the picks)
// and a seeded soak draw the same space of configs and traces.
#pragma once
#include <cstdint>
#include <bitset>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "sources/thread_trace.hpp"
#include "payload/completion.hpp"

namespace gpumem::test {

class Chooser {
 public:
  virtual ~Chooser() = default;
  virtual unsigned pick(unsigned lo, unsigned hi) = 0;  // inclusive
  bool percent(unsigned p) { return pick(0, 99) < p; }
  template <typename T>
  const T& one_of(const std::vector<T>& v) { return v[pick(0, static_cast<unsigned>(v.size() - 1))]; }
};

struct SystemCase {
  std::string config;  // YAML
  std::string trace;   // per-thread CSV
  std::string summary;  // one line: what the config turns on
};

namespace detail {

inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

inline unsigned log2u(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < v) ++n;
  return n;
}

// A place requests may go: a process's (or, without an MMU, a task type's)
// range of addresses, all of it mapped.
struct Span {
  unsigned process = 0;
  uint64_t base = 0, size = 0;
};

}  // namespace detail

// Draws one case. `scale` bounds the trace (RapidCheck's size, or the soak's).
// `at`: an approximately-timed case (simulation.timing: at): the SMs issue
// by memory, with either scheduler, and an L1 allocates at the miss or at
// the fill.
// The draws are the same as without it up to its own, so seeded cases stay
// as they were.
inline SystemCase draw_system_case(Chooser& ch, unsigned scale, bool at = false) {
  using detail::hex;
  std::ostringstream y, summary;
  // Channels: powers of two up to 64, and counts the prime or plain
  // granule interleave takes.
  const std::vector<unsigned> counts{1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 64};
  const unsigned channels = ch.one_of(counts);
  const bool pow2 = (channels & (channels - 1)) == 0;
  const unsigned m = pow2 ? detail::log2u(channels) : 0;
  const bool mmu = ch.percent(60);
  const bool before_mmu = mmu && ch.percent(40);
  const bool want_mop = pow2 && m >= 1 && ch.percent(20);
  // Channel field: contiguous and ascending below the 4 KB page (isolation);
  // the frontend line fits the interleave granule.
  const unsigned max_line_log = pow2 && m > 0 ? std::min(7u, 12 - m - (want_mop ? 2 : 0)) : 7;
  const unsigned line_log = ch.pick(4, std::max(4u, max_line_log));
  const unsigned line = 1u << line_log;
  unsigned c0 = 0, granule = 0;
  if (pow2 && m > 0) {
    c0 = ch.pick(line_log + (want_mop ? 2 : 0), 12 - m);
    if (want_mop) granule = 1u << (c0 - 2);
  } else if (!pow2) {
    granule = 1u << ch.pick(line_log, 12);
  }
  y << "memory: {address_bits: 40, channels: " << channels << ", service_cycles: " << ch.pick(1, 4)
    << ", max_outstanding: " << ch.pick(1, 32) << "}\n";
  y << "mmu:\n  page_sizes: [4096, 65536]\n  tlb: {entries: " << (1u << ch.pick(1, 4)) << ", ways: 2, replacement: "
    << (ch.percent(50) ? "lru" : "plru") << "}\n  walk_level_cycles: " << ch.pick(0, 3) << "\n";

  // Task types 0..3, each with a scheme this layout takes.
  std::vector<std::string> schemes;
  if (channels == 1) {
    schemes = {"none"};
  } else if (!pow2) {
    // Before the MMU a row of N granules would cross pages: none only.
    schemes = {!before_mmu && ch.percent(50) ? "prime" : "none"};
  } else {
    schemes = {"none", "xor", "prime", "matrix", "bitwise_xor", "random"};
    if (m >= 4 && m <= 6) schemes.push_back("ipoly");
    if (m == 5) schemes.push_back("pae");
    if (want_mop) schemes.push_back("mop4clxor");
  }
  const unsigned prime = channels % 7 ? 7 : 11;
  y << "translator:\n";
  if (mmu) y << "  position: " << (before_mmu ? "before_mmu" : "after_mmu") << "\n";
  if (m > 0) {
    y << "  channel_bits: [";
    for (unsigned j = 0; j < m; ++j) y << (j ? ", " : "") << c0 + j;
    y << "]\n  candidate_bits: [";
    for (unsigned i = 0; i < 8; ++i) y << (i ? ", " : "") << 12 + i;
    y << "]\n";
  }
  if (granule) y << "  granule_bytes: " << granule << "\n";
  y << "  interleave_enable: " << (ch.percent(90) ? "true" : "false") << "\n  prime: " << prime << "\n";
  if (!pow2) {
    y << "  default_scheme: " << schemes[0] << "\n";
    summary << channels << "ch " << schemes[0];
  } else {
    summary << channels << "ch";
    y << "  tasks:\n";
    for (unsigned t = 0; t < 4; ++t) {
      const std::string& s = ch.one_of(schemes);
      summary << " t" << t << ":" << s;
      y << "    - {task_type: " << t << ", scheme: " << s;
      if (s == "xor") {
        y << ", xor_vectors: [";
        for (unsigned j = 0; j < m; ++j) y << (j ? ", " : "") << ch.pick(0, 255);
        y << "]";
      } else if (s == "matrix") {
        // Unit upper triangular on the channel bits (invertible), plus any
        // bits above the field.
        y << ", matrix: [";
        for (unsigned j = 0; j < m; ++j) {
          y << (j ? ", " : "") << "[" << c0 + j;
          for (unsigned k = j + 1; k < m; ++k)
            if (ch.percent(30)) y << ", " << c0 + k;
          for (unsigned b = c0 + m; b < 30; ++b)
            if (ch.percent(15)) y << ", " << b;
          y << "]";
        }
        y << "]";
      } else if (s == "random") {
        y << ", seed: " << ch.pick(1, 1000);
      }
      y << "}\n";
    }
  }

  // Where requests go. With an MMU: two applications, each a large region
  // with a partly used last page, a small region nested in that page's VA
  // tail and a second small region the driver nests in a frame's tail.
  std::vector<detail::Span> spans;
  std::vector<detail::Span> holes;  // unmapped: faults
  unsigned processes = 0;
  if (mmu) {
    processes = ch.pick(1, 2);
    y << "address_space:\n  va_bits: 40\n  nesting: " << (ch.percent(70) ? "true" : "false") << "\n  applications:\n";
    for (unsigned p = 0; p < processes; ++p) {
      const uint64_t b = 0x10000000ull * (p + 1);
      const unsigned task = ch.pick(0, 3);
      const bool writable = ch.percent(90);
      y << "    - name: app" << p << "\n      process: " << p << "\n      task_type: " << task << "\n      regions:\n";
      y << "        - {name: big" << p << ", va: " << hex(b) << ", size: 0x18000, page: large, writable: "
        << (writable ? "true" : "false") << "}\n";
      y << "        - {name: tail" << p << ", va: " << hex(b + 0x1C000) << ", size: 0x2000, page: small, task_type: "
        << ch.pick(0, 3) << "}\n";
      y << "        - {name: small" << p << ", va: " << hex(b + 0x100000) << ", size: 0x3000, page: small}\n";
      spans.push_back({p, b, 0x18000});
      spans.push_back({p, b + 0x1C000, 0x2000});
      spans.push_back({p, b + 0x100000, 0x3000});
      holes.push_back({p, b + 0x18000, 0x4000});  // the large page's tail before the nested region
      holes.push_back({p, b + 0x200000, 0x1000});
    }
    summary << (before_mmu ? " mmu:before" : " mmu:after");
  } else {
    processes = 4;  // task types: each its own pages
    for (unsigned t = 0; t < 4; ++t) spans.push_back({t, 0x100000ull * (t + 1), 0x3000});
  }

  // The front end, the L1 and the prefetch unit.
  const unsigned sms = ch.pick(1, 3), warps_per_block = ch.pick(1, 3);
  const bool strided = ch.percent(50);
  y << "frontend: {num_sms: " << sms << ", blocks_per_sm: " << ch.pick(1, 2) << ", warps_per_block: " << warps_per_block
    << ", line_bytes: " << line << ", mshr_entries: " << ch.pick(1, 8) << ", latency_min: " << ch.pick(0, 8)
    << ", latency_sigma: " << ch.pick(0, 3) << ", seed: " << ch.pick(1, 100)
    << ", issue_timing: " << (ch.percent(50) && !at ? "ordering" : "memory") << ", strided_requests: " << (strided ? "true" : "false");
  if (at) y << ", scheduler: " << (ch.percent(50) ? "gto" : "lrr");
  y << "}\n";
  summary << " sms:" << sms << (strided ? " strided" : "");
  const uint64_t largest = granule ? std::min<uint64_t>(granule, 4096) : (m > 0 ? std::min(1u << c0, 4096u) : 4096);
  if (ch.percent(75)) {
    const unsigned l1_line = (line * 2 <= largest && ch.percent(30)) ? line * 2 : line;
    const unsigned ways = 1u << ch.pick(0, 2);
    const unsigned lines = ways * (1u << ch.pick(0, 3));
    y << "l1: {size_bytes: " << lines * l1_line << ", line_bytes: " << l1_line << ", ways: " << ways
      << ", mshrs: " << ch.pick(1, 4) << ", hit_latency: " << ch.pick(0, 3);
    const bool on_fill = at && ch.percent(50);
    y << (on_fill ? ", allocate: fill" : "") << "}\n";
    summary << " l1:" << lines << "x" << l1_line << (on_fill ? "+onfill" : "");
    const unsigned kind = ch.pick(0, 2);
    if (kind > 0) {
      const bool buffer = ch.percent(50);
      y << "prefetch:\n  kind: " << (kind == 1 ? "stride" : "bfs") << "\n  queue_entries: " << ch.pick(1, 8)
        << "\n  fill: " << (buffer ? "buffer" : "l1") << "\n  buffer_lines: " << ch.pick(1, 8) << "\n";
      summary << (kind == 1 ? " stride" : " bfs") << (buffer ? "+buffer" : "");
      if (kind == 1) {
        y << "  stride: {degree: " << ch.pick(1, 3) << ", distance: " << ch.pick(1, 4) << ", confidence: " << ch.pick(0, 2)
          << "}\n";
      } else {
        // The four arrays side by side in the first place requests go, so
        // the values reads return steer the chain.
        const uint64_t b = spans[0].base;
        y << "  edge_window: " << ch.pick(0, 2) << "\n  ranges: {worklist: [" << hex(b) << ", " << hex(b + 0x200)
          << "], vertexlist: [" << hex(b + 0x200) << ", " << hex(b + 0x400) << "], edgelist: [" << hex(b + 0x400) << ", "
          << hex(b + 0x800) << "], visitedlist: [" << hex(b + 0x800) << ", " << hex(b + 0x900) << "]}\n";
      }
    }
  }

  // The trace: a few hot lines per span, so reads and writes meet on lines
  // and pages; memory-init bytes on some; kernels of either process.
  std::ostringstream t;
  t << kThreadTraceHeader << "\n";
  // Hot lines: a run of neighbours (what a stride or BFS prefetch brings in
  // is then read and written too, by this SM and others, in this kernel and
  // the next) and two lines anywhere in the span.
  std::vector<std::vector<uint64_t>> hot(spans.size());
  for (size_t s = 0; s < spans.size(); ++s) {
    const unsigned lines = unsigned(spans[s].size / line);
    const unsigned run = ch.pick(0, lines - 1);
    for (unsigned k = 0; k < 6 && run + k < lines; ++k) hot[s].push_back(spans[s].base + uint64_t{run + k} * line);
    for (unsigned k = 0; k < 2; ++k) hot[s].push_back(spans[s].base + uint64_t{ch.pick(0, lines - 1)} * line);
  }
  // The BFS arrays' first lines are hot too.
  for (unsigned k = 0; k < 5; ++k) hot[0].push_back(spans[0].base + k * 0x200);
  const unsigned inits = ch.pick(0, 3);
  for (unsigned i = 0; i < inits; ++i) {
    const size_t s = ch.pick(0, unsigned(spans.size() - 1));
    const uint64_t a = ch.one_of(hot[s]);
    const unsigned n = line * ch.pick(1, 2);
    if (a + n > spans[s].base + spans[s].size) continue;
    t << "init," << spans[s].process << "," << hex(a) << ",";
    for (unsigned k = 0; k < n; ++k) {
      char h[3];
      std::snprintf(h, sizeof h, "%02x", ch.pick(0, 255));
      t << h;
    }
    t << "\n";
  }
  const unsigned kernels = ch.pick(1, 4);
  for (unsigned k = 0; k < kernels; ++k) {
    const unsigned process = ch.pick(0, processes - 1);
    std::vector<size_t> mine;
    for (size_t s = 0; s < spans.size(); ++s)
      if (spans[s].process == process) mine.push_back(s);
    t << "kernel,k" << k << "," << process << "\n";
    const unsigned warps = ch.pick(1, std::min(16u, scale / 8 + 1));
    const unsigned instructions = ch.pick(1, std::min(8u, scale / 12 + 1));
    std::map<unsigned, bool> dependent;  // by PC: the flag is the PC's
    for (unsigned w = 0; w < warps; ++w) {  // warps in order: blocks in order
      for (unsigned i = 0; i < instructions; ++i) {
        const unsigned pc = 0x100 + 8 * ch.pick(0, 5);
        if (!dependent.count(pc)) dependent[pc] = ch.percent(40);
        const bool write = ch.percent(45);
        const unsigned width = std::min(line, 1u << ch.pick(0, 4));
        const size_t s = ch.one_of(mine);
        const unsigned pattern = ch.pick(0, 9);
        const uint64_t line_base = ch.one_of(hot[s]);
        const unsigned stride = width * (1u << ch.pick(0, 3));
        const unsigned lanes = ch.percent(50) ? ch.pick(1, 32) : 32;  // shrinks to one lane
        // The kernel's own holes: before the MMU a VA outside the VA-range
        // registers maps with the accessing process's task type, so another
        // application's address is not the same byte (docs/page-tables.md,
        // "The translator before the MMU").
        std::vector<const detail::Span*> own_holes;
        for (const detail::Span& h : holes)
          if (h.process == process) own_holes.push_back(&h);
        const bool fault = !own_holes.empty() && ch.percent(3);
        const uint64_t fault_base = fault ? own_holes[ch.pick(0, unsigned(own_holes.size() - 1))]->base : 0;
        for (unsigned lane = 0; lane < lanes; ++lane) {
          uint64_t a;
          if (fault) a = fault_base + uint64_t{lane} * width;
          else if (pattern < 3) a = line_base + uint64_t{lane} * stride;  // equally spaced: a strided request
          else if (pattern == 3) a = line_base;                           // every lane the same
          else a = ch.one_of(hot[s]) + uint64_t{ch.pick(0, line / width - 1)} * width;
          const detail::Span& sp = spans[s];
          if (!fault && (a < sp.base || a + width > sp.base + sp.size)) a = line_base;  // stay inside the mapped span
          t << w * 32 + lane << "," << hex(pc) << "," << (write ? "W" : "R") << "," << hex(a) << "," << width << ","
            << (dependent[pc] ? 1 : 0) << ",";
          if (write) t << hex((uint64_t{ch.pick(0, 0xFFFF)} << 16 | ch.pick(0, 0xFFFF)) * 0x100000001ull);
          t << "\n";
        }
      }
    }
  }
  // The memory model, drawn last so the draws above stay as they were: half
  // the cases on a random DRAM preset with small queues, early write drains
  // (reads then forwarded from the write queue), refresh and either page
  // policy, so the scheduler reorders while the oracle checks the data.
  std::string config = y.str();
  if (ch.percent(50)) {
    const std::string preset = ch.one_of(std::vector<std::string>{"ddr4", "gddr6", "hbm2", "hbm3", "ddr5", "lpddr5"});
    const unsigned high = ch.one_of(std::vector<unsigned>{2, 4, 32});
    std::ostringstream d;
    d << "preset: " << preset << ", latency_cycles: " << ch.pick(0, 40) << ", dram: {page_policy: " << (ch.percent(50) ? "open" : "closed");
    const std::string refresh = ch.percent(50) ? "all_bank" : ch.percent(50) ? "per_bank" : "same_bank";
    // Refresh often, but with room for an activate between two bank
    // refreshes after tRREFD (DDR5's 73 cycles, per bank: 32 refreshes a round).
    const unsigned refi = preset == "ddr5" && refresh == "per_bank" ? 8000 : 2000;
    d << ", refresh: " << refresh << ", write_high: " << high << ", write_low: " << ch.pick(0, high - 1) << ", read_queue: " << ch.pick(1, 32)
      << ", bank_queue: " << ch.pick(1, 8) << ", row_hit_cap: " << ch.pick(0, 4) << ", timing: {tREFI: " << refi << "}";
    // In at, half of these with Ramulator 2's order of commands (drawn after the rest).
    if (at && ch.percent(50)) d << ", row_commands: any";
    d << "}";
    const size_t from = config.find("service_cycles: "), to = config.find(',', from);
    config.replace(from, to - from, d.str());
    summary << " dram:" << preset;
  }
  if (at) {
    config += "simulation: {timing: at}\n";
    summary << " at";
  }
  return {config, t.str(), summary.str()};
}

// What every read must return, in the order the SMs call the memory path
// (the model moves data when a request reaches its channel, so that order
// is its program order; with simulation.timing: at the observers see
// requests as they complete, and the oracle puts them back in issue order,
// which is the order of their ids):
// the last write to the byte, or the memory-init byte, or zero. The one
// exception is a GPU's: L1s are not coherent within a kernel, so a byte
// another SM wrote in the running kernel may read as any value it has held
// since the kernel began. Kernel launches empty every L1, so each kernel
// starts strict.
class DataOracle : public CompletionObserver {
 public:
  explicit DataOracle(bool l1, bool issue_order = false) : l1_(l1), issue_order_(issue_order) {}

  // Bytes are keyed by address alone: one virtual address space is shared
  // by every application (docs/page-tables.md).
  void init(uint64_t address, const std::vector<uint8_t>& bytes) {
    for (size_t i = 0; i < bytes.size(); ++i) bytes_[address + i].value = bytes[i];
  }

  void on_completion(const Completion& c) override {
    if (!issue_order_) return check(c);
    // A strided request's elements come one after another under its id.
    if (c.request.id != arriving_) drain();
    arriving_ = c.request.id;
    Held& h = held_[c.request.id].emplace_back();
    h.request = c.request;
    h.how = c.how;
    h.data.assign(c.data, c.data + c.request.size);
    if (c.byte_enables) h.enables.assign(c.byte_enables, c.byte_enables + c.request.size);
  }
  // The requests still held back in issue order (at the end of a run).
  void finish() {
    arriving_ = ~uint64_t{0};
    drain();
    if (!held_.empty() && mismatches_++ == 0) first_ = "request " + std::to_string(held_.begin()->first) + " completed, an earlier one never did";
  }

  void check(const Completion& c) {
    const Request& r = c.request;
    ++requests_;
    if (c.how.fault != FaultReason::kNone) {
      ++faulted_;
      return;  // nothing served: no data, nothing written
    }
    if (r.kernel != kernel_) {
      kernel_ = r.kernel;
      ++epoch_;
    }
    for (unsigned i = 0; i < r.size; ++i) {
      Byte& b = bytes_[r.address + i];
      if (r.op == Op::kWrite) {
        if (c.byte_enables && c.byte_enables[i] != TLM_BYTE_ENABLED) continue;
        if (b.epoch != epoch_) b.begin(epoch_);
        b.value = c.data[i];
        b.held[b.value] = true;
        if (r.sm < 64) b.writers |= uint64_t{1} << r.sm;
        continue;
      }
      if (i == 0) ++reads_;
      const bool racy = l1_ && b.epoch == epoch_ && (b.writers & ~(uint64_t{1} << r.sm)) != 0;
      ++(racy ? racy_bytes_ : strict_bytes_);
      if (c.data[i] == b.value || (racy && b.held[c.data[i]])) continue;
      if (mismatches_++ == 0) {
        char m[256];
        std::snprintf(m, sizeof m,
                      "request %llu (kernel %u, SM %u, warp %u, read of %u bytes at 0x%llx, process %u, l1 %s): byte 0x%llx "
                      "read 0x%02x, last written 0x%02x",
                      (unsigned long long)r.id, r.kernel, r.sm, r.warp, r.size, (unsigned long long)r.address,
                      r.process, l1_result_name(c.how.l1), (unsigned long long)(r.address + i), c.data[i], b.value);
        first_ = m;
      }
    }
  }

  uint64_t requests() const { return requests_; }
  uint64_t reads() const { return reads_; }
  uint64_t faulted() const { return faulted_; }
  uint64_t strict_bytes() const { return strict_bytes_; }
  uint64_t racy_bytes() const { return racy_bytes_; }
  uint64_t mismatches() const { return mismatches_; }
  const std::string& first_mismatch() const { return first_; }

 private:
  struct Byte {
    uint8_t value = 0;
    uint32_t epoch = 0;  // the kernel the fields below are of (0: none yet)
    uint64_t writers = 0;  // SMs that wrote it in that kernel
    std::bitset<256> held;  // values it held in that kernel
    void begin(uint32_t e) {
      epoch = e;
      writers = 0;
      held.reset();
      held[value] = true;
    }
  };

  struct Held {
    Request request;
    How how;
    std::vector<uint8_t> data, enables;
  };
  void drain() {
    for (auto it = held_.begin(); it != held_.end() && it->first == next_id_ && it->first != arriving_; it = held_.erase(it), ++next_id_)
      for (const Held& h : it->second)
        check(Completion{h.request, h.how, h.data.data(), 0, 0, h.enables.empty() ? nullptr : h.enables.data()});
  }

  bool l1_;
  bool issue_order_;
  std::map<uint64_t, std::vector<Held>> held_;  // issue_order_: completed requests by id, until every earlier one is checked
  uint64_t next_id_ = 0, arriving_ = ~uint64_t{0};
  std::unordered_map<uint64_t, Byte> bytes_;
  uint32_t kernel_ = 0, epoch_ = 1;
  uint64_t requests_ = 0, reads_ = 0, faulted_ = 0, strict_bytes_ = 0, racy_bytes_ = 0, mismatches_ = 0;
  std::string first_;
};

}  // namespace gpumem::test
