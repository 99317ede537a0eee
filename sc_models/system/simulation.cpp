#include "system/simulation.hpp"

#include <optional>

#include "base/input_error.hpp"
#include "payload/run_kernel.hpp"
#include "cache/tlm_l1_cache.hpp"
#include "driver/tlm_driver.hpp"
#include "frontend/sm_array.hpp"
#include "frontend/sm_interconnect.hpp"
#include "frontend/trace_player.hpp"
#include "params/block_params.hpp"
#include "params/frontend_from_config.hpp"
#include "system/memory_system.hpp"

namespace gpumem {

namespace {

void collect(MemorySystem& memory, const Clock& clock, SimulationResult& r) {
  for (const auto& c : memory.channels) {
    r.channel_accesses.push_back(c->model().accesses());
    r.channel_queues.push_back(c->model().queue().figures());
  }
  // The writes still posted reach their banks, and the refreshes due fall, by the end of the run.
  const uint64_t end = clock.cycles(sc_core::sc_time_stamp());
  for (const auto& c : memory.channels)
    if (DramChannel* d = c->model().dram()) {
      d->drain(end);
      r.dram.push_back(d->counters());
    } else if (DramController* k = c->model().controller()) {
      std::vector<DramController::Done> unanswered;  // none: every request was answered before the run ended
      k->drain(k->clocks().to_memory(end), unanswered);
      r.dram.push_back(k->counters());
    }
  const PerformanceMonitor& perf = memory.registers.bank().performance();
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) r.task_performance.push_back(perf.task(t));
  for (unsigned p = 0; p < kMaxProcesses; ++p) r.application_performance.push_back(perf.application(p));
  if (memory.mmu) {
    r.mmu = memory.mmu->stats();
    r.faults = memory.mmu->faults();
  }
}

}  // namespace

SimulationResult run_simulation(const Config& cfg, RequestSource& source, const std::vector<CompletionObserver*>& observers,
                                const AddressSpaceImage* image, SimulationResult* partial, DramCommandSink* dram_commands) {
  std::optional<AddressSpaceImage> own;
  if (cfg.has_mmu() && !image) image = &own.emplace(build_address_space(cfg, cfg.address_space.nesting));
  Clock clock(cfg.simulation.cycle_ns);
  MemorySystem memory("memory", cfg, clock, dram_commands);
  DriverTlm driver("driver", driver_params(cfg), cfg.has_mmu() ? image : nullptr);
  TracePlayer player("player", trace_player_params(cfg), source, clock);
  driver.registers.bind(memory.registers.target);
  driver.memory.bind(memory.router.page_tables);
  player.memory.bind(memory.request_target());
  player.start_after(driver.ready());
  for (CompletionObserver* o : observers) player.add_observer(o);

  run_kernel();
  if (driver.failure()) std::rethrow_exception(driver.failure());
  if (memory.calendar && memory.calendar->failure() && !player.failure()) std::rethrow_exception(memory.calendar->failure());
  SimulationResult r;
  r.requests = player.requests_done();
  r.wall_seconds = player.wall_seconds();
  collect(memory, clock, r);
  if (player.failure()) {
    if (partial) *partial = r;
    std::rethrow_exception(player.failure());
  }
  return r;
}

void check_thread_simulation(const Config& cfg) {
  // In at the SMs issue when the memory lets them: no drawn latency holds a request back.
  if (cfg.simulation.timing == TimingMode::kAt && cfg.frontend.issue_timing != IssueTiming::kMemory)
    throw InputError(cfg.source, cfg.frontend.issue_timing_line ? cfg.frontend.issue_timing_line : cfg.simulation.timing_line,
                     "frontend.issue_timing",
                     "simulation.timing: at runs a per-thread trace (gpumem run --threads) with issue_timing: memory only: "
                     "its SMs issue when the memory lets them, not at the ordering's ticks");
}

namespace {

// The driver's failure while it loaded the trace's memory image: an input
// error without a place of its own is the init item's being loaded.
[[noreturn]] void rethrow_load_failure(std::exception_ptr failure, const std::string& init_where) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& e) {
    if (!e.file().empty() || init_where.empty()) throw;
    throw input_error_at(init_where, "init", e.what());
  }
}

