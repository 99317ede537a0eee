// What every bench runs from tb/common: the valid/ready rules of
// protocol_checker.hpp, one sequence of samples per rule (each breaks exactly
// that rule and is reported with the operation, the cycle and the rule; the
// legal sequences beside them pass), and toggle_coverage.hpp.
#include <gtest/gtest.h>

#include <string>

#include "tb/common/protocol_checker.hpp"
#include "tb/common/toggle_coverage.hpp"

namespace gpumem::tb {

// Payloads as the checker needs them: == and describe().
struct Word {
  uint64_t v = 0;
  bool operator==(const Word& o) const { return v == o.v; }
};
std::string describe(const Word& w) { return "word " + std::to_string(w.v); }

namespace {

using Checker = ProtocolChecker<Word, Word>;
using Req = ChannelSample<Word>;
using Rsp = ChannelSample<Word>;

// Request `r` accepted at cycle 1, its response taken at cycle 2: legal.
void one_round_trip(Checker& c, uint64_t& cycle, uint64_t r) {
  ASSERT_TRUE(c.edge(Req{true, true, {r}}, Rsp{}, ++cycle));
  ASSERT_TRUE(c.edge(Req{}, Rsp{true, true, {r + 100}}, ++cycle));
}

std::string rule_of(const Checker& c) { return c.violation() ? c.violation()->rule : "(none)"; }

TEST(ProtocolChecker, LegalTrafficPasses) {
  Checker c("blk", "transaction", 1, 9);
  uint64_t cycle = 0;
  for (uint64_t r = 0; r < 5; ++r) one_round_trip(c, cycle, r);
  // A stalled request held stable, then taken; its response stalled and held, then taken.
  EXPECT_TRUE(c.edge(Req{true, false, {7}}, Rsp{}, ++cycle));
  EXPECT_TRUE(c.edge(Req{true, true, {7}}, Rsp{}, ++cycle));
  EXPECT_TRUE(c.edge(Req{}, Rsp{true, false, {8}}, ++cycle));
  EXPECT_TRUE(c.edge(Req{}, Rsp{true, false, {8}}, ++cycle));
  EXPECT_TRUE(c.edge(Req{}, Rsp{true, true, {8}}, ++cycle));
  // Back to back: a response taken on the edge that accepts the next request.
  EXPECT_TRUE(c.edge(Req{true, true, {1}}, Rsp{}, ++cycle));
  EXPECT_TRUE(c.edge(Req{true, true, {2}}, Rsp{true, true, {11}}, ++cycle));
  EXPECT_TRUE(c.edge(Req{}, Rsp{true, true, {12}}, ++cycle));
  EXPECT_FALSE(c.violation());
}

TEST(ProtocolChecker, ResponseWithdrawnWhileStalled) {
  Checker c("blk", "transaction", 1, 9);
  uint64_t cycle = 0;
  one_round_trip(c, cycle, 1);
  ASSERT_TRUE(c.edge(Req{true, true, {2}}, Rsp{}, ++cycle));
  ASSERT_TRUE(c.edge(Req{}, Rsp{true, false, {102}}, ++cycle));
  EXPECT_FALSE(c.edge(Req{}, Rsp{false, true, {}}, ++cycle));
  ASSERT_TRUE(c.violation());
  EXPECT_EQ(c.violation()->operation, 1u) << "the second transaction's response";
  EXPECT_EQ(c.violation()->cycle, 5u);
  EXPECT_FALSE(c.violation()->hang);
  const std::string r = c.violation()->report();
  for (const char* s : {"blk protocol violation: transaction 1, cycle 5, seed 9", "rule:   response withdrawn while stalled",
                        "held word 102"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
  EXPECT_FALSE(c.edge(Req{}, Rsp{}, ++cycle)) << "nothing is checked after the first violation";
  EXPECT_EQ(c.violation()->cycle, 5u);
}

TEST(ProtocolChecker, ResponseChangedWhileStalled) {
  Checker c("blk", "transaction", 1, 9);
  uint64_t cycle = 0;
  ASSERT_TRUE(c.edge(Req{true, true, {2}}, Rsp{}, ++cycle));
  ASSERT_TRUE(c.edge(Req{}, Rsp{true, false, {102}}, ++cycle));
  EXPECT_FALSE(c.edge(Req{}, Rsp{true, true, {103}}, ++cycle));
  EXPECT_NE(rule_of(c).find("response changed while stalled"), std::string::npos) << rule_of(c);
}

TEST(ProtocolChecker, RequestWithdrawnOrChangedWhileStalled) {
  Checker withdrawn("blk", "transaction", 1, 9), changed("blk", "transaction", 1, 9);
  ASSERT_TRUE(withdrawn.edge(Req{true, false, {4}}, Rsp{}, 1));
  EXPECT_FALSE(withdrawn.edge(Req{}, Rsp{}, 2));
  EXPECT_NE(rule_of(withdrawn).find("request withdrawn while stalled"), std::string::npos) << rule_of(withdrawn);
  ASSERT_TRUE(changed.edge(Req{true, false, {4}}, Rsp{}, 1));
  EXPECT_FALSE(changed.edge(Req{true, true, {5}}, Rsp{}, 2));
  EXPECT_NE(rule_of(changed).find("request changed while stalled"), std::string::npos) << rule_of(changed);
}

TEST(ProtocolChecker, ResponseWithoutARequestAndDuplicate) {
  Checker stray("blk", "operation", 1, 9), twice("blk", "operation", 1, 9);
  EXPECT_FALSE(stray.edge(Req{}, Rsp{true, false, {1}}, 3));
  EXPECT_NE(rule_of(stray).find("response without a request"), std::string::npos) << rule_of(stray);
  EXPECT_NE(stray.violation()->report().find("blk protocol violation: operation 0, cycle 3"), std::string::npos);
  uint64_t cycle = 0;
  one_round_trip(twice, cycle, 1);
  EXPECT_FALSE(twice.edge(Req{}, Rsp{true, true, {101}}, ++cycle));
  EXPECT_NE(rule_of(twice).find("duplicate response"), std::string::npos) << rule_of(twice);
}

TEST(ProtocolChecker, LatencyBeyondTheInterfacesTiming) {
  Checker c("blk", "transaction", 1, 9);
  ASSERT_TRUE(c.edge(Req{true, true, {1}}, Rsp{}, 1));
  EXPECT_FALSE(c.edge(Req{}, Rsp{}, 2)) << "one-cycle interface: the response is due at the next edge";
  EXPECT_NE(rule_of(c).find("latency: no response 1 cycles after"), std::string::npos) << rule_of(c);
  Checker two("blk", "transaction", 2, 9);
  ASSERT_TRUE(two.edge(Req{true, true, {1}}, Rsp{}, 1));
  EXPECT_TRUE(two.edge(Req{}, Rsp{}, 2));
  EXPECT_TRUE(two.edge(Req{}, Rsp{true, true, {101}}, 3));
}

TEST(ProtocolChecker, WatchdogFiresOnlyWhileTheBenchWaits) {
  Checker c("blk", "transaction", 1, 9);
  c.set_hang_cycles(50);
  uint64_t cycle = 0;
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(c.edge(Req{}, Rsp{}, ++cycle)) << "idle is not a hang";
  for (int i = 0; i < 49; ++i) ASSERT_TRUE(c.edge(Req{true, false, {3}}, Rsp{}, ++cycle));
  EXPECT_FALSE(c.edge(Req{true, false, {3}}, Rsp{}, ++cycle)) << "fifty cycles of a request not taken";
  ASSERT_TRUE(c.violation());
  EXPECT_TRUE(c.violation()->hang);
  const std::string r = c.violation()->report();
  for (const char* s : {"blk hang: transaction 0, cycle 550, seed 9", "no handshake for 50 cycles", "req_ready low"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
}

TEST(ProtocolChecker, ResetForgetsWhatWasOutstanding) {
  Checker c("blk", "transaction", 1, 9);
  ASSERT_TRUE(c.edge(Req{true, true, {1}}, Rsp{}, 1));
  ASSERT_TRUE(c.edge(Req{true, false, {2}}, Rsp{true, false, {101}}, 2));
  c.reset();
  EXPECT_TRUE(c.edge(Req{}, Rsp{}, 5)) << "the held response and request are gone with the reset";
  EXPECT_TRUE(c.edge(Req{true, true, {3}}, Rsp{}, 6));
  EXPECT_TRUE(c.edge(Req{}, Rsp{true, true, {103}}, 7));
  EXPECT_FALSE(c.violation());
}

// A bit counts when it was seen rising and falling; a bit stuck at 0 (a
// frame number the stimulus never makes large) is named; fixed bits have no bin.
TEST(ToggleCoverage, ABitCountsWhenSeenBothWays) {
  ToggleCoverage t;
  const size_t frame = t.port("pfn", 6, 0b100000);  // bit 5 fixed by the interface
  const size_t flag = t.port("flag", 1);
  const size_t pins = t.signals("pins", {"valid", "ready"});
  for (uint64_t v : {0b00000u, 0b10111u, 0b00010u, 0b10101u, 0b00000u}) t.sample(frame, v);
  t.sample(flag, 1);  // seen once: no toggle
  for (uint64_t v : {0b00u, 0b11u, 0b10u}) t.sample(pins, v);  // ready rose and never fell
  const std::vector<const CoverageGroup*> g = t.groups();
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0]->name(), "toggle pfn");
  EXPECT_EQ(g[0]->size(), 5u);
  EXPECT_EQ(unhit_bins(g), (std::vector<std::string>{"toggle pfn:[3]", "toggle flag:[0]", "toggle pins:ready"}));
  t.sample(flag, 0);
  t.sample(flag, 1);
  t.sample(pins, 0b00);
  EXPECT_EQ(t.groups()[1], g[1]) << "the groups keep their addresses";
  EXPECT_EQ(unhit_bins(t.groups()), (std::vector<std::string>{"toggle pfn:[3]"}));
}

}  // namespace
// A cross: every combination but those it ignores, named a / b, the last
// dimension fastest; an ignored combination counts in no bin.
TEST(CoverageCross, NamesCountsAndIgnoresCombinations) {
  CoverageGroup c = CoverageGroup::cross("c", {{"x", "y"}, {"0", "1", "2"}},
                                          [](const std::vector<size_t>& i) { return !(i[0] == 1 && i[1] == 2); });
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c.bin_name(0), "x / 0");
  EXPECT_EQ(c.bin_name(2), "x / 2");
  EXPECT_EQ(c.bin_name(4), "y / 1");
  c.hit_cross({1, 1});
  c.hit_cross({1, 2});  // ignored
  c.hit_cross({0, 2});
  EXPECT_EQ(c[4], 1u);
  EXPECT_EQ(c[2], 1u);
  uint64_t total = 0;
  for (size_t b = 0; b < c.size(); ++b) total += c[b];
  EXPECT_EQ(total, 2u);
}

}  // namespace gpumem::tb
