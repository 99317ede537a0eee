// The at-mode calendar's order (payload/event_calendar.hpp): within a
// cycle, at()'s actions by rank and key, then the wakers in the order they
// were added; a waker acts once, at the earliest cycle it was woken for.
// One simulation per test, as the other simulation tests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "payload/run_kernel.hpp"
#include "payload/clock.hpp"
#include "payload/event_calendar.hpp"

namespace gpumem::test {
namespace {

TEST(EventCalendar, WakersActOnceAfterTheActionsOfTheirCycleInTheOrderTheyWereAdded) {
  Clock clock(1.0);
  EventCalendar calendar("calendar", clock);
  std::vector<std::string> log;
  const auto note = [&](const std::string& what) { log.push_back(what + "@" + std::to_string(calendar.now())); };
  unsigned a = 0, b = 0;
  bool a_again = true, b_first = true;
  a = calendar.add_waker([&] {
    note("A");
    if (a_again) calendar.wake(a, 8);  // acts again, later
    a_again = false;
  });
  b = calendar.add_waker([&] {
    note("B");
    // Asked for during B's turn at its own cycle, at a lower rank: after B, as it was asked after.
    if (b_first) calendar.at(calendar.now(), 0, 0, [&] { note("y0"); });
    b_first = false;
  });
  run_kernel(sc_core::SC_ZERO_TIME);  // elaborated; the kernel waits at cycle 0
  calendar.wake(b, 9);
  calendar.wake(b, 5);  // earlier: B acts at 5, not at 9
  calendar.wake(b, 7);  // later than it is due: nothing changes
  calendar.wake(a, 5);
  calendar.at(5, 2, 0, [&] { note("x2"); });
  calendar.at(5, 1, 0, [&] { note("x1"); });
  run_kernel();
  ASSERT_FALSE(calendar.failure());
  EXPECT_EQ(log, (std::vector<std::string>{"x1@5", "x2@5", "A@5", "B@5", "y0@5", "A@8"}));
}

TEST(EventCalendar, AWakerThatThrowsStopsTheCalendarWithItsException) {
  Clock clock(1.0);
  EventCalendar calendar("calendar", clock);
  bool later_ran = false;
  const unsigned w = calendar.add_waker([] { throw std::runtime_error("controller failed"); });
  run_kernel(sc_core::SC_ZERO_TIME);
  calendar.wake(w, 3);
  calendar.at(4, 0, 0, [&] { later_ran = true; });
  run_kernel();
  ASSERT_TRUE(calendar.failure());
  EXPECT_THROW(std::rethrow_exception(calendar.failure()), std::runtime_error);
  EXPECT_FALSE(later_ran);
}

}  // namespace
}  // namespace gpumem::test
