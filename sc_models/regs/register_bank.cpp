#include "regs/register_bank.hpp"

#include "base/bits.hpp"

namespace gpumem {

const char* reg_status_name(RegStatus s) {
  switch (s) {
    case RegStatus::kOk: return "ok";
    case RegStatus::kUnmapped: return "unmapped offset";
    case RegStatus::kReadOnly: return "read-only register";
    case RegStatus::kMisaligned: return "misaligned access";
    case RegStatus::kBadWidth: return "access is not 32 bits wide";
    case RegStatus::kBadValue: return "value not allowed";
  }
  return "?";
}

RegisterBank::RegisterBank(const Config& cfg)
    : channels_(cfg.memory.channels),
      channel_bits_(static_cast<unsigned>(cfg.translator.channel_bits.size())),
      candidate_bits_(static_cast<unsigned>(cfg.translator.candidate_bits.size())),
      prime_allowed_(cfg.translator.prime != 0),
      scheme_fixed_(!is_pow2(cfg.memory.channels)),
      ctrl_(kCtrlInterleaveEnable),
      position_bit_(cfg.translator.position == TranslatorPosition::kBeforeMmu ? kCtrlTranslatorPosition : 0) {
  ctrl_ |= position_bit_;
  // The load-time checks of the prime scheme, repeated here so that a register
  // write cannot reach a mapping the config would have refused.
  const auto& cb = cfg.translator.channel_bits;
  for (size_t j = 1; j < cb.size(); ++j)
    if (cb[j] != cb[0] + j) prime_allowed_ = false;
  translator_.interleave_enable = true;
  // Reset state: identity for every task type until firmware programs it.
  // With a non-power-of-two channel count a row of granules straddles pages,
  // so only one scheme for all task types keeps isolation: the configured one.
  if (scheme_fixed_) translator_.scheme.fill(cfg.translator.default_scheme);
  translator_.generation = 1;
}

RegStatus RegisterBank::decode(uint64_t offset, unsigned width, Decoded& d) const {
  if (width != 4) return RegStatus::kBadWidth;
  if (offset % 4) return RegStatus::kMisaligned;
  for (const auto& r : register_map()) {
    const uint64_t span = uint64_t{r.dim0} * r.dim1 * 4;
    if (offset < r.base || offset >= r.base + span) continue;
    const uint64_t k = (offset - r.base) / 4;
    d = {&r, static_cast<uint32_t>(k / r.dim1), static_cast<uint32_t>(k % r.dim1)};
    // Arrays are sized for the largest build; only the configured part exists.
    if (r.base == kRegXorVector && d.j >= channel_bits_) return RegStatus::kUnmapped;
    if ((r.base == kRegReqCount || r.base == kRegByteCount) && d.j >= channels_) return RegStatus::kUnmapped;
    return RegStatus::kOk;
  }
  return RegStatus::kUnmapped;
}

RegStatus RegisterBank::read(uint64_t offset, unsigned width, uint32_t& value) const {
  Decoded d;
  if (const RegStatus s = decode(offset, width, d); s != RegStatus::kOk) return s;
  switch (d.def->base) {
    case kRegId: value = kIdValue; break;
    case kRegVersion: value = kVersionValue; break;
    case kRegChannels: value = channels_; break;
    case kRegCandidateBits: value = candidate_bits_; break;
    case kRegCtrl: value = ctrl_; break;
    case kRegPtRootLo: value = static_cast<uint32_t>(mmu_.pt_root); break;
    case kRegPtRootHi: value = static_cast<uint32_t>(mmu_.pt_root >> 32); break;
    case kRegTlbInvalidate: value = 0; break;
    case kRegTaskScheme: value = static_cast<uint32_t>(translator_.scheme[d.i]); break;
    case kRegProcessTask: value = translator_.process_task[d.i]; break;
    case kRegVaRangeStart: value = translator_.va_range[d.i].start_page; break;
    case kRegVaRangeEnd: value = translator_.va_range[d.i].end_page; break;
    case kRegVaRangeTask:
      value = (translator_.va_range[d.i].enable ? kVaRangeEnable : 0) | translator_.va_range[d.i].task;
      break;
    case kRegXorVector: value = translator_.xor_vector[d.i][d.j]; break;
    case kRegReqCount: value = req_count_[d.i][d.j]; break;
    case kRegByteCount: value = byte_count_[d.i][d.j]; break;
    default: return RegStatus::kUnmapped;
  }
  return RegStatus::kOk;
}

RegStatus RegisterBank::write(uint64_t offset, unsigned width, uint32_t value) {
  Decoded d;
  if (const RegStatus s = decode(offset, width, d); s != RegStatus::kOk) return s;
  if (d.def->access == RegAccess::kRO) return RegStatus::kReadOnly;
  switch (d.def->base) {
    case kRegCtrl:
      if ((value & kCtrlTranslatorPosition) != position_bit_) return RegStatus::kBadValue;
      ctrl_ = value & kCtrlWritableMask;
      translator_.interleave_enable = (ctrl_ & kCtrlInterleaveEnable) != 0;
      break;
    case kRegTaskScheme: {
      if (value > static_cast<uint32_t>(Scheme::kPrime)) return RegStatus::kBadValue;
      const auto s = static_cast<Scheme>(value);
      if (s == Scheme::kXor && channel_bits_ == 0 && channels_ > 1) return RegStatus::kBadValue;
      if (s == Scheme::kPrime && !prime_allowed_) return RegStatus::kBadValue;
      if (scheme_fixed_ && s != translator_.scheme[d.i]) return RegStatus::kBadValue;
      translator_.scheme[d.i] = s;
      break;
    }
    case kRegXorVector: {
      const uint32_t mask = candidate_bits_ >= 32 ? ~0u : (1u << candidate_bits_) - 1;
      translator_.xor_vector[d.i][d.j] = value & mask;
      break;
    }
    case kRegPtRootLo: mmu_.pt_root = (mmu_.pt_root & ~uint64_t{0xFFFFFFFF}) | value; return RegStatus::kOk;
    case kRegPtRootHi: mmu_.pt_root = (mmu_.pt_root & 0xFFFFFFFF) | uint64_t{value} << 32; return RegStatus::kOk;
    case kRegTlbInvalidate: ++mmu_.invalidations; return RegStatus::kOk;
    case kRegProcessTask: translator_.process_task[d.i] = static_cast<uint8_t>(value & 0xF); break;
    case kRegVaRangeStart: translator_.va_range[d.i].start_page = value; break;
    case kRegVaRangeEnd: translator_.va_range[d.i].end_page = value; break;
    case kRegVaRangeTask:
      translator_.va_range[d.i].enable = (value & kVaRangeEnable) != 0;
      translator_.va_range[d.i].task = static_cast<uint8_t>(value & kVaRangeTaskMask);
      break;
    case kRegReqCount: req_count_[d.i][d.j] = 0; return RegStatus::kOk;
    case kRegByteCount: byte_count_[d.i][d.j] = 0; return RegStatus::kOk;
    default: return RegStatus::kUnmapped;
  }
  ++translator_.generation;
  return RegStatus::kOk;
}

}  // namespace gpumem
