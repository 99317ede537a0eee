// What the player reports for every finished request; statistics, the
// transaction log and test scoreboards all observe the same records.
#pragma once
#include <cstdint>

#include "payload/how.hpp"
#include "payload/request.hpp"

namespace gpumem {

struct Completion {
  const Request& request;
  const How& how;
  const uint8_t* data;  // bytes read, or bytes written
  uint64_t issue_cycle;
  uint64_t completion_cycle;
  // A write's TLM byte enables (TLM_BYTE_ENABLED per byte written), or null
  // when every byte of `data` was written: an SM's coalesced write carries
  // only its threads' bytes.
  const uint8_t* byte_enables = nullptr;
};

class CompletionObserver {
 public:
  virtual ~CompletionObserver() = default;
  virtual void on_completion(const Completion& c) = 0;
};

}  // namespace gpumem
