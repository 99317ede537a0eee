#include "simulation.hpp"

#include <chrono>

#include "memory_system.hpp"
#include "trace_player.hpp"

namespace gpumem {

SimulationResult run_simulation(const Config& cfg, RequestSource& source, const std::vector<CompletionObserver*>& observers) {
  Clock clock(cfg.simulation.cycle_ns);
  MemorySystem memory("memory", cfg, clock);
  TracePlayer player("player", cfg, source, clock);
  player.memory.bind(memory.request_target());
  player.registers.bind(memory.registers.target);
  for (CompletionObserver* o : observers) player.add_observer(o);

  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const auto t1 = std::chrono::steady_clock::now();
  if (player.failure()) std::rethrow_exception(player.failure());
  return {player.requests_done(), std::chrono::duration<double>(t1 - t0).count()};
}

}  // namespace gpumem
