// What a DRAM channel is (memory.model: dram): its organisation, its JEDEC
// timing, where a channel-local address lands in it, and its controller's
// queues and policies. A section struct of the config kept here because the
// config, params/ and the channel all read it (docs/config-reference.md,
// "memory.dram"; docs/memory.md for the model).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpumem {

enum class MemoryModel { kSimple, kDram };
enum class PagePolicy { kOpen, kClosed };
// all_bank: a rank's banks at once (REF); per_bank: one bank at a time
// (REFpb: HBM, GDDR6); same_bank: bank b of every bank group at once
// (DDR5's REFsb).
enum class RefreshMode { kAllBank, kPerBank, kSameBank };

// The fields a channel-local address splits into. The burst offset (the
// bytes of one access) sits below all of them and is not a field.
enum class DramField { kRow, kRank, kBankGroup, kBank, kColumn };
inline constexpr const char* kDramFieldNames[] = {"row", "rank", "bankgroup", "bank", "column"};

// Every figure below comes from a preset (dram_preset()) and the config's
// overrides; the zeros here are never used as figures. What each means:
// kDramOrganizationRows below.
struct DramOrganization {
  unsigned ranks = 0, bank_groups = 0, banks_per_group = 0, rows = 0;
  unsigned columns = 0, bus_bits = 0, burst_length = 0;
  unsigned devices = 0;  // devices a rank's commands drive together: the power figures are per device
  unsigned banks() const { return bank_groups * banks_per_group; }
  unsigned access_bytes() const { return bus_bits / 8 * burst_length; }  // one column command's data
  unsigned bursts_per_row() const { return columns / burst_length; }
  uint64_t row_bytes() const { return uint64_t{columns} * bus_bits / 8; }
  uint64_t capacity_bytes() const { return row_bytes() * rows * banks() * ranks; }
};

// In memory clock cycles (tCK), the names the standards and the peers use;
// what each means: kDramTimingRows below.
struct DramTiming {
  unsigned CL = 0, CWL = 0, tBL = 0;
  unsigned tRCD = 0, tRP = 0, tRAS = 0, tRC = 0;
  unsigned tRCD_WR = 0;  // 0: tRCD
  unsigned tCCD_S = 0, tCCD_L = 0, tRRD_S = 0, tRRD_L = 0, tFAW = 0;
  unsigned tCCD_L_WR = 0;  // 0: tCCD_L
  unsigned tPPD = 0;       // 0: none
  unsigned tWTR_S = 0, tWTR_L = 0, tRTP = 0, tWR = 0, tRTRS = 0;
  unsigned tRFC = 0, tRFCb = 0, tREFI = 0;
  unsigned tRREFD = 0;    // 0: none
  unsigned tPBR2PBR = 0;  // 0: none
  // Activate to a read or a write: HBM3 (and GDDR6's JEDEC table) time the two apart.
  unsigned rcd(bool write) const { return write && tRCD_WR ? tRCD_WR : tRCD; }
  // Column to column in one bank group; DDR5 spaces two writes further apart.
  unsigned ccd_l(bool both_writes) const { return both_writes && tCCD_L_WR ? tCCD_L_WR : tCCD_L; }
};

// The IDD model's figures (JEDEC's IDD measurement conditions), per device:
// the supply voltage and the currents each state and command draws; what
// each means: kDramPowerRows below. docs/memory.md, "Energy", says how they
// make energy.
struct DramPower {
  double vdd = 0;  // volts
  double idd0 = 0, idd2n = 0, idd3n = 0, idd4r = 0, idd4w = 0, idd5ab = 0;  // milliamperes
  // The second supply, VPP (DDR4's and DDR5's wordline pump), and what the
  // same states and commands draw from it. 0, none: DRAMsim3 leaves it
  // out, and so do the presets taken from it.
  double vpp = 0;
  double ipp0 = 0, ipp2n = 0, ipp3n = 0, ipp4r = 0, ipp4w = 0, ipp5ab = 0;
  // A preset with no public figures (hbm3, lpddr5) leaves every one 0, and a
  // run reports no energy unless the config gives them all (VDD's; VPP's
  // all or none).
  bool given() const { return vdd > 0; }
};

