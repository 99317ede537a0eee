// Seeded random read/write mix over pages that each carry one task type, and
// a scoreboard that checks every read against the last write (shadow memory).
#pragma once
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "payload/completion.hpp"
#include "payload/request.hpp"

namespace gpumem::test {

struct TaggedPage {
  uint64_t base;
  unsigned task_type;    // physical mode
  unsigned process = 0;  // with an address space (base is then a VA)
};

inline std::vector<TaggedPage> random_pages(std::mt19937_64& rng, size_t n, uint64_t page_bytes, unsigned address_bits) {
  std::vector<TaggedPage> pages;
  std::unordered_map<uint64_t, bool> used;
  while (pages.size() < n) {
    const uint64_t page = (rng() % (uint64_t{1} << (address_bits - 1))) / page_bytes;
    // Neighbouring pages as well, so different task types sit side by side.
    for (uint64_t p : {page, page + 1})
      if (!used[p] && pages.size() < n) {
        used[p] = true;
        pages.push_back({p * page_bytes, static_cast<unsigned>(rng() % 16)});
      }
  }
  return pages;
}

class RandomMix : public RequestSource {
 public:
  RandomMix(uint64_t seed, std::vector<TaggedPage> pages, uint64_t page_bytes, unsigned max_size, uint64_t count)
      : rng_(seed), pages_(std::move(pages)), page_bytes_(page_bytes), max_size_(max_size), count_(count) {}
  bool next(Request& r) override {
    if (id_ == count_) return false;
    const TaggedPage& p = pages_[rng_() % pages_.size()];
    r.id = id_++;
    cycle_ += rng_() % 3;
    r.cycle = cycle_;
    r.task_type = p.task_type;
    r.process = p.process;
    r.size = 1u << (rng_() % (__builtin_ctz(max_size_) + 1));
    // 64 slots per page, so reads often find written bytes.
    const uint64_t slot = (rng_() % 64) * max_size_ % page_bytes_;
    r.address = p.base + slot + (rng_() % (max_size_ / r.size)) * r.size;
    r.op = rng_() % 2 ? Op::kWrite : Op::kRead;
    r.data = rng_();
    return true;
  }

 private:
  std::mt19937_64 rng_;
  std::vector<TaggedPage> pages_;
  uint64_t page_bytes_;
  unsigned max_size_;
  uint64_t count_;
  uint64_t id_ = 0;
  uint64_t cycle_ = 0;
};

class ShadowScoreboard : public CompletionObserver {
 public:
  void on_completion(const Completion& c) override {
    for (unsigned i = 0; i < c.request.size; ++i) {
      const uint64_t a = c.request.address + i;
      if (c.request.op == Op::kWrite) {
        shadow_[a] = c.data[i];
      } else {
        const auto it = shadow_.find(a);
        const uint8_t expected = it == shadow_.end() ? 0 : it->second;
        ++bytes_checked_;
        if (it != shadow_.end()) ++bytes_checked_written_;
        if (expected != c.data[i] && mismatches_++ < 5)
          ADD_FAILURE() << "request " << c.request.id << " task " << c.request.task_type << " read byte 0x" << std::hex << a
                        << " = 0x" << int(c.data[i]) << ", last written 0x" << int(expected);
      }
    }
  }
  uint64_t mismatches() const { return mismatches_; }
  uint64_t bytes_checked_written() const { return bytes_checked_written_; }

 private:
  std::unordered_map<uint64_t, uint8_t> shadow_;
  uint64_t mismatches_ = 0, bytes_checked_ = 0, bytes_checked_written_ = 0;
};

// 8 channels, every task type with its own scheme: none, xor (random vectors) or prime.
inline std::string mixed_scheme_yaml(std::mt19937_64& rng) {
  std::string tasks;
  for (unsigned t = 0; t < 16; ++t) {
    const unsigned kind = t % 3;
    tasks += "    - {task_type: " + std::to_string(t) + ", scheme: ";
    if (kind == 0) tasks += "none}\n";
    else if (kind == 2) tasks += "prime}\n";
    else tasks += "xor, xor_vectors: [" + std::to_string(rng() & 0xFFF) + ", " + std::to_string(rng() & 0xFFF) + ", " +
                  std::to_string(rng() & 0xFFF) + "]}\n";
  }
  return "memory: {address_bits: 32, channels: 8, service_cycles: 2, max_outstanding: 32}\n"
         "translator:\n  channel_bits: [6, 7, 8]\n  candidate_bits: [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n"
         "  prime: 5\n  tasks:\n" + tasks;
}

}  // namespace gpumem::test
