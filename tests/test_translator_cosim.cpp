// Co-simulation of rtl/gpumem_xor_translator.sv (Verilated, clocked from C++)
// against gpumem::XorTranslator: geometry, directed cases, and one million
// seeded random transactions with register rewrites and back-pressure.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <stdexcept>

#include "base/user_paths.hpp"
#include "cosim_test_helpers.hpp"
#include "wave_layout.hpp"
#include "regs/register_map.hpp"
#include "tb/translator/translator_cosim.hpp"

namespace gpumem::tb {
namespace {

// What the built-in RTL's scoreboard is built with for configs/default.yaml.
TranslatorBenchParams default_bench_params() { return translator_bench_params(default_config(), rtl_translator_geometry()); }

uint32_t xor_vector(unsigned t, unsigned j) { return kRegXorVector + 4 * (t * kMaxChannelBits + j); }
uint32_t task_scheme(unsigned t) { return kRegTaskScheme + 4 * t; }

unsigned channel_field(uint64_t a) { return static_cast<unsigned>((a >> 8) & 0xF); }  // bits 8..11

class TranslatorCosimTest : public ::testing::Test {
 protected:
  void TearDown() override {
    const auto& sb = cosim.scoreboard();
    EXPECT_EQ(sb.mismatches(), 0u) << (sb.first_mismatch() ? sb.first_mismatch()->report() : "");
    EXPECT_FALSE(cosim.assertion_failed()) << "an RTL assertion failed (Verilator's message is in the output)";
  }
  Config cfg = default_config();
  TranslatorCosim cosim{cfg, 1};
};

TEST(TranslatorCosim, GeometryEqualsDefaultConfig) {
  const std::string d = translator_geometry_difference(default_config(), rtl_translator_geometry());
  EXPECT_TRUE(d.empty()) << "configs/default.yaml and the verilated translator differ:\n" << d;
}

TEST(TranslatorCosim, GeometryDifferenceNamesBoth) {
  RtlTranslatorGeometry rtl = rtl_translator_geometry();
  rtl.channel_bits = {7, 8, 9, 10};
  const std::string d = translator_geometry_difference(default_config(), rtl);
  EXPECT_NE(d.find("translator.channel_bits = [8, 9, 10, 11]"), std::string::npos) << d;
  EXPECT_NE(d.find("RTL CHANNEL_BITS = [7, 8, 9, 10]"), std::string::npos) << d;
}

TEST_F(TranslatorCosimTest, ResetIsIdentity) {
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    const TranslatorResponse r = cosim.request(0xAB'CDEF'1234 + t, t);
    EXPECT_EQ(r.mapped, 0xAB'CDEF'1234u + t);
    EXPECT_EQ(r.scheme, 0u);
  }
}

TEST_F(TranslatorCosimTest, EverySchemeForEveryTaskType) {
  const uint64_t addresses[] = {0x0, 0x1000, 0xF'FFFF'FFFF, 0x12'3456'7A00, 0xFF'FFFF'F0FF, 0x5'5555'5555};
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    for (unsigned j = 0; j < 4; ++j) ASSERT_EQ(cosim.write_register(xor_vector(t, j), (0x11u << j) ^ (t * 0x25u)), RegStatus::kOk);
    for (unsigned s = 0; s < 3; ++s) {
      ASSERT_EQ(cosim.write_register(task_scheme(t), s), RegStatus::kOk);
      for (uint64_t a : addresses) {
        const TranslatorResponse r = cosim.request(a, t);
        EXPECT_EQ(r.scheme, s);
        EXPECT_EQ(r.channel, channel_field(r.mapped));
        EXPECT_EQ(r.mapped & ~uint64_t{0xF00}, a & ~uint64_t{0xF00}) << "only channel bits may change";
        if (s == 0) {
          EXPECT_EQ(r.mapped, a);
        } else if (s == 2) {
          EXPECT_EQ(r.channel, channel_field(a) * 7 % 16);
        }
      }
    }
  }
  // A hand-computed xor case: task 1's vectors from default.yaml, candidate bit
  // p_0 = 12 set selects channel bit c_0 = 8 (vector 0x11, bit 0).
  const uint32_t vectors[] = {0x11, 0x22, 0x44, 0x88};
  for (unsigned j = 0; j < 4; ++j) cosim.write_register(xor_vector(1, j), vectors[j]);
  cosim.write_register(task_scheme(1), 1);
  EXPECT_EQ(cosim.request(0x1000, 1).mapped, 0x1100u);
  EXPECT_EQ(cosim.request(0x10000, 1).mapped, 0x10100u);  // p_4 = 16, vector bit 4 of a[1][0]
  EXPECT_EQ(cosim.request(0x3000, 1).channel, 0x3u);
}

