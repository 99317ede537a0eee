// Through the whole model: every read returns the last value
// written to its address (tests/system_case.hpp says exactly what "last"
// means with L1s that are not coherent within a kernel), on random accepted
// configs and random per-thread traces, each case in a process of its own.
// RapidCheck shrinks a failure to a minimal config and trace, printed whole.
//
// The bounded run is in the default suite; the soak (label soak) runs the
// same property with larger traces until GPUMEM_SOAK_REQUESTS requests
// (10 million by default) have been checked.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <random>

#include "random_config.hpp"
#include "system_case_runner.hpp"

namespace gpumem::test {

// RapidCheck picks every choice, so it can shrink each one (towards lo),
// uniformly: RapidCheck's size bounds the trace only (draw_system_case's
// scale), so 64 channels come up as early as 1.
class RcChooser : public Chooser {
 public:
  unsigned pick(unsigned lo, unsigned hi) override { return lo == hi ? lo : uniform<unsigned>(lo, hi + 1); }
};

class SeededChooser : public Chooser {
 public:
  explicit SeededChooser(uint64_t seed) : rng_(seed) {}
  unsigned pick(unsigned lo, unsigned hi) override { return std::uniform_int_distribution<unsigned>(lo, hi)(rng_); }

 private:
  std::mt19937_64 rng_;
};

}  // namespace gpumem::test

namespace rc {

template <>
struct Arbitrary<gpumem::test::SystemCase> {
  static Gen<gpumem::test::SystemCase> arbitrary() {
    return gen::withSize([](int size) {
      return gen::exec([size] {
        gpumem::test::RcChooser ch;
        return gpumem::test::draw_system_case(ch, static_cast<unsigned>(size));
      });
    });
  }
};

}  // namespace rc

namespace gpumem::test {

void showValue(const SystemCase& c, std::ostream& os) {
  os << "\n--- " << c.summary << "\n--- case.yaml\n" << c.config << "--- case.csv\n" << c.trace;
}

namespace {

std::string explain(const CaseOutcome& o) {
  if (!o.ran) return o.error;
  return std::to_string(o.mismatches) + " stale bytes; first: " + o.first_mismatch;
}

RC_GTEST_PROP(SystemReadAfterWrite, EveryReadReturnsTheLastWrite, (const SystemCase& c)) {
  const CaseOutcome o = run_system_case(c);
  if (!o.ran || o.mismatches != 0) RC_FAIL(explain(o));
  RC_TAG(c.summary.substr(0, c.summary.find(' ')));
  RC_CLASSIFY(o.racy_bytes > 0, "racy bytes");
}

// The same in simulation.timing: at, where the DRAM reorders requests
// among those queued and the SMs issue as the memory's answers come.
RC_GTEST_PROP(SystemReadAfterWrite, EveryReadReturnsTheLastWriteApproximatelyTimed, ()) {
  const SystemCase c = *rc::gen::withSize([](int size) {
    return rc::gen::exec([size] {
      RcChooser ch;
      return draw_system_case(ch, static_cast<unsigned>(size), true);
    });
  });
  const CaseOutcome o = run_system_case(c);
  if (!o.ran || o.mismatches != 0) RC_FAIL(explain(o) + "\n" + c.config + c.trace);
  RC_TAG(c.summary.substr(0, c.summary.find(' ')));
}

// The property must see reads of written data, or it proves nothing.
TEST(SystemReadAfterWrite, CasesReadBackWrittenData) {
  uint64_t strict = 0, reads = 0, cases_with_reads = 0, dram_cases_with_reads = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SeededChooser ch(seed);
    const SystemCase c = draw_system_case(ch, 60);
    const CaseOutcome o = run_system_case(c);
    ASSERT_TRUE(o.ran && o.mismatches == 0) << explain(o) << "\n" << c.config << c.trace;
    strict += o.strict_bytes;
    reads += o.reads;
    cases_with_reads += o.reads > 0;
    dram_cases_with_reads += o.reads > 0 && c.summary.find("dram:") != std::string::npos;
  }
  EXPECT_GT(cases_with_reads, 15u);
  EXPECT_GE(dram_cases_with_reads, 5u) << "the DRAM's reordering must be checked too";
  EXPECT_GT(strict, 10000u) << "bytes checked against one exact value";
  EXPECT_GT(reads, 500u);
}

TEST(SystemReadAfterWrite, ApproximatelyTimedCasesReadBackWrittenData) {
  uint64_t strict = 0, dram_cases_with_reads = 0, strided = 0, gto = 0, l1 = 0, on_fill = 0, mmu = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SeededChooser ch(seed);
    const SystemCase c = draw_system_case(ch, 60, true);
    const CaseOutcome o = run_system_case(c);
    ASSERT_TRUE(o.ran && o.mismatches == 0) << explain(o) << "\n" << c.config << c.trace;
    strict += o.strict_bytes;
    dram_cases_with_reads += o.reads > 0 && c.summary.find("dram:") != std::string::npos;
    strided += c.summary.find("strided") != std::string::npos;
    gto += c.config.find("scheduler: gto") != std::string::npos;
    l1 += c.summary.find(" l1:") != std::string::npos;
    on_fill += c.summary.find("+onfill") != std::string::npos;
    mmu += c.summary.find(" mmu:") != std::string::npos;
  }
  EXPECT_GE(dram_cases_with_reads, 3u) << "the controller's reordering must be checked";
  EXPECT_GE(strided, 3u);
  EXPECT_GE(gto, 3u);
  EXPECT_GE(l1, 5u);
  EXPECT_GE(on_fill, 2u);
  EXPECT_GE(mmu, 4u);
  EXPECT_GT(strict, 5000u) << "bytes checked against one exact value";
}

// Label soak: GPUMEM_SOAK_REQUESTS requests (default 10 million) of seeded
// cases with larger traces; stops at the first stale byte with its case.
TEST(SystemReadAfterWriteSoak, TenMillionRequests) {
  const char* env = std::getenv("GPUMEM_SOAK_REQUESTS");
  if (!env) GTEST_SKIP() << "runs under ctest -L soak (GPUMEM_SOAK_REQUESTS)";
  const uint64_t target = std::strtoull(env, nullptr, 10);
  const char* seed_env = std::getenv("GPUMEM_SOAK_SEED");
  uint64_t seed = seed_env ? std::strtoull(seed_env, nullptr, 10) : 1;
  uint64_t requests = 0, cases = 0, strict = 0;
  while (requests < target) {
    SeededChooser ch(seed);
    const SystemCase c = draw_system_case(ch, 400);
    const CaseOutcome o = run_system_case(c, 600);
    ASSERT_TRUE(o.ran && o.mismatches == 0) << "seed " << seed << ": " << explain(o) << "\n" << c.config << c.trace;
    requests += o.requests;
    strict += o.strict_bytes;
    ++cases;
    ++seed;
  }
  std::printf("soak: %llu cases, %llu requests, %llu bytes checked exactly\n", (unsigned long long)cases,
              (unsigned long long)requests, (unsigned long long)strict);
}

}  // namespace
}  // namespace gpumem::test
