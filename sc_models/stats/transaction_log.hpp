// Per-transaction CSV log (SPEC 10 columns that exist at this stage; SM and
// warp come with the trace front end). docs/trace-format.md describes them.
#pragma once
#include <string>

#include "base/output_file.hpp"
#include "payload/completion.hpp"

namespace gpumem {

constexpr const char* kTransactionLogHeader =
    "id,process,task_type,op,size,va,pa,scheme,mapped,channel,local,tlb,walk_reads,fault,issue_cycle,start_cycle,completion_cycle";

class TransactionLog : public CompletionObserver {
 public:
  // The file appears under `path` only at commit(): a run that dies
  // leaves no half-written log there (base/output_file.hpp).
  explicit TransactionLog(const std::string& path);
  void on_completion(const Completion& c) override;
  // Every completed transaction is in the file; called for a stopped run
  // too, whose log is then complete up to the stop.
  void commit() { out_.commit(); }

 private:
  OutputFile out_;
  std::FILE* f_;
};

}  // namespace gpumem
