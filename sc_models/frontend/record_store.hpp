// Where resident blocks keep their per-thread records until their warps
// reach them (docs/frontend.md, "Resident blocks' records"). A GPU block may hold hundreds of
// thousands of records (a BFS warp expanding a hub vertex), and an SM holds
// several blocks: kept whole, they would make the front end's memory grow
// with the trace's largest blocks. Each warp's records are a queue of
// fixed-size chunks; past a budget of records in memory, filled chunks go to
// a temporary file and come back when their warp reaches them. Plain C++.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace gpumem {

// A per-thread record as a block keeps it: 32 bytes.
struct PackedRecord {
  enum Flag : uint8_t { kWrite = 1, kDependent = 2, kHasData = 4, kInstructionStart = 8 };
  uint64_t pc = 0, address = 0, data = 0;
  uint32_t thread_id = 0;
  uint8_t width = 0, flags = 0;
  uint16_t unused = 0;  // no padding: whole records go to the file as they are
};
static_assert(sizeof(PackedRecord) == 32, "a packed record is 32 bytes");

class RecordStore;

// One warp's records, in trace order.
class RecordQueue {
 public:
  bool empty() const { return chunks_.empty(); }

 private:
  friend class RecordStore;
  struct Chunk {
    std::vector<PackedRecord> records;  // empty while spilled
    uint64_t spill_offset = 0;
    uint32_t count = 0;
    bool spilled = false;
  };
  std::deque<Chunk> chunks_;
  uint32_t next_ = 0;  // into the front chunk
};

class RecordStore {
 public:
  static constexpr uint32_t kChunkRecords = 64;  // 2 KiB: the unit spilled and read back

  // At most `max_in_memory` records stay in memory before filled chunks
  // spill (each warp's last, partly filled chunk and the chunk it is reading
  // stay in memory whatever the budget).
  explicit RecordStore(uint64_t max_in_memory);
  ~RecordStore();
  RecordStore(const RecordStore&) = delete;
  RecordStore& operator=(const RecordStore&) = delete;

  void push(RecordQueue& q, const PackedRecord& r);
  // The queue's first record; the queue must not be empty. Reads its chunk
  // back from the file when it was spilled.
  const PackedRecord& front(RecordQueue& q);
  void pop(RecordQueue& q);
  // Drops what is left in `q` (a block that ends early).
  void clear(RecordQueue& q);

  uint64_t in_memory() const { return in_memory_; }
  uint64_t in_memory_max() const { return in_memory_max_; }
  uint64_t spilled() const { return spilled_records_; }  // records written to the file, over the run
  uint64_t file_bytes() const { return file_end_; }

 private:
  void spill(RecordQueue::Chunk& c);
  void drop(RecordQueue::Chunk& c);

  const uint64_t max_in_memory_;
  uint64_t in_memory_ = 0, in_memory_max_ = 0;
  uint64_t spilled_records_ = 0;
  int fd_ = -1;  // the file, created at the first spill
  uint64_t file_end_ = 0;
  // Slots of chunks read back: a spill reuses one before growing the file,
  // so the file is as large as the most chunks spilled at once.
  std::vector<uint64_t> free_slots_;
};

}  // namespace gpumem
