// The progress line of a long run on a terminal (base/progress_line.hpp): what
// it says with a known total, with the share of a trace read, and with
// neither.
#include <gtest/gtest.h>

#include "base/progress_line.hpp"

namespace gpumem::test {
namespace {

TEST(ProgressText, AKnownTotalGivesItsShareAndAnEta) {
  EXPECT_EQ(progress_text("requests", 250000, 1000000, -1, 2.0), "250000 / 1000000 requests (25 %), 0.12 M/s, ETA 6 s");
  EXPECT_EQ(progress_text("transactions", 500000, 1000000, 0.9, 1.0),
            "500000 / 1000000 transactions (50 %), 0.50 M/s, ETA 1 s")
      << "the total, not the share read, when both are known";
}

TEST(ProgressText, AShareOfTheTraceReadGivesAnEtaFromIt) {
  EXPECT_EQ(progress_text("requests", 3000000, 0, 0.75, 3.0), "3000000 requests, 75 % of the trace read, 1.00 M/s, ETA 1 s");
}

// A per-thread trace is read a thread block at a time: 99 % read can be
// half the requests done, so its share read gives no ETA.
TEST(ProgressText, AShareReadFarAheadGivesNoEta) {
  EXPECT_EQ(progress_text("requests", 786432, 0, 0.99, 0.5, true), "786432 requests, 99 % of the trace read, 1.57 M/s");
  EXPECT_EQ(progress_text("requests", 100, 400, 0.99, 1.0, true), "100 / 400 requests (25 %), 0.00 M/s, ETA 3 s")
      << "a known total still gives one";
}

TEST(ProgressText, NeitherGivesTheCountAndRateOnly) {
  EXPECT_EQ(progress_text("requests", 131072, 0, -1, 0.5), "131072 requests, 0.26 M/s");
}

TEST(ProgressText, NoEtaAtTheEndOrPastIt) {
  EXPECT_EQ(progress_text("requests", 100, 0, 1.0, 1.0), "100 requests, 100 % of the trace read, 0.00 M/s");
  EXPECT_EQ(progress_text("requests", 120, 100, -1, 1.0), "120 / 100 requests (100 %), 0.00 M/s");
}

}  // namespace
}  // namespace gpumem::test
