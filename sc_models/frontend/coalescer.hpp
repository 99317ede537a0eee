// Coalescing of one warp instruction (CN106407063B, step 1c, sub-steps 4a-4d):
// the accesses of the threads that executed it become one request per cache
// line touched within each coalescing group.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sources/thread_trace.hpp"
#include "payload/request.hpp"

namespace gpumem {

// The bytes one thread writes, inside its coalesced request.
struct WritePiece {
  uint16_t offset = 0;  // from the request's base
  uint8_t width = 0;
  uint64_t value = 0;   // little-endian, its low `width` bytes (16 bytes: repeated)
};

// One request of a coalesced warp instruction. In CN106407063B's terms: PC and
// dependency flag as before the merge, the smallest merged thread id and its
// address, and the smallest width covering every merged byte. "Covering" is
// read as the smallest naturally aligned power-of-two block holding them, so
// the request a memory sees is (base(), width): aligned, inside one line.
struct CoalescedAccess {
  uint64_t pc = 0;
  uint64_t address = 0;
  // A strided request (CN104199782B) has elements > 0: `elements` accesses of
  // `width` bytes from `address`, `stride` bytes apart, its data packed in
  // element order; `line_requests` is what coalescing made of the same
  // instruction. Otherwise elements == 0 and it is one (base(), width) block.
  uint64_t stride = 0;
  // Writes: each merged thread's bytes, or each element's in element order
  // (a later thread's overwrite an earlier one's where they overlap, as the
  // writes land in lane order).
  std::vector<WritePiece> writes;
  uint32_t thread_id = 0;
  // Narrow fields, so a request is one cache line: the front end holds every
  // resident block's requests (docs/performance.md, "Trace front end").
  uint16_t width = 0;  // at most a line (4096 bytes)
  Op op = Op::kRead;
  bool dependent = false;
  uint8_t threads = 0;  // per-thread accesses merged into it: at most a warp
  uint8_t elements = 0;
  uint8_t line_requests = 0;
  uint64_t base() const { return address & ~(uint64_t{width} - 1); }
  bool strided() const { return elements > 0; }
  unsigned bytes() const { return strided() ? elements * width : width; }
};

// Threads that coalesce together for an access width (CN106407063B): 32 for 4
// bytes, 16 for 8, 8 for 16; the same 128 bytes per group for the narrower
// widths, capped at a warp.
inline unsigned coalescing_group(unsigned width) {
  const unsigned g = 128 / width;
  return g < kWarpSize ? g : kWarpSize;
}

// Coalesces the records of one warp instruction (one warp, one PC, each
// thread at most once), given in the order the threads appear. Appends the
// requests to `out` in CN106407063B's order: group by group, each group's lines
// in the order their first thread appears.
void coalesce(const ThreadRecord* records, size_t n, unsigned line_bytes, std::vector<CoalescedAccess>& out);

// CN104199782B, step 1.2, for one warp instruction: its distinct addresses in
// ascending order, when they are equally spaced, become one strided request.
// Taken only where it saves messages and keeps every element whole: more
// than one line request (`line_requests`), every record of one operation and
// one width, at least two distinct addresses, a spacing no smaller than the
// width. Of threads at the same address, the smallest id stands for the
// element and, for a write, the last in lane order gives its value (as in
// coalescing). False, and `out` untouched, when the instruction does not qualify.
bool stride_instruction(const ThreadRecord* records, size_t n, unsigned line_requests, CoalescedAccess& out);

// The value a write record stores when the trace gives none.
inline uint64_t default_write_value(const ThreadRecord& r) {
  return r.has_data ? r.data : default_write_data(r.thread_id, r.address);
}

}  // namespace gpumem
