#include "translator/xor_translator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "base/bits.hpp"
#include "base/channel_matrix.hpp"

namespace gpumem {

XorTranslator::XorTranslator(const TranslatorParams& params, const TranslatorRegisters& regs)
    : regs_(regs),
      channel_bits_(params.layout.channel_bits),
      candidate_bits_(params.candidate_bits),
      m_(static_cast<unsigned>(params.layout.channel_bits.size())),
      channels_(params.layout.channels),
      // The prime scheme permutes the granules of the channel field, which
      // starts at c_0 even when translator.granule_bytes sets a smaller granule.
      granule_shift_(params.layout.channel_bits.empty()
                         ? params.layout.granule_shift
                         : *std::min_element(params.layout.channel_bits.begin(), params.layout.channel_bits.end())),
      prime_(params.prime ? params.prime : 1) {
  const uint64_t p = prime_ % channels_;
  for (uint64_t x = 1; x < channels_; ++x)
    if ((p * x) % channels_ == 1) prime_inverse_ = x;
  // Moving a granule of the last row to a slot past the end of the space
  // would leave the space (or wrap to 0 with 64 bits): that row stays as is.
  const unsigned bits = params.address_bits;
  const unsigned __int128 granules = (unsigned __int128)1 << (bits > granule_shift_ ? bits - granule_shift_ : 0);
  has_partial_row_ = channels_ > 1 && granules % channels_ != 0;
  if (has_partial_row_) partial_row_ = static_cast<uint64_t>(granules - granules % channels_);
  for (unsigned c : channel_bits_) channel_mask_ |= bit(c);
  rebuild();
}

void XorTranslator::rebuild() {
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    effective_[t] = regs_.interleave_enable ? regs_.scheme[t] : Scheme::kNone;
    if (channels_ == 1) effective_[t] = Scheme::kNone;
    // Only vectors that changed: firmware (and the co-simulation scoreboard,
    // a write every few dozen requests) rewrites one register at a time.
    for (unsigned j = 0; j < m_; ++j) {
      const uint32_t vector = regs_.xor_vector[t][j];
      if (vector == mask_vector_[t][j]) continue;
      uint64_t mask = 0;
      for (size_t i = 0; i < candidate_bits_.size(); ++i)
        if ((vector >> i) & 1u) mask |= bit(candidate_bits_[i]);
      mask_[t][j] = mask;
      mask_vector_[t][j] = vector;
    }
    if (regs_.matrix_row[t] != matrix_[t]) {
      matrix_[t] = regs_.matrix_row[t];
      const MatrixRows rows(matrix_[t].begin(), matrix_[t].begin() + m_);
      matrix_invertible_[t] = channel_matrix_rank(rows, channel_bits_) == m_;
      if (matrix_invertible_[t]) {
        const MatrixRows inverse = channel_matrix_inverse(rows, channel_bits_);
        std::copy(inverse.begin(), inverse.end(), matrix_inverse_[t].begin());
      }
    }
    // Rows are checked before they reach the registers; a singular matrix
    // can only be the reset value of a task type that does not use it.
    if (effective_[t] == Scheme::kMatrix && !matrix_invertible_[t])
      throw std::logic_error("translator: task type " + std::to_string(t) + " uses a singular matrix");
  }
  cached_generation_ = regs_.generation;
}

// Granule g of row r (g = G mod N) goes to channel (G * P) mod N of the same
// row; the mapped address is the identity-interleaved address of that slot.
uint64_t XorTranslator::map_prime(uint64_t address) const {
  const uint64_t G = address >> granule_shift_;
  if (has_partial_row_ && G >= partial_row_) return address;
  const uint64_t slot = ((G % channels_) * (prime_ % channels_)) % channels_;
  return (((G - G % channels_) + slot) << granule_shift_) | (address & (bit(granule_shift_) - 1));
}

uint64_t XorTranslator::unmap(uint64_t mapped, unsigned task) {
  const Scheme s = scheme(task);
  if (s == Scheme::kMatrix) return apply_rows(matrix_inverse_[task], mapped);
  if (s != Scheme::kPrime) return map(mapped, task);  // none and xor are involutions
  const uint64_t G = mapped >> granule_shift_;
  if (has_partial_row_ && G >= partial_row_) return mapped;
  const uint64_t g = ((G % channels_) * prime_inverse_) % channels_;
  return (((G - G % channels_) + g) << granule_shift_) | (mapped & (bit(granule_shift_) - 1));
}

}  // namespace gpumem