// The SMs', the ordering's, the L1s' and the prefetch units' statistics.
void collect_front_end(const SmArrayTlm& sms, const L1SequenceGenerator& sequence, const std::vector<std::unique_ptr<L1CacheTlm>>& l1,
                       SimulationResult& r) {
  r.sms = sms.sm_stats();
  r.warps = sms.warp_summary();
  r.strided = sms.strided_stats();
  r.queued_max = sms.queued_max();
  r.queue_limit_holds = sms.queue_limit_holds();
  r.sequence = sequence.stats();
  for (const auto& c : l1) {
    r.l1.push_back(c->cache().stats());
    r.prefetch.push_back(c->prefetch_stats());
  }
}

}  // namespace

SimulationResult run_thread_simulation(const Config& cfg, ThreadTraceSource& source,
                                       const std::vector<CompletionObserver*>& observers, const AddressSpaceImage* image,
                                       SimulationResult* partial, DramCommandSink* dram_commands) {
  check_thread_simulation(cfg);
  std::optional<AddressSpaceImage> own;
  if (cfg.has_mmu() && !image) image = &own.emplace(build_address_space(cfg, cfg.address_space.nesting));
  Clock clock(cfg.simulation.cycle_ns);
  MemorySystem memory("memory", cfg, clock, dram_commands);
  DriverTlm driver("driver", driver_params(cfg), cfg.has_mmu() ? image : nullptr);
  const FrontendParams frontend = frontend_params(cfg);
  // With issue_timing: memory a warp instruction's requests go out together
  // and its warp waits for all of them (docs/frontend.md); trace order and
  // issue_timing: ordering keep CN106407063B's order.
  // In at the memory's answers end the requests' latencies (check_thread_simulation: issue_timing is memory).
  L1SequenceGenerator sequence(frontend, source, instruction_order(frontend.issue_timing),
                               frontend.timing == TimingMode::kAt ? LatencySource::kMemory : LatencySource::kDrawn);
  SmInterconnectTlm interconnect("interconnect");
  SmArrayTlm sms("sms", frontend, sequence, clock);
  // at: the SMs' steps and the L1s' fills act in the memory system's
  // calendar, so that what reaches a channel in one cycle comes in a fixed order.
  EventCalendar* calendar = memory.calendar.get();
  if (calendar) sms.use_calendar(*calendar);
  driver.registers.bind(memory.registers.target);
  driver.memory.bind(memory.router.page_tables);
  driver.data.bind(interconnect.sms);
  std::string init_where;  // the memory-init item being loaded, for an error
  driver.load_memory([&](MemoryInit& init) {
    const bool more = sequence.next_memory_init(init);
    init_where = source.where();
    return more;
  });
  std::vector<std::unique_ptr<L1CacheTlm>> l1;
  const L1UnitParams unit = l1_unit_params(cfg);
  for (unsigned s = 0; s < sms.sm.size(); ++s) {
    if (!cfg.l1.present) {
      sms.sm[s]->bind(interconnect.sms);
      continue;
    }
    l1.push_back(std::make_unique<L1CacheTlm>(("l1_" + std::to_string(s)).c_str(), unit, clock));
    l1.back()->classifier_from(memory.registers.bank().prefetch_classifier());
    if (calendar) l1.back()->use_calendar(*calendar, 1 + s);
    sms.sm[s]->bind(l1.back()->target);
    l1.back()->memory.bind(interconnect.sms);
  }
  sms.on_kernel_start([&l1] {
    for (auto& c : l1) c->kernel_start();
  });
  interconnect.memory.bind(memory.request_target());
  sms.start_after(driver.ready());
  for (CompletionObserver* o : observers) sms.add_observer(o);

  run_kernel();
  if (driver.failure()) rethrow_load_failure(driver.failure(), init_where);
  if (calendar && calendar->failure() && !sms.failure()) std::rethrow_exception(calendar->failure());
  if (calendar && !sms.failure() && !sms.finished())
    throw std::logic_error("the SMs stopped with requests unanswered (simulation.timing: at): a block lost an answer");
  SimulationResult r;
  r.requests = sms.requests_done();
  r.wall_seconds = sms.wall_seconds();
  collect(memory, clock, r);
  collect_front_end(sms, sequence, l1, r);
  r.memory_init_bytes = driver.bytes_loaded();
  if (sms.failure()) {
    if (partial) *partial = r;
    std::rethrow_exception(sms.failure());
  }
  return r;
}

}  // namespace gpumem
