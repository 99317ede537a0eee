#include "channel/dram_address.hpp"

#include "base/bits.hpp"

namespace gpumem {

DramAddressMap::DramAddressMap(const DramSpec& spec) : spec_(spec), offset_bits_(dram_offset_bits(spec)) {
  for (const DramField f : spec.address_order) {
    const std::vector<unsigned> bits = dram_field_bits(spec, f);
    const auto i = static_cast<size_t>(f);
    shift_[i] = bits.empty() ? 0 : bits.front();
    mask_[i] = (uint64_t{1} << bits.size()) - 1;
  }
  for (const auto& terms : spec.bank_xor) {
    uint64_t m = 0;
    for (unsigned b : terms) m |= uint64_t{1} << b;
    bank_xor_.push_back(m);
  }
}

unsigned DramAddressMap::bank_flip(uint64_t local) const {
  unsigned flip = 0;
  for (size_t j = 0; j < bank_xor_.size(); ++j) flip |= parity(local & bank_xor_[j]) << j;
  return flip;
}

uint64_t DramAddressMap::encode(const DramAddress& a) const {
  uint64_t local = 0;
  const auto put = [&](DramField f, uint64_t v) {
    const auto i = static_cast<size_t>(f);
    local |= (v & mask_[i]) << shift_[i];
  };
  put(DramField::kRow, a.row);
  put(DramField::kRank, a.rank);
  put(DramField::kColumn, a.column);
  // The XOR terms read no bank bit: flip what the plain bank bits must hold.
  const unsigned flip = bank_flip(local);
  const unsigned bank_bits = static_cast<unsigned>(__builtin_popcountll(mask_[static_cast<size_t>(DramField::kBank)]));
  put(DramField::kBank, a.bank ^ (flip & mask_[static_cast<size_t>(DramField::kBank)]));
  put(DramField::kBankGroup, a.bank_group ^ (flip >> bank_bits));
  return local;
}

std::vector<unsigned> DramAddressMap::field_bits(DramField f) const { return dram_field_bits(spec_, f); }

}  // namespace gpumem
