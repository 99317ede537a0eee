// What the per-thread generators share: records built field by field into
// a sink, counted; and uint32 arrays written as memory-init items.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "sources/thread_trace.hpp"

namespace gpumem {

class TraceEmitter {
 public:
  TraceEmitter(ThreadTraceSink& sink, unsigned process, unsigned warps_per_block)
      : sink_(sink), process_(process), warps_per_block_(warps_per_block) {}

  void kernel(const std::string& name) {
    sink_.kernel(KernelInfo{name, process_, warps_per_block_});
    ++kernels_;
  }
  const ThreadRecord& read(uint32_t thread, uint64_t pc, uint64_t address, unsigned width, bool dependent) {
    return emit(thread, pc, address, width, Op::kRead, dependent, false, 0);
  }
  // Without data the front end writes its own pattern (thread_trace.hpp).
  const ThreadRecord& write(uint32_t thread, uint64_t pc, uint64_t address, unsigned width) {
    return emit(thread, pc, address, width, Op::kWrite, false, false, 0);
  }
  const ThreadRecord& write(uint32_t thread, uint64_t pc, uint64_t address, unsigned width, uint64_t data) {
    return emit(thread, pc, address, width, Op::kWrite, false, true, data);
  }
  const ThreadRecord& access(uint32_t thread, uint64_t pc, uint64_t address, unsigned width, Op op, bool dependent) {
    return emit(thread, pc, address, width, op, dependent, false, 0);
  }

  // count little-endian uint32 values, value(i) for i = 0 .. count - 1, in
  // memory-init items of at most kMemoryInitChunk bytes.
  template <typename Value>
  void memory_init_u32(uint64_t address, uint64_t count, Value&& value) {
    MemoryInit init;
    init.process = process_;
    for (uint64_t i = 0; i < count;) {
      const uint64_t n = std::min<uint64_t>(count - i, kMemoryInitChunk / 4);
      init.address = address + 4 * i;
      init.bytes.resize(4 * n);
      for (uint64_t k = 0; k < n; ++k, ++i) {
        const uint32_t v = value(i);
        for (unsigned b = 0; b < 4; ++b) init.bytes[4 * k + b] = static_cast<uint8_t>(v >> (8 * b));
      }
      sink_.memory_init(init);
    }
  }

  uint64_t kernels() const { return kernels_; }
  uint64_t records() const { return records_; }

 private:
  const ThreadRecord& emit(uint32_t thread, uint64_t pc, uint64_t address, unsigned width, Op op, bool dependent,
                           bool has_data, uint64_t data) {
    r_.thread_id = thread;
    r_.pc = pc;
    r_.address = address;
    r_.width = width;
    r_.op = op;
    r_.dependent = dependent;
    r_.has_data = has_data;
    r_.data = data;
    sink_.record(r_);
    ++records_;
    return r_;
  }

  ThreadTraceSink& sink_;
  unsigned process_, warps_per_block_;
  ThreadRecord r_;
  uint64_t kernels_ = 0, records_ = 0;
};

}  // namespace gpumem
