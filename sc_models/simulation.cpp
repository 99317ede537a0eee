#include "simulation.hpp"

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

  sc_core::sc_start();
  if (player.failure()) std::rethrow_exception(player.failure());
  return {player.requests_done(), player.wall_seconds()};
}

}  // namespace gpumem
