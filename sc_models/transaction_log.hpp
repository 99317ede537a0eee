// Per-transaction CSV log (SPEC 10 columns that exist at this stage).
#pragma once
#include <cstdio>
#include <string>

#include "completion.hpp"

namespace gpumem {

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
