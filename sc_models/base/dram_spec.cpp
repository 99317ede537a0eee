// The presets' figures. Sources (figures only; docs/config-reference.md,
// "memory.dram", has the table):
// - ddr4: JEDEC JESD79-4 speed bin DDR4-3200AA (22-22-22), 8 Gb x8 devices,
//   eight to a 64-bit rank, two ranks; as DRAMsim3's DDR4_8Gb_x8_3200 configuration.
// - hbm2: JEDEC JESD235 HBM2, one 128-bit legacy channel (2 KB rows, 1 GB) of
//   an 8 GB stack at 1 GHz (2 Gb/s per pin); as DRAMsim3's HBM2_8Gb_x128
//   (tRREFD, which DRAMsim3 leaves out, JESD235's 8 ns as Ramulator 2.1
//   gives it).
// - gddr6: JEDEC JESD250 GDDR6, one x16 channel of an 8 Gb device (16 banks in
//   four groups, 2 KB rows, BL16: 32-byte accesses) at a 1.5 GHz command clock,
//   timing as DRAMsim3's GDDR6_8Gb_x16 configuration.
// - hbm3: JEDEC JESD238 HBM3-6400 (6.4 Gb/s per pin, a 1.6 GHz clock), one
//   32-bit pseudo-channel (BL8: 32-byte accesses, 1 KB rows) of a 4 Gb
//   channel with one stack ID; as Ramulator 2's HBM3_4Gb organisation and
//   HBM3_6400Mbps timing (reads and writes apart: nRCDRD 31, nRCDWR 15;
//   tRFC 260 ns for a 4 Gb channel, tREFI 3.9 us; tRREFD its nRREFD 8,
//   though its resolver's JEDEC figure, 8 ns, would be 13). Its
//   read-to-write turnaround nRTW 20 is CL + tBL + tRTRS - CWL.
// - ddr5: JEDEC JESD79-5 DDR5-4800AN (34-34-34), 16 Gb x8 devices, four to a
//   32-bit sub-channel (two to a DIMM; BL16: 64-byte accesses, 4 KB rows),
//   one rank; as Ramulator 2's DDR5_16Gb_x8 organisation and DDR5_4800AN
//   timing (two writes in a bank group 48 cycles apart, tCCD_L_WR;
//   tRRD, tFAW and tRFC1 295 ns from its JEDEC tables; tRFCsb
//   130 ns from its earlier DDR5 model). tRREFD is its tREFSBRD, 30 ns
//   (JESD79-5, for 8 Gb and 16 Gb devices; Ramulator 2.0 lists nREFSBRD
//   but no constraint of its reads it), rounded up at the 416 ps clock as
//   tRFCsb is. Its read-to-write turnaround CL + tBL + 4 - CWL (read
//   postamble and write preamble) is tRTRS 4.
// - lpddr5: JEDEC JESD209-5B LPDDR5-6400 (an 800 MHz CK, WCK:CK 4:1), one
//   x16 channel of a 16 Gb die in bank-group mode (4 groups of 4 banks, 2 KB
//   rows, BL16: 32-byte accesses); as Ramulator 2.1's LPDDR5_16Gb_x16
//   organisation and LPDDR5_6400 timing, which cites the standard's tables
//   (tRRD 5 ns, tFAW 20 ns, tRFCab 280 ns, tRFCpb 140 ns, tREFI 3.906 us;
//   tRREFD its tpbR2act, 7.5 ns).
//   Its same-group write-to-read CWL + BL32's 4 + tWTR_L 10 is tWTR_L 12
//   after tBL 2; its read-to-write CL + tBL + 2 - CWL is tRTRS 2.
// - The power figures (kDramPowerRows, and `devices`): each preset's from the
//   DRAMsim3 configuration named above, its [power] section (x8 DDR4
//   devices, eight to a rank; one x128 HBM2 channel; one x16 GDDR6 device).
//   ddr5's, VPP's included: Ramulator 2.0's DDR5 current and voltage
//   presets (`Default`), per x8 device; gem5's DDR5 figures (a Micron 16 Gb
//   DDR5-4800) give IDD0 below what IDD3N and IDD2N draw over tRAS and tRP,
//   a negative activate energy in this model. None for hbm3 and lpddr5: no
//   public IDD figures for HBM3 or for an LPDDR5 die the IDD model can use.
#include "base/dram_spec.hpp"

#include "base/bits.hpp"
#include "base/text.hpp"

#include <iterator>

