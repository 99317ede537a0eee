#include "transaction_log.hpp"

#include <cerrno>
#include <cstring>

#include "input_error.hpp"

namespace gpumem {

TransactionLog::TransactionLog(const std::string& path) : f_(std::fopen(path.c_str(), "w")), path_(path) {
  if (!f_) throw InputError(path, 0, "--txn-log", std::string("cannot write: ") + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
  std::fputs("id,task,op,size,pa,scheme,mapped,channel,local,issue_cycle,start_cycle,completion_cycle\n", f_);
}

TransactionLog::~TransactionLog() {
  if (f_) std::fclose(f_);
}

void TransactionLog::on_completion(const Completion& c) {
  std::fprintf(f_, "%llu,%u,%c,%u,0x%llx,%s,0x%llx,%u,0x%llx,%llu,%llu,%llu\n",
               static_cast<unsigned long long>(c.request.id), c.request.task, c.request.op == Op::kWrite ? 'W' : 'R',
               c.request.size, static_cast<unsigned long long>(c.how.physical_address), scheme_name(c.how.scheme),
               static_cast<unsigned long long>(c.how.mapped_address), c.how.channel,
               static_cast<unsigned long long>(c.how.local_address), static_cast<unsigned long long>(c.issue_cycle),
               static_cast<unsigned long long>(c.how.start_cycle), static_cast<unsigned long long>(c.completion_cycle));
}

}  // namespace gpumem