struct DramSpec {
  std::string preset;
  uint64_t tck_ps = 0;  // the memory clock's period
  DramOrganization org;
  DramTiming timing;
  DramPower power;
  std::vector<DramField> address_order;  // most significant first; every field once
  PagePolicy page_policy = PagePolicy::kOpen;
  RefreshMode refresh = RefreshMode::kAllBank;
  bool dual_command_bus = false;  // HBM: a row command (ACT, PRE, REF) and a column command in the same cycle
  unsigned read_queue = 32;   // the transaction queue: reads not yet in their bank's queue
  unsigned bank_queue = 8;    // per bank: accesses admitted and waiting for their column command; 0: none, one shared read queue
  unsigned write_queue = 32;  // posted writes not yet sent to the banks
  unsigned write_high = 32;   // writes drain when the write queue reaches this many...
  unsigned write_low = 8;     // ...until this many remain; and drain whole while no read waits, past this many
  unsigned row_hit_cap = 4;   // row hits that may overtake an older request waiting for another row of the bank
  // simulation.timing: at, bank_queue 0 only: a request whose row was
  // activated for it leaves the read (or write) queue for a buffer of this
  // many beside it until its column command, making room for another, as
  // Ramulator 2's controller's active buffer does (0: it keeps its place).
  unsigned active_buffer = 0;
  // simulation.timing: at only: a prefetch still waiting for its first
  // command this many memory cycles after it entered the read queue is
  // dropped (0: never).
  unsigned prefetch_drop_cycles = 0;
  // simulation.timing: at only: whether prefetches rank below demand reads
  // (Lee et al.) or as any read (FR-FCFS among all, none dropped).
  bool prefetch_below_demand = true;
  // simulation.timing: at only: whose row command a bank may issue. false
  // (row_commands: oldest): its oldest request's only, so a younger request
  // never closes a row an older one is about to hit (DRAMsim3's precharge
  // arbitration). true (any): any request's whose command is legal, oldest
  // first, as Ramulator 2's FRFCFS (first ready, then oldest, whatever the
  // command); a precharge then waits only for a request whose row was
  // opened for it.
  bool row_commands_any = false;
  // Permutation-based interleaving: bit j of the bank address (the bank's
  // bits, then the bank group's, least significant first) is XORed with the
  // parity of these channel-local address bits (none of them a bank or bank
  // group bit, so the split stays a bijection). Empty: the plain split.
  std::vector<std::vector<unsigned>> bank_xor;

  // A refresh's banks, by index in the rank (bank group x banks_per_group +
  // bank): `count` of them from `first`, `stride` apart.
  struct RefreshedBanks {
    unsigned first, stride, count;
  };
  // Refreshes in a round that refreshes every bank of a rank once; a rank
  // refreshes every tREFI / refreshes_per_round() cycles.
  unsigned refreshes_per_round() const {
    return refresh == RefreshMode::kAllBank ? 1 : refresh == RefreshMode::kPerBank ? org.banks() : org.banks_per_group;
  }
  // The bank group and bank a round's refresh `turn` names (0, 0 for an all-bank one).
  std::pair<unsigned, unsigned> refresh_target(unsigned turn) const {
    if (refresh == RefreshMode::kPerBank) return {turn / org.banks_per_group, turn % org.banks_per_group};
    return {0, refresh == RefreshMode::kSameBank ? turn : 0};
  }
  // The banks a refresh naming `bank_group` and `bank` closes.
  RefreshedBanks refreshed_banks(unsigned bank_group, unsigned bank) const {
    if (refresh == RefreshMode::kPerBank) return {bank_group * org.banks_per_group + bank, 1, 1};
    if (refresh == RefreshMode::kSameBank) return {bank, org.banks_per_group, org.bank_groups};
    return {0, 1, org.banks()};
  }
  // How long a refresh keeps its banks from an activate.
  unsigned refresh_cycles() const { return refresh == RefreshMode::kAllBank ? timing.tRFC : timing.tRFCb; }
  // How long a per-bank or same-bank refresh keeps the rank's other banks
  // from an activate (tRREFD); an all-bank refresh has no other banks.
  unsigned refresh_to_other_activate() const { return refresh == RefreshMode::kAllBank ? 0 : timing.tRREFD; }
  // And from another bank's refresh (LPDDR5's tpbR2pbR, HBM's tRREFD).
  unsigned refresh_to_other_refresh() const { return refresh == RefreshMode::kAllBank ? 0 : timing.tPBR2PBR; }
  // How long after an activate a per-bank or same-bank refresh of other
  // banks waits: tRRD, as if it were an activate (JEDEC's LPDDR4 and HBM2
  // rules, as DRAMSys and Ramulator 2.1 check them), tRRD_L where it
  // refreshes a bank of the activate's group (a same-bank refresh always
  // does). An all-bank refresh waits tRC, after every bank's precharge.
  unsigned activate_to_refresh(bool same_group) const {
    return refresh == RefreshMode::kAllBank ? 0 : same_group || refresh == RefreshMode::kSameBank ? timing.tRRD_L : timing.tRRD_S;
  }
};

