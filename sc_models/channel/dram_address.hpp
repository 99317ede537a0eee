// Where a channel-local address lands inside a DRAM channel: the router has
// removed the channel bits, this splits what is left into column, bank,
// bank group, rank and row in the configured order (memory.dram.address_order,
// most significant field first). The bytes of one access sit below every
// field. Address bits above the channel's capacity alias in timing only: the
// data stays where the address says (docs/memory.md, "Address split").
// With memory.dram.bank_xor, the bank and bank group bits are XORed with
// the parity of other address bits (permutation-based interleaving).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "base/dram_spec.hpp"

namespace gpumem {

class DramAddressMap {
 public:
  explicit DramAddressMap(const DramSpec& spec);
  DramAddress decode(uint64_t local) const;
  uint64_t encode(const DramAddress& a) const;  // the lowest local address that decodes to `a`
  unsigned offset_bits() const { return offset_bits_; }
  // The local address's bit positions of one field, lowest first.
  std::vector<unsigned> field_bits(DramField f) const;

 private:
  // The bank address's XOR terms applied to a decoded or an encoded address.
  unsigned bank_flip(uint64_t local) const;
  DramSpec spec_;
  unsigned offset_bits_;
  std::vector<uint64_t> bank_xor_;  // per bank address bit (bank's, then bank group's): the local bits XORed in
  // Per field (DramField order): shift and mask, so decode is five extractions.
  std::array<unsigned, 5> shift_{};
  std::array<uint64_t, 5> mask_{};
};

// Inline: every access decodes once, on the model's hottest path.
inline DramAddress DramAddressMap::decode(uint64_t local) const {
  const auto field = [&](DramField f) {
    const auto i = static_cast<size_t>(f);
    return static_cast<uint32_t>((local >> shift_[i]) & mask_[i]);
  };
  DramAddress a;
  a.row = field(DramField::kRow);
  a.rank = field(DramField::kRank);
  a.bank_group = field(DramField::kBankGroup);
  a.bank = field(DramField::kBank);
  a.column = field(DramField::kColumn);
  if (!bank_xor_.empty()) {
    const unsigned flip = bank_flip(local);
    const unsigned bank_bits = static_cast<unsigned>(__builtin_popcountll(mask_[static_cast<size_t>(DramField::kBank)]));
    a.bank ^= flip & static_cast<unsigned>(mask_[static_cast<size_t>(DramField::kBank)]);
    a.bank_group ^= (flip >> bank_bits) & static_cast<unsigned>(mask_[static_cast<size_t>(DramField::kBankGroup)]);
  }
  return a;
}

}  // namespace gpumem
