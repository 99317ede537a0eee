// A memory request as the player issues it, and where requests come from.
#pragma once
#include <cstdint>
#include <string>

#include "config.hpp"

namespace gpumem {

struct Request {
  uint64_t id = 0;
  uint64_t cycle = 0;    // earliest issue cycle
  uint64_t address = 0;  // physical address (the MMU issue turns this into a VA)
  unsigned task = 0;
  Op op = Op::kRead;
  unsigned size = 4;
  uint64_t data = 0;  // for writes: this little-endian value, repeated over size bytes
};

// Streaming source: memory use must not grow with trace length.
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  virtual bool next(Request& r) = 0;  // false at the end
};

// Fills `len` bytes with the write pattern of a request.
inline void fill_write_data(const Request& r, uint8_t* dst) {
  for (unsigned i = 0; i < r.size; ++i) dst[i] = static_cast<uint8_t>(r.data >> (8 * (i % 8)));
}

}  // namespace gpumem
