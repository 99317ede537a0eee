// The published baselines as matrices: each checked against its published
// definition written out by hand for one layout, bijective wherever it is
// defined, and refused with a reason where it is not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/bits.hpp"
#include "config/block_params.hpp"
#include "test_helpers.hpp"
#include "translator/baselines.hpp"
#include "translator/channel_matrix.hpp"

namespace gpumem::test {
namespace {

uint64_t bits_of(std::initializer_list<unsigned> l) {
  uint64_t r = 0;
  for (unsigned b : l) r |= bit(b);
  return r;
}

ChannelLayout field(unsigned s, unsigned m, unsigned granule_shift = 0) {
  ChannelLayout l;
  for (unsigned j = 0; j < m; ++j) l.channel_bits.push_back(s + j);
  l.channels = 1u << m;
  l.granule_shift = granule_shift ? granule_shift : s;
  return l;
}

// x^e mod P over GF(2), P of degree m given with its x^m term.
uint32_t x_power_mod(unsigned e, uint32_t p, unsigned m) {
  uint32_t r = 1;
  for (unsigned i = 0; i < e; ++i) {
    r <<= 1;
    if (r >> m) r ^= p;
  }
  return r;
}

// GPGPU-Sim's tables are the residues of the address (shifted to the channel
// field) modulo a primitive polynomial: column a[i] is x^(m+i) mod P.
TEST(Baselines, IpolyIsTheAddressModuloItsPolynomial) {
  const struct {
    unsigned m;
    uint32_t p;  // x^4+x+1, x^5+x^2+1, x^6+x+1
    unsigned higher_bits;
  } cases[] = {{4, 0x13, 13}, {5, 0x25, 15}, {6, 0x43, 19}};
  for (const auto& c : cases) {
    const BaselineMatrix b = baseline_matrix("ipoly", field(8, c.m), 64);
    ASSERT_EQ(b.why_not, "") << c.m;
    for (unsigned i = 0; i < c.higher_bits; ++i) {
      const uint32_t column = x_power_mod(c.m + i, c.p, c.m);
      for (unsigned j = 0; j < c.m; ++j)
        EXPECT_EQ((b.rows[j] >> (8 + c.m + i)) & 1u, (column >> j) & 1u) << "m " << c.m << " a[" << i << "] out " << j;
    }
    for (unsigned j = 0; j < c.m; ++j) {
      EXPECT_EQ(b.rows[j] & bits_of({8, 9, 10, 11, 12, 13}) & ((bit(c.m) - 1) << 8), bit(8 + j)) << "the index bit itself";
      EXPECT_EQ(b.rows[j] >> (8 + c.m + c.higher_bits), 0u) << "no bit above the published table";
    }
  }
}

TEST(Baselines, HandWrittenRows) {
  // GPGPU-Sim bitwise XOR, 8 channels at bit 6: ch[j] = A[6+j] ^ A[9+j].
  EXPECT_EQ(baseline_matrix("bitwise_xor", field(6, 3), 40).rows,
            (MatrixRows{bits_of({6, 9}), bits_of({7, 10}), bits_of({8, 11})}));
  // Ramulator 2 MOP4CLXOR, 64-byte transactions (T = 6), channel field at
  // T + 2 = 8: channel bits 0 and 1 XOR column bits 0 and 1 (A6, A7); with 8
  // channels bit 2 XORs column bit 2, above 3 channel + 5 rank/bank bits (A16).
  EXPECT_EQ(baseline_matrix("mop4clxor", field(8, 3, 6), 40).rows,
            (MatrixRows{bits_of({8, 6}), bits_of({9, 7}), bits_of({10, 16})}));
  // GPGPU-Sim's PAE case on the P100 layout (chip at 8, bank at 16, row at 20).
  const MatrixRows pae = baseline_matrix("pae", field(8, 5), 40).rows;
  ASSERT_EQ(pae.size(), 5u);
  EXPECT_EQ(pae[0], bits_of({8, 20 + 13, 20 + 10, 20 + 9, 20 + 5, 20 + 0, 16 + 3, 16 + 0}));
  EXPECT_EQ(pae[2], bits_of({10, 20 + 14, 20 + 9, 20 + 8, 20 + 7, 20 + 2, 16 + 1}));
  // Random: the seed decides, and the same seed gives the same matrix.
  EXPECT_EQ(baseline_matrix("random", field(8, 4), 40, 7).rows, baseline_matrix("random", field(8, 4), 40, 7).rows);
  EXPECT_NE(baseline_matrix("random", field(8, 4), 40, 7).rows, baseline_matrix("random", field(8, 4), 40, 8).rows);
}

TEST(Baselines, InvertibleWhereverDefinedAndRefusedWithAReasonElsewhere) {
  for (const std::string& name : baseline_names())
    for (unsigned m = 1; m <= 8; ++m)
      for (uint64_t seed : {1u, 2u, 3u}) {
        const ChannelLayout l = field(8, m, 6);
        const BaselineMatrix b = baseline_matrix(name, l, 48, seed);
        const bool defined = name == "ipoly" ? m >= 4 && m <= 6 : name == "pae" ? m == 5 : true;
        EXPECT_EQ(b.why_not.empty(), defined) << name << " m " << m << ": " << b.why_not;
        if (defined) {
          EXPECT_EQ(channel_matrix_problem(b.rows, l, 48), "") << name << " m " << m;
        }
      }
  EXPECT_EQ(baseline_matrix("ipoly", field(8, 3), 40).why_not,
            "ipoly is defined on 16, 32 and 64 channels (GPGPU-Sim hashing.cc); this layout has 8");
  EXPECT_EQ(baseline_matrix("ipoly", field(8, 6), 30).why_not, "ipoly reads address bit 32, beyond the 30-bit address space");
  EXPECT_EQ(baseline_matrix("mop4clxor", field(8, 2), 40).why_not,
            "mop4clxor reads address bit 6, below the 256-byte interleave granule: set translator.granule_bytes to 64 or "
            "less (requests then carry at most that many bytes)");
  ChannelLayout split = field(8, 2);
  split.channel_bits = {8, 10};
  EXPECT_EQ(baseline_matrix("bitwise_xor", split, 40).why_not,
            "bitwise_xor maps a channel field: the channel bits must be contiguous and ascending");
}

TEST(Baselines, ANamedSchemeInTheConfigIsItsMatrix) {
  const Config cfg = config_from(base_yaml(
      "translator:\n  channel_bits: [8, 9, 10, 11]\n  tasks:\n    - {task_type: 1, scheme: ipoly}\n"
      "    - {task_type: 2, scheme: random, seed: 9}\n",
      16, 40));
  EXPECT_EQ(cfg.scheme_of(1), Scheme::kMatrix);
  EXPECT_EQ(cfg.task_mapping(1)->baseline, "ipoly");
  EXPECT_EQ(cfg.task_mapping(1)->matrix_rows, baseline_matrix("ipoly", cfg.channel_layout(), 40).rows);
  EXPECT_EQ(cfg.task_mapping(2)->matrix_rows, baseline_matrix("random", cfg.channel_layout(), 40, 9).rows);
  const TranslatorRegisters regs = registers_from_config(cfg);
  EXPECT_EQ(regs.matrix_row[1][3], cfg.task_mapping(1)->matrix_rows[3]);

  const Config mop = config_from(base_yaml(
      "translator:\n  channel_bits: [8, 9]\n  granule_bytes: 64\n  tasks: [{task_type: 0, scheme: mop4clxor}]\n", 4, 40));
  EXPECT_EQ(mop.granule_bytes(), 64u);
  EXPECT_EQ(mop.max_request_bytes(), 64u);
  EXPECT_TRUE(input_error_at(
      [] { parse_config(base_yaml("translator:\n  channel_bits: [8, 9]\n  tasks: [{task_type: 0, scheme: pae}]\n", 4, 40), "p.yaml"); },
      "p.yaml", 4, "translator.tasks[0].scheme", "pae (GPGPU-Sim's PAE case) is defined on 32 channels only; this layout has 4"));
  EXPECT_TRUE(input_error_at(
      [] { parse_config(base_yaml("translator:\n  channel_bits: [8, 9]\n  tasks: [{task_type: 0, scheme: ipoly, seed: 3}]\n", 4, 40), "p.yaml"); },
      "p.yaml", 4, "translator.tasks[0].seed", "only scheme random takes a seed"));
  EXPECT_TRUE(input_error_at(
      [] { parse_config(base_yaml("translator:\n  channel_bits: [8, 9]\n  granule_bytes: 512\n", 4, 40), "p.yaml"); },
      "p.yaml", 4, "translator.granule_bytes", "with channel bits the granule is at most 2^8 bytes"));
}

}  // namespace
}  // namespace gpumem::test
