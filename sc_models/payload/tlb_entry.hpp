// A TLB entry as the how extension reports a victim and the scoreboard
// compares it (docs/page-tables.md).
#pragma once
#include <cstdint>

namespace gpumem {

struct TlbEntry {
  bool valid = false;
  bool large_page = false;
  uint64_t vpn = 0;  // at the entry's own page size
  uint64_t pfn = 0;  // small-page units
  uint8_t nested_flag = 0;
  uint8_t task_type = 0;
  bool readable = false, writable = false;

  bool operator==(const TlbEntry& o) const {
    return valid == o.valid && large_page == o.large_page && vpn == o.vpn && pfn == o.pfn &&
           nested_flag == o.nested_flag && task_type == o.task_type && readable == o.readable && writable == o.writable;
  }
  bool operator!=(const TlbEntry& o) const { return !(*this == o); }
};

}  // namespace gpumem
