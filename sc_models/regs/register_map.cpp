#include "regs/register_map.hpp"

#include <stdexcept>

#include "base/bits.hpp"
#include "base/hex.hpp"
#include "base/types.hpp"

namespace gpumem {

uint32_t elab_value(Elab e, const RegisterParams& p) {
  switch (e) {
    case Elab::kNone: return 0;
    case Elab::kChannelCount: return p.layout.channels;
    case Elab::kCandidateBitCount: return p.candidate_bit_count;
    case Elab::kCandidateMask: return p.candidate_bit_count >= 32 ? ~0u : (1u << p.candidate_bit_count) - 1;
    case Elab::kPositionBit: return p.position == TranslatorPosition::kBeforeMmu ? kCtrlTranslatorPosition : 0;
    case Elab::kFixedScheme: return is_pow2(p.layout.channels) ? 0 : static_cast<uint32_t>(p.default_scheme);
    case Elab::kXorVectorCount: return p.xor_scheme ? static_cast<uint32_t>(p.layout.channel_bits.size()) : 0;
    case Elab::kMatrixRowCount: return p.matrix_scheme ? static_cast<uint32_t>(p.layout.channel_bits.size()) : 0;
  }
  return 0;
}

const char* elab_name(Elab e) {
  switch (e) {
    case Elab::kNone: return "";
    case Elab::kChannelCount: return "N";
    case Elab::kCandidateBitCount: return "K";
    case Elab::kCandidateMask: return "2^K - 1";
    case Elab::kPositionBit: return "0x4 if before the MMU";
    case Elab::kFixedScheme: return "0, or the configured scheme if N is not a power of two";
    case Elab::kXorVectorCount: return "m (0 where the xor scheme is not built)";
    case Elab::kMatrixRowCount: return "m (0 where the matrix scheme is not built)";
  }
  return "?";
}

std::string map_value_text(MapValue v) {
  if (v.elab == Elab::kNone) return hex_upper(v.constant, 8);
  if (v.constant == 0) return elab_name(v.elab);
  return hex_upper(v.constant, 8) + " \\| " + elab_name(v.elab);
}

namespace {
constexpr MapValue kAll{~0u};
constexpr MapValue kZero{0};
}  // namespace

const std::vector<RegisterDef>& register_map() {
  // name, base, dim0, dim1, dim1 mapped below, access, reset, field mask, fixed mask, check, indices, description
  static const std::vector<RegisterDef> map = {
      {"ID", kRegId, 1, 1, Elab::kNone, RegAccess::kRO, {kIdValue}, kAll, 0, WriteCheck::kNone, "",
       "Identifies the block: ASCII \"GPMM\"."},
      {"VERSION", kRegVersion, 1, 1, Elab::kNone, RegAccess::kRO, {kVersionValue}, kAll, 0, WriteCheck::kNone, "",
       "Register map version, major.minor in 16.16."},
      {"CHANNEL_COUNT", kRegChannelCount, 1, 1, Elab::kNone, RegAccess::kRO, {0, Elab::kChannelCount}, kAll, 0, WriteCheck::kNone, "",
       "Number of memory channels N (from the config)."},
      {"CANDIDATE_BIT_COUNT", kRegCandidateBitCount, 1, 1, Elab::kNone, RegAccess::kRO, {0, Elab::kCandidateBitCount}, kAll, 0,
       WriteCheck::kNone, "", "Number of candidate bits K (from the config)."},
      {"CTRL", kRegCtrl, 1, 1, Elab::kNone, RegAccess::kRW, {kCtrlInterleaveEnable, Elab::kPositionBit},
       {kCtrlInterleaveEnable | kCtrlDynamicSelectionEnable | kCtrlTranslatorPosition}, kCtrlTranslatorPosition,
       WriteCheck::kNone, "",
       "bit 0 interleave enable (0: every task type uses identity); bit 1 dynamic-selection enable; "
       "bit 2 translator position (0 after the MMU, 1 before; fixed by the config, a write that changes it is an error). "
       "Other bits read as zero, writes to them are ignored."},
      {"PT_ROOT_LO", kRegPtRootLo, 1, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0, WriteCheck::kNone, "",
       "Physical address of the root page table, bits 31:0 (small-page aligned)."},
      {"PT_ROOT_HI", kRegPtRootHi, 1, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0, WriteCheck::kNone, "",
       "Physical address of the root page table, bits 63:32."},
      {"TLB_INVALIDATE", kRegTlbInvalidate, 1, 1, Elab::kNone, RegAccess::kWA, kZero, kZero, 0, WriteCheck::kNone, "",
       "Any write invalidates every TLB entry before the next lookup. Reads as zero."},
      {"PERF_CTRL", kRegPerfCtrl, 1, 1, Elab::kNone, RegAccess::kWA, kZero, {kPerfSnapshot | kPerfReset}, 0,
       WriteCheck::kNone, "",
       "bit 0 snapshot: PERF_TASK and PERF_APP take the performance counters' current values; bit 1 reset: the "
       "performance counters and REQ_COUNT, BYTE_COUNT and APP_REQ_COUNT restart from zero (with both, the snapshot "
       "is taken first). Reads as zero."},
      {"TASK_SCHEME", kRegTaskScheme, kMaxTaskTypes, 1, Elab::kNone, RegAccess::kRW, {0, Elab::kFixedScheme}, kAll, 0,
       WriteCheck::kScheme, "t",
       "Scheme of task type t: 0 none, 1 xor, 2 prime, 3 matrix. Another value, or a scheme the config cannot serve, "
       "is an error. Writing 3 commits the rows staged in MATRIX_ROW_LO/HI[t][*]; it is an error, and changes nothing, "
       "when they are singular or read a bit inside the interleave granule or beyond the address space."},
      {"PROCESS_TASK", kRegProcessTask, kMaxProcesses, 1, Elab::kNone, RegAccess::kRW, kZero, {kVaRangeTaskMask}, 0,
       WriteCheck::kNone, "p",
       "Task type of process p (bits 3:0) when the translator sits before the MMU and no VA range matches."},
      {"APP_TASK_SELECT", kRegAppTaskSelect, kMaxProcesses, 1, Elab::kNone, RegAccess::kRW, kZero,
       {kAppTaskSelectValid | kVaRangeTaskMask}, 0, WriteCheck::kNone, "p",
       "bit 31 valid, bits 3:0 the task type selected for process p (written by the driver from the profile store). "
       "While CTRL bit 1 (dynamic selection) is set, a valid entry replaces the task type of every request of process "
       "p at the translator. Other bits read as zero."},
      {"XOR_VECTOR", kRegXorVector, kMaxTaskTypes, kMaxChannelBits, Elab::kXorVectorCount, RegAccess::kRW, kZero,
       {0, Elab::kCandidateMask}, 0, WriteCheck::kNone, "t, j",
       "XOR control vector a[t][j]: bit i selects candidate bit p_i into channel bit c_j. "
       "Bits at and above K read as zero and writes to them are ignored."},
      {"VA_RANGE_START", kRegVaRangeStart, kMaxVaRanges, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0,
       WriteCheck::kNone, "r", "First virtual small page (VA >> log2 small page) of VA range r."},
      {"VA_RANGE_END", kRegVaRangeEnd, kMaxVaRanges, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0, WriteCheck::kNone,
       "r", "Virtual small page just past VA range r."},
      {"VA_RANGE_TASK", kRegVaRangeTask, kMaxVaRanges, 1, Elab::kNone, RegAccess::kRW, kZero,
       {kVaRangeEnable | kVaRangeTaskMask}, 0, WriteCheck::kNone, "r",
       "bit 31 enable, bits 3:0 task type of VA range r. Before the MMU the lowest enabled range holding the VA gives "
       "the task type; other bits read as zero."},
      {"MATRIX_ROW_LO", kRegMatrixRowLo, kMaxTaskTypes, kMaxChannelBits, Elab::kMatrixRowCount, RegAccess::kRW, kZero, kAll,
       0, WriteCheck::kNone, "t, j",
       "Staged row j of task type t's matrix, address bits 31:0: channel bit c_j is the XOR of the address bits set "
       "in the row. Takes effect when 3 (matrix) is next written to TASK_SCHEME[t]."},
      {"MATRIX_ROW_HI", kRegMatrixRowHi, kMaxTaskTypes, kMaxChannelBits, Elab::kMatrixRowCount, RegAccess::kRW, kZero, kAll,
       0, WriteCheck::kNone, "t, j", "Staged row j of task type t's matrix, address bits 63:32."},
      {"PERF_TASK", kRegPerfTask, kMaxTaskTypes, kPerfFieldCount, Elab::kNone, RegAccess::kRO, kZero, kAll, 0,
       WriteCheck::kNone, "t, f",
       "Performance counters of task type t as of the last snapshot (PERF_CTRL bit 0), field f: 0/1 requests, "
       "2/3 bytes, 4/5 active cycles (low/high words), 6 windows, 7 mean window entropy (16.16 bits)."},
      {"PERF_APP", kRegPerfApp, kMaxProcesses, kPerfFieldCount, Elab::kNone, RegAccess::kRO, kZero, kAll, 0,
       WriteCheck::kNone, "p, f", "Performance counters of process p as of the last snapshot, fields as PERF_TASK."},
      {"PF_CTRL", kRegPfCtrl, 1, 1, Elab::kNone, RegAccess::kRW, kZero, {kPfEnable}, 0, WriteCheck::kPrefetchRanges, "",
       "bit 0 enable of the BFS prefetcher's address classifier (docs/prefetch.md). Writing 1 commits the ranges staged "
       "in PF_RANGE_*; it is an error, and changes nothing, when a range does not end after its base or two overlap. "
       "Writing 0 turns the classifier off. Other bits read as zero."},
      {"PF_RANGE_BASE_LO", kRegPfRangeBaseLo, kPfRanges, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0, WriteCheck::kNone,
       "k", "Staged base of classifier range k (0 worklist, 1 vertexlist, 2 edgelist, 3 visitedlist), a VA, bits 31:0."},
      {"PF_RANGE_BASE_HI", kRegPfRangeBaseHi, kPfRanges, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0, WriteCheck::kNone,
       "k", "Staged base of classifier range k, bits 63:32."},
      {"PF_RANGE_END_LO", kRegPfRangeEndLo, kPfRanges, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0, WriteCheck::kNone,
       "k", "Staged end (exclusive) of classifier range k, bits 31:0."},
      {"PF_RANGE_END_HI", kRegPfRangeEndHi, kPfRanges, 1, Elab::kNone, RegAccess::kRW, kZero, kAll, 0, WriteCheck::kNone,
       "k", "Staged end of classifier range k, bits 63:32."},
      {"REQ_COUNT", kRegReqCount, kMaxTaskTypes, kMaxChannels, Elab::kChannelCount, RegAccess::kRC, kZero, kAll, 0,
       WriteCheck::kNone, "t, c", "Requests of task type t served by channel c (mod 2^32). Any write clears it."},
      {"BYTE_COUNT", kRegByteCount, kMaxTaskTypes, kMaxChannels, Elab::kChannelCount, RegAccess::kRC, kZero, kAll, 0,
       WriteCheck::kNone, "t, c", "Bytes of task type t moved by channel c (mod 2^32). Any write clears it."},
      {"APP_REQ_COUNT", kRegAppReqCount, kMaxProcesses, kMaxChannels, Elab::kChannelCount, RegAccess::kRC, kZero, kAll, 0,
       WriteCheck::kNone, "p, c", "Requests of process p served by channel c (mod 2^32). Any write clears it."},
  };
  return map;
}

const RegisterDef& register_def(uint32_t base) {
  for (const auto& r : register_map())
    if (r.base == base) return r;
  throw std::logic_error("no register at " + hex_upper(base, 4));
}

const RegisterDef* register_at(uint64_t offset) {
  for (const auto& r : register_map())
    if (offset >= r.base && offset < r.base + uint64_t{r.dim0} * r.dim1 * 4) return &r;
  return nullptr;
}

namespace {
const char* access_name(RegAccess a) {
  switch (a) {
    case RegAccess::kRO: return "RO";
    case RegAccess::kRW: return "RW";
    case RegAccess::kRC: return "RC (write clears)";
    case RegAccess::kWA: return "WA (write acts)";
  }
  return "?";
}
}  // namespace

std::string register_map_markdown() {
  std::string s =
      "| name | offset | indices | access | reset | description |\n"
      "|---|---|---|---|---|---|\n";
  for (const auto& r : register_map()) {
    std::string off = hex_upper(r.base, 4);
    if (r.dim0 > 1 && r.dim1 > 1)
      off += " + 4*(" + std::to_string(r.dim1) + "*" + std::string(1, r.index_names[0]) + " + " + std::string(1, r.index_names[3]) + ")";
    else if (r.dim0 > 1)
      off += " + 4*" + std::string(r.index_names);
    std::string idx = r.dim0 > 1 ? std::string(1, r.index_names[0]) + " < " + std::to_string(r.dim0) : "";
    if (r.dim1 > 1) idx += ", " + std::string(1, r.index_names[3]) + " < " + std::to_string(r.dim1);
    if (r.dim1_mapped != Elab::kNone)
      idx += " (mapped: " + std::string(1, r.index_names[3]) + " < " + elab_name(r.dim1_mapped) + ")";
    s += "| " + std::string(r.name) + " | " + off + " | " + idx + " | " + access_name(r.access) + " | " +
         map_value_text(r.reset) + " | " + r.description + " |\n";
  }
  return s;
}

}  // namespace gpumem
