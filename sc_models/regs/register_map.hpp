// The register map: the one source of truth. Each row says where a register
// lies, who may access it, its reset value, which of its bits hold state and
// which writes it refuses. The register bank builds its typed registers from
// it, `gpumem regmap` prints it as Markdown (docs/register-map.md) and into
// the RTL's SystemVerilog package (regs/rtl_package.hpp); tests prove the
// printed forms current.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/channel_layout.hpp"
#include "base/memory_options.hpp"
#include "base/translator_options.hpp"
#include "base/types.hpp"

namespace gpumem {

enum class RegAccess : uint8_t {
  kRO,  // read-only: a write is an error
  kRW,
  kRC,  // counter: read returns the count, any write clears it
  kWA,  // action: any write triggers it, reads return zero
};

// What the bank is elaborated with: the part of the map that is not constant.
struct RegisterParams {
  ChannelLayout layout;             // N and the channel bits c_j
  unsigned candidate_bit_count = 0;  // K
  uint64_t prime = TranslatorOptions{}.prime;  // 0: the prime scheme is not configured
  Scheme default_scheme = TranslatorOptions{}.default_scheme;
  TranslatorPosition position = TranslatorOptions{}.position;
  unsigned address_bits = MemoryOptions{}.address_bits;  // the translator's input width: matrix rows read no bit at or above it
  // The xor and matrix schemes and their registers exist (a translator RTL's
  // port may be built without them: the co-simulation elaborates the bank to
  // match). The prime scheme is absent where `prime` is 0.
  bool xor_scheme = true;
  bool matrix_scheme = true;
  unsigned entropy_window = MemoryOptions{}.max_outstanding;  // W of the performance counters' window entropy
};

// A quantity of the elaborated configuration that a row may depend on.
enum class Elab : uint8_t {
  kNone,
  kChannelCount,       // N
  kCandidateBitCount,  // K
  kCandidateMask,      // 2^K - 1: the bits of an XOR control vector that exist
  kPositionBit,        // CTRL.TRANSLATOR_POSITION when the translator sits before the MMU
  kFixedScheme,        // the configured scheme when N is not a power of two (then fixed), else none
  kXorVectorCount,     // m when the xor scheme exists, else 0
  kMatrixRowCount,     // m when the matrix scheme exists, else 0
};
uint32_t elab_value(Elab e, const RegisterParams& p);
const char* elab_name(Elab e);  // as the docs write it

// A value of the table: a constant, ORed with an elaborated quantity.
struct MapValue {
  uint32_t constant = 0;
  Elab elab = Elab::kNone;
};
inline uint32_t value_of(MapValue v, const RegisterParams& p) { return v.constant | elab_value(v.elab, p); }
std::string map_value_text(MapValue v);

// A write check beyond the field masks, named here and implemented by the bank.
enum class WriteCheck : uint8_t {
  kNone,
  kScheme,  // a Scheme the configuration can serve
  kPrefetchRanges,  // PF_CTRL: enabling commits the staged classifier ranges, which must be sound
};

// A register, or an array of them: offset = base + (i * dim1 + j) * 4.
struct RegisterDef {
  const char* name;
  uint32_t base;
  uint32_t dim0;          // first index extent (1 for a scalar)
  uint32_t dim1;          // second index extent (1 for one index)
  Elab dim1_mapped;       // kNone: every j exists; else only j below this quantity
  RegAccess access;
  MapValue reset;
  MapValue field_mask;    // bits that hold state: the rest read as zero, writes to them are ignored
  uint32_t fixed_mask;    // stored bits a write must leave as they are, else the write is refused
  WriteCheck check;
  const char* index_names;  // e.g. "t" or "t, j"
  const char* description;
};

constexpr uint32_t kRegId = 0x0000;
constexpr uint32_t kRegVersion = 0x0004;
constexpr uint32_t kRegChannelCount = 0x0008;
constexpr uint32_t kRegCandidateBitCount = 0x000C;
constexpr uint32_t kRegCtrl = 0x0010;
constexpr uint32_t kRegPtRootLo = 0x0020;
constexpr uint32_t kRegPtRootHi = 0x0024;
constexpr uint32_t kRegTlbInvalidate = 0x0028;
constexpr uint32_t kRegPerfCtrl = 0x0030;
constexpr uint32_t kRegTaskScheme = 0x0040;  // [t]
constexpr uint32_t kRegProcessTask = 0x0080;  // [p]
constexpr uint32_t kRegAppTaskSelect = 0x00C0;  // [p]
constexpr uint32_t kRegXorVector = 0x0100;   // [t][j], j < 8
constexpr uint32_t kRegVaRangeStart = 0x0300;  // [r]
constexpr uint32_t kRegVaRangeEnd = 0x0320;    // [r]
constexpr uint32_t kRegVaRangeTask = 0x0340;   // [r]
constexpr uint32_t kRegMatrixRowLo = 0x0400;   // [t][j], j < 8
constexpr uint32_t kRegMatrixRowHi = 0x0600;   // [t][j], j < 8
constexpr uint32_t kRegPerfTask = 0x0800;      // [t][f], f < 8
constexpr uint32_t kRegPerfApp = 0x0A00;       // [p][f], f < 8
constexpr uint32_t kRegPfCtrl = 0x0C00;
constexpr uint32_t kRegPfRangeBaseLo = 0x0C10;  // [k], k < 4: worklist, vertexlist, edgelist, visitedlist
constexpr uint32_t kRegPfRangeBaseHi = 0x0C20;  // [k]
constexpr uint32_t kRegPfRangeEndLo = 0x0C30;   // [k]
constexpr uint32_t kRegPfRangeEndHi = 0x0C40;   // [k]
constexpr uint32_t kPfRanges = 4;
constexpr uint32_t kRegReqCount = 0x1000;    // [t][c], c < 256
constexpr uint32_t kRegByteCount = 0x5000;   // [t][c]
constexpr uint32_t kRegAppReqCount = 0x9000;  // [p][c]
constexpr uint32_t kRegisterSpaceBytes = 0xD000;
// Not a register: above the map, a translator's register port reads back
// the committed matrix rows here (4 * (8 * t + j) for bits 31:0, the same
// again after kMaxTaskTypes task types for bits 63:32), so a test bench can
// check a refused write committed nothing (docs/cosim.md, the port contract).
constexpr uint32_t kMatrixInUseWindow = 0xE000;
// Bits of a register port's byte offset (REG_ADDR_BITS of gpumem_pkg): the
// register space rounded up to a power of two, 16 bits.
constexpr unsigned register_address_bits() {
  unsigned b = 1;
  while ((uint64_t{1} << b) < kRegisterSpaceBytes) ++b;
  return b;
}

constexpr uint32_t kIdValue = 0x4750'4D4D;  // "GPMM"
constexpr uint32_t kVersionValue = 0x0002'0004;  // 2.4: PF_CTRL and PF_RANGE (the prefetch classifier)

// CTRL fields.
constexpr uint32_t kCtrlInterleaveEnable = 1u << 0;
constexpr uint32_t kCtrlDynamicSelectionEnable = 1u << 1;
constexpr uint32_t kCtrlTranslatorPosition = 1u << 2;  // 0: after the MMU (PA), 1: before (VA)
// PERF_CTRL fields: a write with both takes the snapshot first.
constexpr uint32_t kPerfSnapshot = 1u << 0;
constexpr uint32_t kPerfReset = 1u << 1;
// APP_TASK_SELECT fields.
constexpr uint32_t kAppTaskSelectValid = 1u << 31;
// The counters of one group (a task type in PERF_TASK, an application in
// PERF_APP), as of the last snapshot: f in PERF_TASK[t][f], PERF_APP[p][f].
enum PerfField : uint32_t {
  kPerfRequestsLo,
  kPerfRequestsHi,
  kPerfBytesLo,
  kPerfBytesHi,
  kPerfActiveCyclesLo,
  kPerfActiveCyclesHi,
  kPerfWindows,
  kPerfEntropy,  // mean window entropy, bits in 16.16 fixed point
  kPerfFieldCount
};
// PF_CTRL fields.
constexpr uint32_t kPfEnable = 1u << 0;
// VA_RANGE_TASK fields.
constexpr uint32_t kVaRangeEnable = 1u << 31;
constexpr uint32_t kVaRangeTaskMask = 0xF;

const std::vector<RegisterDef>& register_map();
// The row whose base is `base` (one of the kReg constants above).
const RegisterDef& register_def(uint32_t base);
// The row whose span holds `offset`, whatever the configured extent; nullptr in a gap.
const RegisterDef* register_at(uint64_t offset);

std::string register_map_markdown();

}  // namespace gpumem
