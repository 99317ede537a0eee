// The pin-level co-simulation of rtl/gpumem_xor_translator.sv (the --sc
// model under an sc_clock) against gpumem::XorTranslator, and its
// equivalence with the fast mode: one seed, the same run. Every test
// elaborates SystemC, so each runs in a process of its own.
#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>

#include "cosim_test_helpers.hpp"
#include "pin_cosim_cases.hpp"
#include "tb/translator/translator_cosim.hpp"
#include "tb/translator/translator_pin_cosim.hpp"

namespace gpumem::tb {
namespace {

// What a run leaves in the scoreboard, for comparing two runs whole.
struct Summary {
  uint64_t compared, cycles, mismatches;
  std::string coverage;  // every bin of every group
  bool operator==(const Summary& o) const {
    return compared == o.compared && cycles == o.cycles && mismatches == o.mismatches && coverage == o.coverage;
  }
};

Summary summary(const TranslatorScoreboard& sb, uint64_t cycles) {
  return {sb.compared(), cycles, sb.mismatches(), coverage_text(sb.coverage().groups())};
}

std::ostream& operator<<(std::ostream& os, const Summary& s) {
  return os << s.compared << " compared in " << s.cycles << " cycles, " << s.mismatches << " mismatches\n" << s.coverage;
}

TEST(TranslatorPinCosim, GeometryEqualsTheFastModels) {
  const RtlTranslatorGeometry pin = rtl_translator_pin_geometry(), fast = rtl_translator_geometry();
  EXPECT_EQ(pin.address_bits, fast.address_bits);
  EXPECT_EQ(pin.channel_bits, fast.channel_bits);
  EXPECT_EQ(pin.candidate_bits, fast.candidate_bits);
  EXPECT_EQ(pin.prime, fast.prime);
}

TEST(TranslatorPinCosim, HundredThousandRandomTransactions) {
  TranslatorPinCosim cosim(default_config(), 20240604);
  TranslatorRandomRun run;
  run.transactions = 100'000;
  const bool ok = cosim.run_random(run);
  const TranslatorScoreboard& sb = cosim.scoreboard();
  ASSERT_TRUE(ok) << sb.first_mismatch()->report();
  EXPECT_EQ(sb.compared(), run.transactions);
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_TRUE(every_bin_hit(sb.coverage().groups()));
}

// One seed, one run: the pin-level bench sees the fast mode's transactions
// in the fast mode's cycles (back-pressure and same-edge register writes
// included), so its handshakes resolve at the same edges. The fast model is
// destroyed before the SystemC one exists (Verilator's one-model-at-a-time).
TEST(TranslatorPinCosim, SameSeedSameRunAsFastMode) {
  const Config cfg = default_config();
  TranslatorRandomRun run;
  run.transactions = 50'000;
  run.stop_at_first_mismatch = false;
  Summary fast{};
  {
    TranslatorCosim cosim(cfg, 77);
    cosim.reset();
    ASSERT_TRUE(cosim.run_random(run));
    fast = summary(cosim.scoreboard(), cosim.cycles());
  }
  TranslatorPinCosim cosim(cfg, 77);
  cosim.reset();
  ASSERT_TRUE(cosim.run_random(run));
  const Summary pin = summary(cosim.scoreboard(), cosim.cycles());
  EXPECT_EQ(pin, fast) << "pin:  " << pin << "\nfast: " << fast;
  EXPECT_GT(pin.cycles, pin.compared) << "back-pressure and idle cycles expected";
}

TEST(TranslatorPinCosim, WavesFromTheSystemCSide) { waves_from_the_systemc_side<TranslatorBlock>(); }

TEST(TranslatorPinCosim, MismatchArtifactsFromAFastReRunBesideTheBench) { mismatch_artifacts_from_a_fast_rerun_beside_the_bench<TranslatorBlock>(); }

TEST(TranslatorPinCosim, OneRunPerProcess) { one_run_per_process<TranslatorBlock>(); }

TEST(TranslatorPinCosim, RefusesAGeometryTheRtlWasNotBuiltFor) {
  Config cfg = default_config();
  cfg.translator.channel_bits = {7, 8, 9, 10};
  try {
    TranslatorPinCosim cosim(cfg, 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("RTL CHANNEL_BITS = [8, 9, 10, 11]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpumem::tb
