// Channel timing: one access per service_cycles slot, reserved by arrival
// cycle. Walk reads reach a channel before the next request's earlier
// accesses; those must be served in the gaps, not queued behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "channel/channel_model.hpp"

namespace gpumem::test {
namespace {

ChannelParams simple(unsigned service_cycles) {
  ChannelParams p;
  p.service_cycles = service_cycles;
  return p;
}

TEST(ChannelModel, InOrderArrivalsStartAtMaxOfArrivalAndBusyUntil) {
  ChannelModel ch(simple(3));
  const auto a = ch.access(0, 0, 0, false), b = ch.access(0, 0, 0, false), c = ch.access(10, 0, 0, false);
  EXPECT_EQ(a.start, 0u);
  EXPECT_EQ(b.start, 3u);
  EXPECT_EQ(c.start, 10u) << "the first two finished at 3 and 6";
  EXPECT_EQ(ch.accesses(), 3u);
}

TEST(ChannelModel, EarlierArrivalTakesTheGapBeforeLaterReservations) {
  ChannelModel ch(simple(2));
  // One request's walk: reads at 1, 5, 9, data at 13.
  for (uint64_t t : {1, 5, 9, 13}) EXPECT_EQ(ch.access(t, 0, 0, false).start, t);
  // The next request's root read arrives at 1: 1-3 is taken, 3-5 is free.
  EXPECT_EQ(ch.access(1, 0, 0, false).start, 3u);
  // Another arrival at 2: 3-5 now taken, 5-7 taken, 7-9 free.
  const auto s = ch.access(2, 0, 0, false);
  EXPECT_EQ(s.start, 7u);
  EXPECT_EQ(s.finish, 9u);
  // A slot too short for the service is skipped: 11-13 fits, nothing before it.
  EXPECT_EQ(ch.schedule(8, 0).start, 11u);
  EXPECT_EQ(ch.schedule(0, 0).start, 15u) << "every earlier gap is taken";
}

TEST(ChannelModel, ReservationsBeforeTheHorizonAreForgotten) {
  ChannelModel ch(simple(4));
  // Back to back, each call's horizon its own arrival: only the access still
  // in service is held, so the ring stays at one reservation, not a thousand.
  for (uint64_t t = 0; t < 1000; ++t) {
    ch.schedule(t * 4, t * 4);
    ASSERT_EQ(ch.reservations_held(), 1u) << "at cycle " << t * 4;
  }
  // Everything ended by the horizon: forgotten, and a late arrival starts on arrival.
  EXPECT_EQ(ch.schedule(5000, 4000).start, 5000u);
  EXPECT_EQ(ch.reservations_held(), 1u);
  // A horizon that has not passed them keeps them: the walk's out-of-order
  // arrival must still see the reservations it could collide with.
  ChannelModel held(simple(4));
  for (uint64_t t = 0; t < 10; ++t) held.schedule(t * 4, 0);
  EXPECT_EQ(held.reservations_held(), 10u);
  EXPECT_EQ(held.schedule(2, 0).start, 40u);  // every slot from 0 to 40 is taken
}

// The schedule keeps where the gapless tail starts so an in-order arrival
// is not a walk over the reservations; against the plain walk over a sorted list, on arrivals
// mostly in order, some out of order (walk reads), with gaps and a horizon.
TEST(ChannelModel, SlotsAreThoseOfAWalkOverEveryReservation) {
  struct Held {
    uint64_t start, finish;
  };
  std::mt19937_64 rng(3);
  for (const unsigned service : {1u, 2u, 4u, 7u}) {
    ChannelModel ch(simple(service));
    std::vector<Held> held;
    uint64_t now = 0, horizon = 0;
    for (int step = 0; step < 40000; ++step) {
      const uint64_t r = rng();
      now += (r >> 8) % (3 * service);  // about two thirds busy, in bursts
      horizon = std::max(horizon, now > 40 ? now - (r >> 16) % 40 : 0);  // issue cycles never decrease
      const uint64_t arrival = (r >> 24) % 16 == 0 ? now + (r >> 32) % 64 : now;  // a walk's later read
      const uint64_t back = (r >> 40) % 32 == 0 && arrival > 30 ? (r >> 48) % 30 : 0;
      const uint64_t at = std::max(arrival - back, horizon);
      held.erase(held.begin(), std::find_if(held.begin(), held.end(), [&](const Held& h) { return h.finish > horizon; }));
      uint64_t start = at;
      size_t k = 0;
      while (k < held.size() && held[k].finish <= at) ++k;
      while (k < held.size() && start + service > held[k].start) start = held[k++].finish;
      held.insert(held.begin() + static_cast<std::ptrdiff_t>(k), Held{start, start + service});
      const ChannelModel::Slot got = ch.access(at, horizon, 0, false);
      ASSERT_EQ(got.start, start) << "service " << service << ", step " << step;
      ASSERT_EQ(ch.reservations_held(), held.size());
    }
  }
}

}  // namespace
TEST(ChannelModel, LatencyCyclesDelayCompletionsWithoutHoldingTheChannel) {
  ChannelParams p = simple(2);
  p.latency_cycles = 10;
  ChannelModel ch(p);
  const auto a = ch.access(0, 0, 0, false), b = ch.access(0, 0, 64, true);
  EXPECT_EQ(a.finish, 12u);
  EXPECT_EQ(b.start, 2u) << "the second access is served when the first's slot ends, not its latency";
  EXPECT_EQ(b.finish, 14u);
}

TEST(ChannelModel, TheDramModelAddsTheSameLatency) {
  ChannelParams p;
  p.model = MemoryModel::kDram;
  p.dram.spec = *dram_preset("hbm2");
  p.dram.cycle_ps = p.dram.spec.tck_ps;
  ChannelModel plain(p);
  p.latency_cycles = 7;
  ChannelModel later(p);
  const auto a = plain.access(0, 0, 0, false), b = later.access(0, 0, 0, false);
  EXPECT_EQ(a.finish, 14u + 14 + 2) << "a closed bank: tRCD + CL + tBL";
  EXPECT_EQ(b.finish, a.finish + 7);
  EXPECT_EQ(b.row, RowResult::kMiss);
  EXPECT_EQ(later.accesses(), 1u);
}

// A request wider than one access takes one for each burst it covers,
// queued from its arrival (docs/memory.md, "Address split"); a simple
// channel serves any request as one.
TEST(ChannelModel, ADramRequestTakesAnAccessForEachBurstItCovers) {
  ChannelParams p;
  p.model = MemoryModel::kDram;
  p.dram.spec = *dram_preset("gddr6");  // 32-byte accesses
  p.dram.cycle_ps = p.dram.spec.tck_ps;
  ChannelModel ch(p);
  EXPECT_EQ(ch.accesses_of(0, 32), 1u);
  EXPECT_EQ(ch.accesses_of(0, 128), 4u);
  EXPECT_EQ(ch.accesses_of(16, 32), 2u) << "across a burst's edge";
  EXPECT_EQ(ch.access_address(16, 0), 16u);
  EXPECT_EQ(ch.access_address(16, 1), 32u);
  const auto line = ch.request(0, 0, 0, 128, false);
  EXPECT_EQ(ch.accesses(), 4u);
  ChannelModel one(p);
  const auto burst = one.request(0, 0, 0, 32, false);
  EXPECT_EQ(line.start, burst.start);
  EXPECT_GE(line.finish, burst.finish + 3 * p.dram.spec.timing.tBL) << "three more bursts on the data bus";
  EXPECT_EQ(ChannelModel(simple(2)).accesses_of(0, 128), 1u);
}

}  // namespace gpumem::test
