#include "base/baselines.hpp"

#include <algorithm>
#include <random>

#include "base/bits.hpp"

namespace gpumem {

namespace {

// GPGPU-Sim, src/gpgpu-sim/hashing.cc, ipoly_hash_function: output bit j is
// index bit j XOR the higher bits a[i] for i in S_j, for 16, 32 and 64
// sub-partitions. (Each column a[i] is x^(m+i) mod P(x), P = x^4+x+1,
// x^5+x^2+1, x^6+x+1; tests/test_baselines.cpp checks that.)
const std::vector<std::vector<std::vector<unsigned>>>& ipoly_sets() {
  static const std::vector<std::vector<std::vector<unsigned>>> sets = {
      // m = 4
      {{0, 3, 4, 6, 8, 9, 10, 11}, {0, 1, 3, 5, 6, 7, 8, 12}, {1, 2, 4, 6, 7, 8, 9}, {2, 3, 5, 7, 8, 9, 10}},
      // m = 5
      {{0, 3, 5, 6, 9, 10, 11, 12, 13},
       {1, 4, 6, 7, 10, 11, 12, 13, 14},
       {0, 2, 3, 6, 7, 8, 9, 10, 14},
       {1, 3, 4, 7, 8, 9, 10, 11},
       {2, 4, 5, 8, 9, 10, 11, 12}},
      // m = 6
      {{0, 5, 6, 10, 12, 15, 16, 17, 18},
       {0, 1, 5, 7, 10, 11, 12, 13, 15},
       {1, 2, 6, 8, 11, 12, 13, 14, 16},
       {2, 3, 7, 9, 12, 13, 14, 15, 17},
       {3, 4, 8, 10, 13, 14, 15, 16, 18},
       {4, 5, 9, 11, 14, 15, 16, 17}},
  };
  return sets;
}

// GPGPU-Sim's PAE case (addrdec.cc, addrdec_tlx, 2018 to 2020), 32 channels:
// chip bit j XOR bits a[i] of the decoded row and b[k] of the decoded bank.
// No shipped configuration selects PAE; the layout here is SM6_P100's, the
// only 32-channel one shipped with it (chip at bit 8, bank at 16, 13 row bits
// at 20), moved with the channel field: bank at s + 8, row at s + 12, so that
// pae is defined on any 32-channel field (the source's map fixes them; the
// two agree at s = 8). A 13-bit row has no a[13] or a[14], which the
// equations also name: they are left out, as the source never sees them.
struct PaeRow {
  std::vector<unsigned> row, bank;
};
const std::vector<PaeRow>& pae_rows() {
  static const std::vector<PaeRow> rows = {
      {{10, 9, 5, 0}, {3, 0}},
      {{12, 11, 6, 1}, {3, 2, 1}},
      {{9, 8, 7, 2}, {1}},
      {{11, 10, 8, 3}, {2, 3}},
      {{12, 9, 8, 5, 4}, {1, 0}},
  };
  return rows;
}

}  // namespace

const std::vector<std::string>& baseline_names() {
  static const std::vector<std::string> names{"ipoly", "bitwise_xor", "mop4clxor", "pae", "random"};
  return names;
}

bool is_baseline(const std::string& name) {
  const auto& n = baseline_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

BaselineMatrix baseline_matrix(const std::string& name, const ChannelLayout& layout, unsigned address_bits, uint64_t seed) {
  const auto& c = layout.channel_bits;
  const unsigned m = static_cast<unsigned>(c.size());
  if (m == 0) return {{}, name + " needs channel bits (a power-of-two channel count above 1)"};
  for (unsigned j = 1; j < m; ++j)
    if (c[j] != c[0] + j) return {{}, name + " maps a channel field: the channel bits must be contiguous and ascending"};
  const unsigned s = c[0];
  MatrixRows rows(m);
  for (unsigned j = 0; j < m; ++j) rows[j] = bit(s + j);
  auto add = [&](unsigned j, unsigned b) { rows[j] ^= b < 64 ? bit(b) : 0; };
  unsigned highest = s + m - 1, lowest = s;
  auto read = [&](unsigned j, unsigned b) {
    add(j, b);
    highest = std::max(highest, b);
    lowest = std::min(lowest, b);
  };

  if (name == "ipoly") {
    if (m < 4 || m > 6)
      return {{}, "ipoly is defined on 16, 32 and 64 channels (GPGPU-Sim hashing.cc); this layout has " + std::to_string(1u << m)};
    const auto& sets = ipoly_sets()[m - 4];
    for (unsigned j = 0; j < m; ++j)
      for (unsigned i : sets[j]) read(j, s + m + i);
  } else if (name == "bitwise_xor") {
    for (unsigned j = 0; j < m; ++j) read(j, s + m + j);
  } else if (name == "mop4clxor") {
    // Ramulator 2's MOP4CLXOR: the channel field sits 2 column bits above the
    // transaction offset T = s - 2, and channel bit j XORs column bit j:
    // columns 0 and 1 are A[T], A[T+1]; column k >= 2 lies above the rank,
    // bank-group and bank fields (DDR4 example organisation: 1 + 2 + 2 bits),
    // up to the 7 column bits a DDR4 x8 device has after the burst's 3.
    if (s < 2) return {{}, "mop4clxor needs two column bits below the channel field (lowest channel bit at least 2)"};
    const unsigned rank_bank_bits = 1 + 2 + 2, column_bits = 7;
    for (unsigned j = 0; j < m && j < column_bits; ++j)
      read(j, j < 2 ? s - 2 + j : s + m + rank_bank_bits + (j - 2));
  } else if (name == "pae") {
    if (m != 5) return {{}, "pae (GPGPU-Sim's PAE case) is defined on 32 channels only; this layout has " + std::to_string(1u << m)};
    for (unsigned j = 0; j < m; ++j) {
      for (unsigned i : pae_rows()[j].row) read(j, s + 12 + i);
      for (unsigned k : pae_rows()[j].bank) read(j, s + 8 + k);
    }
  } else if (name == "random") {
    // A = L U with unit triangular L and U is invertible; each row also reads
    // about half of the 16 bits above the channel field.
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> l(m), u(m);
    for (unsigned j = 0; j < m; ++j) {
      l[j] = (1u << j) | (static_cast<uint32_t>(rng()) & ((1u << j) - 1));
      u[j] = (1u << j) | (static_cast<uint32_t>(rng()) & ~((2u << j) - 1) & ((1u << m) - 1));
    }
    const unsigned top = std::min(address_bits, s + m + 16);
    for (unsigned j = 0; j < m; ++j) {
      uint32_t a = 0;
      for (unsigned k = 0; k < m; ++k)
        if ((l[j] >> k) & 1u) a ^= u[k];
      rows[j] = 0;
      for (unsigned k = 0; k < m; ++k)
        if ((a >> k) & 1u) rows[j] |= bit(s + k);
      const uint64_t draw = rng();
      for (unsigned b = s + m; b < top; ++b)
        if ((draw >> (b - s - m)) & 1u) read(j, b);
    }
  } else {
    return {{}, "no baseline named '" + name + "'"};
  }
  if (highest >= address_bits)
    return {{}, name + " reads address bit " + std::to_string(highest) + ", beyond the " + std::to_string(address_bits) +
                    "-bit address space"};
  if (lowest < layout.granule_shift)
    return {{}, name + " reads address bit " + std::to_string(lowest) + ", below the " + std::to_string(bit(layout.granule_shift)) +
                    "-byte interleave granule: set translator.granule_bytes to " + std::to_string(bit(lowest)) +
                    " or less (requests then carry at most that many bytes)"};
  return {rows, ""};
}

}  // namespace gpumem
