// The presets' figures. Sources (figures only; docs/config-reference.md,
// "memory.dram", has the table):
// - ddr4: JEDEC JESD79-4 speed bin DDR4-3200AA (22-22-22), 8 Gb x8 devices,
//   eight to a 64-bit rank, two ranks; as DRAMsim3's DDR4_8Gb_x8_3200 configuration.
// - hbm2: JEDEC JESD235 HBM2, one 128-bit legacy channel (2 KB rows, 1 GB) of
//   an 8 GB stack at 1 GHz (2 Gb/s per pin); as DRAMsim3's HBM2_8Gb_x128.
// - gddr6: JEDEC JESD250 GDDR6, one x16 channel of an 8 Gb device (16 banks in
//   four groups, 2 KB rows, BL16: 32-byte accesses) at a 1.5 GHz command clock,
//   timing as DRAMsim3's GDDR6_8Gb_x16 configuration.
#include "base/dram_spec.hpp"

#include "base/bits.hpp"

namespace gpumem {

namespace {

DramSpec ddr4() {
  DramSpec s;
  s.preset = "ddr4";
  s.tck_ps = 625;
  s.org = {2, 4, 4, 65536, 1024, 64, 8};
  DramTiming& t = s.timing;
  t.CL = 22, t.CWL = 16, t.tBL = 4, t.tRCD = 22, t.tRP = 22, t.tRAS = 52, t.tRC = 74;
  t.tCCD_S = 4, t.tCCD_L = 8, t.tRRD_S = 4, t.tRRD_L = 8, t.tFAW = 34;
  t.tWTR_S = 4, t.tWTR_L = 12, t.tRTP = 12, t.tWR = 24, t.tRTRS = 1;
  t.tRFC = 560, t.tRFCb = 560, t.tREFI = 12480;
  s.address_order = {DramField::kRow, DramField::kRank, DramField::kBank, DramField::kBankGroup, DramField::kColumn};
  return s;
}

DramSpec hbm2() {
  DramSpec s;
  s.preset = "hbm2";
  s.tck_ps = 1000;
  s.org = {1, 4, 4, 32768, 128, 128, 4};
  DramTiming& t = s.timing;
  t.CL = 14, t.CWL = 4, t.tBL = 2, t.tRCD = 14, t.tRP = 14, t.tRAS = 34, t.tRC = 48;
  t.tCCD_S = 1, t.tCCD_L = 2, t.tRRD_S = 4, t.tRRD_L = 6, t.tFAW = 30;
  t.tWTR_S = 6, t.tWTR_L = 8, t.tRTP = 5, t.tWR = 16, t.tRTRS = 2;
  t.tRFC = 260, t.tRFCb = 160, t.tREFI = 3900;
  s.address_order = {DramField::kRow, DramField::kRank, DramField::kBankGroup, DramField::kBank, DramField::kColumn};
  s.dual_command_bus = true;
  return s;
}

DramSpec gddr6() {
  DramSpec s;
  s.preset = "gddr6";
  s.tck_ps = 660;
  s.org = {1, 4, 4, 16384, 1024, 16, 16};
  DramTiming& t = s.timing;
  t.CL = 24, t.CWL = 16, t.tBL = 4, t.tRCD = 24, t.tRP = 24, t.tRAS = 54, t.tRC = 78;
  t.tCCD_S = 3, t.tCCD_L = 4, t.tRRD_S = 9, t.tRRD_L = 9, t.tFAW = 32;
  t.tWTR_S = 7, t.tWTR_L = 7, t.tRTP = 3, t.tWR = 16, t.tRTRS = 1;
  t.tRFC = 126, t.tRFCb = 30, t.tREFI = 11862;
  s.address_order = {DramField::kRow, DramField::kRank, DramField::kBank, DramField::kBankGroup, DramField::kColumn};
  return s;
}

}  // namespace

const char* row_result_name(RowResult r) {
  switch (r) {
    case RowResult::kHit: return "hit";
    case RowResult::kMiss: return "miss";
    case RowResult::kConflict: return "conflict";
    case RowResult::kForwarded: return "forwarded";
    case RowResult::kPosted: return "posted";
    case RowResult::kDropped: return "dropped";
  }
  return "?";
}

const DramSpec* dram_preset(const std::string& name) {
  static const DramSpec presets[] = {ddr4(), gddr6(), hbm2()};
  for (const DramSpec& s : presets)
    if (s.preset == name) return &s;
  return nullptr;
}

std::vector<std::string> dram_preset_names() { return {"ddr4", "gddr6", "hbm2"}; }

unsigned dram_offset_bits(const DramSpec& spec) { return log2_exact(spec.org.access_bytes()); }

std::vector<unsigned> dram_field_bits(const DramSpec& spec, DramField field) {
  const auto count = [&](DramField f) -> unsigned {
    switch (f) {
      case DramField::kRow: return spec.org.rows;
      case DramField::kRank: return spec.org.ranks;
      case DramField::kBankGroup: return spec.org.bank_groups;
      case DramField::kBank: return spec.org.banks_per_group;
      case DramField::kColumn: return spec.org.bursts_per_row();
    }
    return 1;
  };
  unsigned shift = dram_offset_bits(spec);
  std::vector<unsigned> bits;
  for (auto it = spec.address_order.rbegin(); it != spec.address_order.rend(); ++it) {
    const unsigned n = log2_exact(count(*it));
    if (*it == field)
      for (unsigned b = 0; b < n; ++b) bits.push_back(shift + b);
    shift += n;
  }
  return bits;
}

std::vector<unsigned> dram_bank_address_bits(const DramSpec& spec) {
  std::vector<unsigned> bits = dram_field_bits(spec, DramField::kBank);
  for (unsigned b : dram_field_bits(spec, DramField::kBankGroup)) bits.push_back(b);
  return bits;
}

std::string address_order_text(const std::vector<DramField>& order) {
  std::string s;
  for (DramField f : order) s += (s.empty() ? "" : "-") + std::string(kDramFieldNames[static_cast<int>(f)]);
  return s;
}

}  // namespace gpumem