namespace gpumem {

namespace {

// What the tables do not hold: the clock, the address split, the command bus.
struct PresetRest {
  uint64_t tck_ps;
  std::vector<DramField> address_order;
  bool dual_command_bus;
};

DramSpec preset(size_t column, const PresetRest& rest) {
  DramSpec s;
  s.preset = kDramPresetNames[column];
  s.tck_ps = rest.tck_ps;
  for (const DramOrganizationRow& row : kDramOrganizationRows) s.org.*row.member = row.preset[column];
  for (const DramTimingRow& row : kDramTimingRows) s.timing.*row.member = row.preset[column];
  for (const DramPowerRow& row : kDramPowerRows) s.power.*row.member = row.preset[column];
  s.address_order = rest.address_order;
  s.dual_command_bus = rest.dual_command_bus;
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
  using F = DramField;
  static const DramSpec presets[] = {
      preset(0, {625, {F::kRow, F::kRank, F::kBank, F::kBankGroup, F::kColumn}, false}),    // ddr4
      preset(1, {660, {F::kRow, F::kRank, F::kBank, F::kBankGroup, F::kColumn}, false}),    // gddr6
      preset(2, {1000, {F::kRow, F::kRank, F::kBankGroup, F::kBank, F::kColumn}, true}),    // hbm2
      preset(3, {625, {F::kRow, F::kRank, F::kBankGroup, F::kBank, F::kColumn}, true}),     // hbm3
      preset(4, {416, {F::kRow, F::kRank, F::kBank, F::kBankGroup, F::kColumn}, false}),    // ddr5
      preset(5, {1250, {F::kRow, F::kRank, F::kBank, F::kBankGroup, F::kColumn}, false}),   // lpddr5
  };
  static_assert(std::size(presets) == kDramPresetNames.size());
  for (const DramSpec& s : presets)
    if (s.preset == name) return &s;
  return nullptr;
}

std::vector<std::string> dram_preset_names() { return {kDramPresetNames.begin(), kDramPresetNames.end()}; }

DramTimingProblem dram_timing_problem(const DramTiming& t, RefreshMode refresh) {
  const auto n = [](unsigned v) { return std::to_string(v); };
  if (t.tRC < t.tRAS + t.tRP)
    return {"tRC", "tRC (" + n(t.tRC) + ") < tRAS + tRP (" + n(t.tRAS + t.tRP) + "): the standard requires tRC >= tRAS + tRP"};
  if (t.tRAS < t.tRCD) return {"tRAS", "tRAS (" + n(t.tRAS) + ") < tRCD (" + n(t.tRCD) + "): the standard requires tRAS >= tRCD"};
  if (t.tRAS < t.tRCD_WR)
    return {"tRAS", "tRAS (" + n(t.tRAS) + ") < tRCD_WR (" + n(t.tRCD_WR) + "): the standard requires tRAS >= tRCD_WR"};
  const auto same_group = [&](const char* l, unsigned lv, const char* s, unsigned sv) -> DramTimingProblem {
    if (lv >= sv) return {};
    return {l, std::string(l) + " (" + n(lv) + ") < " + s + " (" + n(sv) + "): the same bank group is never faster"};
  };
  for (const DramTimingProblem& p : {same_group("tCCD_L", t.tCCD_L, "tCCD_S", t.tCCD_S), same_group("tRRD_L", t.tRRD_L, "tRRD_S", t.tRRD_S),
                                     same_group("tWTR_L", t.tWTR_L, "tWTR_S", t.tWTR_S)})
    if (p.name) return p;
  if (t.tCCD_L_WR && t.tCCD_L_WR < t.tCCD_L)
    return {"tCCD_L_WR", "tCCD_L_WR (" + n(t.tCCD_L_WR) + ") < tCCD_L (" + n(t.tCCD_L) + "): two writes are never closer than two reads"};
  if (t.tFAW < t.tRRD_S)
    return {"tFAW", "tFAW (" + n(t.tFAW) + ") < tRRD_S (" + n(t.tRRD_S) + "): the four-activate window holds at least one tRRD_S"};
  if (refresh != RefreshMode::kAllBank && t.tRREFD > t.tRFCb)
    return {"tRREFD", "tRREFD (" + n(t.tRREFD) + ") > tRFCb (" + n(t.tRFCb) +
                          "): a bank's refresh never keeps other banks longer than its own"};
  if (t.tRFCb > t.tRFC)
    return {"tRFCb", "tRFCb (" + n(t.tRFCb) + ") > tRFC (" + n(t.tRFC) + "): a bank's refresh is never longer than the rank's"};
  if (t.tREFI && t.tREFI <= t.tRFC)
    return {"tREFI", "tREFI (" + n(t.tREFI) + ") <= tRFC (" + n(t.tRFC) + "): the rank would never leave refresh"};
  return {};
}

DramTimingProblem dram_refresh_problem(const DramSpec& d) {
  const DramTiming& t = d.timing;
  if (!t.tREFI || d.refresh == RefreshMode::kAllBank || t.tREFI < d.refreshes_per_round()) return {};
  const uint64_t interval = t.tREFI / d.refreshes_per_round();
  const auto n = [](uint64_t v) { return std::to_string(v); };
  const std::string every = std::string(d.refresh == RefreshMode::kPerBank ? "per-bank" : "same-bank") + " refresh every " + n(interval) +
                            " cycles (tREFI " + n(t.tREFI) + " / " + n(d.refreshes_per_round()) + ")";
  // Refreshes spaced further apart than they fall due would fall behind for ever.
  if (interval <= d.refresh_to_other_refresh())
    return {"tREFI", every + " falls due faster than tPBR2PBR (" + n(t.tPBR2PBR) + ") lets one follow another: it needs more than tPBR2PBR"};
  const uint64_t need = uint64_t{t.tRREFD} + t.tRP + t.tRCD + t.tFAW;
  if (!d.refresh_to_other_activate() || interval > need) return {};
  return {"tREFI", every + " leaves an activate no room after tRREFD: it needs more than tRREFD + tRP + tRCD + tFAW (" + n(need) + ")"};
}

namespace {

// One supply's figures in the IDD model's roles, with the names a user gives them.
struct SupplyFigures {
  const char *i0, *i2n, *i3n, *i4r, *i4w, *i5ab;
  double v0, v2n, v3n, v4r, v4w, v5ab;
};

// The IDD model's relations on one supply's currents (each draw above the
// standby it adds to, so that no command's energy comes out negative).
DramTimingProblem supply_problem(const SupplyFigures& f, const DramTiming& t) {
  const auto n = decimal_text;
  // An activate's energy is IDD0 over tRC less the standby it includes.
  const double standby = f.v3n * t.tRAS + f.v2n * t.tRP;
  if (f.v0 * t.tRC < standby)
    return {f.i0, std::string(f.i0) + " x tRC (" + n(f.v0 * t.tRC) + ") < " + f.i3n + " x tRAS + " + f.i2n + " x tRP (" + n(standby) +
                      "): an activate would take energy back"};
  const auto above_active = [&](const char* name, double v) -> DramTimingProblem {
    if (v >= f.v3n) return {};
    return {name, std::string(name) + " (" + n(v) + ") < " + f.i3n + " (" + n(f.v3n) + "): it draws on top of active standby"};
  };
  for (const DramTimingProblem& q : {above_active(f.i4r, f.v4r), above_active(f.i4w, f.v4w), above_active(f.i5ab, f.v5ab)})
    if (q.name) return q;
  if (f.v3n < f.v2n)
    return {f.i3n, std::string(f.i3n) + " (" + n(f.v3n) + ") < " + f.i2n + " (" + n(f.v2n) + "): an open bank never draws less than none"};
  return {};
}

// The first row of one supply (VDD's or VPP's) that is not given, and whether any is.
struct SupplyGiven {
  const char* missing = nullptr;
  bool any = false;
};
SupplyGiven supply_given(const DramPower& p, bool vpp) {
  SupplyGiven g;
  for (const DramPowerRow& row : kDramPowerRows) {
    if (row.vpp != vpp) continue;
    g.any = g.any || p.*row.member > 0;
    if (!(p.*row.member > 0) && !g.missing) g.missing = row.name;
  }
  return g;
}

}  // namespace

DramTimingProblem dram_power_problem(const DramPower& p, const DramTiming& t) {
  // All or none, each supply (a figure not given is 0; one given is in its row's range).
  const SupplyGiven vdd = supply_given(p, false), vpp = supply_given(p, true);
  if (!vdd.any && vpp.any)
    return {"vdd", "vdd is not given: VPP's figures add to VDD's, and the IDD model needs every one of those "
                   "(vdd, idd0, idd2n, idd3n, idd4r, idd4w, idd5ab)"};
  if (!vdd.any) return {};  // no energy reported
  if (vdd.missing)
    return {vdd.missing, std::string(vdd.missing) + " is not given: the preset has no power figures, and the IDD model needs every one "
                                                    "(vdd, idd0, idd2n, idd3n, idd4r, idd4w, idd5ab)"};
  if (vpp.any && vpp.missing)
    return {vpp.missing, std::string(vpp.missing) + " is not given: VPP's figures are all or none "
                                                    "(vpp, ipp0, ipp2n, ipp3n, ipp4r, ipp4w, ipp5ab)"};
  const DramTimingProblem q =
      supply_problem({"idd0", "idd2n", "idd3n", "idd4r", "idd4w", "idd5ab", p.idd0, p.idd2n, p.idd3n, p.idd4r, p.idd4w, p.idd5ab}, t);
  if (q.name || !vpp.any) return q;
  return supply_problem({"ipp0", "ipp2n", "ipp3n", "ipp4r", "ipp4w", "ipp5ab", p.ipp0, p.ipp2n, p.ipp3n, p.ipp4r, p.ipp4w, p.ipp5ab}, t);
}

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
