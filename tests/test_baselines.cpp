// The published baselines as matrices: each checked against its published
// definition written out by hand for one layout, mapping golden vectors to the
// channel the source's own formula gives, bijective wherever it is defined,
// and refused with a reason where it is not.
#include <gtest/gtest.h>

#include <bitset>
#include <string>
#include <vector>

#include "base/bits.hpp"
#include "params/block_params.hpp"
#include "router/channel_decoder.hpp"
#include "test_helpers.hpp"
#include "base/baselines.hpp"
#include "base/channel_matrix.hpp"
#include "translator/xor_translator.hpp"

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

// IPOLY per channel-bit count m: its polynomial P (with the x^m term) and how
// many bits above the channel field GPGPU-Sim's equations name.
struct IpolyCase {
  unsigned m;
  uint32_t p;  // x^4+x+1, x^5+x^2+1, x^6+x+1
  unsigned higher_bits;
};
constexpr IpolyCase kIpolyCases[] = {{4, 0x13, 13}, {5, 0x25, 15}, {6, 0x43, 19}};

// GPGPU-Sim's tables are the residues of the address (shifted to the channel
// field) modulo a primitive polynomial: column a[i] is x^(m+i) mod P.
TEST(Baselines, IpolyIsTheAddressModuloItsPolynomial) {
  for (const auto& c : kIpolyCases) {
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
  // GPGPU-Sim's PAE case on the P100 layout (chip at 8, bank at 16, 13 row
  // bits at 20): the equations' row bits 13 and 14 lie outside the row field.
  const MatrixRows pae = baseline_matrix("pae", field(8, 5), 40).rows;
  ASSERT_EQ(pae.size(), 5u);
  EXPECT_EQ(pae[0], bits_of({8, 20 + 10, 20 + 9, 20 + 5, 20 + 0, 16 + 3, 16 + 0}));
  EXPECT_EQ(pae[2], bits_of({10, 20 + 9, 20 + 8, 20 + 7, 20 + 2, 16 + 1}));
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

// ---------------------------------------------------------------- golden vectors
// The model's channel for an address, through the whole path a run takes: the
// config names the baseline, the registers it programs drive the translator,
// the router's decoder reads the channel. The channel field at bit 8 (the
// P100 configuration's chip field); 64 KB pages, so 256 channels fit below
// one; a 64-byte granule, since mop4clxor reads the two bits under the field;
// 64-bit addresses, so every bit is in the space.
constexpr unsigned kFieldAt = 8;

class ModelChannel {
 public:
  ModelChannel(const std::string& scheme, unsigned m)
      : cfg_(config_from(base_yaml("mmu: {page_sizes: [65536]}\ntranslator:\n  channel_bits: " + field_text(m) +
                                       "\n  granule_bytes: 64\n  tasks: [{task_type: 0, scheme: " + scheme + "}]\n",
                                   1u << m, 64))),
        regs_(registers_from_config(cfg_)),
        translator_(translator_params(cfg_), regs_),
        decoder_(cfg_.channel_layout()) {}
  unsigned operator()(uint64_t address) { return decoder_.channel(translator_.map(address, 0)); }

 private:
  static std::string field_text(unsigned m) {
    std::string t = "[";
    for (unsigned j = 0; j < m; ++j) t += (j ? ", " : "") + std::to_string(kFieldAt + j);
    return t + "]";
  }
  Config cfg_;
  TranslatorRegisters regs_;
  XorTranslator translator_;
  ChannelDecoder decoder_;
};

// Every definition below is XORs of address bits, and so is the model: two
// such maps that agree on each single-bit address agree on all 2^64. The
// dense addresses, above 2^33 and at the top of the space, check that on a few.
std::vector<uint64_t> golden_addresses() {
  std::vector<uint64_t> a{0,
                          0x0000'0000'0000'1f00,
                          0x0000'0001'ffff'ff00,
                          0x0000'0002'0000'0000,
                          0x0000'0006'0010'0300,
                          0x0000'00ff'fff0'0000,
                          0x1234'5678'9abc'def0,
                          0xdead'beef'cafe'f00d,
                          0x8000'0000'0000'0000,
                          0xffff'ffff'0000'0000,
                          0xffff'ffff'ffff'ff00,
                          0xffff'ffff'ffff'ffff};
  for (unsigned b = 0; b < 64; ++b) a.push_back(bit(b));
  return a;
}

// GPGPU-Sim, IPOLY (Rau): the chip field and the `higher_bits` bits above it
// that its equations name, as a polynomial over GF(2), modulo P.
unsigned gpgpusim_ipoly(uint64_t address, const IpolyCase& c) {
  const unsigned width = c.m + c.higher_bits;
  uint64_t r = (address >> kFieldAt) & (bit(width) - 1);
  for (unsigned i = width; i-- > c.m;)
    if ((r >> i) & 1u) r ^= uint64_t{c.p} << (i - c.m);
  return static_cast<unsigned>(r);
}

// GPGPU-Sim, bitwise XOR: the chip field XOR as many bits just above it.
unsigned gpgpusim_bitwise_xor(uint64_t address, unsigned m) {
  return static_cast<unsigned>(((address >> kFieldAt) ^ (address >> (kFieldAt + m))) & (bit(m) - 1));
}

// Ramulator 2, MOP4CLXOR, on DDR4_8Gb_x8 with 2 ranks: 64-byte transactions
// (T = 6); above T, 2 column bits, the channel, rank (1 bit), bank group (2),
// bank (2), the other 5 of the 7 column bits. The channel XORs the column's
// low bits.
unsigned ramulator_mop4clxor(uint64_t address, unsigned m) {
  uint64_t x = address >> 6;
  uint64_t column = x & 3;
  x >>= 2;
  const uint64_t channel = x & (bit(m) - 1);
  x >>= m + 1 + 2 + 2;
  column |= (x & 31) << 2;
  return static_cast<unsigned>((channel ^ column) & (bit(m) - 1));
}

// GPGPU-Sim's PAE case (addrdec.cc, 2018-2020) on the SM6_P100 address map,
// "dramid@8;...0000RRRR.RRRRRRRR.RBBBBCCC.CCCSSSSS": the string's bank bits
// 14..11 and row bits 27..15 move up past the 5 chip bits inserted at bit 8,
// to 19..16 and 32..20. The row is packed into 13 bits, so the equations'
// a[13] and a[14] are 0.
unsigned gpgpusim_pae(uint64_t address) {
  const std::bitset<64> a((address >> 20) & 0x1fff);
  const std::bitset<4> b(address >> 16);
  std::bitset<5> chip(address >> 8);
  chip[0] = a[13] ^ a[10] ^ a[9] ^ a[5] ^ a[0] ^ b[3] ^ b[0] ^ chip[0];
  chip[1] = a[12] ^ a[11] ^ a[6] ^ a[1] ^ b[3] ^ b[2] ^ b[1] ^ chip[1];
  chip[2] = a[14] ^ a[9] ^ a[8] ^ a[7] ^ a[2] ^ b[1] ^ chip[2];
  chip[3] = a[11] ^ a[10] ^ a[8] ^ a[3] ^ b[2] ^ b[3] ^ chip[3];
  chip[4] = a[12] ^ a[9] ^ a[8] ^ a[5] ^ a[4] ^ b[1] ^ b[0] ^ chip[4];
  return static_cast<unsigned>(chip.to_ulong());
}

TEST(Baselines, IpolyMapsAsGpgpuSim) {
  for (const IpolyCase& c : kIpolyCases) {
    ModelChannel model("ipoly", c.m);
    for (const uint64_t a : golden_addresses())
      EXPECT_EQ(model(a), gpgpusim_ipoly(a, c)) << (1u << c.m) << " channels, address 0x" << std::hex << a;
  }
}

TEST(Baselines, BitwiseXorMapsAsGpgpuSim) {
  for (unsigned m = 1; m <= 8; ++m) {
    ModelChannel model("bitwise_xor", m);
    for (const uint64_t a : golden_addresses())
      EXPECT_EQ(model(a), gpgpusim_bitwise_xor(a, m)) << (1u << m) << " channels, address 0x" << std::hex << a;
  }
}

TEST(Baselines, Mop4clxorMapsAsRamulator2) {
  for (unsigned m = 1; m <= 8; ++m) {
    ModelChannel model("mop4clxor", m);
    for (const uint64_t a : golden_addresses())
      EXPECT_EQ(model(a), ramulator_mop4clxor(a, m)) << (1u << m) << " channels, address 0x" << std::hex << a;
  }
}

TEST(Baselines, PaeMapsAsGpgpuSimOnTheP100Layout) {
  ModelChannel model("pae", 5);
  for (const uint64_t a : golden_addresses())
    EXPECT_EQ(model(a), gpgpusim_pae(a)) << "address 0x" << std::hex << a;
  // By hand: bits 33 and 34 lie above the row field, so no chip bit sees them;
  // bank bit 0 (bit 16) flips chip bits 0 and 4.
  EXPECT_EQ(model(bit(33)), 0u);
  EXPECT_EQ(model(bit(34)), 0u);
  EXPECT_EQ(model(bit(16)), 0b10001u);
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
