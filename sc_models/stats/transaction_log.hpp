// Per-transaction CSV log. docs/trace-format.md describes the
// columns; sm and warp, last so older readers keep their positions, are
// empty for requests that no SM issued. With memory.model: dram the DRAM
// columns follow (kDramLogColumns).
#pragma once
#include <string>

#include "base/output_file.hpp"
#include "payload/completion.hpp"

namespace gpumem {

constexpr const char* kTransactionLogHeader =
    "id,process,task_type,op,size,va,pa,scheme,mapped,channel,local,tlb,walk_reads,fault,issue_cycle,start_cycle,completion_cycle,sm,warp,l1";

// Where a request landed in its DRAM channel, what its row did, and the
// cycles from its arrival at the channel to its first command.
constexpr const char* kDramLogColumns = "rank,bank_group,bank,row,row_result,queue_delay";

class TransactionLog : public CompletionObserver {
 public:
  // The file appears under `path` only at commit(): a run that dies
  // leaves no half-written log there (base/output_file.hpp).
  TransactionLog(const std::string& path, bool dram_columns);
  void on_completion(const Completion& c) override;
  // Every completed transaction is in the file; called for a stopped run
  // too, whose log is then complete up to the stop.
  void commit() { out_.commit(); }

 private:
  OutputFile out_;
  std::FILE* f_;
  bool dram_columns_;
};

}  // namespace gpumem
