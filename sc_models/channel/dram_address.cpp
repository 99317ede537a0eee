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
    shift += bits;
  }
}

DramAddress DramAddressMap::decode(uint64_t local) const {
  DramAddress a;
  for (const Slice& s : slices_) {
    const auto v = static_cast<uint32_t>((local >> s.shift) & ((uint64_t{1} << s.bits) - 1));
    switch (s.field) {
      case DramField::kRow: a.row = v; break;
      case DramField::kRank: a.rank = v; break;
      case DramField::kBankGroup: a.bank_group = v; break;
      case DramField::kBank: a.bank = v; break;
      case DramField::kColumn: a.column = v; break;
    }
  }
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
