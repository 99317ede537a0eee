// Register bank (seed 000): per-task XOR control vectors and schemes, global
// enables, per-task per-channel counters. Plain C++; tlm_register_bank.hpp
// binds it to a socket. A rejected access changes nothing.
#pragma once
#include <array>
#include <cstdint>

#include "config/config.hpp"
#include "mmu/mmu.hpp"
#include "regs/register_map.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem {

enum class RegStatus : uint8_t { kOk, kUnmapped, kReadOnly, kMisaligned, kBadWidth, kBadValue };
const char* reg_status_name(RegStatus s);

class RegisterBank {
 public:
  explicit RegisterBank(const Config& cfg);

  RegStatus read(uint64_t offset, unsigned width_bytes, uint32_t& value) const;
  RegStatus write(uint64_t offset, unsigned width_bytes, uint32_t value);

  const TranslatorRegisters& translator_registers() const { return translator_; }
  const MmuRegisters& mmu_registers() const { return mmu_; }
  uint32_t ctrl() const { return ctrl_; }

  // Called by the channel router for every request it routes.
  void count(unsigned task, unsigned channel, unsigned bytes) {
    ++req_count_[task][channel];
    byte_count_[task][channel] += bytes;
  }

 private:
  struct Decoded {
    const RegisterDef* def;
    uint32_t i, j;
  };
  RegStatus decode(uint64_t offset, unsigned width_bytes, Decoded& d) const;

  unsigned channels_;
  unsigned channel_bits_;
  unsigned candidate_bits_;
  bool prime_allowed_;     // prime configured, and the channel bits form one contiguous field
  bool scheme_fixed_;      // non-power-of-two channels: every task type keeps the configured scheme
  uint32_t ctrl_;
  uint32_t position_bit_;  // CTRL.TRANSLATOR_POSITION: elaborated, not writable
  TranslatorRegisters translator_;
  MmuRegisters mmu_;
  std::array<std::array<uint32_t, kMaxChannels>, kMaxTaskTypes> req_count_{};
  std::array<std::array<uint32_t, kMaxChannels>, kMaxTaskTypes> byte_count_{};
};

}  // namespace gpumem
