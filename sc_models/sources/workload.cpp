#include "sources/workload.hpp"

#include <queue>
#include <vector>

#include "base/bits.hpp"

namespace gpumem {

namespace {

class Generator {
 public:
  explicit Generator(const GeneratorConfig& g)
      : g_(g),
        rng_(g.seed),
        next_cycle_(g.start_cycle),
        slots_(g.kind == GeneratorConfig::Kind::kRandom ? g.range / g.size : 0),
        slot_mask_(is_pow2(slots_) ? slots_ - 1 : 0) {}
  bool done() const { return i_ >= g_.count; }
  uint64_t next_cycle() const { return next_cycle_; }  // start_cycle + i * issue_interval, kept as a sum
  void emit(Request& r) {
    r.cycle = next_cycle_;
    r.task_type = g_.task_type;
    r.process = g_.process;
    r.size = g_.size;
    if (g_.kind == GeneratorConfig::Kind::kStrided) {
      r.address = g_.base + offset_;
      offset_ += g_.stride;
      if (g_.range && offset_ >= g_.range) offset_ %= g_.range;
      // Spread writes evenly: a write whenever the accumulated fraction passes 1.
      write_credit_ += g_.write_fraction;
      r.op = write_credit_ >= 1.0 ? Op::kWrite : Op::kRead;
      if (write_credit_ >= 1.0) write_credit_ -= 1.0;
      r.data = (i_ + 1) * 0x9E3779B97F4A7C15ull;
    } else {
      // A power-of-two slot count takes a mask, which is the remainder
      // without a 64-bit division.
      const uint64_t v = splitmix64_next(rng_);
      r.address = g_.base + (slot_mask_ ? v & slot_mask_ : v % slots_) * g_.size;
      r.data = splitmix64_next(rng_);
      r.op = (r.data >> 11) * 0x1.0p-53 < g_.write_fraction ? Op::kWrite : Op::kRead;
    }
    ++i_;
    next_cycle_ += g_.issue_interval;
  }

 private:
  GeneratorConfig g_;
  uint64_t rng_;
  uint64_t i_ = 0;
  uint64_t next_cycle_;
  uint64_t offset_ = 0;
  double write_credit_ = 0;
  uint64_t slots_;      // random: addresses are base + slot * size
  uint64_t slot_mask_;  // slots_ - 1 when slots_ is a power of two above 1, else 0
};

class MergedWorkload : public RequestSource {
 public:
  explicit MergedWorkload(const std::vector<GeneratorConfig>& generators) {
    for (const auto& g : generators) {
      gens_.emplace_back(g);
      total_ += g.count;
    }
  }
  uint64_t expected_total() const override { return total_; }
  bool next(Request& r) override {
    // Earliest next cycle first; ties go to the generator declared first.
    Generator* best = nullptr;
    for (auto& g : gens_)
      if (!g.done() && (!best || g.next_cycle() < best->next_cycle())) best = &g;
    if (!best) return false;
    best->emit(r);
    r.id = next_id_++;
    return true;
  }

 private:
  std::vector<Generator> gens_;
  uint64_t next_id_ = 0;
  uint64_t total_ = 0;
};

}  // namespace

std::unique_ptr<RequestSource> make_workload(const std::vector<GeneratorConfig>& generators) {
  return std::make_unique<MergedWorkload>(generators);
}

}  // namespace gpumem
