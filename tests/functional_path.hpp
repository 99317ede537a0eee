// The model's request path composed from its plain classes, untimed and
// without a kernel: the driver's page tables loaded through the channel
// decoder, the firmware's register writes into a RegisterBank, then per
// request what the TLM shells do (docs/architecture.md, "Data path"): the MMU
// and the translator in the configured order, the decoder, one channel's
// store. Property tests run thousands of configs through it in one process,
// which the SystemC path (one elaboration per process) cannot.
#pragma once
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "channel/channel_model.hpp"
#include "params/block_params.hpp"
#include "driver/address_space.hpp"
#include "driver/firmware.hpp"
#include "mmu/mmu.hpp"
#include "payload/how.hpp"
#include "regs/register_bank.hpp"
#include "router/channel_decoder.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem::test {

class FunctionalPath {
 public:
  explicit FunctionalPath(const Config& cfg)
      : bank_(register_params(cfg)), decoder_(cfg.channel_layout()), before_mmu_(cfg.has_mmu() && cfg.translator.position == TranslatorPosition::kBeforeMmu) {
    for (unsigned c = 0; c < cfg.memory.channels; ++c) channels_.emplace_back(ChannelParams{});  // simple, one access a cycle
    if (cfg.has_mmu()) {
      image_ = std::make_unique<AddressSpaceImage>(build_address_space(cfg, cfg.address_space.nesting));
      for (const PteWrite& w : image_->pte_writes) physical(w.pa, Op::kWrite, w.value);
    }
    // The firmware must be accepted: a refused write is a model error in `gpumem run`.
    program_registers(cfg, image_.get(), [&](uint32_t offset, uint32_t value) {
      return bank_.write(offset, 4, value) == RegStatus::kOk;
    });
    translator_ = std::make_unique<XorTranslator>(translator_params(cfg), bank_.translator_registers());
    if (cfg.has_mmu()) mmu_ = std::make_unique<Mmu>(mmu_params(cfg), bank_.mmu_registers());
    read_pte_ = [this](uint64_t pa) { return physical(pa, Op::kRead, 0); };
  }

  const AddressSpaceImage* image() const { return image_.get(); }
  const ChannelDecoder& decoder() const { return decoder_; }
  RegisterBank& bank() { return bank_; }

  // One request: `who` is the process with an address space, else the task
  // type. Fills `how` as the shells would; returns false on a page fault.
  bool access(unsigned who, uint64_t address, Op op, uint8_t* data, unsigned size, How& how) {
    how = How{};
    uint64_t in = address;  // the translator's input
    unsigned task = who;
    if (before_mmu_) {
      task = bank_.translator_registers().task_for(who, address, mmu_->geometry().small_bits);
      in = translator_->map(address, task);
      how.mapped_address = in;
    }
    if (mmu_) {
      const MmuOutcome out = mmu_->translate(in, op == Op::kWrite, read_pte_);
      how.fault = out.fault;
      if (out.fault != FaultReason::kNone) return false;
      how.physical_address = out.pa;
      if (!before_mmu_) task = out.task_type, in = out.pa;
    }
    how.task_type = task;
    if (!before_mmu_) how.mapped_address = translator_->map(in, task);
    const uint64_t routed = before_mmu_ ? how.physical_address : how.mapped_address;
    if (!decoder_.in_one_granule(routed, size)) throw std::logic_error("request straddles an interleave granule");
    how.channel = decoder_.channel(routed);
    how.local_address = decoder_.local(routed);
    if (op == Op::kWrite) channels_[how.channel].write(how.local_address, data, size);
    else channels_[how.channel].read(how.local_address, data, size);
    return true;
  }

 private:
  // Unmapped 8-byte access (little-endian), as the driver's loads and the walker's reads.
  uint64_t physical(uint64_t pa, Op op, uint64_t value) {
    if (!decoder_.in_one_granule(pa, kPteBytes)) throw std::logic_error("page-table access straddles an interleave granule");
    ChannelModel& ch = channels_[decoder_.channel(pa)];
    uint8_t bytes[kPteBytes];
    std::memcpy(bytes, &value, kPteBytes);
    if (op == Op::kWrite) ch.write(decoder_.local(pa), bytes, kPteBytes);
    else ch.read(decoder_.local(pa), bytes, kPteBytes);
    std::memcpy(&value, bytes, kPteBytes);
    return value;
  }

  RegisterBank bank_;
  ChannelDecoder decoder_;
  bool before_mmu_;
  std::vector<ChannelModel> channels_;
  std::unique_ptr<AddressSpaceImage> image_;
  std::unique_ptr<XorTranslator> translator_;
  std::unique_ptr<Mmu> mmu_;
  ReadPte read_pte_;
};

}  // namespace gpumem::test