// The presets, in the order of the value columns of the tables below.
inline constexpr std::array<const char*, 6> kDramPresetNames = {"ddr4", "gddr6", "hbm2", "hbm3", "ddr5", "lpddr5"};
using DramPresetValues = std::array<unsigned, kDramPresetNames.size()>;

// The organisation and the timing as tables, one row a figure: its name
// (its key under memory.dram, or memory.dram.timing), the values it may
// take, what it means and each preset's value. The presets, the config
// reader's keys and bounds, and docs/config-reference.md's preset table (a
// test holds it) come from these rows; the figures' sources are in
// dram_spec.cpp and that page.
struct DramOrganizationRow {
  const char* name;
  unsigned DramOrganization::*member;
  unsigned most;  // from 1 to this, a power of two unless power_of_two is false
  const char* meaning;
  DramPresetValues preset;
  bool power_of_two = true;
};
inline constexpr DramOrganizationRow kDramOrganizationRows[] = {
    {"ranks", &DramOrganization::ranks, 64, "ranks per channel", {2, 1, 1, 1, 1, 1}},
    {"bank_groups", &DramOrganization::bank_groups, 64, "bank groups per rank", {4, 4, 4, 4, 8, 4}},
    {"banks_per_group", &DramOrganization::banks_per_group, 64, "banks per bank group", {4, 4, 4, 4, 4, 4}},
    {"rows", &DramOrganization::rows, 1u << 24, "rows per bank", {65536, 16384, 32768, 16384, 65536, 65536}},
    {"columns", &DramOrganization::columns, 1u << 16, "column addresses per row, each `bus_bits` wide", {1024, 1024, 128, 256, 1024, 1024}},
    {"bus_bits", &DramOrganization::bus_bits, 1024, "data bus width, bits", {64, 16, 128, 32, 32, 16}},
    {"burst_length", &DramOrganization::burst_length, 64,
     "beats per column command (an access is bus_bits / 8 x burst_length bytes: 64, 32, 64, 32, 64, 32)", {8, 16, 4, 8, 16, 16}},
    {"devices", &DramOrganization::devices, 64,
     "devices (chips) a rank's commands drive together; the power figures are one device's", {8, 1, 1, 1, 4, 1}, false},
};

