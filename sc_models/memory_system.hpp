// The memory front end as one module: translator -> channel router -> N
// channels, plus the register bank. Built from the validated config.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "clock.hpp"
#include "tlm_channel.hpp"
#include "tlm_register_bank.hpp"
#include "tlm_router.hpp"
#include "tlm_translator.hpp"

namespace gpumem {

class MemorySystem : public sc_core::sc_module {
 public:
  MemorySystem(sc_core::sc_module_name name, const Config& cfg, const Clock& clock)
      : sc_module(name),
        registers("registers", cfg),
        translator("translator", cfg, registers.bank().translator_registers()),
        router("router", cfg, registers.bank()) {
    translator.initiator.bind(router.target);
    for (unsigned c = 0; c < cfg.memory.channels; ++c) {
      channels.push_back(std::make_unique<MemoryChannelTlm>(
          sc_core::sc_gen_unique_name("channel"), cfg.memory.service_cycles, clock));
      router.to_channel.bind(channels.back()->target);
    }
  }

  // Requests enter here; register accesses at registers.target.
  tlm::tlm_target_socket<>& request_target() { return translator.target; }

  RegisterBankTlm registers;
  TranslatorTlm translator;
  ChannelRouterTlm router;
  std::vector<std::unique_ptr<MemoryChannelTlm>> channels;
};

}  // namespace gpumem
