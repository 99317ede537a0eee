// The DRAM timing constraints as the checker of command traces reads the
// standards (JESD79-4 DDR4, JESD250 GDDR6, JESD235 HBM2, JESD238 HBM3,
// JESD79-5 DDR5, JESD209-5 LPDDR5; docs/memory.md, "Timing constraints",
// is the same list in words). Written apart from the controllers
// (sc_models/channel/), which this never calls: a controller's misreading
// of a constraint is then not also the checker's.
//
// The standards share these rows; a constraint only some have (tPPD,
// tRREFD, tPBR2PBR) is a row whose figure is 0 on the others. Each row is the least
// distance between two commands, the second's cycle minus the first's,
// where the second is in the first's scope; the checker compares every
// command with the latest command of each row's first kind in that scope.
#pragma once
#include "base/dram_spec.hpp"

namespace gpumem::tb {

// Commands as sets, a bit each. RDA and WRA count as RD and WR (their
// precharge as a PRE at the cycle it begins); REFpb and REFsb as REF.
enum DramCommandSet : unsigned { kAct = 1, kPre = 2, kRd = 4, kWr = 8, kRef = 16, kColumn = kRd | kWr };

// Where the second command is: the same bank (a refresh: a bank it
// refreshes), another bank or the same in the same bank group (a refresh:
// a group it refreshes a bank of), or anywhere in the rank.
enum class DramScope { kBank, kBankGroup, kRank };

struct DramConstraint {
  const char* name;  // as the standards and docs/memory.md name it
  unsigned from, to;
  DramScope scope;
  unsigned (*cycles)(const DramSpec& s);
  const char* between;
};

inline constexpr DramConstraint kDramConstraints[] = {
    {"tRC", kAct, kAct, DramScope::kBank, [](const DramSpec& s) { return s.timing.tRC; }, "activate, then activate"},
    {"tRCD", kAct, kRd, DramScope::kBank, [](const DramSpec& s) { return s.timing.rcd(false); }, "activate, then read"},
    {"tRCD_WR", kAct, kWr, DramScope::kBank, [](const DramSpec& s) { return s.timing.rcd(true); },
     "activate, then write (tRCD where the standard does not time it apart)"},
    {"tRAS", kAct, kPre, DramScope::kBank, [](const DramSpec& s) { return s.timing.tRAS; }, "activate, then precharge"},
    {"tRP", kPre, kAct | kRef, DramScope::kBank, [](const DramSpec& s) { return s.timing.tRP; }, "precharge, then activate or refresh"},
    // Between precharge commands: an RDA's or WRA's precharge is none.
    {"tPPD", kPre, kPre, DramScope::kRank, [](const DramSpec& s) { return s.timing.tPPD; },
     "precharge, then precharge (where the standard spaces them)"},
    {"tRTP", kRd, kPre, DramScope::kBank, [](const DramSpec& s) { return s.timing.tRTP; }, "read, then precharge"},
    {"tWR", kWr, kPre, DramScope::kBank, [](const DramSpec& s) { return s.timing.CWL + s.timing.tBL + s.timing.tWR; },
     "write, then precharge: CWL + tBL + tWR"},
    {"tRC (refresh)", kAct, kRef, DramScope::kBank, [](const DramSpec& s) { return s.timing.tRC; }, "activate, then refresh"},
    {"tRFC", kRef, kAct | kRef, DramScope::kBank,
     [](const DramSpec& s) { return s.refresh == RefreshMode::kAllBank ? s.timing.tRFC : s.timing.tRFCb; },
     "refresh, then activate or refresh (tRFCb for a per-bank or same-bank refresh)"},
    // Rank-wide: the refreshed banks themselves wait tRFCb, which is longer.
    {"tRREFD", kRef, kAct, DramScope::kRank, [](const DramSpec& s) { return s.refresh == RefreshMode::kAllBank ? 0 : s.timing.tRREFD; },
     "per-bank or same-bank refresh, then activate (HBM's tRREFD, DDR5's tREFSBRD, LPDDR5's tpbR2act)"},
    {"tPBR2PBR", kRef, kRef, DramScope::kRank, [](const DramSpec& s) { return s.refresh == RefreshMode::kAllBank ? 0 : s.timing.tPBR2PBR; },
     "per-bank or same-bank refresh, then another (LPDDR5's tpbR2pbR, HBM's tRREFD)"},
    // A bank refresh keeps tRRD from an activate, as an activate would (an
    // all-bank refresh waits tRC, after every bank's precharge).
    {"tRRD_L (refresh)", kAct, kRef, DramScope::kBankGroup,
     [](const DramSpec& s) { return s.refresh == RefreshMode::kAllBank ? 0 : s.timing.tRRD_L; },
     "activate, then per-bank or same-bank refresh of a bank in its group"},
    {"tRRD_S (refresh)", kAct, kRef, DramScope::kRank,
     [](const DramSpec& s) { return s.refresh == RefreshMode::kAllBank ? 0 : s.timing.tRRD_S; },
     "activate, then per-bank or same-bank refresh"},
    {"tRRD_L", kAct, kAct, DramScope::kBankGroup, [](const DramSpec& s) { return s.timing.tRRD_L; }, "activate, then activate"},
    {"tRRD_S", kAct, kAct, DramScope::kRank, [](const DramSpec& s) { return s.timing.tRRD_S; }, "activate, then activate"},
    // Before tCCD_L, which it covers: two writes too close are charged to it.
    {"tCCD_L_WR", kWr, kWr, DramScope::kBankGroup, [](const DramSpec& s) { return s.timing.ccd_l(true); },
     "write, then write (tCCD_L where the standard does not space them apart)"},
    {"tCCD_L", kColumn, kColumn, DramScope::kBankGroup, [](const DramSpec& s) { return s.timing.tCCD_L; },
     "read or write, then read or write"},
    {"tCCD_S", kColumn, kColumn, DramScope::kRank, [](const DramSpec& s) { return s.timing.tCCD_S; },
     "read or write, then read or write"},
    {"tWTR_L", kWr, kRd, DramScope::kBankGroup, [](const DramSpec& s) { return s.timing.CWL + s.timing.tBL + s.timing.tWTR_L; },
     "write, then read: CWL + tBL + tWTR_L"},
    {"tWTR_S", kWr, kRd, DramScope::kRank, [](const DramSpec& s) { return s.timing.CWL + s.timing.tBL + s.timing.tWTR_S; },
     "write, then read: CWL + tBL + tWTR_S"},
};

// Checked besides the rows, as they are no distance between two commands:
// tFAW (a fifth activate of a rank within tFAW of the first of four), the
// data bus (bursts of tBL from CL after a read and CWL after a write never
// overlap, tRTRS apart between ranks and between a read's and a write's),
// the command bus (one command a cycle; with dual_command_bus one row and
// one column command), tREFI (no rank, or bank with per-bank refresh, or
// bank of every group with same-bank refresh, goes nine intervals without a
// refresh: eight may be postponed) and the banks'
// states (an activate to a closed bank, a column command to its open row, a
// precharge of an open bank, a refresh of closed banks).
inline constexpr const char* kDramCheckedBesides[] = {"tFAW", "data bus", "command bus", "tREFI", "bank state"};

}  // namespace gpumem::tb
