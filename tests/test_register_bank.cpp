// Register bank: map decode, access rules, and "a rejected access changes
// nothing" checked by snapshotting every readable register around it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

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
  RegisterBank bank(bank_config());
  uint32_t v = 0;
  ASSERT_EQ(bank.read(kRegId, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, kIdValue);
  ASSERT_EQ(bank.read(kRegChannels, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 8u);
  ASSERT_EQ(bank.read(kRegCandidateBits, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, 5u);
  ASSERT_EQ(bank.read(kRegCtrl, 4, v), RegStatus::kOk);
  EXPECT_EQ(v, kCtrlInterleaveEnable);
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    ASSERT_EQ(bank.read(kRegTaskScheme + 4 * t, 4, v), RegStatus::kOk);
    EXPECT_EQ(v, 0u);
  }
}

TEST(RegisterBank, ReadableRegisterCountMatchesTheMap) {
  RegisterBank bank(bank_config());
  // 8 scalars + 16 schemes + 16 process task types + 16*3 vectors + 3*8 VA
  // range registers + 2 * 16*8 counters
  EXPECT_EQ(snapshot(bank).size(), 8u + 16u + 16u + 16u * 3u + 3u * 8u + 2u * 16u * 8u);
}

TEST(RegisterBank, WritesReachTheTranslatorView) {
  RegisterBank bank(bank_config());
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
  RegisterBank bank(bank_config());
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
      {"write to CHANNELS", kRegChannels, 4, true, 16, RegStatus::kReadOnly},
      {"misaligned CTRL", kRegCtrl + 1, 4, true, 0, RegStatus::kMisaligned},
      {"misaligned read", kRegTaskScheme + 2, 4, false, 0, RegStatus::kMisaligned},
      {"16-bit write", kRegCtrl, 2, true, 0, RegStatus::kBadWidth},
      {"64-bit read", kRegCtrl, 8, false, 0, RegStatus::kBadWidth},
      {"byte write to a vector", xor_vector_offset(1, 0), 1, true, 0xFF, RegStatus::kBadWidth},
      {"scheme value 3", kRegTaskScheme + 4, 4, true, 3, RegStatus::kBadValue},
  };
  for (const auto& c : cases) {
    RegisterBank bank(bank_config());
    ASSERT_EQ(bank.write(xor_vector_offset(1, 0), 4, 0x3), RegStatus::kOk);
    bank.count(2, 5, 64);
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
  RegisterBank no_prime(config_from(base_yaml("translator: {channel_bits: [8, 9, 10], candidate_bits: [11]}")));
  EXPECT_EQ(no_prime.write(kRegTaskScheme, 4, static_cast<uint32_t>(Scheme::kPrime)), RegStatus::kBadValue);
  RegisterBank six(config_from(base_yaml("translator: {granule_bytes: 256}", 6)));
  EXPECT_EQ(six.write(kRegTaskScheme, 4, static_cast<uint32_t>(Scheme::kXor)), RegStatus::kBadValue);
  // Prime on a channel field that is not contiguous is not (G * P) mod N.
  RegisterBank split(config_from(base_yaml("translator: {channel_bits: [8, 11], prime: 3}", 4)));
  EXPECT_EQ(split.write(kRegTaskScheme, 4, static_cast<uint32_t>(Scheme::kPrime)), RegStatus::kBadValue);
  // Six channels: a row of granules crosses pages, so one scheme for all task
  // types; a write that would mix none and prime is refused.
  RegisterBank mixed(config_from(base_yaml("translator: {granule_bytes: 256, prime: 5}", 6)));
  EXPECT_EQ(mixed.translator_registers().scheme[1], Scheme::kNone);
  EXPECT_EQ(mixed.write(kRegTaskScheme + 4, 4, static_cast<uint32_t>(Scheme::kPrime)), RegStatus::kBadValue);
  EXPECT_EQ(mixed.write(kRegTaskScheme + 4, 4, static_cast<uint32_t>(Scheme::kNone)), RegStatus::kOk);
  RegisterBank all_prime(config_from(base_yaml("translator: {granule_bytes: 256, prime: 5, default_scheme: prime}", 6)));
  EXPECT_EQ(all_prime.translator_registers().scheme[9], Scheme::kPrime) << "resets to the configured scheme";
}

TEST(RegisterBank, CountersCountAndClearOnWrite) {
  RegisterBank bank(bank_config());
  bank.count(3, 7, 64);
  bank.count(3, 7, 32);
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

}  // namespace
}  // namespace gpumem::test
