// The per-thread trace (CN106407063B): what each GPU thread accessed, in
// its program order, grouped into kernels, with the memory image the kernels
// read set up before the first of them. Readers, importers and generators
// produce it as a stream of items; the front end (scheduling, coalescing,
// ordering) consumes it. docs/frontend.md, "Per-thread trace", is the
// format's reference.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/input_error.hpp"
#include "base/types.hpp"
#include "payload/memory_init.hpp"

namespace gpumem {

constexpr unsigned kWarpSize = 32;          // threads per warp (CN106407063B)
constexpr unsigned kMaxWarpsPerBlock = 32;  // 1024 threads, as CUDA allows
constexpr unsigned kMaxThreadAccessBytes = 16;  // widest per-thread access: a 16-byte vector load
constexpr unsigned kMemoryInitChunk = 4096;  // largest memory-init item

// One access by one thread.
struct ThreadRecord {
  uint32_t thread_id = 0;  // within its kernel: warp = thread_id / 32
  uint64_t pc = 0;
  uint64_t address = 0;  // a VA of the kernel's process with an address space, else a physical address
  unsigned width = 4;    // bytes: 1, 2, 4, 8 or 16, and address a multiple of it
  Op op = Op::kRead;
  // CN106407063B: whether the data is used before the thread's next access; the
  // same for every record of one PC. A dependent access blocks its warp.
  bool dependent = false;
  // For a write: the value written, little-endian, its low `width` bytes (a
  // 16-byte write repeats it). Without has_data the front end writes
  // (thread_id * 0x9E3779B97F4A7C15) XOR address.
  bool has_data = false;
  uint64_t data = 0;
};

// A kernel launch: the records after it, up to the next kernel, are its
// threads'. Kernels run one after the other.
struct KernelInfo {
  std::string name;
  // With an address space the issuing process (addresses are its VAs);
  // without one, the task type of every request.
  unsigned process = 0;
  unsigned warps_per_block = 0;  // the launch's block size in warps; 0: the config's frontend.warps_per_block
};

// A per-thread trace as a stream. Memory use must not grow with its length.
//
// Layout rules every source keeps (the front end checks them and names the
// item that breaks one):
//  - memory-init items come before the first kernel;
//  - every record follows a kernel;
//  - within a kernel, records come block by block in ascending block order
//    (block = thread_id / 32 / warps_per_block), each block's records together;
//  - the records of one warp instruction are consecutive: a warp
//    instruction is a run of records of one warp with one PC in which no
//    thread appears twice.
class ThreadTraceSource {
 public:
  enum class Item { kEnd, kMemoryInit, kKernel, kRecord };
  virtual ~ThreadTraceSource() = default;
  // Fills the member that matches the item returned; throws InputError
  // (file, line or record number, column) on a malformed item.
  virtual Item next(MemoryInit& init, KernelInfo& kernel, ThreadRecord& record) = 0;
  // Where the last item came from, for errors found by later stages: "file:line"
  // (text) or "file: record N" (binary).
  virtual std::string where() const = 0;
  // The column (1-based) of the last record's address in its text line, for
  // an address later stages refuse; 0 where there is none (binary) or the
  // source does not know it.
  virtual int address_column() const { return 0; }
  // The share of its input read so far, 0 to 1, for a progress line; -1
  // where it is not known (a pipe, a trace of several files).
  virtual double fraction_read() const { return -1; }
};

// An error at a position where() gave: "file:line" becomes file and line,
// anything else ("file: item N at byte B") the file part as it is.
inline InputError input_error_at(const std::string& where, const std::string& key, const std::string& msg) {
  const size_t colon = where.rfind(':');
  const bool line = colon != std::string::npos && colon + 1 < where.size() &&
                    where.find_first_not_of("0123456789", colon + 1) == std::string::npos;
  if (line) return InputError(where.substr(0, colon), std::stoi(where.substr(colon + 1)), key, msg);
  return InputError(where, 0, key, msg);
}

// The writing side: the CSV and binary writers, and what generators emit to.
class ThreadTraceSink {
 public:
  virtual ~ThreadTraceSink() = default;
  virtual void memory_init(const MemoryInit& init) = 0;
  virtual void kernel(const KernelInfo& kernel) = 0;
  virtual void record(const ThreadRecord& record) = 0;
  virtual void finish() {}  // after the last item: flush
};

}  // namespace gpumem
