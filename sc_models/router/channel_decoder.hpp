// The channel decoder (CN115422098A): splits a mapped address into the channel
// index and the channel-local address (the mapped address with the channel
// bits, or the row position, removed). Plain C++; the router's TLM shell and
// the tests use it.
#pragma once
#include <cstdint>
#include <vector>

#include "base/channel_layout.hpp"

namespace gpumem {

class ChannelDecoder {
 public:
  explicit ChannelDecoder(const ChannelLayout& layout);
  // Contiguous channel bits (the common layout) decode with a shift and a mask.
  unsigned channel(uint64_t mapped) const {
    if (contiguous_) return static_cast<unsigned>((mapped >> granule_shift_) & (channels_ - 1));
    return channel_slow(mapped);
  }
  uint64_t local(uint64_t mapped) const {
    if (contiguous_) return ((mapped >> high_shift_) << granule_shift_) | (mapped & low_mask_);
    return local_slow(mapped);
  }
  uint64_t compose(unsigned channel, uint64_t local) const;  // exact inverse
  // Whether `length` bytes from `mapped` lie in one interleave granule, so in
  // one channel. Requests and page table entries always do by construction;
  // the router refuses an access that does not rather than store half of it
  // in the wrong place.
  bool in_one_granule(uint64_t mapped, uint64_t length) const {
    if (channels_ == 1 || length == 0) return true;
    const uint64_t last = mapped + (length - 1);
    return last >= mapped && ((mapped ^ last) >> granule_shift_) == 0;
  }
  unsigned channels() const { return channels_; }

 private:
  unsigned channel_slow(uint64_t mapped) const;
  uint64_t local_slow(uint64_t mapped) const;

  std::vector<unsigned> channel_bits_;  // ascending copy, for removal
  std::vector<unsigned> channel_bits_ordered_;
  unsigned channels_;
  unsigned granule_shift_;
  bool contiguous_;  // power-of-two channels on ascending contiguous bits (or one channel)
  unsigned high_shift_ = 0;
  uint64_t low_mask_ = 0;
};

}  // namespace gpumem
