// The register map: the one source of truth. The register bank decodes with
// it, `gpumem regmap` prints it as Markdown (docs/register-map.md) and as a
// SystemVerilog package for the RTL; tests prove the printed forms current.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpumem {

enum class RegAccess : uint8_t {
  kRO,  // read-only: a write is an error
  kRW,
  kRC,  // counter: read returns the count, any write clears it
  kWA,  // action: any write triggers it, reads return zero
};

// A register, or an array of them: offset = base + (i * dim1 + j) * 4.
struct RegisterDef {
  const char* name;
  uint32_t base;
  uint32_t dim0;  // first index extent (1 for a scalar)
  uint32_t dim1;  // second index extent (1 for one index)
  RegAccess access;
  uint32_t reset;
  const char* index_names;  // e.g. "t" or "t, j"
  const char* description;
};

constexpr uint32_t kRegId = 0x0000;
constexpr uint32_t kRegVersion = 0x0004;
constexpr uint32_t kRegChannels = 0x0008;
constexpr uint32_t kRegCandidateBits = 0x000C;
constexpr uint32_t kRegCtrl = 0x0010;
constexpr uint32_t kRegPtRootLo = 0x0020;
constexpr uint32_t kRegPtRootHi = 0x0024;
constexpr uint32_t kRegTlbInvalidate = 0x0028;
constexpr uint32_t kRegTaskScheme = 0x0040;  // [t]
constexpr uint32_t kRegProcessTask = 0x0080;  // [p]
constexpr uint32_t kRegXorVector = 0x0100;   // [t][j], j < 8
constexpr uint32_t kRegVaRangeStart = 0x0300;  // [r]
constexpr uint32_t kRegVaRangeEnd = 0x0320;    // [r]
constexpr uint32_t kRegVaRangeTask = 0x0340;   // [r]
constexpr uint32_t kRegReqCount = 0x1000;    // [t][c], c < 256
constexpr uint32_t kRegByteCount = 0x5000;   // [t][c]
constexpr uint32_t kRegisterSpaceBytes = 0x9000;

constexpr uint32_t kIdValue = 0x4750'4D4D;  // "GPMM"
constexpr uint32_t kVersionValue = 0x0002'0000;

// CTRL fields.
constexpr uint32_t kCtrlInterleaveEnable = 1u << 0;
constexpr uint32_t kCtrlDynamicSelectionEnable = 1u << 1;
constexpr uint32_t kCtrlTranslatorPosition = 1u << 2;  // 0: after the MMU (PA), 1: before (VA)
constexpr uint32_t kCtrlWritableMask = 0x7;
// VA_RANGE_TASK fields.
constexpr uint32_t kVaRangeEnable = 1u << 31;
constexpr uint32_t kVaRangeTaskMask = 0xF;

const std::vector<RegisterDef>& register_map();

std::string register_map_markdown();
std::string register_map_systemverilog();

}  // namespace gpumem