struct DramTimingRow {
  const char* name;
  unsigned DramTiming::*member;
  unsigned least, most;
  const char* meaning;
  DramPresetValues preset;
};
inline constexpr unsigned kDramTimingMost = 1u << 20;
inline constexpr DramTimingRow kDramTimingRows[] = {
    {"CL", &DramTiming::CL, 1, kDramTimingMost, "read command to first data", {22, 24, 14, 20, 34, 17}},
    {"CWL", &DramTiming::CWL, 1, kDramTimingMost, "write command to first data", {16, 16, 4, 10, 32, 9}},
    {"tBL", &DramTiming::tBL, 1, kDramTimingMost, "one burst on the data bus", {4, 4, 2, 2, 8, 2}},
    {"tRCD", &DramTiming::tRCD, 1, kDramTimingMost, "activate to read (and to write, unless tRCD_WR)", {22, 24, 14, 31, 34, 15}},
    {"tRCD_WR", &DramTiming::tRCD_WR, 0, kDramTimingMost, "activate to write, where the standard times it apart (0: tRCD)", {0, 0, 0, 15, 0, 0}},
    {"tRP", &DramTiming::tRP, 1, kDramTimingMost, "precharge to activate", {22, 24, 14, 26, 34, 15}},
    {"tPPD", &DramTiming::tPPD, 0, kDramTimingMost, "precharge to precharge, same rank, where the standard spaces them (0: none)", {0, 0, 0, 2, 2, 2}},
    {"tRAS", &DramTiming::tRAS, 1, kDramTimingMost, "activate to precharge", {52, 54, 34, 45, 77, 34}},
    {"tRC", &DramTiming::tRC, 1, kDramTimingMost, "activate to activate, same bank", {74, 78, 48, 72, 111, 49}},
    {"tCCD_S", &DramTiming::tCCD_S, 1, kDramTimingMost, "column to column, other bank group", {4, 3, 1, 2, 8, 2}},
    {"tCCD_L", &DramTiming::tCCD_L, 1, kDramTimingMost, "column to column, same bank group (and write to write, unless tCCD_L_WR)", {8, 4, 2, 4, 12, 4}},
    {"tCCD_L_WR", &DramTiming::tCCD_L_WR, 0, kDramTimingMost, "write to write, same bank group, where the standard spaces it apart (0: tCCD_L)", {0, 0, 0, 0, 48, 0}},
    {"tRRD_S", &DramTiming::tRRD_S, 1, kDramTimingMost, "activate to activate, other bank group", {4, 9, 4, 4, 8, 4}},
    {"tRRD_L", &DramTiming::tRRD_L, 1, kDramTimingMost, "activate to activate, same bank group", {8, 9, 6, 5, 12, 4}},
    {"tFAW", &DramTiming::tFAW, 1, kDramTimingMost, "at most four activates per rank in this window", {34, 32, 30, 24, 48, 16}},
    {"tWTR_S", &DramTiming::tWTR_S, 0, kDramTimingMost, "end of write data to read, other bank group", {4, 7, 6, 7, 6, 5}},
    {"tWTR_L", &DramTiming::tWTR_L, 0, kDramTimingMost, "end of write data to read, same bank group", {12, 7, 8, 10, 24, 12}},
    {"tRTP", &DramTiming::tRTP, 1, kDramTimingMost, "read to precharge", {12, 3, 5, 9, 18, 8}},
    {"tWR", &DramTiming::tWR, 1, kDramTimingMost, "end of write data to precharge", {24, 16, 16, 33, 72, 28}},
    {"tRTRS", &DramTiming::tRTRS, 0, kDramTimingMost, "data bus turnaround: between ranks, and between reads and writes", {1, 1, 2, 8, 4, 2}},
    {"tRFC", &DramTiming::tRFC, 1, kDramTimingMost, "all-bank refresh to activate", {560, 126, 260, 416, 710, 224}},
    {"tRFCb", &DramTiming::tRFCb, 1, kDramTimingMost, "per-bank or same-bank refresh to activate in a bank it refreshed", {560, 30, 160, 320, 313, 112}},
    {"tRREFD", &DramTiming::tRREFD, 0, kDramTimingMost,
     "per-bank or same-bank refresh to activate in another bank (HBM's tRREFD, DDR5's tREFSBRD, LPDDR5's tpbR2act; 0: none)",
     {0, 0, 8, 8, 73, 6}},
    {"tPBR2PBR", &DramTiming::tPBR2PBR, 0, kDramTimingMost,
     "per-bank or same-bank refresh to refresh of another bank (LPDDR5's tpbR2pbR, HBM's tRREFD; 0: none)", {0, 0, 8, 8, 0, 72}},
    {"tREFI", &DramTiming::tREFI, 0, 1u << 30, "refresh interval, per rank (0: no refresh)", {12480, 11862, 3900, 6240, 9375, 3125}},
};

