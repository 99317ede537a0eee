// Full TLM path (player -> translator -> router -> channels) against a bare
// chain of as many pass-through b_transport modules, same request count,
// same process, same quantum keeper. Prints both rates and their ratio.
//   gpumem_bench_tlm [--requests N] [--range BYTES] [--stats]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "config.hpp"
#include "memory_system.hpp"
#include "run_statistics.hpp"
#include "trace_player.hpp"
#include "workload.hpp"

namespace {

using Clock = std::chrono::steady_clock;

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

// Same issue loop shape as the player: one reused payload, quantum keeper.
struct BareInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<BareInitiator> socket{"socket"};
  uint64_t requests;
  const sc_core::sc_event* start_after;
  double seconds = 0;
  BareInitiator(sc_core::sc_module_name n, uint64_t r, const sc_core::sc_event* after)
      : sc_module(n), requests(r), start_after(after) {
    SC_HAS_PROCESS(BareInitiator);
    SC_THREAD(run);
  }
  void run() {
    wait(*start_after);
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    tlm::tlm_generic_payload t;
    unsigned char data[64] = {};
    t.set_data_ptr(data);
    const auto t0 = Clock::now();
    for (uint64_t i = 0; i < requests; ++i) {
      t.set_command(i & 1 ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      t.set_address(i * 64);
      t.set_data_length(64);
      t.set_streaming_width(64);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time d = qk.get_local_time();
      socket->b_transport(t, d);
      qk.set(sc_core::sc_time(static_cast<double>(i), sc_core::SC_NS) - sc_core::sc_time_stamp());
      if (qk.need_sync()) qk.sync();
    }
    seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  uint64_t requests = 10'000'000;
  uint64_t range = 1 << 20;  // the working set; 1 MiB stays in L2, so the figure is the model's overhead
  bool with_stats = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--requests") && i + 1 < argc) requests = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--range") && i + 1 < argc) range = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--stats")) with_stats = true;
    else {
      std::fprintf(stderr, "usage: %s [--requests N] [--range BYTES] [--stats]\n", argv[0]);
      return 2;
    }
  }
  // 16 channels, an XOR mapping, a strided stream with a quarter writes,
  // looping over `range` bytes.
  const std::string yaml =
      "memory: {address_bits: 40, channels: 16, service_cycles: 1, max_outstanding: 64}\n"
      "translator:\n  channel_bits: [8, 9, 10, 11]\n  candidate_bits: [12, 13, 14, 15, 16, 17, 18, 19]\n"
      "  tasks: [{task: 1, scheme: xor, xor_vectors: [0x11, 0x22, 0x44, 0x88]}]\n"
      "simulation: {quantum_cycles: 10000}\n"
      "workload: [{kind: strided, task: 1, base: 0, stride: 64, range: " + std::to_string(range) + ", count: " + std::to_string(requests) +
      ", size: 64, issue_interval: 1, write_fraction: 0.25}]\n";
  const gpumem::Config cfg = gpumem::parse_config(yaml, "bench");
  gpumem::Clock clock(cfg.simulation.cycle_ns);

  // 1. Full path: player -> translator -> router -> channel.
  auto source = gpumem::make_workload(cfg);
  gpumem::MemorySystem memory("memory", cfg, clock);
  gpumem::TracePlayer player("player", cfg, *source, clock);
  player.memory.bind(memory.request_target());
  player.registers.bind(memory.registers.target);
  gpumem::RunStatistics stats(cfg);
  if (with_stats) player.add_observer(&stats);

  // 2. The same player and workload into three pass-through hops: what the
  //    TLM plumbing alone costs, so the ratio is the price of the model blocks.
  auto source2 = gpumem::make_workload(cfg);
  gpumem::TracePlayer player2("player2", cfg, *source2, clock);
  PassThrough a1("a1"), a2("a2");
  Sink sink_a("sink_a");
  player2.memory.bind(a1.target);
  a1.initiator.bind(a2.target);
  a2.initiator.bind(sink_a.target);
  gpumem::RegisterBankTlm registers2("registers2", cfg);  // firmware programs it; nothing reads it
  player2.registers.bind(registers2.target);
  gpumem::RunStatistics stats2(cfg);
  if (with_stats) player2.add_observer(&stats2);
  player2.start_after(player.finished());

  // 3. A minimal initiator loop into the same kind of chain: the floor.
  BareInitiator bare("bare", requests, &player2.finished());
  PassThrough p1("p1"), p2("p2");
  Sink sink("sink");
  bare.socket.bind(p1.target);
  p1.initiator.bind(p2.target);
  p2.initiator.bind(sink.target);

  sc_core::sc_start();
  if (player.failure() || player.requests_done() != requests || player2.requests_done() != requests) {
    std::fprintf(stderr, "a run failed: full path %llu, chain %llu requests\n",
                 static_cast<unsigned long long>(player.requests_done()), static_cast<unsigned long long>(player2.requests_done()));
    return 1;
  }
  const double full = requests / player.wall_seconds();
  const double chain = requests / player2.wall_seconds();
  const double floor = requests / bare.seconds;
  std::printf("workload: %llu strided 64-byte requests over %llu bytes, 16 channels, xor scheme%s\n",
              static_cast<unsigned long long>(requests), static_cast<unsigned long long>(range),
              with_stats ? ", statistics on" : "");
  std::printf("full path   player -> translator -> router -> channel: %8.2f M requests/s\n", full / 1e6);
  std::printf("bare chain  player -> pass -> pass -> sink:             %8.2f M requests/s\n", chain / 1e6);
  std::printf("floor       minimal loop -> pass -> pass -> sink:       %8.2f M requests/s\n", floor / 1e6);
  std::printf("ratio: %.3f\n", full / chain);
  std::printf("ratio_to_floor: %.3f\n", full / floor);
  return 0;
}
