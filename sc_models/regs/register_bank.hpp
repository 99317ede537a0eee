// Register bank (CN115422098A): per-task XOR control vectors and schemes, global
// enables, per-task per-channel counters. One typed Register per row of the
// register map; their write callbacks keep the translator's and the MMU's
// views current. Plain C++; tlm_register_bank.hpp binds it to a socket.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mmu/mmu.hpp"
#include "regs/performance_monitor.hpp"
#include "regs/register.hpp"
#include "regs/register_map.hpp"
#include "base/channel_matrix.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem {

// The prefetch classifier's ranges as PF_CTRL last committed them.
struct PrefetchClassifierRegisters {
  bool enabled = false;
  std::array<std::pair<uint64_t, uint64_t>, kPfRanges> ranges{};  // [base, end): worklist, vertexlist, edgelist, visitedlist
  uint64_t commits = 0;  // successful writes of PF_CTRL: readers see a change by it
};

class RegisterBank {
 public:
  explicit RegisterBank(const RegisterParams& params);
  RegisterBank(const RegisterBank&) = delete;  // the registers' callbacks point into this bank
  RegisterBank& operator=(const RegisterBank&) = delete;

  RegStatus read(uint64_t offset, unsigned width_bytes, uint32_t& value) const;
  RegStatus write(uint64_t offset, unsigned width_bytes, uint32_t value);
  // Every register to its reset value (the map's reset column), the
  // performance counters to zero. The TLB invalidation count is not a
  // register and keeps counting.
  void reset();

  const TranslatorRegisters& translator_registers() const { return translator_; }
  const MmuRegisters& mmu_registers() const { return mmu_; }
  uint32_t ctrl() const { return ctrl_->at(0, 0); }
  const std::vector<Register>& registers() const { return registers_; }
  // The register whose span holds `offset` (any index, mapped or not); null
  // in a gap or above the map.
  const Register* register_at(uint64_t offset) const;
  const RegisterParams& params() const { return params_; }
  // Why writing 3 (matrix) to TASK_SCHEME[task] would be refused for its
  // staged rows, or "" if it would not be for them.
  std::string staged_matrix_problem(unsigned task) const;

  const PrefetchClassifierRegisters& prefetch_classifier() const { return prefetch_; }
  // Why enabling the classifier would be refused for its staged ranges, or "".
  std::string staged_prefetch_problem() const;

  // Called by the channel router for every data request it routes.
  void count(unsigned task, unsigned process, unsigned channel, unsigned bytes, uint64_t cycle) {
    ++req_count_->at(task, channel);
    byte_count_->at(task, channel) += bytes;
    ++app_req_count_->at(process, channel);
    perf_.count(task, process, channel, bytes, cycle);
  }
  // The live performance counters (PERF_TASK and PERF_APP hold a snapshot of them).
  const PerformanceMonitor& performance() const { return perf_; }

 private:
  struct Decoded {
    size_t reg;
    uint32_t i, j;
  };
  RegStatus decode(uint64_t offset, unsigned width_bytes, Decoded& d) const;
  Register& reg(uint32_t base);
  // Where each accepted value goes: the translator's registers, and the
  // MMU's, the prefetch classifier's and the counters' control.
  void route_translator_writes();
  void route_other_writes();
  bool scheme_allowed(unsigned task, uint32_t value) const;
  MatrixRows staged_matrix(unsigned task) const;
  std::pair<uint64_t, uint64_t> staged_prefetch_range(unsigned k) const;
  size_t register_index(uint32_t base) const;
  void snapshot_performance();  // PERF_CTRL bit 0
  void reset_counters();        // PERF_CTRL bit 1

  RegisterParams params_;
  bool prime_allowed_;  // prime configured, and the channel bits form one contiguous field
  std::vector<Register> registers_;  // in map order
  Register* ctrl_;
  Register* req_count_;
  Register* byte_count_;
  Register* app_req_count_;
  Register* matrix_row_lo_;
  Register* matrix_row_hi_;
  TranslatorRegisters translator_;
  MmuRegisters mmu_;
  PerformanceMonitor perf_;
  PrefetchClassifierRegisters prefetch_;
};

}  // namespace gpumem
