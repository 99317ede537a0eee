// SIGINT (Ctrl-C) or SIGTERM during `gpumem run`: the first one ends the
// request stream at the next request, as if the trace ended there, so the
// run finishes normally and writes every output for what it simulated,
// marked incomplete. The handler resets itself: a second signal kills at
// once (outputs then stay under their temporary names, never half-written
// under the final ones: base/output_file.hpp).
#pragma once
#include <string>

#include "frontend/thread_trace.hpp"
#include "payload/request.hpp"

namespace gpumem::cli {

class StopOnSignal {
 public:
  StopOnSignal();   // installs the handlers
  ~StopOnSignal();  // restores the ones before
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  static int received();  // the signal number, 0 while none has arrived
};

class StoppableSource : public RequestSource {
 public:
  explicit StoppableSource(RequestSource& inner) : inner_(inner) {}
  bool next(Request& r) override { return StopOnSignal::received() == 0 && inner_.next(r); }
  uint64_t expected_total() const override { return inner_.expected_total(); }

 private:
  RequestSource& inner_;
};

// The same for a per-thread trace: it ends at the next item.
class StoppableThreadSource : public ThreadTraceSource {
 public:
  explicit StoppableThreadSource(ThreadTraceSource& inner) : inner_(inner) {}
  Item next(MemoryInit& init, KernelInfo& kernel, ThreadRecord& record) override {
    return StopOnSignal::received() ? Item::kEnd : inner_.next(init, kernel, record);
  }
  std::string where() const override { return inner_.where(); }
  int address_column() const override { return inner_.address_column(); }

 private:
  ThreadTraceSource& inner_;
};

}  // namespace gpumem::cli
