// The memory front end as one module, built from the validated config:
//   no address space:  request -> translator -> router -> N channels
//   after the MMU:     request -> MMU -> translator -> router -> N channels
//   before the MMU:    request -> translator -> MMU -> router -> N channels
// The MMU's walker and the driver's page-table loads reach the router's
// page_tables socket directly (page tables are physical and unmapped). Register accesses at
// registers.target.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "channel/tlm_channel.hpp"
#include "params/block_params.hpp"
#include "mmu/tlm_mmu.hpp"
#include "payload/clock.hpp"
#include "payload/event_calendar.hpp"
#include "regs/tlm_register_bank.hpp"
#include "router/tlm_router.hpp"
#include "translator/tlm_translator.hpp"

namespace gpumem {

class MemorySystem : public sc_core::sc_module {
 private:
  // The channels' memories take their pages here (base/page_pool.hpp).
  // First of the members, so that it outlives the channels.
  PagePool pages_{true};

 public:
  // `dram_commands`: where the DRAM channels' command trace goes (none: no trace).
  MemorySystem(sc_core::sc_module_name name, const Config& cfg, const Clock& clock, DramCommandSink* dram_commands = nullptr)
      : sc_module(name),
        registers("registers", register_params(cfg)),
        translator("translator", translator_params(cfg), registers.bank().translator_registers()),
        router("router", cfg.channel_layout(), registers.bank(), clock) {
    if (cfg.simulation.timing == TimingMode::kAt) calendar = std::make_unique<EventCalendar>("calendar", clock);
    for (unsigned c = 0; c < cfg.memory.channels; ++c) {
      channels.push_back(std::make_unique<MemoryChannelTlm>(
          sc_core::sc_gen_unique_name("channel"), channel_params(cfg), clock, &pages_));
      if (calendar) channels.back()->use_calendar(*calendar);
      if (dram_commands) channels.back()->model().trace_commands(*dram_commands, c);
      router.to_channel.bind(channels.back()->target);
    }
    if (!cfg.has_mmu()) {
      translator.initiator.bind(router.target);
      entry_ = &translator.target;
      return;
    }
    mmu = std::make_unique<MmuTlm>("mmu", mmu_params(cfg), registers.bank().mmu_registers(), clock);
    if (calendar) mmu->use_calendar(*calendar, kMmuRank);
    mmu->walker.bind(router.page_tables);
    if (cfg.translator.position == TranslatorPosition::kAfterMmu) {
      mmu->downstream.bind(translator.target);
      translator.initiator.bind(router.target);
      entry_ = &mmu->target;
    } else {
      translator.initiator.bind(mmu->target);
      mmu->downstream.bind(router.target);
      entry_ = &translator.target;
    }
  }

  // Requests enter here.
  tlm::tlm_target_socket<>& request_target() { return *entry_; }
  // Physical memory, unmapped, is router.page_tables: the driver's page-table loads bind there.

  // simulation.timing: at: where the blocks that act at cycles of their own
  // choosing act, in a fixed order (payload/event_calendar.hpp). The SMs
  // act at rank 0, SM s's L1 at 1 + s, the MMU after them, then the
  // channels' controllers in channel order (the calendar's wakers).
  std::unique_ptr<EventCalendar> calendar;
  static constexpr unsigned kMmuRank = 1u << 20;
  RegisterBankTlm registers;
  TranslatorTlm translator;
  ChannelRouterTlm router;
  std::vector<std::unique_ptr<MemoryChannelTlm>> channels;
  std::unique_ptr<MmuTlm> mmu;  // with an address space

 private:
  tlm::tlm_target_socket<>* entry_ = nullptr;
};

}  // namespace gpumem
