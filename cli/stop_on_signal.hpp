// SIGINT (Ctrl-C) and SIGTERM, for every command (docs/reliability.md,
// "Output files"). Where a loop checks for a stop (base/stop_request.hpp:
// `gpumem run`'s SMs or request stream, `gpumem cosim`'s bench), the first
// signal only asks it to stop, and the command ends there, writing what it
// promises for what it simulated. Anywhere else (loading, searching,
// generating, writing) nothing would look, so the handler removes the
// temporary files of the outputs not yet written (base/output_file.hpp),
// says which, and exits 128 + the signal at once; so does a second signal.
#pragma once
#include <string>

#include "base/stop_request.hpp"
#include "sources/thread_trace.hpp"
#include "payload/request.hpp"

namespace gpumem::cli {

class StopOnSignal {
 public:
  StopOnSignal();   // installs the handlers
  ~StopOnSignal();  // restores the ones before
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
};

// The request stream of `gpumem run --trace` (or a workload) ends at the
// next request, as if the trace ended there.
class StoppableSource : public RequestSource {
 public:
  explicit StoppableSource(RequestSource& inner) : inner_(inner) {}
  bool next(Request& r) override { return stop_requested() == 0 && inner_.next(r); }
  uint64_t expected_total() const override { return inner_.expected_total(); }
  double fraction_read() const override { return inner_.fraction_read(); }

 private:
  RequestSource& inner_;
};

// A per-thread trace ends at the next item: this ends the memory-init
// loading before the first kernel; once the SMs issue, their own check
// (frontend/sm_array.cpp) stops them at the next request, well before the
// blocks already read would drain.
class StoppableThreadSource : public ThreadTraceSource {
 public:
  explicit StoppableThreadSource(ThreadTraceSource& inner) : inner_(inner) {}
  Item next(MemoryInit& init, KernelInfo& kernel, ThreadRecord& record) override {
    return stop_requested() ? Item::kEnd : inner_.next(init, kernel, record);
  }
  std::string where() const override { return inner_.where(); }
  int address_column() const override { return inner_.address_column(); }
  double fraction_read() const override { return inner_.fraction_read(); }

 private:
  ThreadTraceSource& inner_;
};

}  // namespace gpumem::cli
