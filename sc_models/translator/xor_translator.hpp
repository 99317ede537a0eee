// XOR address translator (CN115422098A). Plain C++: the TLM shell, the
// scoreboard and the explorer all use it.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "base/bits.hpp"
#include "base/channel_layout.hpp"
#include "base/memory_options.hpp"
#include "base/page_geometry.hpp"
#include "base/translator_options.hpp"
#include "base/types.hpp"

namespace gpumem {

// The translator's view of the register bank: what firmware programs.
struct VaRange {
  uint32_t start_page = 0, end_page = 0;  // virtual small pages [start, end)
  uint8_t task_type = 0;
  bool enable = false;
};

struct TranslatorRegisters {
  bool interleave_enable = true;
  std::array<Scheme, kMaxTaskTypes> scheme{};
  std::array<std::array<uint32_t, kMaxChannelBits>, kMaxTaskTypes> xor_vector{};
  // Scheme matrix: channel bit c_j = parity(address & matrix_row[t][j]). Only
  // rows that passed channel_matrix_problem() get here (the config's check,
  // the register bank's commit).
  std::array<std::array<uint64_t, kMaxChannelBits>, kMaxTaskTypes> matrix_row{};
  // Before the MMU (CN115422098A claim 4, [0133]): the task type of a request
  // comes from the first enabled VA range that holds its VA, else from its process.
  std::array<uint8_t, kMaxProcesses> process_task{};
  std::array<VaRange, kMaxVaRanges> va_range{};
  // Dynamic selection (CN115422098A [0098]-[0100]): the task type the
  // driver selected per process from the profile store, used instead of the
  // page's (or VA range's) while dynamic_selection is set.
  bool dynamic_selection = false;
  uint32_t selected_valid = 0;  // bit p: process p has a selection
  std::array<uint8_t, kMaxProcesses> selected_task{};
  uint64_t generation = 0;  // bumped on every write, so users can cache derived state

  unsigned effective_task(unsigned process, unsigned task) const {
    if (dynamic_selection && process < kMaxProcesses && ((selected_valid >> process) & 1u)) return selected_task[process];
    return task;
  }

  unsigned task_for(unsigned process, uint64_t va, unsigned small_bits) const {
    const uint64_t page = va >> small_bits;
    for (const VaRange& r : va_range)
      if (r.enable && page >= r.start_page && page < r.end_page) return r.task_type;
    return process_task[process];
  }
};

// What the translator is elaborated with (params/block_params.hpp fills it
// from the config): the channel layout it maps onto, the candidate bits its
// XOR control vectors select from, the prime of the prime scheme, and the
// width of the space it maps (the PA, or the VA before the MMU).
struct TranslatorParams {
  ChannelLayout layout;
  std::vector<unsigned> candidate_bits;  // p_0..p_{K-1}; vector bit i selects p_i
  uint64_t prime = TranslatorOptions{}.prime;  // 0: the prime scheme is not configured
  unsigned address_bits = MemoryOptions{}.address_bits;
  // The TLM shell's: before the MMU (with an address space) the task type
  // comes from the register bank's VA-range and process tables, looked up
  // by small page.
  bool before_mmu = false;
  unsigned small_page_bits = PageGeometry{}.small_bits;
};

class XorTranslator {
 public:
  XorTranslator(const TranslatorParams& params, const TranslatorRegisters& regs);

  // Mapped address for `address` under the mapping of task type `task`.
  // Scheme xor: b'[c_j] = b[c_j] ^ parity(b & mask[task][j]); an involution.
  uint64_t map(uint64_t address, unsigned task) {
    if (regs_.generation != cached_generation_) rebuild();
    return map_with(effective_[task], address, task);
  }
  // The scheme used and the mapped address, in one lookup (the TLM hot path).
  struct Result {
    Scheme scheme;
    uint64_t mapped;
  };
  Result translate(uint64_t address, unsigned task) {
    if (regs_.generation != cached_generation_) rebuild();
    const Scheme s = effective_[task];
    return {s, map_with(s, address, task)};
  }
  // The inverse mapping (xor: itself; prime: the inverse row permutation;
  // matrix: the inverse matrix).
  uint64_t unmap(uint64_t mapped, unsigned task);
  Scheme scheme(unsigned task) {
    if (regs_.generation != cached_generation_) rebuild();
    return effective_[task];
  }

 private:
  uint64_t map_with(Scheme s, uint64_t address, unsigned task) const {
    switch (s) {
      case Scheme::kNone: return address;
      case Scheme::kXor: {
        uint64_t flip = 0;
        for (unsigned j = 0; j < m_; ++j) flip |= uint64_t{parity(address & mask_[task][j])} << channel_bits_[j];
        return address ^ flip;
      }
      case Scheme::kPrime: return map_prime(address);
      case Scheme::kMatrix: return apply_rows(matrix_[task], address);
    }
    return address;
  }
  uint64_t apply_rows(const std::array<uint64_t, kMaxChannelBits>& rows, uint64_t address) const {
    uint64_t out = address & ~channel_mask_;
    for (unsigned j = 0; j < m_; ++j) out |= uint64_t{parity(address & rows[j])} << channel_bits_[j];
    return out;
  }
  uint64_t map_prime(uint64_t address) const;
  void rebuild();

  const TranslatorRegisters& regs_;
  uint64_t cached_generation_ = ~uint64_t{0};
  std::vector<unsigned> channel_bits_;
  std::vector<unsigned> candidate_bits_;
  unsigned m_;
  unsigned channels_;
  unsigned granule_shift_;
  uint64_t prime_;
  uint64_t prime_inverse_ = 1;  // P^-1 mod N
  // When the space's granule count is not a multiple of N, the last row is
  // incomplete: its granules, from `partial_row_` up, map to themselves.
  bool has_partial_row_ = false;
  uint64_t partial_row_ = 0;
  std::array<Scheme, kMaxTaskTypes> effective_{};
  std::array<std::array<uint64_t, kMaxChannelBits>, kMaxTaskTypes> mask_{};
  std::array<std::array<uint32_t, kMaxChannelBits>, kMaxTaskTypes> mask_vector_{};  // what mask_ was built from (0 -> 0)
  uint64_t channel_mask_ = 0;
  std::array<std::array<uint64_t, kMaxChannelBits>, kMaxTaskTypes> matrix_{}, matrix_inverse_{};
  std::array<bool, kMaxTaskTypes> matrix_invertible_{};
};

}  // namespace gpumem
