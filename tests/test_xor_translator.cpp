// The XOR mapping and the channel decoder: exhaustive bijection on small
// widths, involution, page isolation, and agreement with the definition
// b'[c_j] = b[c_j] ^ XOR_i (a[t][j][i] & b[p_i]) written out bit by bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "params/block_params.hpp"
#include "router/channel_decoder.hpp"
#include "test_helpers.hpp"
#include "base/channel_matrix.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem::test {
namespace {

constexpr unsigned kWidth = 16;  // exhaustive over 2^16 addresses

// Random valid xor config: m channel bits below the 4 KB page, K candidate bits anywhere else.
Config random_xor_config(std::mt19937_64& rng, unsigned m, unsigned k) {
  std::vector<unsigned> low(12), all(kWidth);
  std::iota(low.begin(), low.end(), 0);
  std::shuffle(low.begin(), low.end(), rng);
  Config cfg;
  cfg.memory.address_bits = kWidth;
  cfg.memory.channels = 1u << m;
  cfg.translator.channel_bits.assign(low.begin(), low.begin() + m);
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  for (unsigned b : all)
    if (cfg.translator.candidate_bits.size() < k &&
        std::find(cfg.translator.channel_bits.begin(), cfg.translator.channel_bits.end(), b) == cfg.translator.channel_bits.end())
      cfg.translator.candidate_bits.push_back(b);
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    TaskMapping tm{t, Scheme::kXor, {}, {}, "", 1};
    for (unsigned j = 0; j < m; ++j) tm.xor_vectors.push_back(static_cast<uint32_t>(rng() & ((1u << k) - 1)));
    cfg.translator.tasks.push_back(tm);
  }
  return cfg;
}

uint64_t reference_map(const Config& cfg, const TranslatorRegisters& regs, uint64_t b, unsigned t) {
  uint64_t out = b;
  const auto& c = cfg.translator.channel_bits;
  const auto& p = cfg.translator.candidate_bits;
  for (size_t j = 0; j < c.size(); ++j) {
    unsigned x = (b >> c[j]) & 1u;
    for (size_t i = 0; i < p.size(); ++i) x ^= ((regs.xor_vector[t][j] >> i) & 1u) & ((b >> p[i]) & 1u);
    out = (out & ~(uint64_t{1} << c[j])) | (uint64_t{x} << c[j]);
  }
  return out;
}

TEST(XorTranslator, ExhaustiveBijectionInvolutionAndIsolationOverManyConfigs) {
  std::mt19937_64 rng(2024);
  for (int round = 0; round < 24; ++round) {
    const unsigned m = 1 + round % 3, k = 1 + (round * 5) % 8;
    const Config cfg = random_xor_config(rng, m, k);
    const TranslatorRegisters regs = registers_from_config(cfg);
    XorTranslator tr(translator_params(cfg), regs);
    const unsigned t = round % kMaxTaskTypes;
    std::vector<bool> seen(1u << kWidth, false);
    for (uint64_t a = 0; a < (1u << kWidth); ++a) {
      const uint64_t b = tr.map(a, t);
      ASSERT_LT(b, 1u << kWidth);
      ASSERT_FALSE(seen[b]) << "two addresses map to 0x" << std::hex << b << " in round " << std::dec << round;
      seen[b] = true;
      ASSERT_EQ(tr.map(b, t), a) << "not an involution";
      ASSERT_EQ(tr.unmap(b, t), a);
      ASSERT_EQ(b >> 12, a >> 12) << "left its 4 KB page";
      ASSERT_EQ(b, reference_map(cfg, regs, a, t));
    }
  }
}

TEST(XorTranslator, OnlyChannelBitsChange) {
  std::mt19937_64 rng(7);
  const Config cfg = random_xor_config(rng, 3, 6);
  const TranslatorRegisters regs = registers_from_config(cfg);
  XorTranslator tr(translator_params(cfg), regs);
  uint64_t channel_mask = 0;
  for (unsigned c : cfg.translator.channel_bits) channel_mask |= uint64_t{1} << c;
  for (uint64_t a = 0; a < (1u << kWidth); a += 7) EXPECT_EQ(tr.map(a, 3) & ~channel_mask, a & ~channel_mask);
}