TEST_F(TranslatorCosimTest, InterleaveDisableIsIdentityForEveryTaskType) {
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    cosim.write_register(xor_vector(t, 0), 0xFF);
    cosim.write_register(task_scheme(t), 1 + t % 2);
  }
  ASSERT_EQ(cosim.write_register(kRegCtrl, 0), RegStatus::kOk);
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    const TranslatorResponse r = cosim.request(0x7'F123'4500, t);
    EXPECT_EQ(r.mapped, 0x7'F123'4500u);
    EXPECT_EQ(r.scheme, 0u);
  }
  ASSERT_EQ(cosim.write_register(kRegCtrl, kCtrlInterleaveEnable), RegStatus::kOk);
  EXPECT_EQ(cosim.request(0x7'F123'4500, 0).scheme, 1u);
  EXPECT_EQ(cosim.request(0x7'F123'4500, 1).scheme, 2u);
}

TEST_F(TranslatorCosimTest, VectorRewriteTakesEffectOnTheNextRequest) {
  cosim.write_register(task_scheme(3), 1);
  cosim.write_register(xor_vector(3, 0), 0x1);
  EXPECT_EQ(cosim.request(0x1000, 3).mapped, 0x1100u);
  cosim.write_register(xor_vector(3, 0), 0x0);
  EXPECT_EQ(cosim.request(0x1000, 3).mapped, 0x1000u);

  // Same edge: the request accepted with the write still sees the old vector.
  TranslatorPins p;
  p.req_valid = true;
  p.req_addr = 0x1000;
  p.req_task_type = 3;
  p.reg_we = true;
  p.reg_addr = xor_vector(3, 0);
  p.reg_wdata = 0x1;
  ASSERT_TRUE(cosim.cycle(p).req_accepted);
  p.reg_we = false;  // the next request, back to back, sees the new vector
  TranslatorEdge e = cosim.cycle(p);
  ASSERT_TRUE(e.req_accepted && e.rsp_taken);
  EXPECT_EQ(e.rsp.mapped, 0x1000u);
  p.req_valid = false;
  e = cosim.cycle(p);
  ASSERT_TRUE(e.rsp_taken);
  EXPECT_EQ(e.rsp.mapped, 0x1100u);
}

