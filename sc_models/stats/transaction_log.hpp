// Per-transaction CSV log (SPEC 10 columns that exist at this stage; SM and
// warp come with the trace front end). docs/trace-format.md describes them.
#pragma once
#include <cstdio>
#include <string>

#include "payload/completion.hpp"

namespace gpumem {

constexpr const char* kTransactionLogHeader =
    "id,process,task_type,op,size,va,pa,scheme,mapped,channel,local,tlb,walk_reads,fault,issue_cycle,start_cycle,completion_cycle";

class TransactionLog : public CompletionObserver {
 public:
  explicit TransactionLog(const std::string& path);
  ~TransactionLog() override;
  void on_completion(const Completion& c) override;

 private:
  std::FILE* f_;
  std::string path_;
};

}  // namespace gpumem
