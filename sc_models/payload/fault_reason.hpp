// Why a translation faulted: the how extension and the fault records carry it
// (docs/page-tables.md, "Faults").
#pragma once
#include <cstdint>

namespace gpumem {

enum class FaultReason : uint8_t {
  kNone,
  kVaOutOfRange,    // VA wider than va_bits
  kUnmapped,        // an invalid PTE on the way
  kPermission,      // write to a read-only page, read from an unreadable one
  kPageTableError,  // malformed tables: reserved bits, multi-bit nested flag, a nested region that points back, ...
};

inline const char* fault_reason_name(FaultReason r) {
  switch (r) {
    case FaultReason::kNone: return "none";
    case FaultReason::kVaOutOfRange: return "va_out_of_range";
    case FaultReason::kUnmapped: return "unmapped";
    case FaultReason::kPermission: return "permission";
    case FaultReason::kPageTableError: return "page_table_error";
  }
  return "?";
}

}  // namespace gpumem