TEST_F(TranslatorCosimTest, RejectedWritesChangeNothing) {
  cosim.write_register(task_scheme(2), 1);
  EXPECT_EQ(cosim.write_register(task_scheme(2), 3), RegStatus::kBadValue);
  EXPECT_EQ(cosim.request(0x1234, 2).scheme, 1u);
  EXPECT_EQ(cosim.write_register(kRegCtrl, kCtrlTranslatorPosition), RegStatus::kBadValue);
  EXPECT_EQ(cosim.request(0x1234, 2).scheme, 1u);                                  // interleave still on
  EXPECT_EQ(cosim.write_register(xor_vector(2, 4), 0xFF), RegStatus::kUnmapped);  // j >= M
  EXPECT_EQ(cosim.write_register(xor_vector(2, 0) + 1, 0xFF), RegStatus::kMisaligned);
  EXPECT_EQ(cosim.request(0xFF000, 2).mapped, 0xFF000u);
  EXPECT_EQ(cosim.write_register(xor_vector(2, 0), 0xFFFF'FF00), RegStatus::kOk);  // bits >= K dropped
  EXPECT_EQ(cosim.request(0xFF000, 2).mapped, 0xFF000u);
}

// After a refused write the scoreboard reads back every register the RTL
// holds and the committed rows (the debug window), the rows j = m and the
// refused word, which must read 0; a read that differs from the model is a
// mismatch at that write, naming the register on both sides.
TEST(TranslatorCosim, AStateCheckAfterARefusedWriteCatchesAChangedRegister) {
  TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
  for (unsigned j = 0; j < 4; ++j)  // staged, not committed
    ASSERT_EQ(sb.register_written(kRegMatrixRowLo + 4 * (2 * kMaxChannelBits + j), 0x1000u << j, false, 1 + j), RegStatus::kOk);
  EXPECT_FALSE(sb.state_check_due()) << "after accepted writes, no check";
  sb.register_written(task_scheme(2) + 1, 3, /*rtl_refused=*/true, 9);  // misaligned: refused by both
  ASSERT_TRUE(sb.state_check_due());
  std::vector<uint32_t> read;
  // What the model holds from reset (an RTL that agrees reads it): CTRL's
  // interleave enable, task type 2's staged rows j < 4, every other word 0.
  const auto model = [&](const TranslatorPins& p) {
    read.push_back(p.reg_addr);
    TranslatorEdge e;
    const uint32_t row = (p.reg_addr - kRegMatrixRowLo) / 4;
    e.reg_rdata = p.reg_addr >= kMatrixInUseWindow ? 0
                  : p.reg_addr >= kRegMatrixRowLo && p.reg_addr < kRegMatrixRowHi && row / kMaxChannelBits == 2 &&
                          row % kMaxChannelBits < 4
                      ? 0x1000u << (row % kMaxChannelBits)
                  : p.reg_addr == kRegCtrl ? kCtrlInterleaveEnable : 0;
    return e;
  };
  EXPECT_TRUE(sb.check_state(model, 10)) << (sb.first_mismatch() ? sb.first_mismatch()->report() : "");
  EXPECT_FALSE(sb.state_check_due());
  // CTRL and task type 2's: its TASK_SCHEME, 4 + 1 XOR_VECTOR, 8 + 2
  // MATRIX_ROW_LO/HI, 8 + 2 committed halves (the + are rows j = m = 4),
  // and the refused (misaligned) word.
  EXPECT_EQ(read.size(), 1u + 1 + 5 + 10 + 10 + 1);
  EXPECT_EQ(read.back(), task_scheme(2) + 1);
  EXPECT_EQ(sb.state_checks(), 1u);
  // Every 64th such write reads every register (a write to no task type's
  // register reads CTRL alone until then).
  read.clear();
  for (unsigned i = 1; i < TranslatorScoreboard::kStateSweepEvery; ++i) {
    sb.register_written(0x0C00, 0, true, 100 + i);  // PF_CTRL: another block's
    ASSERT_TRUE(sb.check_state(model, 100 + i));
  }
  // 62 with CTRL and the refused word alone, then CTRL, 16 TASK_SCHEME,
  // 64 + 16 XOR_VECTOR, 128 + 32 MATRIX_ROW_LO/HI, 128 + 32 committed
  // halves, the refused word.
  EXPECT_EQ(read.size(), 62u * 2 + 1 + 16 + 80 + 160 + 160 + 1);
  EXPECT_EQ(sb.state_sweeps(), 1u);
  // An RTL whose refused commit committed the staged rows: task type 2's row 1 in use.
  sb.register_written(task_scheme(2) + 1, 3, true, 11);
  const auto committed = [&](const TranslatorPins& p) {
    TranslatorEdge e = model(p);
    if (p.reg_addr == kMatrixInUseWindow + 4 * (2 * kMaxChannelBits + 1)) e.reg_rdata = 0x2000;
    return e;
  };
  EXPECT_FALSE(sb.check_state(committed, 12));
  ASSERT_EQ(sb.mismatches(), 1u);
  const std::string r = sb.first_mismatch()->report();
  for (const char* s : {"(a register write), cycle 12", "offset 0x0049", "value 0x00000003", "refused (",
                        "in-use row[2][1].lo 0x00000000", "in-use row[2][1].lo 0x00002000", "differs"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
}

// A read whose bound is one too loose gives a held row at j = m, where 0
// is due; a refused write one word past an array is checked on task type
// 0's registers (a decode one too loose wraps it there); the refused word
// itself must read 0.
TEST(TranslatorCosim, AStateCheckReadsTheRowsAtMAndTheRefusedWordAsZero) {
  const auto zero_but = [](uint32_t at, uint32_t value) {
    return [=](const TranslatorPins& p) {
      TranslatorEdge e;
      e.reg_rdata = p.reg_addr == kRegCtrl ? kCtrlInterleaveEnable : p.reg_addr == at ? value : 0;
      return e;
    };
  };
  {
    TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
    sb.register_written(xor_vector(3, 0) + 2, 5, true, 1);  // misaligned: task type 3's
    EXPECT_FALSE(sb.check_state(zero_but(xor_vector(3, 4), 0x11), 2));
    EXPECT_NE(sb.first_mismatch()->report().find("XOR_VECTOR[3][4] 0x00000000"), std::string::npos)
        << sb.first_mismatch()->report();
  }
  {
    TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
    sb.register_written(task_scheme(kMaxTaskTypes), 3, true, 1);  // PROCESS_TASK[0], one past TASK_SCHEME
    std::vector<uint32_t> read;
    const auto committed = [&](const TranslatorPins& p) {
      read.push_back(p.reg_addr);
      return zero_but(kMatrixInUseWindow, 0x100)(p);  // task type 0's row 0 committed
    };
    EXPECT_FALSE(sb.check_state(committed, 2));
    EXPECT_NE(sb.first_mismatch()->report().find("in-use row[0][0].lo 0x00000100"), std::string::npos)
        << sb.first_mismatch()->report();
    EXPECT_EQ(sb.coverage().state_read[5], 0u) << "stopped before the refused word";
  }
  {
    TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
    sb.register_written(kRegXorVector + 4 * kMaxTaskTypes * kMaxChannelBits, 7, true, 1);  // VA_RANGE_START[0]
    EXPECT_FALSE(sb.check_state(zero_but(kRegXorVector + 4 * kMaxTaskTypes * kMaxChannelBits, 7), 2));
    EXPECT_NE(sb.first_mismatch()->report().find("VA_RANGE_START[0] (the refused word) 0x00000000"), std::string::npos)
        << sb.first_mismatch()->report();
    EXPECT_EQ(sb.coverage().state_read[5], 1u) << "a word past an array";
  }
}

TEST(TranslatorCosim, MismatchReportNamesEverything) {
  TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
  sb.request_accepted(0x1234, 5);
  EXPECT_FALSE(sb.response_taken({0x1334, 3, 0}, 17));
  ASSERT_TRUE(sb.first_mismatch());
  const std::string r = sb.first_mismatch()->report();
  for (const char* s : {"transaction 0", "cycle 17", "seed 42", "0x0000001234", "task type 5", "0x0000001334", "differs"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
}

// Each write's answer, accepted or refused, is compared with the model's
// (TearDown fails on any difference); the refusals counted are the model's.
// A reset in the middle of traffic: the response held in the RTL is lost and
// the scoreboard discards it, and the registers are back at their reset
// values in both (task type 1 maps by identity again). TearDown checks that
// nothing differed.
TEST_F(TranslatorCosimTest, ResetInTheMiddleOfTrafficDiscardsWhatIsInFlight) {
  for (unsigned j = 0; j < 4; ++j) ASSERT_EQ(cosim.write_register(xor_vector(1, j), 0xFF), RegStatus::kOk);
  ASSERT_EQ(cosim.write_register(task_scheme(1), 1), RegStatus::kOk);
  const uint64_t a = 0x12'3456'7A00;
  EXPECT_NE(cosim.request(a, 1).mapped, a) << "xor maps it elsewhere before the reset";
  TranslatorPins p;
  p.req_valid = true;
  p.req_addr = a;
  p.req_task_type = 1;
  p.rsp_ready = false;  // the response stays in the RTL
  ASSERT_TRUE(cosim.cycle(p).req_accepted);
  ASSERT_EQ(cosim.scoreboard().outstanding(), 1u);
  TranslatorPins reset;
  reset.reset = true;
  reset.rsp_ready = true;
  EXPECT_FALSE(cosim.cycle(reset).rsp_taken) << "reset clears the response stage";
  cosim.cycle(reset);
  EXPECT_EQ(cosim.scoreboard().outstanding(), 0u);
  EXPECT_EQ(cosim.scoreboard().discarded(), 1u);
  EXPECT_EQ(cosim.request(a, 1).mapped, a) << "after the reset every task type maps by identity";
  EXPECT_EQ(cosim.scoreboard().coverage().reset[1], 1u) << "counted as a reset with a response pending";
}

TEST_F(TranslatorCosimTest, RegisterAnswersAreTheModels) {
  struct Write {
    uint32_t offset, value;
    bool refused;
    const char* what;
  };
  const Write writes[] = {
      {kRegCtrl, kCtrlInterleaveEnable, false, "CTRL, interleave on"},
      {kRegCtrl, kCtrlInterleaveEnable | kCtrlTranslatorPosition, true, "CTRL with the position bit"},
      {task_scheme(3), 2, false, "TASK_SCHEME prime"},
      {task_scheme(3), 3, true, "TASK_SCHEME 3"},
      {xor_vector(2, 3), 0xFF, false, "XOR_VECTOR j = 3 < M"},
      {xor_vector(2, 4), 0xFF, true, "XOR_VECTOR j = 4, not mapped with M = 4"},
      {xor_vector(2, 0) + 2, 1, true, "misaligned"},
      {kRegPtRootLo, 0x1000, true, "another block's register"},
      {kRegId, 0, true, "read-only"},
      {0x14, 0, true, "a gap"},
      {kRegisterSpaceBytes, 1, true, "above the map"},
      {kRegCtrl ^ 0x8000, kCtrlInterleaveEnable, true, "CTRL's offset with port bit 15 set: a counter of another block"},
      {kRegTaskScheme ^ 0x4000, 1, true, "TASK_SCHEME[0]'s offset with port bit 14 set"},
  };
  for (const Write& w : writes) {
    const uint64_t before = cosim.scoreboard().coverage().register_write[1];
    cosim.write_register(w.offset, w.value);
    EXPECT_EQ(cosim.scoreboard().coverage().register_write[1] - before, w.refused ? 1u : 0u) << w.what;
  }
}

TEST(TranslatorCosim, RegisterAnswerMismatchNamesTheWrite) {
  TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
  sb.register_written(kRegCtrl, kCtrlInterleaveEnable | kCtrlTranslatorPosition, /*rtl_refused=*/false, 9);
  ASSERT_EQ(sb.mismatches(), 1u);
  const std::string r = sb.first_mismatch()->report();
  for (const char* s : {"transaction 0 (a register write), cycle 9", "seed 42", "0x0010 (CTRL)", "0x00000005", "refused (value not allowed)",
                        "accepted", "differs"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
  TranslatorScoreboard other(default_bench_params(), rtl_translator_geometry(), 1);
  other.register_written(task_scheme(1), 1, /*rtl_refused=*/true, 3);
  ASSERT_EQ(other.mismatches(), 1u) << "an accepted write the RTL refused";
}

// The register cross counts each write by alignment, register, value
// class and the staged rows of the task type it addresses (CTRL and the
// rest: of any task type), before the write acts; a value outside a
// word-wide field has no bin.
TEST(TranslatorCosim, RegisterCrossCountsEachWriteInItsBin) {
  TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
  const CoverageGroup& cross = sb.coverage().register_cross;
  ASSERT_EQ(cross.size(), 36u);
  const auto count = [&](const std::string& bin) {
    for (size_t i = 0; i < cross.size(); ++i)
      if (cross.bin_name(i) == bin) return cross[i];
    ADD_FAILURE() << "no bin " << bin;
    return uint64_t{0};
  };
  sb.register_written(kRegCtrl + 2, 1, /*rtl_refused=*/true, 1);
  EXPECT_EQ(count("misaligned / CTRL / in field / rows as committed"), 1u);
  sb.register_written(task_scheme(3), 7, true, 2);
  EXPECT_EQ(count("aligned / TASK_SCHEME / outside field / rows as committed"), 1u);
  sb.register_written(kRegMatrixRowHi + 4 * (3 * kMaxChannelBits + 1), 0xFFFFFFFF, false, 3);  // task type 3: other rows staged
  EXPECT_EQ(count("aligned / MATRIX_ROW_HI / in field / rows as committed"), 1u) << "counted before it stages";
  sb.register_written(xor_vector(3, 0) + 1, 0x100, true, 4);  // bit 8: above K = 8
  EXPECT_EQ(count("misaligned / XOR_VECTOR / outside field / other rows staged"), 1u);
  sb.register_written(xor_vector(4, 0), 0x1, false, 5);
  EXPECT_EQ(count("aligned / XOR_VECTOR / in field / rows as committed"), 1u) << "task type 4 has nothing staged";
  sb.register_written(kRegCtrl, 1, false, 6);
  EXPECT_EQ(count("aligned / CTRL / in field / other rows staged"), 1u) << "task type 3's rows";
  sb.register_written(0x0C00, 0, true, 7);  // PF_CTRL: another block's
  EXPECT_EQ(count("aligned / other / in field / other rows staged"), 1u);
  EXPECT_EQ(sb.mismatches(), 0u);
}

// The report shows the model's registers of the failing task type as they
// were when the request was accepted (a write after that does not count),
// and what each XOR_VECTOR row makes of the address, as the TLB's shows the
// model's set.
TEST(TranslatorCosim, MismatchReportShowsTheTaskTypesRegistersAtAcceptance) {
  TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
  ASSERT_EQ(sb.register_written(xor_vector(5, 0), 0x11, false, 1), RegStatus::kOk);
  ASSERT_EQ(sb.register_written(xor_vector(5, 2), 0x81, false, 2), RegStatus::kOk);
  ASSERT_EQ(sb.register_written(task_scheme(5), 1, false, 3), RegStatus::kOk);
  sb.request_accepted(0x1000, 5);  // bit 12 (p_0): c_0 and c_2 flip, to 0x1500
  ASSERT_EQ(sb.register_written(xor_vector(5, 0), 0, false, 4), RegStatus::kOk);
  EXPECT_FALSE(sb.response_taken({0x1100, 1, 1}, 5));
  ASSERT_TRUE(sb.first_mismatch());
  const std::string r = sb.first_mismatch()->report();
  for (const char* s : {"\n  the model's registers for task type 5 when the request was accepted:\n",
                        "\n    CTRL.INTERLEAVE_ENABLE 1\n", "\n    TASK_SCHEME[5]         1 (xor)\n",
                        "\n    XOR_VECTOR[5][0]       0x00000011         c_0 (bit 8) ^= parity of bits 12 16 (p_0 p_4) = 1\n",
                        "\n    XOR_VECTOR[5][1]       0x00000000         c_1 (bit 9) unchanged\n",
                        "\n    XOR_VECTOR[5][2]       0x00000081         c_2 (bit 10) ^= parity of bits 12 19 (p_0 p_7) = 1\n",
                        "0x0000001500", "differs"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
}

// A commit the model refuses and the RTL takes: the task type's registers
// before the write, and the rows it would commit.
TEST(TranslatorCosim, CommitMismatchShowsTheStagedRows) {
  TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 42);
  for (unsigned j = 0; j < 4; ++j)  // every row reads bit 8 alone: singular
    ASSERT_EQ(sb.register_written(kRegMatrixRowLo + 4 * (2 * kMaxChannelBits + j), 0x100, false, 1 + j), RegStatus::kOk);
  sb.register_written(task_scheme(2), 3, /*rtl_refused=*/false, 9);
  ASSERT_EQ(sb.mismatches(), 1u);
  const std::string r = sb.first_mismatch()->report();
  for (const char* s : {"\n  the model's registers for task type 2 before the write:\n", "\n    TASK_SCHEME[2]         0 (none)\n",
                        "\n    staged MATRIX_ROW[2][0] 0x0000000000000100 c_0 = parity of bit 8\n",
                        "\n    staged MATRIX_ROW[2][3] 0x0000000000000100 c_3 = parity of bit 8\n", "refused (", "differs"})
    EXPECT_NE(r.find(s), std::string::npos) << s << " not in:\n" << r;
}

// The summary's count of requests compared on the config's own mapping
// (issue 32) counts only while a task type's scheme and vectors are the
// config's: not from the reset values, not after one vector changes.
TEST(TranslatorCosim, CountsRequestsOnTheConfiguredMappingOnly) {
  const Config cfg = default_config();  // task 1: xor [0x11, 0x22, 0x44, 0x88]
  TranslatorCosim cosim(cfg, 3);
  cosim.request(0x12345600, 1);
  EXPECT_EQ(cosim.scoreboard().compared_on_configured()[1], 0u) << "reset values are not the config's";
  const uint32_t vectors[4] = {0x11, 0x22, 0x44, 0x88};
  for (uint32_t j = 0; j < 4; ++j) ASSERT_EQ(cosim.write_register(xor_vector(1, j), vectors[j]), RegStatus::kOk);
  ASSERT_EQ(cosim.write_register(task_scheme(1), 1), RegStatus::kOk);
  cosim.request(0x12345600, 1);
  cosim.request(0x12345700, 1);
  EXPECT_EQ(cosim.scoreboard().compared_on_configured()[1], 2u);
  ASSERT_EQ(cosim.write_register(xor_vector(1, 0), 0x12), RegStatus::kOk);
  cosim.request(0x12345600, 1);
  EXPECT_EQ(cosim.scoreboard().compared_on_configured()[1], 2u) << "one vector differs from the config's";
  EXPECT_EQ(cosim.scoreboard().mismatches(), 0u);
}

// The in-flight queue is a ring that grows when full: order survives growth.
TEST(TranslatorCosim, ScoreboardKeepsRequestOrderPastItsRing) {
  TranslatorScoreboard sb(default_bench_params(), rtl_translator_geometry(), 1);
  for (uint64_t i = 0; i < 10; ++i) sb.request_accepted(0x1000 * i + 0x100 * (i % 16), 0);
  EXPECT_EQ(sb.outstanding(), 10u);
  for (uint64_t i = 0; i < 10; ++i) {
    const uint64_t a = 0x1000 * i + 0x100 * (i % 16);  // reset registers: identity
    EXPECT_TRUE(sb.response_taken({a, channel_field(a), 0}, i)) << sb.first_mismatch()->report();
  }
  EXPECT_EQ(sb.outstanding(), 0u);
  EXPECT_THROW(sb.response_taken({}, 10), std::logic_error);
}

TEST(TranslatorCosim, OneMillionRandomTransactions) {
  TranslatorCosim cosim(default_config(), 20240604);
  TranslatorRandomRun run;
  run.transactions = 1'000'000;
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = cosim.run_random(run);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto& sb = cosim.scoreboard();
  ASSERT_FALSE(cosim.assertion_failed()) << "an RTL assertion failed (Verilator's message is in the output)";
  ASSERT_TRUE(ok) << sb.first_mismatch()->report();
  EXPECT_EQ(sb.compared(), run.transactions);
  std::printf("%llu transactions in %llu cycles, %.2f s (%.1f M transactions/s)\n",
              static_cast<unsigned long long>(sb.compared()), static_cast<unsigned long long>(cosim.cycles()), s,
              sb.compared() / s / 1e6);
  std::printf("%s", coverage_text(sb.coverage().groups()).c_str());
  EXPECT_TRUE(every_bin_hit(sb.coverage().groups()));
}

}  // namespace
// The artefacts of a mismatch: the run again with FST waves of a window of
// cycles, and a replay file. Exercised on a passing run, so it needs no broken RTL.
TEST(TranslatorCosim, MismatchArtifactsWriteWavesAndAReplayFile) {
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml");
  const std::string dir = temp_dir("gpumem-waves");
  TranslatorRandomRun run;
  run.transactions = 2000;
  const MismatchArtifacts files = write_mismatch_artifacts<TranslatorBlock>(cfg, "configs/default.yaml", 7, run, 1500, dir, 200);
  ASSERT_TRUE(std::filesystem::exists(files.waves));
  EXPECT_EQ(test::layout_check("translator.gtkw", files.waves), "");
  const std::string text = file_text(files.replay);
  EXPECT_NE(text.find("\n\"${GPUMEM:-gpumem}\" cosim --config " + shell_quoted(absolute_path("configs/default.yaml")) +
                      " --block translator --transactions 2000 --seed 7 --waves " + shell_quoted(absolute_path(dir)) + "\n"),
            std::string::npos)
      << text;
  // The view: the saved layout, every contract port in it and every row in the waves.
  EXPECT_EQ(test::layout_file_check(files.view, files.waves), "");
  EXPECT_EQ(files.layout_note, "the contract's 16 ports, then 4 signals of the project's RTL");
  std::filesystem::remove_all(dir);
}

}  // namespace gpumem::tb