TEST(XorTranslator, InterleaveDisableMeansIdentityForEveryTask) {
  std::mt19937_64 rng(3);
  const Config cfg = random_xor_config(rng, 3, 8);
  TranslatorRegisters regs = registers_from_config(cfg);
  XorTranslator tr(translator_params(cfg), regs);
  bool any_moved = false;
  for (uint64_t a = 0; a < 4096 * 8; a += 64) any_moved |= tr.map(a, 5) != a;
  ASSERT_TRUE(any_moved);
  regs.interleave_enable = false;
  ++regs.generation;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t)
    for (uint64_t a = 0; a < 4096 * 8; a += 64) ASSERT_EQ(tr.map(a, t), a);
  EXPECT_EQ(tr.scheme(5), Scheme::kNone);
}

TEST(XorTranslator, RegisterRewriteTakesEffectOnNextRequest) {
  const Config cfg = config_from(base_yaml(
      "translator: {channel_bits: [8, 9, 10], candidate_bits: [11, 12, 13],"
      " tasks: [{task_type: 0, scheme: xor, xor_vectors: [1, 2, 4]}]}"));
  TranslatorRegisters regs = registers_from_config(cfg);
  XorTranslator tr(translator_params(cfg), regs);
  EXPECT_EQ(tr.map(0x800, 0), 0x900u);  // bit 11 -> channel bit 8
  regs.xor_vector[0] = {0, 0, 0};
  ++regs.generation;
  EXPECT_EQ(tr.map(0x800, 0), 0x800u);
}

