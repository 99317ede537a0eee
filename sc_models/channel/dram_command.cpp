#include "channel/dram_command.hpp"

namespace gpumem {

const char* dram_command_name(DramCommandKind k) {
  switch (k) {
    case DramCommandKind::kActivate: return "ACT";
    case DramCommandKind::kPrecharge: return "PRE";
    case DramCommandKind::kRead: return "RD";
    case DramCommandKind::kWrite: return "WR";
    case DramCommandKind::kRefresh: return "REF";
  }
  return "?";
}

void DramCommandOrder::add(const DramCommand& c) {
  const bool column = last_.kind == DramCommandKind::kRead || last_.kind == DramCommandKind::kWrite;
  if (has_last_ && c.kind == DramCommandKind::kPrecharge && c.auto_precharge && column && last_.rank == c.rank &&
      last_.bank_group == c.bank_group && last_.bank == c.bank) {
    last_.auto_precharge = true;
    push_last();
    return;
  }
  push_last();
  last_ = c;
  has_last_ = true;
}

void DramCommandOrder::push_last() {
  if (!has_last_) return;
  heap_.push({last_, seq_++});
  has_last_ = false;
}

void DramCommandOrder::release_before(uint64_t cycle) {
  push_last();
  while (!heap_.empty() && heap_.top().c.cycle < cycle) {
    sink_.command(channel_, heap_.top().c);
    heap_.pop();
  }
}

}  // namespace gpumem
