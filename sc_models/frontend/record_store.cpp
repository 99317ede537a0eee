#include "frontend/record_store.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace gpumem {

namespace {

constexpr size_t kChunkBytes = RecordStore::kChunkRecords * sizeof(PackedRecord);

std::string temporary_directory() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

[[noreturn]] void file_error(const char* what) {
  throw std::runtime_error(std::string("trace front end: ") + what + " the temporary file for spilled per-thread records in " +
                           temporary_directory() + " (set TMPDIR, or raise frontend.max_records_in_memory): " + std::strerror(errno));
}

}  // namespace

RecordStore::RecordStore(uint64_t max_in_memory) : max_in_memory_(max_in_memory) {}

RecordStore::~RecordStore() {
  if (fd_ >= 0) ::close(fd_);
}

void RecordStore::push(RecordQueue& q, const PackedRecord& r) {
  if (q.chunks_.empty() || q.chunks_.back().count == kChunkRecords) {
    // The chunk just filled is the warp's furthest from being read: it is
    // the one to spill when the budget is spent.
    if (!q.chunks_.empty() && in_memory_ > max_in_memory_ && q.chunks_.size() > 1) spill(q.chunks_.back());
    q.chunks_.emplace_back();
    q.chunks_.back().records.reserve(kChunkRecords);
  }
  RecordQueue::Chunk& c = q.chunks_.back();
  c.records.push_back(r);
  ++c.count;
  if (++in_memory_ > in_memory_max_) in_memory_max_ = in_memory_;
}

const PackedRecord& RecordStore::front(RecordQueue& q) {
  RecordQueue::Chunk& c = q.chunks_.front();
  if (c.spilled) {
    c.records.resize(c.count);
    const size_t bytes = c.count * sizeof(PackedRecord);
    if (::pread(fd_, c.records.data(), bytes, static_cast<off_t>(c.spill_offset)) != static_cast<ssize_t>(bytes))
      file_error("cannot read back");
    c.spilled = false;
    free_slots_.push_back(c.spill_offset);
    in_memory_ += c.count;
    if (in_memory_ > in_memory_max_) in_memory_max_ = in_memory_;
  }
  return c.records[q.next_];
}

void RecordStore::pop(RecordQueue& q) {
  RecordQueue::Chunk& c = q.chunks_.front();
  if (++q.next_ < c.count) return;
  drop(c);
  q.chunks_.pop_front();
  q.next_ = 0;
}

void RecordStore::clear(RecordQueue& q) {
  for (RecordQueue::Chunk& c : q.chunks_) drop(c);
  q.chunks_.clear();
  q.next_ = 0;
}

void RecordStore::drop(RecordQueue::Chunk& c) {
  if (c.spilled) free_slots_.push_back(c.spill_offset);
  else in_memory_ -= c.count;
}

void RecordStore::spill(RecordQueue::Chunk& c) {
  if (fd_ < 0) {
    // Unlinked at once: the file goes when the run does, however it ends.
    std::string path = temporary_directory() + "/gpumem-records-XXXXXX";
    fd_ = ::mkstemp(&path[0]);
    if (fd_ < 0) file_error("cannot create");
    ::unlink(path.c_str());
  }
  uint64_t at = file_end_;
  if (!free_slots_.empty()) {
    at = free_slots_.back();
    free_slots_.pop_back();
  } else {
    file_end_ += kChunkBytes;
  }
  const size_t bytes = c.count * sizeof(PackedRecord);
  if (::pwrite(fd_, c.records.data(), bytes, static_cast<off_t>(at)) != static_cast<ssize_t>(bytes))
    file_error("cannot write");
  c.spill_offset = at;
  c.spilled = true;
  in_memory_ -= c.count;
  spilled_records_ += c.count;
  std::vector<PackedRecord>().swap(c.records);
}

}  // namespace gpumem
