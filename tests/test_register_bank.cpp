// Register bank: map decode, access rules, and "a rejected access changes
// nothing" checked by snapshotting every readable register around it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "params/block_params.hpp"
#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "regs/register_access.hpp"
#include "regs/register_bank.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

Config bank_config() {
  return config_from(base_yaml("translator: {channel_bits: [8, 9, 10], candidate_bits: [11, 12, 13, 14, 15], prime: 3}"));
}

std::map<uint32_t, uint32_t> snapshot(const RegisterBank& bank) {
  std::map<uint32_t, uint32_t> s;
  for (uint32_t off = 0; off < kRegisterSpaceBytes; off += 4) {
    uint32_t v = 0;
    if (bank.read(off, 4, v) == RegStatus::kOk) s[off] = v;
  }
  return s;
}

uint32_t xor_vector_offset(unsigned t, unsigned j) { return kRegXorVector + 4 * (t * kMaxChannelBits + j); }
uint32_t req_count_offset(unsigned t, unsigned c) { return kRegReqCount + 4 * (t * kMaxChannels + c); }

TEST(RegisterBank, ResetValues) {
  RegisterBank bank(register_params(bank_config()));
  uint32_t v = 0;
  ASSERT_EQ(bank.read(kRegId, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, kIdValue);
  ASSERT_EQ(bank.read(kRegChannelCount, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 8u);
  ASSERT_EQ(bank.read(kRegCandidateBitCount, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 5u);
  ASSERT_EQ(bank.read(kRegCtrl, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, kCtrlInterleaveEnable);
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    ASSERT_EQ(bank.read(kRegTaskScheme + 4 * t, 4, v), RegStatus::kOk);
    EXPECT_EQ(v, 0u);
  }
}

TEST(RegisterBank, ReadableRegisterCountMatchesTheMap) {
  RegisterBank bank(register_params(bank_config()));
  // 10 scalars + 16 schemes + 16 process task types + 16 selections + 16*3
  // vectors + 3*8 VA range registers + 2 * 16*3 matrix rows + 2 * 16*8
  // performance counter rows + 4*4 prefetch classifier ranges + 3 * 16*8
  // channel counters
  EXPECT_EQ(snapshot(bank).size(),
            10u + 16u + 16u + 16u + 16u * 3u + 3u * 8u + 2u * 16u * 3u + 2u * 16u * 8u + 4u * 4u + 3u * 16u * 8u);
}

TEST(RegisterBank, WritesReachTheTranslatorView) {
  RegisterBank bank(register_params(bank_config()));
  const uint64_t gen = bank.translator_registers().generation;
  ASSERT_EQ(bank.write(xor_vector_offset(4, 2), 4, 0x15), RegStatus::kOk);
  ASSERT_EQ(bank.write(kRegTaskScheme + 4 * 4, 4, 1), RegStatus::kOk);
  EXPECT_EQ(bank.translator_registers().xor_vector[4][2], 0x15u);
  EXPECT_EQ(bank.translator_registers().scheme[4], Scheme::kXor);
  EXPECT_GT(bank.translator_registers().generation, gen);
  ASSERT_EQ(bank.write(kRegCtrl, 4, 0), RegStatus::kOk);
  EXPECT_FALSE(bank.translator_registers().interleave_enable);
}

TEST(RegisterBank, VectorBitsAboveKReadAsZero) {
  RegisterBank bank(register_params(bank_config()));
  ASSERT_EQ(bank.write(xor_vector_offset(0, 0), 4, 0xFFFFFFFF), RegStatus::kOk);
  uint32_t v = 0;
  ASSERT_EQ(bank.read(xor_vector_offset(0, 0), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0x1Fu);
}

struct BadAccess {
  const char* what;
  uint64_t offset;
  unsigned width;
  bool write;
  uint32_t value;
  RegStatus expected;
};

TEST(RegisterBank, RejectedAccessesReportTheirReasonAndChangeNothing) {
  const BadAccess cases[] = {
      {"unmapped gap after CTRL", 0x14, 4, true, 1, RegStatus::kUnmapped},
      {"beyond the register space", kRegisterSpaceBytes, 4, false, 0, RegStatus::kUnmapped},
      {"XOR vector of a channel bit that does not exist", xor_vector_offset(0, 3), 4, true, 1, RegStatus::kUnmapped},
      {"counter of a channel that does not exist", req_count_offset(0, 8), 4, false, 0, RegStatus::kUnmapped},
      {"write to ID", kRegId, 4, true, 0, RegStatus::kReadOnly},
      {"write to CHANNEL_COUNT", kRegChannelCount, 4, true, 16, RegStatus::kReadOnly},
      {"misaligned CTRL", kRegCtrl + 1, 4, true, 0, RegStatus::kMisaligned},
      {"misaligned read", kRegTaskScheme + 2, 4, false, 0, RegStatus::kMisaligned},
      {"16-bit write", kRegCtrl, 2, true, 0, RegStatus::kBadWidth},
      {"64-bit read", kRegCtrl, 8, false, 0, RegStatus::kBadWidth},
      {"byte write to a vector", xor_vector_offset(1, 0), 1, true, 0xFF, RegStatus::kBadWidth},
      {"scheme 3 (matrix) with its rows still singular", kRegTaskScheme + 4, 4, true, 3, RegStatus::kBadValue},
      {"scheme value 4", kRegTaskScheme + 4, 4, true, 4, RegStatus::kBadValue},
  };
  for (const auto& c : cases) {
    RegisterBank bank(register_params(bank_config()));
    ASSERT_EQ(bank.write(xor_vector_offset(1, 0), 4, 0x3), RegStatus::kOk);
    bank.count(2, 0, 5, 64, 0);
    const auto before = snapshot(bank);
    const uint64_t gen = bank.translator_registers().generation;
    uint32_t v = 0xDEADBEEF;
    const RegStatus s = c.write ? bank.write(c.offset, c.width, c.value) : bank.read(c.offset, c.width, v);
    EXPECT_EQ(s, c.expected) << c.what << ": got " << reg_status_name(s);
    EXPECT_EQ(snapshot(bank), before) << c.what;
    EXPECT_EQ(bank.translator_registers().generation, gen) << c.what;
    if (!c.write) {
      EXPECT_EQ(v, 0xDEADBEEFu) << c.what << ": a rejected read must not return data";
    }
  }
}

TEST(RegisterBank, SchemeTheConfigCannotServeIsRefused) {
  RegisterBank no_prime(register_params(config_from(base_yaml("translator: {channel_bits: [8, 9, 10], candidate_bits: [11]}"))));
  EXPECT_EQ(no_prime.write(kRegTaskScheme, 4, static_cast<uint32_t>(Scheme::kPrime)), RegStatus::kBadValue);
  RegisterBank six(register_params(config_from(base_yaml("translator: {granule_bytes: 256}", 6))));
  EXPECT_EQ(six.write(kRegTaskScheme, 4, static_cast<uint32_t>(Scheme::kXor)), RegStatus::kBadValue);
  // Prime on a channel field that is not contiguous is not (G * P) mod N.
  RegisterBank split(register_params(config_from(base_yaml("translator: {channel_bits: [8, 11], prime: 3}", 4))));
  EXPECT_EQ(split.write(kRegTaskScheme, 4, static_cast<uint32_t>(Scheme::kPrime)), RegStatus::kBadValue);
  // Six channels: a row of granules crosses pages, so one scheme for all task
  // types; a write that would mix none and prime is refused.
  RegisterBank mixed(register_params(config_from(base_yaml("translator: {granule_bytes: 256, prime: 5}", 6))));
  EXPECT_EQ(mixed.translator_registers().scheme[1], Scheme::kNone);
  EXPECT_EQ(mixed.write(kRegTaskScheme + 4, 4, static_cast<uint32_t>(Scheme::kPrime)), RegStatus::kBadValue);
  EXPECT_EQ(mixed.write(kRegTaskScheme + 4, 4, static_cast<uint32_t>(Scheme::kNone)), RegStatus::kOk);
  RegisterBank all_prime(register_params(config_from(base_yaml("translator: {granule_bytes: 256, prime: 5, default_scheme: prime}", 6))));
  EXPECT_EQ(all_prime.translator_registers().scheme[9], Scheme::kPrime) << "resets to the configured scheme";
}

uint32_t matrix_row_offset(uint32_t base, unsigned t, unsigned j) { return base + 4 * (t * kMaxChannelBits + j); }

// Rows are staged one register at a time and committed, checked, by writing
// 3 (matrix) to TASK_SCHEME: a refused commit changes nothing, and a later
// staging does not move the committed matrix until the next commit.
TEST(RegisterBank, MatrixRowsTakeEffectOnlyWhenACheckedCommitAccepts) {
  // Channel bits 8, 9, 10 of a 40-bit space, so a row reaches MATRIX_ROW_HI.
  RegisterBank bank(register_params(config_from(
      base_yaml("translator: {channel_bits: [8, 9, 10], candidate_bits: [11, 12, 13, 14, 15], prime: 3}", 8, 40))));
  auto stage = [&](unsigned t, const std::vector<uint64_t>& rows) {
    for (unsigned j = 0; j < rows.size(); ++j) {
      ASSERT_EQ(bank.write(matrix_row_offset(kRegMatrixRowLo, t, j), 4, static_cast<uint32_t>(rows[j])), RegStatus::kOk);
      ASSERT_EQ(bank.write(matrix_row_offset(kRegMatrixRowHi, t, j), 4, static_cast<uint32_t>(rows[j] >> 32)), RegStatus::kOk);
    }
  };
  const std::vector<uint64_t> good{0x100 | (uint64_t{1} << 35), 0x200 | 0x100, 0x400 | 0x1000};
  stage(2, good);
  EXPECT_EQ(bank.translator_registers().matrix_row[2][0], 0u) << "staged, not committed";
  ASSERT_EQ(bank.write(kRegTaskScheme + 4 * 2, 4, 3), RegStatus::kOk);
  EXPECT_EQ(bank.translator_registers().scheme[2], Scheme::kMatrix);
  for (unsigned j = 0; j < 3; ++j) EXPECT_EQ(bank.translator_registers().matrix_row[2][j], good[j]) << j;

  const std::vector<std::pair<std::string, std::vector<uint64_t>>> bad{
      {"singular", {0x100, 0x100 | 0x1000, 0x400}},
      {"inside the granule", {0x100 | 0x80, 0x200, 0x400}},
      {"beyond the address space", {0x100, 0x200, 0x400 | (uint64_t{1} << 40)}},
      {"an empty row", {0x100, 0x0, 0x400}}};
  for (const auto& [what, rows] : bad) {
    stage(2, rows);
    const auto before = bank.translator_registers();
    EXPECT_EQ(bank.write(kRegTaskScheme + 4 * 2, 4, 3), RegStatus::kBadValue) << what;
    EXPECT_EQ(bank.translator_registers().matrix_row, before.matrix_row) << what;
    EXPECT_EQ(bank.translator_registers().generation, before.generation) << what;
  }
  EXPECT_EQ(bank.translator_registers().scheme[2], Scheme::kMatrix) << "the committed matrix stays in force";
  EXPECT_EQ(bank.translator_registers().matrix_row[2][1], good[1]);
  uint32_t v = 0;
  ASSERT_EQ(bank.read(matrix_row_offset(kRegMatrixRowLo, 2, 1), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0u) << "the staged row reads back as written";
  EXPECT_EQ(bank.read(matrix_row_offset(kRegMatrixRowLo, 2, 3), 4, v), RegStatus::kUnmapped) << "row j >= m";

  RegisterParams rtl = register_params(bank_config());
  rtl.matrix_scheme = false;  // as a translator RTL without the scheme (MATRIX 0) answers
  RegisterBank without(rtl);
  EXPECT_EQ(without.write(matrix_row_offset(kRegMatrixRowLo, 0, 0), 4, 0x100), RegStatus::kUnmapped);
  EXPECT_EQ(without.write(kRegTaskScheme, 4, 3), RegStatus::kBadValue);

  // A translator RTL with none and matrix only (gpumem cosim --schemes none,matrix).
  RegisterParams matrix_only = register_params(bank_config());
  matrix_only.xor_scheme = false;
  matrix_only.prime = 0;
  RegisterBank hash(matrix_only);
  EXPECT_EQ(hash.write(kRegXorVector + 4 * (0 * kMaxChannelBits + 0), 4, 1), RegStatus::kUnmapped);
  EXPECT_EQ(hash.write(kRegTaskScheme, 4, 1), RegStatus::kBadValue);
  EXPECT_EQ(hash.write(kRegTaskScheme, 4, 2), RegStatus::kBadValue);
  EXPECT_EQ(hash.write(kRegTaskScheme, 4, 0), RegStatus::kOk);
  EXPECT_EQ(hash.write(matrix_row_offset(kRegMatrixRowLo, 0, 0), 4, 0x100), RegStatus::kOk);
}

TEST(RegisterBank, CountersCountAndClearOnWrite) {
  RegisterBank bank(register_params(bank_config()));
  bank.count(3, 1, 7, 64, 10);
  bank.count(3, 1, 7, 32, 11);
  uint32_t v = 0;
  ASSERT_EQ(bank.read(req_count_offset(3, 7), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 2u);
  ASSERT_EQ(bank.read(kRegByteCount + 4 * (3 * kMaxChannels + 7), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 96u);
  ASSERT_EQ(bank.write(req_count_offset(3, 7), 4, 0x1234), RegStatus::kOk);
  ASSERT_EQ(bank.read(req_count_offset(3, 7), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0u);
  ASSERT_EQ(bank.read(kRegByteCount + 4 * (3 * kMaxChannels + 7), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 96u) << "clearing one counter leaves the others";
}

uint32_t perf_word(const RegisterBank& bank, uint32_t base, unsigned row, PerfField f) {
  uint32_t v = 0xDEAD;
  EXPECT_EQ(bank.read(base + 4 * (row * kPerfFieldCount + f), 4, v), RegStatus::kOk);
  return v;
}

// Windows of 4 over 8 channels, hand-worked: task type 2 (process 5) sends
// [0 0 0 0] then [0 1 0 1] (entropies 0 and 1, mean 0.5); process 6 sends
// task type 2's ninth request and then three of task type 3 to channels
// 0-3 (one window, entropy 2).
TEST(PerformanceCounters, SnapshotReadsHandWorkedCountsAndResetRestarts) {
  RegisterParams params = register_params(bank_config());
  params.entropy_window = 4;
  RegisterBank bank(params);
  const unsigned channels[8] = {0, 0, 0, 0, 0, 1, 0, 1};
  for (unsigned k = 0; k < 8; ++k) bank.count(2, 5, channels[k], 64, 100 + 2 * k);
  bank.count(2, 6, 7, 32, 200);
  for (unsigned c = 0; c < 3; ++c) bank.count(3, 6, c + 1, 16, 201 + c);

  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfRequestsLo), 0u) << "nothing is readable before a snapshot";
  ASSERT_EQ(bank.write(kRegPerfCtrl, 4, kPerfSnapshot), RegStatus::kOk);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfRequestsLo), 9u);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfRequestsHi), 0u);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfBytesLo), 8u * 64u + 32u);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfActiveCyclesLo), 200u - 100u + 1u);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfWindows), 2u) << "the ninth request's window is not closed";
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfEntropy), 0x8000u) << "mean of 0 and 1 bit, 16.16";
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 3, kPerfWindows), 0u);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 3, kPerfEntropy), static_cast<uint32_t>(std::llround(std::log2(3.0) * 65536)))
      << "fewer than W requests: the partial window's entropy";
  EXPECT_EQ(perf_word(bank, kRegPerfApp, 5, kPerfRequestsLo), 8u);
  EXPECT_EQ(perf_word(bank, kRegPerfApp, 5, kPerfEntropy), 0x8000u);
  EXPECT_EQ(perf_word(bank, kRegPerfApp, 6, kPerfRequestsLo), 4u);
  EXPECT_EQ(perf_word(bank, kRegPerfApp, 6, kPerfEntropy), 0x20000u) << "channels 7, 1, 2, 3: 2 bits";
  EXPECT_EQ(perf_word(bank, kRegPerfApp, 6, kPerfActiveCyclesLo), 4u);
  uint32_t v = 0;
  ASSERT_EQ(bank.read(kRegAppReqCount + 4 * (5 * kMaxChannels + 1), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 2u) << "APP_REQ_COUNT[5][1]";
  EXPECT_EQ(bank.write(kRegPerfTask, 4, 0), RegStatus::kReadOnly);

  // Reset: live counters restart, the snapshot stays until the next one.
  ASSERT_EQ(bank.write(kRegPerfCtrl, 4, kPerfReset), RegStatus::kOk);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfRequestsLo), 9u);
  ASSERT_EQ(bank.read(req_count_offset(2, 0), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0u) << "reset clears REQ_COUNT too";
  EXPECT_EQ(bank.performance().task(2).requests, 0u);
  bank.count(2, 5, 3, 64, 500);
  ASSERT_EQ(bank.write(kRegPerfCtrl, 4, kPerfSnapshot | kPerfReset), RegStatus::kOk);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfRequestsLo), 1u) << "snapshot before reset";
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 2, kPerfActiveCyclesLo), 1u);
  EXPECT_EQ(bank.performance().task(2).requests, 0u);
  ASSERT_EQ(bank.read(kRegPerfCtrl, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0u);
}

