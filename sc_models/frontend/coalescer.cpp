#include "frontend/coalescer.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace gpumem {

namespace {

// Record indices in ascending thread id, ties in record order. A trace
// nearly always lists an instruction's threads in lane order already, and
// checking that costs a fraction of a sort.
void lane_order(const ThreadRecord* records, size_t n, std::array<uint8_t, kWarpSize>& order) {
  bool sorted = true;
  for (size_t i = 0; i < n; ++i) {
    order[i] = static_cast<uint8_t>(i);
    sorted = sorted && (i == 0 || records[i - 1].thread_id <= records[i].thread_id);
  }
  if (!sorted)
    std::stable_sort(order.begin(), order.begin() + n, [&](size_t a, size_t b) { return records[a].thread_id < records[b].thread_id; });
}

// The smallest naturally aligned power-of-two block holding [lo, hi).
unsigned covering_width(uint64_t lo, uint64_t hi) {
  unsigned w = 1;
  while (lo / w != (hi - 1) / w) w *= 2;
  return w;
}

}  // namespace

void coalesce(const ThreadRecord* records, size_t n, unsigned line_bytes, std::vector<CoalescedAccess>& out) {
  if (n == 0) return;
  unsigned widest = 1;
  for (size_t i = 0; i < n; ++i) widest = std::max(widest, records[i].width);
  const unsigned group = coalescing_group(widest);
  // Threads in lane order (4b takes them one at a time; lane order is the
  // order a warp's lanes present them), groups one after another.
  // At most a warp's worth: fixed arrays, no allocation per instruction.
  if (n > kWarpSize) throw std::invalid_argument("coalesce: more records than a warp has threads");
  std::array<uint8_t, kWarpSize> order;
  lane_order(records, n, order);

  const size_t first_out = out.size();
  struct Span {
    uint64_t lo, hi;
    unsigned group;
    uint64_t line;
  };
  std::array<Span, kWarpSize> spans;  // per output request of this instruction
  size_t made = 0;
  for (size_t o = 0; o < n; ++o) {
    const ThreadRecord& r = records[order[o]];
    const unsigned g = (r.thread_id % kWarpSize) / group;
    const uint64_t line = r.address / line_bytes;
    size_t k = 0;
    // 4c: a request of the same group, line and operation already there?
    while (k < made && !(spans[k].group == g && spans[k].line == line && out[first_out + k].op == r.op)) ++k;
    if (k == made) {
      CoalescedAccess a;
      a.thread_id = r.thread_id;
      a.pc = r.pc;
      a.address = r.address;
      a.width = r.width;
      a.op = r.op;
      a.dependent = r.dependent;
      out.push_back(std::move(a));
      spans[made++] = {r.address, r.address + r.width, g, line};
    } else {
      Span& s = spans[k];
      s.lo = std::min(s.lo, r.address);
      s.hi = std::max(s.hi, r.address + r.width);
      CoalescedAccess& a = out[first_out + k];
      if (r.thread_id < a.thread_id) {  // lane order makes this rare: duplicates of a thread id across lanes
        a.thread_id = r.thread_id;
        a.address = r.address;
      }
      a.width = covering_width(s.lo, s.hi);
      // A line never straddles: the covering block stays inside it, so it holds address too.
    }
    CoalescedAccess& a = out[first_out + k];
    ++a.threads;
    if (r.op == Op::kWrite)
      a.writes.push_back({static_cast<uint16_t>(r.address % line_bytes), static_cast<uint8_t>(r.width), default_write_value(r)});
  }
  // Offsets were taken from the line start; make them relative to each request's base.
  for (size_t k = 0; k < made; ++k) {
    CoalescedAccess& a = out[first_out + k];
    const uint16_t base_in_line = static_cast<uint16_t>(a.base() % line_bytes);
    for (WritePiece& p : a.writes) p.offset = static_cast<uint16_t>(p.offset - base_in_line);
  }
}

}  // namespace gpumem

namespace gpumem {

bool stride_instruction(const ThreadRecord* records, size_t n, unsigned line_requests, CoalescedAccess& out) {
  if (line_requests < 2 || n < 2 || n > kWarpSize) return false;
  for (size_t i = 1; i < n; ++i)
    if (records[i].op != records[0].op || records[i].width != records[0].width) return false;
  // Lane order (ascending thread id), then by address: equal addresses keep lane order.
  std::array<uint8_t, kWarpSize> order;
  lane_order(records, n, order);
  auto by_address = [&](size_t a, size_t b) { return records[a].address < records[b].address; };
  if (!std::is_sorted(order.begin(), order.begin() + n, by_address)) std::stable_sort(order.begin(), order.begin() + n, by_address);
  const unsigned width = records[0].width;
  const uint64_t base = records[order[0]].address;
  uint64_t stride = 0;
  unsigned elements = 1;
  for (size_t k = 1; k < n; ++k) {
    const uint64_t a = records[order[k]].address, prev = records[order[k - 1]].address;
    if (a == prev) continue;
    if (elements == 1) stride = a - prev;
    else if (a - prev != stride) return false;
    ++elements;
  }
  if (elements < 2 || stride < width) return false;

  CoalescedAccess s;
  s.thread_id = records[order[0]].thread_id;
  s.pc = records[0].pc;
  s.address = base;
  s.width = width;
  s.op = records[0].op;
  s.dependent = records[0].dependent;
  s.threads = static_cast<unsigned>(n);
  s.stride = stride;
  s.elements = elements;
  s.line_requests = line_requests;
  if (s.op == Op::kWrite) {
    // The last thread in lane order at each address gives the element's value.
    for (size_t k = 0; k < n; ++k) {
      const ThreadRecord& r = records[order[k]];
      if (k + 1 < n && records[order[k + 1]].address == r.address) continue;
      const unsigned element = static_cast<unsigned>((r.address - base) / stride);
      s.writes.push_back({static_cast<uint16_t>(element * width), static_cast<uint8_t>(width), default_write_value(r)});
    }
  }
  out = std::move(s);
  return true;
}

}  // namespace gpumem
