// A channel's queue (channel/channel_queue.hpp) and the ring it counts in
// (base/cycle_changes.hpp): the most accesses in the channel at once and
// their residence, against a recount over every access, with arrivals out
// of order, answers given late and changes far ahead; the mean (residence
// over the span) never above the max.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "base/cycle_changes.hpp"
#include "channel/channel_queue.hpp"

namespace gpumem::test {
namespace {

struct Access {
  uint64_t arrival, finish;
};

// The most accesses in the channel at once: at each cycle one arrives.
unsigned occupancy_max(const std::vector<Access>& all) {
  unsigned most = 0;
  for (const Access& a : all) {
    unsigned n = 0;
    for (const Access& b : all) n += b.arrival <= a.arrival && a.arrival < b.finish;
    most = std::max(most, n);
  }
  return most;
}

void expect_figures(const ChannelQueue& q, const std::vector<Access>& all, const char* what) {
  uint64_t residence = 0, first = ~uint64_t{0}, last = 0;
  for (const Access& a : all) residence += a.finish - a.arrival, first = std::min(first, a.arrival), last = std::max(last, a.finish);
  const ChannelQueueFigures f = q.figures();
  EXPECT_EQ(f.max_depth, occupancy_max(all)) << what;
  EXPECT_EQ(f.residence_cycles, residence) << what;
  if (last > first) {
    EXPECT_LE(double(f.residence_cycles) / double(last - first), double(f.max_depth)) << what;
  }
}

// lt: each access's finish is known as it arrives; arrivals mostly in
// order, now and then one from the past (down to the horizon: a walk's
// read) or far ahead, a posted write in for no cycle, and now and then a
// finish beyond the ring's first length and beyond its bound.
TEST(ChannelQueue, TheMostAtOnceAndTheResidenceAreThoseOfARecountOverEveryAccess) {
  std::mt19937_64 rng(11);
  for (int run = 0; run < 40; ++run) {
    ChannelQueue q;
    std::vector<Access> all;
    uint64_t now = 0, horizon = 0;
    for (int step = 0; step < 400; ++step) {
      const uint64_t r = rng();
      now += (r >> 8) % 4;
      horizon = std::max(horizon, now > 20 ? now - (r >> 12) % 20 : 0);  // issue cycles never decrease
      uint64_t arrival = now;
      if ((r >> 16) % 8 == 0) arrival = horizon + (r >> 20) % (now - horizon + 1);
      if ((r >> 24) % 16 == 0) arrival = now + (r >> 28) % 30;
      uint64_t finish = (r >> 36) % 10 == 0 ? arrival : arrival + 1 + (r >> 40) % 60;
      if ((r >> 48) % 50 == 0) finish = arrival + 2000 + (r >> 52) % 300000;  // beyond 1024 cycles, and beyond 65536
      all.push_back({arrival, finish});
      q.arrive(arrival, finish, horizon);
    }
    expect_figures(q, all, ("run " + std::to_string(run)).c_str());
  }
}

// at: an access is in the queue until the controller answers it, at or
// after the cycle of the answer; answered in any order.
TEST(ChannelQueue, UnansweredAccessesCountUntilTheirFinish) {
  std::mt19937_64 rng(5);
  for (int run = 0; run < 40; ++run) {
    ChannelQueue q;
    std::vector<Access> all;
    std::vector<size_t> open;  // not yet answered
    uint64_t now = 0;
    for (int step = 0; step < 300; ++step) {
      const uint64_t r = rng();
      now += (r >> 8) % 3;
      for (size_t k = 0; k < open.size();) {
        Access& a = all[open[k]];
        if ((r >> (k % 40)) % 5 == 0) {
          a.finish = std::max(a.arrival, now + 1 + (r >> 20) % 40);
          q.answer(a.arrival, a.finish);
          open.erase(open.begin() + static_cast<std::ptrdiff_t>(k));
        } else {
          ++k;
        }
      }
      const uint64_t arrival = (r >> 44) % 8 == 0 ? now + (r >> 48) % 5 : now;  // handed over ahead of its cycle
      q.arrive(arrival, now);
      all.push_back({arrival, arrival});
      if ((r >> 50) % 4 == 0) q.answer(arrival, arrival);  // a posted write: answered as it arrives
      else open.push_back(all.size() - 1);
    }
    for (size_t k : open) {
      all[k].finish = now + 10;
      q.answer(all[k].arrival, all[k].finish);
    }
    expect_figures(q, all, ("run " + std::to_string(run)).c_str());
  }
}

// The seven requests of docs/trace-format.md's example: all at cycle 0,
// one a cycle, so 1 + 2 + ... + 7 cycles of residence and seven at once.
TEST(ChannelQueue, SevenRequestsAtOnceServedOneACycle) {
  ChannelQueue q;
  for (uint64_t i = 0; i < 7; ++i) q.arrive(0, i + 1, 0);
  EXPECT_EQ(q.figures().residence_cycles, 28u);
  EXPECT_EQ(q.figures().max_depth, 7u);
  q.arrive(7, 8, 7);
  EXPECT_EQ(q.figures().max_depth, 7u) << "all seven left by cycle 7";
}

// The ring against a map of the same changes: each cycle's sum visited
// once, in order, whatever order the changes came in and however far
// ahead, within the bound and beyond it.
TEST(CycleChanges, VisitsEachCyclesSumInCycleOrder) {
  std::mt19937_64 rng(2);
  for (const uint64_t max_slots : {uint64_t{1024}, uint64_t{1} << 16}) {
    CycleChanges ring(max_slots);
    std::map<uint64_t, int64_t> expected;
    std::vector<std::pair<uint64_t, int64_t>> got;
    uint64_t bound = 1000003;  // the ring grows with its cycles far from slot 0
    ring.visit_before(bound, [&](uint64_t c, int64_t d) { got.emplace_back(c, d); });
    for (int step = 0; step < 20000; ++step) {
      const uint64_t r = rng();
      const uint64_t ahead = (r >> 8) % 100 == 0 ? (r >> 16) % 500000 : (r >> 16) % 300;
      const int64_t delta = int64_t((r >> 40) % 7) - 3;
      ring.add(bound + ahead, delta);
      expected[bound + ahead] += delta;
      if ((r >> 50) % 4 == 0) {
        bound += (r >> 52) % 200;
        ring.visit_before(bound, [&](uint64_t c, int64_t d) { got.emplace_back(c, d); });
        EXPECT_EQ(ring.bound(), bound);
      }
    }
    ring.visit_before(~uint64_t{0}, [&](uint64_t c, int64_t d) { got.emplace_back(c, d); });
    std::vector<std::pair<uint64_t, int64_t>> want;
    for (const auto& [c, d] : expected) want.emplace_back(c, d);
    // A cycle whose changes cancel may be visited with 0, or not at all.
    got.erase(std::remove_if(got.begin(), got.end(), [](const auto& x) { return x.second == 0; }), got.end());
    want.erase(std::remove_if(want.begin(), want.end(), [](const auto& x) { return x.second == 0; }), want.end());
    EXPECT_EQ(got, want) << "ring of at most " << max_slots;
  }
}

}  // namespace
}  // namespace gpumem::test