TEST(PerformanceCounters, SixtyFourBitCountsSplitIntoTwoWords) {
  PerfReading r;
  r.requests = 0x1'2345'6789;
  r.bytes = 0xAB'0000'0001;
  r.active_cycles = 0x2'0000'0000;
  r.mean_window_entropy = 3.5;
  const std::vector<uint32_t> w = perf_words(r);
  EXPECT_EQ(w[kPerfRequestsLo], 0x2345'6789u);
  EXPECT_EQ(w[kPerfRequestsHi], 1u);
  EXPECT_EQ(w[kPerfBytesHi], 0xABu);
  EXPECT_EQ(w[kPerfActiveCyclesLo], 0u);
  EXPECT_EQ(w[kPerfActiveCyclesHi], 2u);
  EXPECT_EQ(w[kPerfEntropy], 0x38000u);
  EXPECT_DOUBLE_EQ(r.bandwidth(), double(r.bytes) / double(r.active_cycles));
}

// The router sees requests in issue order, not in cycle order: one that walks
// the page tables arrives after a later one that hit the TLB. The span is
// the earliest arrival's to the latest's, whatever order they came in.
TEST(PerformanceCounters, ActiveCyclesSpanTheEarliestToTheLatestArrival) {
  PerformanceMonitor monitor(8, 4);
  monitor.count(1, 2, 0, 64, 7);  // walked: reaches the router at cycle 7
  EXPECT_EQ(monitor.task(1).active_cycles, 1u);
  monitor.count(1, 2, 1, 64, 2);  // issued later, hit the TLB: cycle 2
  EXPECT_EQ(monitor.task(1).active_cycles, 6u) << "cycles 2 to 7";
  EXPECT_EQ(monitor.application(2).active_cycles, 6u);
  EXPECT_DOUBLE_EQ(monitor.application(2).bandwidth(), 128.0 / 6.0);
  EXPECT_DOUBLE_EQ(monitor.application(2).density(), 2.0 / 6.0);
  monitor.count(1, 2, 2, 64, 5);  // inside the span
  monitor.count(1, 3, 3, 64, 0);  // another process, earlier than all
  EXPECT_EQ(monitor.task(1).active_cycles, 8u) << "cycles 0 to 7";
  EXPECT_EQ(monitor.application(2).active_cycles, 6u);
  EXPECT_EQ(monitor.application(3).active_cycles, 1u);
  EXPECT_EQ(monitor.task(0).active_cycles, 0u) << "no request, no span";

  // The registers read the same span.
  RegisterBank bank(register_params(bank_config()));
  for (uint64_t cycle : {7, 2, 5}) bank.count(1, 2, 0, 64, cycle);
  ASSERT_EQ(bank.write(kRegPerfCtrl, 4, kPerfSnapshot), RegStatus::kOk);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 1, kPerfActiveCyclesLo), 6u);
  EXPECT_EQ(perf_word(bank, kRegPerfTask, 1, kPerfActiveCyclesHi), 0u);
  EXPECT_EQ(perf_word(bank, kRegPerfApp, 2, kPerfActiveCyclesLo), 6u);
  EXPECT_EQ(perf_word(bank, kRegPerfApp, 2, kPerfActiveCyclesHi), 0u);
}

