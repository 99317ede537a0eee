#include "frontend/workload.hpp"

#include <queue>
#include <vector>

#include "base/bits.hpp"

namespace gpumem {

namespace {

class Generator {
 public:
  explicit Generator(const GeneratorConfig& g) : g_(g), rng_(g.seed) {}
  bool done() const { return i_ >= g_.count; }
  uint64_t next_cycle() const { return g_.start_cycle + i_ * g_.issue_interval; }
  void emit(Request& r) {
    r.cycle = next_cycle();
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
      const uint64_t slots = g_.range / g_.size;
      r.address = g_.base + (splitmix64_next(rng_) % slots) * g_.size;
      r.data = splitmix64_next(rng_);
      r.op = (r.data >> 11) * 0x1.0p-53 < g_.write_fraction ? Op::kWrite : Op::kRead;
    }
    ++i_;
  }

 private:
  GeneratorConfig g_;
  uint64_t rng_;
  uint64_t i_ = 0;
  uint64_t offset_ = 0;
  double write_credit_ = 0;
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
