// The pin-level co-simulation of rtl/gpumem_nested_tlb.sv (the --sc model
// under an sc_clock) against gpumem::Tlb, and its equivalence with the fast
// mode: one seed, the same run. Every test elaborates SystemC, so each runs
// in a process of its own.
#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>
#include <vector>

#include "cosim_test_helpers.hpp"
#include "pin_cosim_cases.hpp"
#include "tb/tlb/tlb_cosim.hpp"
#include "tb/tlb/tlb_pin_cosim.hpp"

namespace gpumem::tb {
namespace {

// What a run leaves behind, for comparing two runs whole.
struct Summary {
  uint64_t compared, cycles, mismatches, translations, faults, walks, image_switches, flushes;
  std::string coverage;  // every bin of every group
  bool operator==(const Summary& o) const {
    return compared == o.compared && cycles == o.cycles && mismatches == o.mismatches &&
           translations == o.translations && faults == o.faults && walks == o.walks &&
           image_switches == o.image_switches && flushes == o.flushes && coverage == o.coverage;
  }
};

template <typename Cosim>
Summary summary(const Cosim& c) {
  const TlbScoreboard& sb = c.scoreboard();
  return {sb.compared(), c.cycles(),                sb.mismatches(), c.transactions(), c.counts().faults,
          c.counts().walks, c.counts().image_switches, sb.flushes(),    coverage_text(sb.coverage().groups())};
}

std::ostream& operator<<(std::ostream& os, const Summary& s) {
  return os << s.compared << " compared in " << s.cycles << " cycles, " << s.mismatches << " mismatches, "
            << s.translations << " translations (" << s.faults << " faulted, " << s.walks << " walks), flushes "
            << s.flushes << "/" << s.image_switches << "\n"
            << s.coverage;
}

TEST(TlbPinCosim, GeometryEqualsTheFastModels) {
  const auto& pin = rtl_tlb_pin_variants();
  const auto& fast = rtl_tlb_variants();
  ASSERT_EQ(pin.size(), fast.size());
  for (size_t i = 0; i < pin.size(); ++i) {
    EXPECT_EQ(pin[i].variant, fast[i].variant);
    EXPECT_EQ(pin[i].va_bits, fast[i].va_bits);
    EXPECT_EQ(pin[i].small_bits, fast[i].small_bits);
    EXPECT_EQ(pin[i].large_bits, fast[i].large_bits);
    EXPECT_EQ(pin[i].entries, fast[i].entries);
    EXPECT_EQ(pin[i].ways, fast[i].ways);
    EXPECT_EQ(pin[i].plru, fast[i].plru);
    EXPECT_EQ(pin[i].nested_tail, fast[i].nested_tail);
  }
}

TEST(TlbPinCosim, FiftyThousandRandomTranslations) {
  TlbPinCosim cosim(default_config(), 20240607);
  TlbRandomRun run;
  run.transactions = 50'000;
  const bool ok = cosim.run_random(run);
  const TlbScoreboard& sb = cosim.scoreboard();
  ASSERT_TRUE(ok) << sb.first_mismatch()->report();
  EXPECT_EQ(cosim.geometry().variant, "plru");
  EXPECT_EQ(cosim.transactions(), run.transactions);
  EXPECT_EQ(sb.mismatches(), 0u);
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_GT(sb.compared(), run.transactions) << "fills and retries are operations too";
  const auto& c = sb.coverage();
  EXPECT_TRUE(every_bin_hit({&c.lookup, &c.fill, &c.evicted_way, &c.flush, &c.back_pressure}));
  EXPECT_GT(cosim.counts().image_switches, 0u);
}

// One seed, one run: the pin-level bench sees the fast mode's operations in
// the fast mode's cycles (back-pressure, flushes and the stimulus's reads of
// the model TLB included), so every count agrees. The fast model is destroyed
// before the SystemC one exists (Verilator's one-model-at-a-time).
void same_run_in_both_modes(const Config& cfg, uint64_t seed) {
  TlbRandomRun run;
  run.transactions = 30'000;
  run.stop_at_first_mismatch = false;
  Summary fast{};
  {
    TlbCosim cosim(cfg, seed);
    ASSERT_TRUE(cosim.run_random(run));
    fast = summary(cosim);
  }
  TlbPinCosim cosim(cfg, seed);
  ASSERT_TRUE(cosim.run_random(run));
  const Summary pin = summary(cosim);
  EXPECT_EQ(pin, fast) << "pin:  " << pin << "\nfast: " << fast;
  EXPECT_GT(pin.cycles, pin.compared) << "back-pressure and idle cycles expected";
}

TEST(TlbPinCosim, SameSeedSameRunAsFastMode) { same_run_in_both_modes(default_config(), 77); }
TEST(TlbPinCosim, SameSeedSameRunAsFastModeOnTheLruVariant) { same_run_in_both_modes(lru_config(), 78); }

// Two more reset cycles on both sides: still the same cycle numbers.
TEST(TlbPinCosim, ResetAddsTheSameCyclesAsFastMode) {
  const Config cfg = default_config();
  TlbRandomRun run;
  run.transactions = 2000;
  uint64_t fast_cycles = 0;
  {
    TlbCosim cosim(cfg, 3);
    cosim.reset();
    ASSERT_TRUE(cosim.run_random(run));
    fast_cycles = cosim.cycles();
  }
  TlbPinCosim cosim(cfg, 3);
  cosim.reset();
  ASSERT_TRUE(cosim.run_random(run));
  EXPECT_EQ(cosim.cycles(), fast_cycles);
}

TEST(TlbPinCosim, WavesFromTheSystemCSide) { waves_from_the_systemc_side<TlbBlock>(); }

TEST(TlbPinCosim, MismatchArtifactsFromAFastReRunBesideTheBench) { mismatch_artifacts_from_a_fast_rerun_beside_the_bench<TlbBlock>(); }

TEST(TlbPinCosim, OneRunPerProcess) { one_run_per_process<TlbBlock>(); }

TEST(TlbPinCosim, RefusesAGeometryTheRtlWasNotBuiltFor) {
  Config cfg = default_config();
  cfg.mmu.tlb.entries = 32;
  try {
    TlbPinCosim cosim(cfg, 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("entries: config mmu.tlb.entries = 32, RTL ENTRIES = 64"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpumem::tb
