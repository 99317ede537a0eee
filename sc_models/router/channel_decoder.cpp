#include "router/channel_decoder.hpp"

#include <algorithm>

#include "base/bits.hpp"

namespace gpumem {

ChannelDecoder::ChannelDecoder(const ChannelLayout& layout)
    : channel_bits_(layout.channel_bits),
      channel_bits_ordered_(layout.channel_bits),
      channels_(layout.channels),
      granule_shift_(layout.granule_shift) {
  std::sort(channel_bits_.begin(), channel_bits_.end());
  const bool pow2 = is_pow2(channels_);
  // The fast decode shifts by the granule: only when the field starts there
  // (translator.granule_bytes may set a granule below the lowest channel bit).
  contiguous_ = pow2 && (channel_bits_ordered_.empty() ||
                         (channel_bits_ordered_.back() == channel_bits_ordered_.front() + channel_bits_ordered_.size() - 1 &&
                          std::is_sorted(channel_bits_ordered_.begin(), channel_bits_ordered_.end()) &&
                          channel_bits_ordered_.front() == granule_shift_));
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

}  // namespace gpumem
