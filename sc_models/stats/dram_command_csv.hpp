// The DRAM command trace as CSV (gpumem run --dram-commands; docs/memory.md,
// "The command trace", describes the columns): a line a command, each
// channel's lines in cycle order, written while the run goes.
#pragma once
#include <cstdio>
#include <string>

#include "base/output_file.hpp"
#include "channel/dram_command.hpp"

namespace gpumem {

class DramCommandCsv final : public DramCommandSink {
 public:
  // `refresh`: the preset's, which names a refresh REF (all banks), REFpb
  // (one bank) or REFsb (a bank of every group). The file appears under
  // `path` only at commit().
  DramCommandCsv(const std::string& path, RefreshMode refresh);
  void command(unsigned channel, const DramCommand& c) override;
  // Every command the run decided is in the file; called for a stopped run
  // too, whose trace is then complete up to the stop.
  void commit() { out_.commit(); }

 private:
  OutputFile out_;
  std::FILE* f_;
  RefreshMode refresh_;
};

}  // namespace gpumem
