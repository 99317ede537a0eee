// TLM payload extensions. RequestInfo travels from the initiator (who asked,
// for which task type); HowExtension is filled along the path and says how the
// result came about (scheme, mapped address, channel, timing), so tests and
// the scoreboard check the how, not only the data.
#pragma once
#include <tlm>

#include "how.hpp"

namespace gpumem {

// Page-table accesses (driver writes, walker reads) travel the same sockets as
// data but are not a task type's traffic: the router does not count them.
enum class Origin : uint8_t { kData, kPageTable };

struct RequestInfo : tlm::tlm_extension<RequestInfo> {
  uint64_t id = 0;
  unsigned task = 0;
  unsigned process = 0;
  Origin origin = Origin::kData;
  uint64_t issue_cycle = 0;

  tlm_extension_base* clone() const override { return new RequestInfo(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const RequestInfo&>(other); }
};

struct HowExtension : tlm::tlm_extension<HowExtension>, How {
  tlm_extension_base* clone() const override { return new HowExtension(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const HowExtension&>(other); }
};

}  // namespace gpumem