// CTRL bit 1 switches the selections of APP_TASK_SELECT on and off.
TEST(DynamicSelection, ValidSelectionReplacesTheTaskTypeOnlyWhileEnabled) {
  RegisterBank bank(register_params(bank_config()));
  const TranslatorRegisters& t = bank.translator_registers();
  ASSERT_EQ(bank.write(kRegAppTaskSelect + 4 * 3, 4, kAppTaskSelectValid | 9 | 0x70), RegStatus::kOk);
  uint32_t v = 0;
  ASSERT_EQ(bank.read(kRegAppTaskSelect + 4 * 3, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, kAppTaskSelectValid | 9) << "bits other than 31 and 3:0 are dropped";
  EXPECT_EQ(t.effective_task(3, 1), 1u) << "CTRL bit 1 still clear";
  const uint64_t gen = t.generation;
  ASSERT_EQ(bank.write(kRegCtrl, 4, kCtrlInterleaveEnable | kCtrlDynamicSelectionEnable), RegStatus::kOk);
  EXPECT_GT(t.generation, gen);
  EXPECT_EQ(t.effective_task(3, 1), 9u);
  EXPECT_EQ(t.effective_task(4, 1), 1u) << "process 4 has no valid selection";
  ASSERT_EQ(bank.write(kRegAppTaskSelect + 4 * 3, 4, 9), RegStatus::kOk);
  EXPECT_EQ(t.effective_task(3, 1), 1u) << "valid bit cleared";
  ASSERT_EQ(bank.write(kRegAppTaskSelect + 4 * 3, 4, kAppTaskSelectValid | 9), RegStatus::kOk);
  ASSERT_EQ(bank.write(kRegCtrl, 4, kCtrlInterleaveEnable), RegStatus::kOk);
  EXPECT_EQ(t.effective_task(3, 1), 1u) << "switched off";
  bank.reset();
  EXPECT_EQ(t.selected_valid, 0u);
  EXPECT_FALSE(t.dynamic_selection);
}

// Configurations that give every elaborated quantity of the map a
// different value: channel count, channel bits, K, prime, position.
std::vector<std::pair<std::string, RegisterParams>> param_cases() {
  std::vector<std::pair<std::string, RegisterParams>> cases;
  cases.emplace_back("8 channels, K = 5, prime", register_params(bank_config()));
  RegisterParams before = register_params(bank_config());
  before.position = TranslatorPosition::kBeforeMmu;
  cases.emplace_back("translator before the MMU", before);
  cases.emplace_back("6 channels, prime by default",
                     register_params(config_from(base_yaml("translator: {granule_bytes: 256, prime: 5, default_scheme: prime}", 6))));
  cases.emplace_back("2 channels split, no prime",
                     register_params(config_from(base_yaml("translator: {channel_bits: [8, 11], candidate_bits: [12]}", 4))));
  return cases;
}

// Everything a register access could move: every readable word, the
// translator's write generation, the MMU's view.
struct BankState {
  std::map<uint32_t, uint32_t> words;
  uint64_t generation;
  uint64_t pt_root, invalidations;
  bool operator==(const BankState& o) const {
    return words == o.words && generation == o.generation && pt_root == o.pt_root && invalidations == o.invalidations;
  }
};
BankState state_of(const RegisterBank& bank) {
  return {snapshot(bank), bank.translator_registers().generation, bank.mmu_registers().pt_root,
          bank.mmu_registers().invalidations};
}

uint32_t offset_of(const RegisterDef& def, unsigned i, unsigned j) { return def.base + 4 * (i * def.dim1 + j); }

void expect_reset_column(const RegisterBank& bank, const std::string& what) {
  for (const Register& r : bank.registers()) {
    const RegisterDef& def = r.def();
    const uint32_t expected = def.access == RegAccess::kWA ? 0 : value_of(def.reset, bank.params());
    for (unsigned i = 0; i < def.dim0; ++i)
      for (unsigned j = 0; j < def.dim1; ++j) {
        uint32_t v = 0xDEADBEEF;
        const RegStatus s = bank.read(offset_of(def, i, j), 4, v);
        if (j >= r.mapped_dim1()) {
          EXPECT_EQ(s, RegStatus::kUnmapped) << what << ": " << def.name << "[" << i << "][" << j << "]";
          continue;
        }
        ASSERT_EQ(s, RegStatus::kOk) << what << ": " << def.name;
        EXPECT_EQ(v, expected) << what << ": " << def.name << "[" << i << "][" << j << "] after reset";
      }
  }
  // The views the blocks read are the registers' reset values too.
  const TranslatorRegisters& tr = bank.translator_registers();
  const RegisterParams& p = bank.params();
  EXPECT_EQ(tr.interleave_enable, (value_of(register_def(kRegCtrl).reset, p) & kCtrlInterleaveEnable) != 0) << what;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    EXPECT_EQ(static_cast<uint32_t>(tr.scheme[t]), value_of(register_def(kRegTaskScheme).reset, p)) << what;
    for (unsigned j = 0; j < kMaxChannelBits; ++j) EXPECT_EQ(tr.xor_vector[t][j], 0u) << what;
  }
  for (unsigned q = 0; q < kMaxProcesses; ++q) EXPECT_EQ(tr.process_task[q], 0u) << what;
  for (const VaRange& r : tr.va_range) EXPECT_FALSE(r.enable) << what;
  EXPECT_EQ(bank.mmu_registers().pt_root, 0u) << what;
}

