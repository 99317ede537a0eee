// The TLM full path of gpumem_bench_tlm (player -> translator -> router ->
// channels), defined once: gpumem_bench_frontend measures the whole model
// against it, so both benchmarks must time the same thing.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "payload/run_kernel.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "driver/tlm_driver.hpp"
#include "frontend/trace_player.hpp"
#include "sources/workload.hpp"
#include "params/block_params.hpp"
#include "params/frontend_from_config.hpp"
#include "stats/run_statistics.hpp"
#include "system/memory_system.hpp"

namespace gpumem::bench {

// 1 MiB stays in L2, so the full path's rate is the model's overhead.
constexpr uint64_t kFullPathRange = uint64_t{1} << 20;

// 16 channels, an XOR mapping, a strided stream with a quarter writes,
// looping over `range` bytes. The pieces stay apart so the MMU and DRAM
// runs of gpumem_bench_tlm can put their own memory or address space in.
struct FullPathYaml {
  std::string memory =
      "memory: {address_bits: 40, channels: 16, service_cycles: 1, max_outstanding: 64}\n"
      "simulation: {quantum_cycles: 10000}\n";
  std::string translator =
      "translator:\n  channel_bits: [8, 9, 10, 11]\n  candidate_bits: [12, 13, 14, 15, 16, 17, 18, 19]\n"
      "  tasks: [{task_type: 1, scheme: xor, xor_vectors: [0x11, 0x22, 0x44, 0x88]}]\n";
  std::string stream;
  FullPathYaml(uint64_t count, uint64_t range)
      : stream("workload: [{kind: strided, task_type: 1, base: 0, stride: 64, range: " + std::to_string(range) +
               ", count: " + std::to_string(count) + ", size: 64, issue_interval: 1, write_fraction: 0.25}]\n") {}
  std::string physical() const { return memory + translator + stream; }
};

struct PassThrough : sc_core::sc_module {
  tlm_utils::simple_target_socket<PassThrough> target{"target"};
  tlm_utils::simple_initiator_socket<PassThrough> initiator{"initiator"};
  explicit PassThrough(sc_core::sc_module_name n) : sc_module(n) {
    target.register_b_transport(this, &PassThrough::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) { initiator->b_transport(t, d); }
};

struct Sink : sc_core::sc_module {
  tlm_utils::simple_target_socket<Sink> target{"target"};
  explicit Sink(sc_core::sc_module_name n) : sc_module(n) { target.register_b_transport(this, &Sink::b_transport); }
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
    d += sc_core::sc_time(1, sc_core::SC_NS);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// One measured run of a player: through a memory system (with its driver),
// or through the bare chain of pass-through hops.
struct Run {
  gpumem::Config cfg;
  std::unique_ptr<gpumem::RequestSource> source;
  std::unique_ptr<gpumem::MemorySystem> memory;
  std::unique_ptr<gpumem::DriverTlm> driver;
  std::optional<gpumem::AddressSpaceImage> image;
  std::unique_ptr<gpumem::TracePlayer> player;
  std::unique_ptr<PassThrough> a, b;
  std::unique_ptr<Sink> sink;
  gpumem::RunStatistics stats;

  Run(const std::string& name, const std::string& yaml, const gpumem::Clock& clock, bool with_stats, bool bare_chain)
      : cfg(gpumem::parse_config(yaml, name)), source(gpumem::make_workload(cfg)), stats(cfg) {
    player = std::make_unique<gpumem::TracePlayer>((name + "_player").c_str(), gpumem::trace_player_params(cfg), *source, clock);
    if (with_stats) player->add_observer(&stats);
    if (bare_chain) {
      a = std::make_unique<PassThrough>((name + "_a").c_str());
      b = std::make_unique<PassThrough>((name + "_b").c_str());
      sink = std::make_unique<Sink>((name + "_sink").c_str());
      player->memory.bind(a->target);
      a->initiator.bind(b->target);
      b->initiator.bind(sink->target);
      return;
    }
    if (cfg.has_mmu()) image = gpumem::build_address_space(cfg, cfg.address_space.nesting);
    memory = std::make_unique<gpumem::MemorySystem>((name + "_memory").c_str(), cfg, clock);
    driver = std::make_unique<gpumem::DriverTlm>((name + "_driver").c_str(), gpumem::driver_params(cfg), image ? &*image : nullptr);
    driver->registers.bind(memory->registers.target);
    driver->memory.bind(memory->router.page_tables);
    player->memory.bind(memory->request_target());
  }
  bool failed(uint64_t want) const {
    return (driver && driver->failure()) || player->failure() || player->requests_done() != want;
  }
};

// The full path alone, `requests` long, in requests per second of the
// player's host time. It elaborates and runs SystemC, which a process can
// do once: call it in a process of its own.
inline double tlm_full_path_rate(uint64_t requests) {
  gpumem::Clock clock(1.0);
  Run run("full", FullPathYaml(requests, kFullPathRange).physical(), clock, false, false);
  gpumem::run_kernel();
  if (run.failed(requests)) throw std::runtime_error("the TLM full path failed");
  return requests / run.player->wall_seconds();
}

}  // namespace gpumem::bench
