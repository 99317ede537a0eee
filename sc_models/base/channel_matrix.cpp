#include "base/channel_matrix.hpp"

#include <stdexcept>
#include <utility>

#include "base/bits.hpp"

namespace gpumem {

namespace {

// Row j of A as an m-bit value: bit k set when row j reads channel bit c_k.
std::vector<uint32_t> channel_part(const MatrixRows& rows, const std::vector<unsigned>& channel_bits) {
  std::vector<uint32_t> a(rows.size(), 0);
  for (size_t j = 0; j < rows.size(); ++j)
    for (size_t k = 0; k < channel_bits.size(); ++k)
      if ((rows[j] >> channel_bits[k]) & 1u) a[j] |= 1u << k;
  return a;
}

}  // namespace

unsigned channel_matrix_rank(const MatrixRows& rows, const std::vector<unsigned>& channel_bits) {
  std::vector<uint32_t> a = channel_part(rows, channel_bits);
  unsigned rank = 0;
  for (size_t col = 0; col < channel_bits.size() && rank < a.size(); ++col) {
    size_t pivot = rank;
    while (pivot < a.size() && !((a[pivot] >> col) & 1u)) ++pivot;
    if (pivot == a.size()) continue;
    std::swap(a[rank], a[pivot]);
    for (size_t r = 0; r < a.size(); ++r)
      if (r != rank && ((a[r] >> col) & 1u)) a[r] ^= a[rank];
    ++rank;
  }
  return rank;
}

std::string channel_matrix_problem(const MatrixRows& rows, const ChannelLayout& layout, unsigned address_bits,
                                   int* bad_row) {
  if (bad_row) *bad_row = -1;
  const auto& cb = layout.channel_bits;
  if (rows.size() != cb.size())
    return std::to_string(rows.size()) + " rows for " + std::to_string(cb.size()) + " channel bits";
  const uint64_t inside_granule = bit(layout.granule_shift) - 1;
  const uint64_t beyond = address_bits >= 64 ? 0 : ~(bit(address_bits) - 1);
  for (size_t j = 0; j < rows.size(); ++j) {
    if (bad_row) *bad_row = static_cast<int>(j);
    if (rows[j] == 0) return "row " + std::to_string(j) + " is empty: channel bit " + std::to_string(cb[j]) + " would always be 0";
    if (rows[j] & inside_granule)
      return "row " + std::to_string(j) + " reads bit " + std::to_string(__builtin_ctzll(rows[j] & inside_granule)) +
             ", inside the " + std::to_string(bit(layout.granule_shift)) +
             "-byte interleave granule: bytes of one request would map to different channels";
    if (rows[j] & beyond)
      return "row " + std::to_string(j) + " reads bit " + std::to_string(63 - __builtin_clzll(rows[j] & beyond)) +
             ", beyond the " + std::to_string(address_bits) + "-bit address space";
  }
  if (bad_row) *bad_row = -1;
  const unsigned rank = channel_matrix_rank(rows, cb);
  if (rank < cb.size())
    return "not invertible: restricted to the channel bits the rows have GF(2) rank " + std::to_string(rank) + " of " +
           std::to_string(cb.size()) + ", so two addresses of one page would share a location";
  return "";
}

MatrixRows channel_matrix_inverse(const MatrixRows& rows, const std::vector<unsigned>& channel_bits) {
  const size_t m = channel_bits.size();
  // Gauss-Jordan on [A | I]: afterwards the right half is A^-1.
  std::vector<uint32_t> a = channel_part(rows, channel_bits), inv(m);
  for (size_t j = 0; j < m; ++j) inv[j] = 1u << j;
  for (size_t col = 0; col < m; ++col) {
    size_t pivot = col;
    while (pivot < m && !((a[pivot] >> col) & 1u)) ++pivot;
    if (pivot == m) throw std::logic_error("channel_matrix_inverse: singular matrix");
    std::swap(a[col], a[pivot]);
    std::swap(inv[col], inv[pivot]);
    for (size_t r = 0; r < m; ++r)
      if (r != col && ((a[r] >> col) & 1u)) {
        a[r] ^= a[col];
        inv[r] ^= inv[col];
      }
  }
  // c_j = sum_k A^-1[j][k] (c'_k + B_k o): row k of the inverse reads the
  // mapped channel bit c_k and row k's other bits.
  uint64_t channel_mask = 0;
  for (unsigned c : channel_bits) channel_mask |= bit(c);
  MatrixRows out(m, 0);
  for (size_t j = 0; j < m; ++j)
    for (size_t k = 0; k < m; ++k)
      if ((inv[j] >> k) & 1u) out[j] ^= bit(channel_bits[k]) | (rows[k] & ~channel_mask);
  return out;
}

MatrixRows xor_vectors_as_matrix(const std::vector<uint32_t>& vectors, const std::vector<unsigned>& channel_bits,
                                 const std::vector<unsigned>& candidate_bits) {
  MatrixRows rows(channel_bits.size(), 0);
  for (size_t j = 0; j < channel_bits.size(); ++j) {
    rows[j] = bit(channel_bits[j]);
    const uint32_t v = j < vectors.size() ? vectors[j] : 0;
    for (size_t i = 0; i < candidate_bits.size(); ++i)
      if ((v >> i) & 1u) rows[j] ^= bit(candidate_bits[i]);
  }
  return rows;
}

uint64_t apply_channel_matrix(const MatrixRows& rows, const std::vector<unsigned>& channel_bits, uint64_t address) {
  uint64_t out = address;
  for (size_t j = 0; j < channel_bits.size(); ++j)
    out = (out & ~bit(channel_bits[j])) | uint64_t{parity(address & rows[j])} << channel_bits[j];
  return out;
}

std::string matrix_row_text(uint64_t row) {
  std::string s = "[";
  for (unsigned b = 0; b < 64; ++b)
    if ((row >> b) & 1u) s += (s.size() > 1 ? ", " : "") + std::to_string(b);
  return s + "]";
}

}  // namespace gpumem
