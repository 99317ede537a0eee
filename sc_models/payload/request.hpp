// A memory request as the player issues it, and where requests come from.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "base/types.hpp"

namespace gpumem {

struct Request {
  uint64_t id = 0;
  uint64_t cycle = 0;    // earliest issue cycle
  uint64_t address = 0;  // with an address space a virtual address, else a physical one
  unsigned task_type = 0;  // without an address space: the task type (with one, the PTE says)
  unsigned process = 0;  // with an address space: the issuing process
  Op op = Op::kRead;
  unsigned size = 4;
  uint64_t data = 0;  // for writes: this little-endian value, repeated over size bytes
  // From an SM of the trace front end (gpumem run --threads); kNoSm otherwise.
  unsigned sm = kNoSm;
  uint32_t warp = 0;  // kernel-wide warp id
  uint32_t kernel = 0;  // the kernel's position in the trace, from 0
  static constexpr unsigned kNoSm = ~0u;
};

// Streaming source: memory use must not grow with trace length.
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  virtual bool next(Request& r) = 0;  // false at the end
  virtual uint64_t expected_total() const { return 0; }  // 0: not known in advance
  // The share of its input read so far, 0 to 1, for a progress line; -1
  // where it is not known (a pipe, a generated workload).
  virtual double fraction_read() const { return -1; }
};

// The value a write carries when its trace gives none: differs per request
// and per address, so a read-back check catches a misplaced write.
inline uint64_t default_write_data(uint64_t id, uint64_t address) { return (id * 0x9E3779B97F4A7C15ull) ^ address; }

// Fills `len` bytes with the write pattern of a request.
inline void fill_write_data(const Request& r, uint8_t* dst) {
  if (r.size >= 8) {
    for (unsigned i = 0; i < r.size; i += 8) std::memcpy(dst + i, &r.data, 8);  // little-endian host
  } else {
    for (unsigned i = 0; i < r.size; ++i) dst[i] = static_cast<uint8_t>(r.data >> (8 * i));
  }
}

}  // namespace gpumem
