#include "xor_translator.hpp"

#include <algorithm>

#include "bits.hpp"

namespace gpumem {

ChannelDecoder::ChannelDecoder(const Config& cfg)
    : channel_bits_(cfg.translator.channel_bits),
      channel_bits_ordered_(cfg.translator.channel_bits),
      channels_(cfg.memory.channels),
      granule_shift_(cfg.granule_shift()) {
  std::sort(channel_bits_.begin(), channel_bits_.end());
  const bool pow2 = is_pow2(channels_);
  contiguous_ = pow2 && (channel_bits_ordered_.empty() ||
                         (channel_bits_ordered_.back() == channel_bits_ordered_.front() + channel_bits_ordered_.size() - 1 &&
                          std::is_sorted(channel_bits_ordered_.begin(), channel_bits_ordered_.end())));
  if (channels_ == 1) granule_shift_ = 0;  // the decode is then the identity: local = mapped
  high_shift_ = granule_shift_ + log2_exact(channels_);
  low_mask_ = bit(granule_shift_) - 1;
}

unsigned ChannelDecoder::channel_slow(uint64_t mapped) const {
  if (!channel_bits_ordered_.empty()) return static_cast<unsigned>(gather_bits(mapped, channel_bits_ordered_));
  return static_cast<unsigned>((mapped >> granule_shift_) % channels_);
}

uint64_t ChannelDecoder::local_slow(uint64_t mapped) const {
  if (!channel_bits_.empty()) {
    uint64_t x = mapped;
    for (auto it = channel_bits_.rbegin(); it != channel_bits_.rend(); ++it)
      x = ((x >> (*it + 1)) << *it) | (x & (bit(*it) - 1));
    return x;
  }
  const uint64_t granule = mapped >> granule_shift_;
  return ((granule / channels_) << granule_shift_) | (mapped & (bit(granule_shift_) - 1));
}

uint64_t ChannelDecoder::compose(unsigned channel, uint64_t local) const {
  if (channels_ == 1) return local;
  if (!channel_bits_.empty()) {
    uint64_t x = local;
    for (unsigned c : channel_bits_)  // ascending: open a gap at each channel bit
      x = ((x >> c) << (c + 1)) | (x & (bit(c) - 1));
    for (size_t j = 0; j < channel_bits_ordered_.size(); ++j)
      x |= uint64_t{(channel >> j) & 1u} << channel_bits_ordered_[j];
    return x;
  }
  const uint64_t row = local >> granule_shift_;
  return ((row * channels_ + channel) << granule_shift_) | (local & (bit(granule_shift_) - 1));
}

XorTranslator::XorTranslator(const Config& cfg, const TranslatorRegisters& regs)
    : regs_(regs),
      channel_bits_(cfg.translator.channel_bits),
      candidate_bits_(cfg.translator.candidate_bits),
      m_(static_cast<unsigned>(cfg.translator.channel_bits.size())),
      channels_(cfg.memory.channels),
      granule_shift_(cfg.granule_shift()),
      prime_(cfg.translator.prime ? cfg.translator.prime : 1) {
  const uint64_t p = prime_ % channels_;
  for (uint64_t x = 1; x < channels_; ++x)
    if ((p * x) % channels_ == 1) prime_inverse_ = x;
  // Moving a granule of the last row to a slot past the end of the space
  // would leave the space (or wrap to 0 with 64 bits): that row stays as is.
  const unsigned bits = cfg.translator_address_bits();
  const unsigned __int128 granules = (unsigned __int128)1 << (bits > granule_shift_ ? bits - granule_shift_ : 0);
  has_partial_row_ = channels_ > 1 && granules % channels_ != 0;
  if (has_partial_row_) partial_row_ = static_cast<uint64_t>(granules - granules % channels_);
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
  if (scheme(task) != Scheme::kPrime) return map(mapped, task);  // none and xor are involutions
  const uint64_t G = mapped >> granule_shift_;
  if (has_partial_row_ && G >= partial_row_) return mapped;
  const uint64_t g = ((G % channels_) * prime_inverse_) % channels_;
  return (((G - G % channels_) + g) << granule_shift_) | (mapped & (bit(granule_shift_) - 1));
}

TranslatorRegisters registers_from_config(const Config& cfg) {
  TranslatorRegisters r;
  r.interleave_enable = cfg.translator.interleave_enable;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) r.scheme[t] = cfg.scheme_of(t);
  for (const auto& tm : cfg.translator.tasks) {
    for (size_t j = 0; j < tm.xor_vectors.size(); ++j) r.xor_vector[tm.task][j] = tm.xor_vectors[j];
  }
  r.generation = 1;
  return r;
}

}  // namespace gpumem
