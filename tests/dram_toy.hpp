// The toy DRAM device of the directed tests (test_dram_timing.cpp,
// test_dram_controller.cpp): every figure different, so that dropping a
// constraint or moving it by one cycle changes a command's cycle.
#pragma once
#include "base/dram_spec.hpp"
#include "channel/dram_command.hpp"

namespace gpumem {

// Two ranks of two bank groups of four banks; 16 rows of four 32-byte bursts.
inline DramSpec toy() {
  DramSpec s;
  s.preset = "toy";
  s.tck_ps = 1000;
  s.org = {2, 2, 4, 16, 16, 64, 4};
  DramTiming& t = s.timing;
  t.CL = 5, t.CWL = 3, t.tBL = 2, t.tRCD = 4, t.tRP = 3, t.tRAS = 8, t.tRC = 13;
  t.tCCD_S = 3, t.tCCD_L = 5, t.tRRD_S = 2, t.tRRD_L = 4, t.tFAW = 10;
  t.tWTR_S = 2, t.tWTR_L = 4, t.tRTP = 2, t.tWR = 3, t.tRTRS = 2;
  t.tRFC = 20, t.tRFCb = 10, t.tREFI = 0;
  s.address_order = {DramField::kRow, DramField::kRank, DramField::kBankGroup, DramField::kBank, DramField::kColumn};
  s.read_queue = 64, s.write_queue = 64, s.write_high = 1, s.write_low = 0;  // writes go to their banks at once
  s.row_hit_cap = 4;
  return s;
}

// The commands as the directed tests' expected sequences spell them.
constexpr auto ACT = DramCommandKind::kActivate;
constexpr auto PRE = DramCommandKind::kPrecharge;
constexpr auto RD = DramCommandKind::kRead;
constexpr auto WR = DramCommandKind::kWrite;
constexpr auto REF = DramCommandKind::kRefresh;

}  // namespace gpumem
