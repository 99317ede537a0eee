#include "channel/dram_address.hpp"

#include "base/bits.hpp"

namespace gpumem {

namespace {
unsigned field_count(const DramOrganization& o, DramField f) {
  switch (f) {
    case DramField::kRow: return o.rows;
    case DramField::kRank: return o.ranks;
    case DramField::kBankGroup: return o.bank_groups;
    case DramField::kBank: return o.banks_per_group;
    case DramField::kColumn: return o.bursts_per_row();
  }
  return 1;
}
}  // namespace

DramAddressMap::DramAddressMap(const DramSpec& spec) : offset_bits_(log2_exact(spec.org.access_bytes())) {
  unsigned shift = offset_bits_;
  for (auto it = spec.address_order.rbegin(); it != spec.address_order.rend(); ++it) {
    const unsigned bits = log2_exact(field_count(spec.org, *it));
    slices_.push_back({*it, shift, bits});
    shift_[static_cast<size_t>(*it)] = shift;
    mask_[static_cast<size_t>(*it)] = (uint64_t{1} << bits) - 1;
    shift += bits;
  }
}

DramAddress DramAddressMap::decode(uint64_t local) const {
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
  return a;
}

uint64_t DramAddressMap::encode(const DramAddress& a) const {
  uint64_t local = 0;
  for (const Slice& s : slices_) {
    uint64_t v = 0;
    switch (s.field) {
      case DramField::kRow: v = a.row; break;
      case DramField::kRank: v = a.rank; break;
      case DramField::kBankGroup: v = a.bank_group; break;
      case DramField::kBank: v = a.bank; break;
      case DramField::kColumn: v = a.column; break;
    }
    local |= (v & ((uint64_t{1} << s.bits) - 1)) << s.shift;
  }
  return local;
}

std::vector<unsigned> DramAddressMap::field_bits(DramField f) const {
  std::vector<unsigned> bits;
  for (const Slice& s : slices_)
    if (s.field == f)
      for (unsigned b = 0; b < s.bits; ++b) bits.push_back(s.shift + b);
  return bits;
}

}  // namespace gpumem