TEST(RegisterBank, EveryRegisterResetsToItsResetColumn) {
  for (const auto& [what, params] : param_cases()) {
    RegisterBank bank(params);
    expect_reset_column(bank, what + ", after construction");
    // Move every register that can move, then reset.
    for (const Register& r : bank.registers())
      for (unsigned i = 0; i < r.def().dim0; ++i)
        for (unsigned j = 0; j < r.mapped_dim1(); ++j) bank.write(offset_of(r.def(), i, j), 4, 0x8000'0001 ^ (i << 4));
    for (unsigned t = 0; t < kMaxTaskTypes; ++t) bank.count(t, t, 0, 64, t);
    ASSERT_FALSE(state_of(bank) == state_of(RegisterBank(params))) << what << ": the writes moved nothing";
    bank.reset();
    expect_reset_column(bank, what + ", after reset()");
  }
}

TEST(RegisterBank, EveryRefusedAccessChangesNothing) {
  for (const auto& param_case : param_cases()) {
    const std::string& what = param_case.first;  // a lambda below captures it (not a structured binding: C++17)
    RegisterBank bank(param_case.second);
    // Non-reset state to protect: a vector (where one exists), a count, a VA range, the root.
    bank.write(xor_vector_offset(1, 0), 4, 0x3);
    ASSERT_EQ(bank.write(kRegVaRangeTask + 4, 4, kVaRangeEnable | 2), RegStatus::kOk);
    ASSERT_EQ(bank.write(kRegPtRootHi, 4, 0x12), RegStatus::kOk);
    bank.count(2, 3, 1, 64, 5);
    BankState before = state_of(bank);
    unsigned refused = 0;
    auto refuse = [&](const std::string& access, uint64_t offset, unsigned width, bool write, uint32_t value) {
      uint32_t v = 0xDEADBEEF;
      const RegStatus s = write ? bank.write(offset, width, value) : bank.read(offset, width, v);
      if (s == RegStatus::kOk) {  // not a refusal in this configuration
        before = state_of(bank);
        return;
      }
      ++refused;
      EXPECT_TRUE(state_of(bank) == before) << what << ": " << access << " (" << reg_status_name(s) << ") changed the bank";
      if (!write) {
        EXPECT_EQ(v, 0xDEADBEEFu) << what << ": " << access << ": a refused read returned data";
      }
    };
    for (const Register& r : bank.registers()) {
      const RegisterDef& def = r.def();
      const std::string name = def.name;
      for (unsigned i : {0u, def.dim0 - 1}) {
        const uint32_t off = offset_of(def, i, 0);
        for (unsigned width : {1u, 2u, 8u}) {
          refuse(name + " width " + std::to_string(width) + " read", off, width, false, 0);
          refuse(name + " width " + std::to_string(width) + " write", off, width, true, ~0u);
        }
        for (unsigned skew : {1u, 2u, 3u}) {
          refuse(name + " misaligned read", off + skew, 4, false, 0);
          refuse(name + " misaligned write", off + skew, 4, true, ~0u);
        }
        if (r.mapped_dim1() < def.dim1) {
          refuse(name + " beyond the configured extent, read", offset_of(def, i, r.mapped_dim1()), 4, false, 0);
          refuse(name + " beyond the configured extent, write", offset_of(def, i, r.mapped_dim1()), 4, true, 1);
        }
        if (def.access == RegAccess::kRO) {
          const size_t n = refused;
          refuse(name + " write to a read-only register", off, 4, true, 0);
          EXPECT_EQ(refused, n + 1) << what << ": " << name << " accepted a write";
        }
        if (def.fixed_mask) {
          uint32_t v = 0;
          ASSERT_EQ(bank.read(off, 4, v), RegStatus::kOk);
          const size_t n = refused;
          refuse(name + " write that changes a fixed bit", off, 4, true, v ^ def.fixed_mask);
          EXPECT_EQ(refused, n + 1) << what << ": " << name << " let a fixed bit change";
        }
        if (def.check == WriteCheck::kScheme)
          for (uint32_t value : {0u, 1u, 2u, 3u, 0xFFFF'FFFFu}) refuse(name + " value " + std::to_string(value), off, 4, true, value);
      }
    }
    refuse("gap after CTRL", 0x14, 4, true, 1);
    refuse("end of the register space", kRegisterSpaceBytes, 4, false, 0);
    EXPECT_GT(refused, 100u) << what;
  }
}

TEST(RegisterMap, EntriesDoNotOverlapAndFitTheSpace) {
  const auto& map = register_map();
  for (size_t i = 0; i < map.size(); ++i) {
    const uint64_t end_i = map[i].base + uint64_t{map[i].dim0} * map[i].dim1 * 4;
    EXPECT_LE(end_i, kRegisterSpaceBytes) << map[i].name;
    for (size_t j = i + 1; j < map.size(); ++j) {
      const uint64_t end_j = map[j].base + uint64_t{map[j].dim0} * map[j].dim1 * 4;
      EXPECT_TRUE(end_i <= map[j].base || end_j <= map[i].base) << map[i].name << " overlaps " << map[j].name;
    }
  }
}

TEST(RegisterMap, DocsTableIsTheGeneratedOne) {
  std::ifstream in(std::string(GPUMEM_SOURCE_DIR) + "/docs/register-map.md");
  ASSERT_TRUE(in) << "docs/register-map.md missing";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::string begin = "<!-- BEGIN GENERATED: gpumem regmap --format markdown -->\n";
  const std::string end = "<!-- END GENERATED -->";
  const auto b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), register_map_markdown())
      << "regenerate with: gpumem regmap --format markdown";
}

// Every element of the map, named as `gpumem regs` prints it, parses back
// to its own offset; so does the offset itself.
TEST(RegisterAccess, EveryElementNameParsesBackToItsOffset) {
  size_t named = 0;
  for (uint32_t off = 0; off < kRegisterSpaceBytes + 8; off += 4) {
    const std::string name = register_element_name(off);
    if (name.empty()) {
      EXPECT_EQ(register_at(off), nullptr) << off;
      continue;
    }
    ++named;
    EXPECT_EQ(parse_register_access(name).offset, off) << name;
    EXPECT_EQ(parse_register_access(hex(off)).offset, off) << name;
    const RegisterAccess w = parse_register_access(" " + name + " = 0x1f ");
    EXPECT_TRUE(w.write);
    EXPECT_EQ(w.offset, off);
    EXPECT_EQ(w.value, 0x1fu);
  }
  size_t elements = 0;
  for (const RegisterDef& r : register_map()) elements += size_t{r.dim0} * r.dim1;
  EXPECT_EQ(named, elements);
}

// A refused access throws with its place and changes nothing; an accepted
// write prints what reads back when the register drops bits.
TEST(RegisterAccess, RefusedAccessesChangeNothingAndNameTheirPlace) {
  RegisterBank bank(register_params(bank_config()));
  const auto before = snapshot(bank);
  for (const char* text : {"TASK_SCHEME[1]=9", "ID=1", "0x0042", "0xD000", "XOR_VECTOR[0][3]=1"}) {
    std::ostringstream out;
    try {
      perform_register_access(bank, parse_register_access(text, "fw.txt", 7), out);
      ADD_FAILURE() << text << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(std::string("fw.txt:7: ") + text + ": refused: ", 0), 0u) << e.what();
    }
    EXPECT_EQ(out.str(), "");
    EXPECT_EQ(snapshot(bank), before) << text;
  }
  std::ostringstream out;
  perform_register_access(bank, parse_register_access("XOR_VECTOR[2][1]=0xffffffff"), out);
  EXPECT_EQ(out.str(), "write  XOR_VECTOR[2][1]       0x0144  0xFFFFFFFF  (reads back 0x0000001F)\n");
  uint32_t v = 0;
  ASSERT_EQ(bank.read(xor_vector_offset(2, 1), 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0x1fu);
}

TEST(RegisterBank, PrefetchRangesTakeEffectWhenEnabledAndUnsoundOnesAreRefused) {
  RegisterBank bank(register_params(bank_config()));
  auto stage = [&](uint32_t k, uint64_t base, uint64_t end) {
    EXPECT_EQ(bank.write(kRegPfRangeBaseLo + 4 * k, 4, static_cast<uint32_t>(base)), RegStatus::kOk);
    EXPECT_EQ(bank.write(kRegPfRangeBaseHi + 4 * k, 4, static_cast<uint32_t>(base >> 32)), RegStatus::kOk);
    EXPECT_EQ(bank.write(kRegPfRangeEndLo + 4 * k, 4, static_cast<uint32_t>(end)), RegStatus::kOk);
    EXPECT_EQ(bank.write(kRegPfRangeEndHi + 4 * k, 4, static_cast<uint32_t>(end >> 32)), RegStatus::kOk);
  };
  const uint64_t commits = bank.prefetch_classifier().commits;
  stage(0, 0x1'0000'0000, 0x1'0000'1000);
  stage(1, 0x1'0000'1000, 0x1'0000'2000);
  stage(2, 0x1'0000'2000, 0x1'0000'3000);
  stage(3, 0x1'0000'3000, 0x1'0000'2800);  // ends before its base
  EXPECT_FALSE(bank.prefetch_classifier().enabled) << "staged, not yet committed";
  EXPECT_EQ(bank.write(kRegPfCtrl, 4, kPfEnable), RegStatus::kBadValue);
  EXPECT_EQ(bank.staged_prefetch_problem(), "range 3 (visitedlist) does not end after its base");
  EXPECT_FALSE(bank.prefetch_classifier().enabled);
  EXPECT_EQ(bank.prefetch_classifier().commits, commits) << "a refused write changes nothing";
  stage(3, 0x1'0000'2800, 0x1'0000'4000);  // overlaps the edgelist
  EXPECT_EQ(bank.write(kRegPfCtrl, 4, kPfEnable), RegStatus::kBadValue);
  EXPECT_EQ(bank.staged_prefetch_problem(), "ranges edgelist and visitedlist overlap");
  stage(3, 0x1'0000'3000, 0x1'0000'4000);
  EXPECT_EQ(bank.write(kRegPfCtrl, 4, kPfEnable), RegStatus::kOk);
  EXPECT_TRUE(bank.prefetch_classifier().enabled);
  EXPECT_EQ(bank.prefetch_classifier().ranges[3], std::make_pair(uint64_t{0x1'0000'3000}, uint64_t{0x1'0000'4000}));
  EXPECT_GT(bank.prefetch_classifier().commits, commits);
  // Staging again changes nothing until the next commit; 0 turns it off whatever is staged.
  stage(0, 0x5000, 0x4000);
  EXPECT_EQ(bank.prefetch_classifier().ranges[0].first, 0x1'0000'0000u);
  EXPECT_EQ(bank.write(kRegPfCtrl, 4, 0), RegStatus::kOk);
  EXPECT_FALSE(bank.prefetch_classifier().enabled);
  uint32_t v = 0;
  EXPECT_EQ(bank.read(kRegVersion, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 0x0002'0004u);
}

}  // namespace
}  // namespace gpumem::test
