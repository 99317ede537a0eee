// The built-in workload generators (config `workload:`) against their
// definition, written out here once more: each request's cycle, address, op,
// data, task type and process, and the merge (earliest cycle first, ties to
// the generator declared first, ids in issue order).
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "base/bits.hpp"
#include "sources/workload.hpp"

namespace gpumem {
namespace {

GeneratorConfig strided(uint64_t base, uint64_t stride, uint64_t range, uint64_t count, double writes) {
  GeneratorConfig g;
  g.kind = GeneratorConfig::Kind::kStrided;
  g.base = base, g.stride = stride, g.range = range, g.count = count, g.write_fraction = writes;
  return g;
}

GeneratorConfig random_in(uint64_t base, uint64_t slots, unsigned size, uint64_t count, uint64_t seed, double writes) {
  GeneratorConfig g;
  g.kind = GeneratorConfig::Kind::kRandom;
  g.base = base, g.range = slots * size, g.size = size, g.count = count, g.seed = seed, g.write_fraction = writes;
  return g;
}

struct Expected {
  uint64_t cycle;
  size_t generator;
  Request r;
};

// Request i of generator g as the config reference defines it.
std::vector<Expected> definition(const std::vector<GeneratorConfig>& gens) {
  std::vector<Expected> out;
  for (size_t n = 0; n < gens.size(); ++n) {
    const GeneratorConfig& g = gens[n];
    uint64_t rng = g.seed;
    double credit = 0;
    for (uint64_t i = 0; i < g.count; ++i) {
      Request r;
      r.cycle = g.start_cycle + i * g.issue_interval;
      r.task_type = g.task_type, r.process = g.process, r.size = g.size;
      if (g.kind == GeneratorConfig::Kind::kStrided) {
        r.address = g.base + (g.range ? i * g.stride % g.range : i * g.stride);
        credit += g.write_fraction;
        r.op = credit >= 1.0 ? Op::kWrite : Op::kRead;
        if (credit >= 1.0) credit -= 1.0;
        r.data = (i + 1) * 0x9E3779B97F4A7C15ull;
      } else {
        r.address = g.base + splitmix64_next(rng) % (g.range / g.size) * g.size;
        r.data = splitmix64_next(rng);
        r.op = (r.data >> 11) * 0x1.0p-53 < g.write_fraction ? Op::kWrite : Op::kRead;
      }
      out.push_back({r.cycle, n, r});
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Expected& a, const Expected& b) { return std::tie(a.cycle, a.generator) < std::tie(b.cycle, b.generator); });
  for (size_t k = 0; k < out.size(); ++k) out[k].r.id = k;
  return out;
}

TEST(Workload, GeneratorsIssueWhatTheirDefinitionSays) {
  std::vector<GeneratorConfig> gens = {
      strided(0x1000, 192, 0x600, 40, 0.3),     // wraps every 8 requests
      random_in(0x100000, 32, 64, 50, 9, 0.5),      // a power-of-two slot count
      random_in(0x200000, 24, 64, 30, 11, 0.25),   // and one that is not
      random_in(0x300000, 1, 32, 5, 13, 1.0),      // one slot
      strided(0x400000, 64, 0, 12, 0.0),        // never wraps
  };
  gens[0].start_cycle = 5, gens[0].issue_interval = 3, gens[0].task_type = 1;
  gens[1].issue_interval = 2, gens[1].task_type = 2, gens[1].process = 3;
  gens[2].start_cycle = 7;
  gens[3].start_cycle = 5, gens[3].issue_interval = 3;  // ties with gens[0] on every cycle
  gens[4].start_cycle = 100;
  const std::vector<Expected> want = definition(gens);
  auto source = make_workload(gens);
  EXPECT_EQ(source->expected_total(), want.size());
  Request got;
  for (const Expected& e : want) {
    ASSERT_TRUE(source->next(got)) << "request " << e.r.id;
    SCOPED_TRACE("request " + std::to_string(e.r.id) + " of generator " + std::to_string(e.generator));
    EXPECT_EQ(got.id, e.r.id);
    EXPECT_EQ(got.cycle, e.r.cycle);
    EXPECT_EQ(got.address, e.r.address);
    EXPECT_EQ(got.op, e.r.op);
    EXPECT_EQ(got.data, e.r.data);
    EXPECT_EQ(got.size, e.r.size);
    EXPECT_EQ(got.task_type, e.r.task_type);
    EXPECT_EQ(got.process, e.r.process);
  }
  EXPECT_FALSE(source->next(got));
}

}  // namespace
}  // namespace gpumem