TEST(XorTranslator, Table1VectorsSpreadSevenGranulesOverSevenChannels) {
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/table1-xor.yaml");
  const TranslatorRegisters regs = registers_from_config(cfg);
  XorTranslator tr(translator_params(cfg), regs);
  ChannelDecoder dec(cfg.channel_layout());
  std::vector<unsigned> channels;
  for (uint64_t g = 0; g <= 48; g += 8) channels.push_back(dec.channel(tr.map(g * 256, 0)));
  EXPECT_EQ(channels, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(ChannelDecoder, ComposeInvertsChannelAndLocalForBitAndRowLayouts) {
  const std::vector<std::string> translators = {
      "translator: {channel_bits: [8, 9, 10], candidate_bits: [12]}",
      "translator: {channel_bits: [11, 6, 9], candidate_bits: [12]}",  // non-contiguous, unordered
  };
  for (const auto& t : translators) {
    const Config cfg = config_from(base_yaml(t, 8, 16));
    ChannelDecoder d(cfg.channel_layout());
    std::vector<bool> seen(1u << kWidth, false);
    for (uint64_t a = 0; a < (1u << kWidth); ++a) {
      const unsigned c = d.channel(a);
      const uint64_t l = d.local(a);
      ASSERT_LT(c, 8u);
      ASSERT_LT(l, (1u << kWidth) / 8);
      ASSERT_EQ(d.compose(c, l), a) << t;
      const uint64_t key = l * 8 + c;
      ASSERT_FALSE(seen[key]);
      seen[key] = true;
    }
  }
  const Config six = config_from(base_yaml("translator: {granule_bytes: 256}", 6, 16));
  ChannelDecoder d(six.channel_layout());
  for (uint64_t a = 0; a < 6 * 256 * 40; ++a) ASSERT_EQ(d.compose(d.channel(a), d.local(a)), a);
}

// A granule below the channel field (translator.granule_bytes, for
// mop4clxor) must not move the field the decoder reads.
TEST(ChannelDecoder, AGranuleBelowTheChannelFieldKeepsTheField) {
  const Config cfg = config_from(base_yaml("translator: {channel_bits: [8, 9], granule_bytes: 64}", 4, 32));
  const ChannelDecoder d(cfg.channel_layout());
  EXPECT_EQ(d.channel(0x100), 1u);
  EXPECT_EQ(d.channel(0x240), 2u);
  EXPECT_EQ(d.local(0x3C0), 0xC0u);
  EXPECT_EQ(d.compose(d.channel(0x12345), d.local(0x12345)), 0x12345u);
  EXPECT_TRUE(d.in_one_granule(0x80, 64));
  EXPECT_FALSE(d.in_one_granule(0x80, 128)) << "crosses a 64-byte granule";
}

TEST(ChannelDecoder, ChannelBitJIsChannelIndexBitJ) {
  const Config cfg = config_from(base_yaml("translator: {channel_bits: [11, 6, 9], candidate_bits: [12]}", 8, 16));
  ChannelDecoder d(cfg.channel_layout());
  EXPECT_EQ(d.channel(1u << 11), 1u);
  EXPECT_EQ(d.channel(1u << 6), 2u);
  EXPECT_EQ(d.channel(1u << 9), 4u);
}

TEST(PrimeScheme, ChannelIsGranuleTimesPrimeModNAndBijectiveInEachRow) {
  for (unsigned prime : {3u, 5u, 7u, 11u}) {
    const Config cfg = config_from(base_yaml("translator: {channel_bits: [8, 9, 10], candidate_bits: [12], prime: " +
                                                 std::to_string(prime) + ", tasks: [{task_type: 2, scheme: prime}]}",
                                             8, 16));
    const TranslatorRegisters regs = registers_from_config(cfg);
    XorTranslator tr(translator_params(cfg), regs);
    ChannelDecoder d(cfg.channel_layout());
    std::vector<bool> seen(1u << kWidth, false);
    for (uint64_t a = 0; a < (1u << kWidth); ++a) {
      const uint64_t m = tr.map(a, 2);
      ASSERT_EQ(d.channel(m), ((a >> 8) * prime) % 8);
      ASSERT_FALSE(seen[m]);
      seen[m] = true;
      ASSERT_EQ(tr.unmap(m, 2), a);
      ASSERT_EQ(m >> 11, a >> 11) << "left its row of 8 granules";
    }
  }
}

TEST(PrimeScheme, NonPowerOfTwoChannelCount) {
  const Config cfg = config_from(base_yaml(
      "translator: {granule_bytes: 256, prime: 5, default_scheme: prime}", 6, 32));
  const TranslatorRegisters regs = registers_from_config(cfg);
  XorTranslator tr(translator_params(cfg), regs);
  ChannelDecoder d(cfg.channel_layout());
  const uint64_t span = 6 * 256 * 64;
  std::vector<bool> seen(span, false);
  std::vector<unsigned> per_channel(6, 0);
  for (uint64_t a = 0; a < span; ++a) {
    const uint64_t m = tr.map(a, 1);
    ASSERT_LT(m, span);
    ASSERT_EQ(d.channel(m), ((a >> 8) * 5) % 6);
    ASSERT_FALSE(seen[m]);
    seen[m] = true;
    ASSERT_EQ(tr.unmap(m, 1), a);
    ++per_channel[d.channel(m)];
  }
  for (unsigned n : per_channel) EXPECT_EQ(n, span / 6);
}

// Issue 8, case 3: with 64-byte granules and 5 channels the last row of a
// 16-, 40- or 64-bit space holds 4 granules, not 5 (2^10, 2^34 and 2^58 are
// 4 mod 5). Moving one to slot 4 would leave the space, or with 64 bits wrap
// onto address 0: the incomplete row maps to itself.
TEST(PrimeScheme, IncompleteLastRowMapsToItselfInsideTheSpace) {
  for (unsigned bits : {16u, 40u, 64u}) {
    SCOPED_TRACE(bits);
    const Config cfg = config_from(base_yaml("translator: {granule_bytes: 64, prime: 3, default_scheme: prime}", 5, bits));
    const TranslatorRegisters regs = registers_from_config(cfg);
    XorTranslator tr(translator_params(cfg), regs);
    ChannelDecoder d(cfg.channel_layout());
    const unsigned __int128 granules = (unsigned __int128)1 << (bits - 6);
    const uint64_t full = static_cast<uint64_t>(granules - granules % 5);  // first granule of the incomplete row
    ASSERT_NE(granules % 5, 0u) << "the case needs an incomplete last row";
    const uint64_t top = static_cast<uint64_t>((granules - 1) << 6);      // last granule's address
    std::set<uint64_t> mapped;
    for (uint64_t g = full - 5; g != static_cast<uint64_t>(granules); ++g) {  // the last full row and the partial one
      const uint64_t a = (g << 6) | 0x28;
      const uint64_t m = tr.map(a, 0);
      EXPECT_LE(m, top | 0x3F) << "left the space";
      EXPECT_EQ(m >> 6 >= full, g >= full) << "the partial row and the full rows trade granules";
      if (g >= full) {
        EXPECT_EQ(m, a) << "a granule of the incomplete row moved";
      } else {
        EXPECT_EQ(d.channel(m), (g % 5) * 3 % 5) << "the last full row is permuted like every other";
      }
      EXPECT_TRUE(mapped.insert(m).second) << "two addresses share 0x" << std::hex << m;
      EXPECT_EQ(tr.unmap(m, 0), a);
      EXPECT_EQ(d.compose(d.channel(m), d.local(m)), m);
    }
    EXPECT_NE(tr.map(top, 0), tr.map(0, 0)) << "the top granule must not share storage with address 0";
  }
}

// A random matrix with an invertible channel part: A = L * U with unit
// triangular L and U (always invertible), plus random other bits in
// [granule, width).
MatrixRows random_invertible_rows(std::mt19937_64& rng, const std::vector<unsigned>& c, unsigned width) {
  const size_t m = c.size();
  std::vector<uint32_t> l(m), u(m);
  for (size_t j = 0; j < m; ++j) {
    l[j] = (1u << j) | (static_cast<uint32_t>(rng()) & ((1u << j) - 1));
    u[j] = (1u << j) | (static_cast<uint32_t>(rng()) & ~((2u << j) - 1) & ((1u << m) - 1));
  }
  const unsigned low = *std::min_element(c.begin(), c.end());
  uint64_t channel_mask = 0;
  for (unsigned b : c) channel_mask |= uint64_t{1} << b;
  MatrixRows rows(m, 0);
  for (size_t j = 0; j < m; ++j) {
    uint32_t a = 0;  // row j of L * U
    for (size_t k = 0; k < m; ++k)
      if ((l[j] >> k) & 1u) a ^= u[k];
    for (size_t k = 0; k < m; ++k)
      if ((a >> k) & 1u) rows[j] |= uint64_t{1} << c[k];
    rows[j] |= (rng() << low) & ((uint64_t{1} << width) - 1) & ~channel_mask;
  }
  return rows;
}

// Channel bits below the 4 KB page, rows reading any bit from the granule up
// (bits above the page too: they select, they are never moved).
TEST(MatrixScheme, ExhaustiveBijectionExactInverseAndIsolation) {
  std::mt19937_64 rng(77);
  for (int round = 0; round < 16; ++round) {
    const unsigned m = 1 + round % 4;
    std::vector<unsigned> low(12 - 4);
    std::iota(low.begin(), low.end(), 4);
    std::shuffle(low.begin(), low.end(), rng);
    Config cfg;
    cfg.memory.address_bits = kWidth;
    cfg.memory.channels = 1u << m;
    cfg.translator.channel_bits.assign(low.begin(), low.begin() + m);
    const MatrixRows rows = random_invertible_rows(rng, cfg.translator.channel_bits, kWidth);
    ASSERT_EQ(channel_matrix_problem(rows, cfg.channel_layout(), kWidth), "") << round;
    cfg.translator.tasks.push_back({3, Scheme::kMatrix, {}, rows, "", 1});
    const TranslatorRegisters regs = registers_from_config(cfg);
    XorTranslator tr(translator_params(cfg), regs);
    std::vector<bool> seen(size_t{1} << kWidth);
    for (uint64_t a = 0; a < (uint64_t{1} << kWidth); ++a) {
      const uint64_t b = tr.map(a, 3);
      ASSERT_EQ(b, apply_channel_matrix(rows, cfg.translator.channel_bits, a)) << "the definition, round " << round;
      ASSERT_FALSE(seen[b]) << "two addresses share 0x" << std::hex << b;
      seen[b] = true;
      ASSERT_EQ(b >> 12, a >> 12) << "moved across a 4 KB page";
      ASSERT_EQ(tr.unmap(b, 3), a) << "round " << round;
    }
  }
}

TEST(MatrixScheme, XorIsTheSpecialCaseWithTheChannelBitOnItsOwnRow) {
  std::mt19937_64 rng(5);
  Config cfg = random_xor_config(rng, 3, 6);
  const TranslatorRegisters xor_regs = registers_from_config(cfg);
  const TaskMapping& t5 = cfg.translator.tasks[5];
  Config as_matrix = cfg;
  as_matrix.translator.tasks[5] = {5, Scheme::kMatrix, {},
                                   xor_vectors_as_matrix(t5.xor_vectors, cfg.translator.channel_bits, cfg.translator.candidate_bits), "", 1};
  const TranslatorRegisters matrix_regs = registers_from_config(as_matrix);
  XorTranslator x(translator_params(cfg), xor_regs), mx(translator_params(as_matrix), matrix_regs);
  for (uint64_t a = 0; a < (uint64_t{1} << kWidth); a += 7) {
    ASSERT_EQ(mx.map(a, 5), x.map(a, 5));
    ASSERT_EQ(mx.unmap(a, 5), x.unmap(a, 5));
  }
}

TEST(MatrixScheme, ProblemsNameTheRowAndTheReason) {
  const ChannelLayout layout{{8, 9}, 4, 8};
  int row = 9;
  EXPECT_EQ(channel_matrix_problem({0x100 | 0x1000, 0x200}, layout, 40, &row), "");
  EXPECT_EQ(row, -1);
  EXPECT_EQ(channel_matrix_problem({0x100}, layout, 40, &row), "1 rows for 2 channel bits");
  EXPECT_EQ(channel_matrix_problem({0x100, 0x0}, layout, 40, &row), "row 1 is empty: channel bit 9 would always be 0");
  EXPECT_EQ(row, 1);
  EXPECT_EQ(channel_matrix_problem({0x100 | 0x40, 0x200}, layout, 40, &row),
            "row 0 reads bit 6, inside the 256-byte interleave granule: bytes of one request would map to different channels");
  EXPECT_EQ(row, 0);
  EXPECT_EQ(channel_matrix_problem({0x100, 0x200 | (uint64_t{1} << 40)}, layout, 40, &row),
            "row 1 reads bit 40, beyond the 40-bit address space");
  // Rows 8^12 and 9^8^12 restricted to {8, 9} are 01 and 11: invertible; 8 and 8^12: rank 1.
  EXPECT_EQ(channel_matrix_problem({0x1100, 0x1300}, layout, 40), "");
  EXPECT_EQ(channel_matrix_problem({0x100, 0x1100}, layout, 40, &row),
            "not invertible: restricted to the channel bits the rows have GF(2) rank 1 of 2, so two addresses of one page "
            "would share a location");
  EXPECT_EQ(row, -1);
  EXPECT_EQ(channel_matrix_rank({0x100, 0x1100}, {8, 9}), 1u);
  EXPECT_EQ(matrix_row_text(0x1300), "[8, 9, 12]");
}

// A singular matrix maps two addresses of a page to one location: what the
// load-time check prevents (a mapping must be a bijection in each page).
TEST(MatrixScheme, ASingularMatrixWouldCollide) {
  const std::vector<unsigned> c{8, 9};
  const MatrixRows singular{0x100, 0x1100};
  EXPECT_EQ(apply_channel_matrix(singular, c, 0x000), apply_channel_matrix(singular, c, 0x200));
}

// The router's guard: an access that straddles a granule would be stored in
// one channel at the wrong place, so the decoder says so and the router refuses it.
TEST(ChannelDecoder, InOneGranuleOnlyWhenNoChannelBitOrRowSlotChanges) {
  const Config bits = config_from(base_yaml("translator: {channel_bits: [3, 7]}", 4, 32));
  const ChannelDecoder d(bits.channel_layout());
  EXPECT_TRUE(d.in_one_granule(0x0, 8));
  EXPECT_TRUE(d.in_one_granule(0x78, 8));
  EXPECT_FALSE(d.in_one_granule(0x4, 8)) << "crosses channel bit 3";
  EXPECT_FALSE(d.in_one_granule(0x70, 16));
  EXPECT_FALSE(d.in_one_granule(~uint64_t{0} - 3, 8)) << "wraps past 2^64";
  const Config rows = config_from(base_yaml("translator: {granule_bytes: 64}", 3, 32));
  const ChannelDecoder r(rows.channel_layout());
  EXPECT_TRUE(r.in_one_granule(0x40, 64));
  EXPECT_FALSE(r.in_one_granule(0x60, 64));
  const ChannelDecoder one(config_from(base_yaml("", 1, 32)).channel_layout());
  EXPECT_TRUE(one.in_one_granule(0x7, 4096));
}

}  // namespace
}  // namespace gpumem::test
