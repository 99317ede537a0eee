#include "stats/transaction_log.hpp"

namespace gpumem {

TransactionLog::TransactionLog(const std::string& path, bool dram_columns)
    : out_(path, "--txn-log"), f_(out_.stream()), dram_columns_(dram_columns) {
  std::fputs(kTransactionLogHeader, f_);
  if (dram_columns_) std::fprintf(f_, ",%s", kDramLogColumns);
  std::fputc('\n', f_);
}

void TransactionLog::on_completion(const Completion& c) {
  using ull = unsigned long long;
  const How& h = c.how;
  std::fprintf(f_, "%llu,%u,%u,%c,%u,", static_cast<ull>(c.request.id), c.request.process, h.task_type,
               c.request.op == Op::kWrite ? 'W' : 'R', c.request.size);
  const bool l1 = served_by_l1(h.l1);
  // Columns the MMU fills stay empty without one; a faulted request has no
  // physical address, mapping or channel; one the L1 answered has none of them.
  if (h.mmu && !l1) std::fprintf(f_, "0x%llx,", static_cast<ull>(h.virtual_address));
  else std::fputc(',', f_);
  if (h.fault == FaultReason::kNone && !l1)
    std::fprintf(f_, "0x%llx,%s,0x%llx,%u,0x%llx,", static_cast<ull>(h.physical_address), scheme_name(h.scheme),
                 static_cast<ull>(h.mapped_address), h.channel, static_cast<ull>(h.local_address));
  else
    std::fputs(",,,,,", f_);
  if (h.mmu && !l1) std::fprintf(f_, "%s,%u,%s,", tlb_result_name(h.tlb), h.walk_reads, fault_reason_name(h.fault));
  else std::fputs(",,,", f_);
  std::fprintf(f_, "%llu,%llu,%llu,", static_cast<ull>(c.issue_cycle),
               static_cast<ull>(h.fault == FaultReason::kNone && !l1 ? h.start_cycle : c.completion_cycle),
               static_cast<ull>(c.completion_cycle));
  if (c.request.sm != Request::kNoSm) std::fprintf(f_, "%u,%u,", c.request.sm, c.request.warp);
  else std::fputs(",,", f_);
  std::fputs(l1_result_name(h.l1), f_);
  if (dram_columns_) {
    // Empty for a request that never reached a channel (a fault, an L1 hit).
    if (h.dram && h.fault == FaultReason::kNone && !l1)
      std::fprintf(f_, ",%u,%u,%u,%u,%s,%llu", h.dram_at.rank, h.dram_at.bank_group, h.dram_at.bank, h.dram_at.row,
                   row_result_name(h.row), static_cast<ull>(h.start_cycle - h.arrival_cycle));
    else
      std::fputs(",,,,,,", f_);
  }
  std::fputc('\n', f_);
}

}  // namespace gpumem