struct DramPowerRow {
  const char* name;
  double DramPower::*member;
  double least, most;
  const char* meaning;
  std::array<double, kDramPresetNames.size()> preset;
  bool vpp = false;  // of the second supply: all of its rows or none
};
inline constexpr DramPowerRow kDramPowerRows[] = {
    {"vdd", &DramPower::vdd, 0.5, 5, "supply voltage VDD, volts", {1.2, 1.35, 1.2, 0, 1.1, 0}},
    {"idd0", &DramPower::idd0, 0.1, 10000, "IDD0, mA: activate and precharge, one bank in turn every tRC", {57, 71, 65, 0, 60, 0}},
    {"idd2n", &DramPower::idd2n, 0.1, 10000, "IDD2N, mA: precharge standby (every bank closed)", {37, 60, 40, 0, 50, 0}},
    {"idd3n", &DramPower::idd3n, 0.1, 10000, "IDD3N, mA: active standby (a bank open)", {52, 61, 55, 0, 55, 0}},
    {"idd4r", &DramPower::idd4r, 0.1, 10000, "IDD4R, mA: reads streaming", {168, 248, 390, 0, 145, 0}},
    {"idd4w", &DramPower::idd4w, 0.1, 10000, "IDD4W, mA: writes streaming", {150, 231, 500, 0, 145, 0}},
    {"idd5ab", &DramPower::idd5ab, 0.1, 10000, "IDD5B, mA: all-bank refresh, one every tRFC", {250, 286, 250, 0, 362, 0}},
    {"vpp", &DramPower::vpp, 0.5, 5, "second supply voltage VPP, volts (none: every VPP figure left out)", {0, 0, 0, 0, 1.8, 0}, true},
    {"ipp0", &DramPower::ipp0, 0.1, 10000, "IPP0, mA: IDD0's state, from VPP", {0, 0, 0, 0, 3, 0}, true},
    {"ipp2n", &DramPower::ipp2n, 0.1, 10000, "IPP2N, mA: IDD2N's state, from VPP", {0, 0, 0, 0, 3, 0}, true},
    {"ipp3n", &DramPower::ipp3n, 0.1, 10000, "IPP3N, mA: IDD3N's state, from VPP", {0, 0, 0, 0, 3, 0}, true},
    {"ipp4r", &DramPower::ipp4r, 0.1, 10000, "IPP4R, mA: IDD4R's state, from VPP", {0, 0, 0, 0, 3, 0}, true},
    {"ipp4w", &DramPower::ipp4w, 0.1, 10000, "IPP4W, mA: IDD4W's state, from VPP", {0, 0, 0, 0, 3, 0}, true},
    {"ipp5ab", &DramPower::ipp5ab, 0.1, 10000, "IPP5B, mA: IDD5B's state, from VPP", {0, 0, 0, 0, 48, 0}, true},
};

// The first of the standard's relations between timings that `t` breaks
// (with `refresh`, those of its refresh mode too): the timing it is charged
// to and a sentence naming the relation; none broken: an empty name.
struct DramTimingProblem {
  const char* name = nullptr;
  std::string what;
};
DramTimingProblem dram_timing_problem(const DramTiming& t, RefreshMode refresh);
// Bank refreshes must keep to their schedule and leave activates room:
// they fall due further apart than tPBR2PBR spaces them, or they would fall
// behind for ever; and with tRREFD, which holds the rank's activates, one
// activate fits between two, with its precharge, its read and the
// four-activate window (tREFI / refreshes per round > tRREFD + tRP + tRCD +
// tFAW), or lt's planner would plan refreshes forever and at would starve.
// Charged to tREFI; none: an empty name.
DramTimingProblem dram_refresh_problem(const DramSpec& d);
// The first of the IDD model's relations `p` breaks (each draw above the
// standby it adds to, so that no command's energy comes out negative): the
// figure it is charged to and a sentence; none broken: an empty name.
DramTimingProblem dram_power_problem(const DramPower& p, const DramTiming& t);

// Where an access landed inside its channel (channel/dram_address.hpp splits it).
struct DramAddress {
  unsigned rank = 0, bank_group = 0, bank = 0;  // bank: within its group
  uint32_t row = 0, column = 0;                 // column: in bursts
  bool operator==(const DramAddress& o) const {
    return rank == o.rank && bank_group == o.bank_group && bank == o.bank && row == o.row && column == o.column;
  }
};

// What an access found at its bank.
enum class RowResult : uint8_t {
  kHit,        // the row was open
  kMiss,       // the bank was closed: an activate
  kConflict,   // another row was open: a precharge and an activate
  kForwarded,  // a read answered from a posted write to the same access
  kPosted,     // a write accepted into the write queue (it reaches its bank later)
  kDropped,    // simulation.timing: at: a prefetch that waited past memory.dram.prefetch_drop_cycles
};
const char* row_result_name(RowResult r);

// A preset's figures (docs/config-reference.md says where each came from).
// Null for an unknown name.
const DramSpec* dram_preset(const std::string& name);
std::vector<std::string> dram_preset_names();

std::string address_order_text(const std::vector<DramField>& order);

// Where the fields sit in a channel-local address (docs/memory.md, "Address
// split"): the bytes of one access below, then address_order's fields from
// the last to the first.
unsigned dram_offset_bits(const DramSpec& spec);
std::vector<unsigned> dram_field_bits(const DramSpec& spec, DramField field);  // lowest first
// The bank address's bits, as bank_xor counts them: the bank's, then the bank group's.
std::vector<unsigned> dram_bank_address_bits(const DramSpec& spec);

}  // namespace gpumem
