// Full TLM path (player -> translator -> router -> channels), the same with the
// MMU in front (warm TLB, and a TLB-thrashing stream), the full path with the
// DRAM model (memory.preset: hbm2) behind the channels, against a bare chain of
// pass-through b_transport modules driven by the same player: same request
// count, same process, same quantum keeper. Prints the rates and their ratios.
//   gpumem_bench_tlm [--requests N] [--range BYTES] [--stats]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "payload/run_kernel.hpp"
#include "tlm_full_path.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using gpumem::bench::PassThrough;
using gpumem::bench::Run;
using gpumem::bench::Sink;

// Same issue loop shape as the player: one reused payload, quantum keeper.
struct BareInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<BareInitiator> socket{"socket"};
  uint64_t requests;
  const sc_core::sc_event* start_after = nullptr;
  double seconds = 0;
  sc_core::sc_event done;
  PassThrough p1{"p1"}, p2{"p2"};
  Sink sink{"sink"};
  BareInitiator(sc_core::sc_module_name n, uint64_t r) : sc_module(n), requests(r) {
    socket.bind(p1.target);
    p1.initiator.bind(p2.target);
    p2.initiator.bind(sink.target);
    SC_HAS_PROCESS(BareInitiator);
    SC_THREAD(run);
  }
  void run() {
    if (start_after) wait(*start_after);
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
    done.notify(sc_core::SC_ZERO_TIME);
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  uint64_t requests = 10'000'000;
  uint64_t range = gpumem::bench::kFullPathRange;  // the working set
  unsigned rounds = 3;
  bool with_stats = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--requests") && i + 1 < argc) requests = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--range") && i + 1 < argc) range = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else if (!std::strcmp(argv[i], "--stats")) with_stats = true;
    else {
      std::fprintf(stderr, "usage: %s [--requests N] [--range BYTES] [--rounds R] [--stats]\n", argv[0]);
      return 2;
    }
  }
  if (range < (1u << 16) || range % (1u << 16) || rounds == 0 || requests < rounds) {
    std::fprintf(stderr, "--range must be a multiple of 64 KiB, --rounds at least 1 and at most --requests\n");
    return 2;
  }
  const uint64_t per_run = requests / rounds;
  const gpumem::bench::FullPathYaml full(per_run, range);
  const std::string &memory = full.memory, &translator = full.translator, &stream = full.stream;
  const std::string physical = full.physical();
  const std::string n = std::to_string(per_run);
  // The same stream on HBM2 channels: banks, rows, queues, refresh.
  const std::string dram =
      "memory: {address_bits: 40, channels: 16, max_outstanding: 64, preset: hbm2}\n"
      "simulation: {quantum_cycles: 10000}\n" + translator + stream;
  // The same, approximately timed: each channel's controller decides at command time.
  const std::string dram_at =
      "memory: {address_bits: 40, channels: 16, max_outstanding: 64, preset: hbm2}\n"
      "simulation: {timing: at}\n" + translator + stream;
  // The same stream through the MMU: one application on large pages, a TLB
  // that holds the whole working set (warm) ...
  auto mmu_yaml = [&](uint64_t region, uint64_t stride, uint64_t wrap) {
    return memory + translator +
           "mmu: {tlb: {entries: 32, ways: 4, replacement: lru}}\n"
           "address_space:\n  va_bits: 32\n  applications:\n"
           "    - {name: app, process: 0, task_type: 1, regions: [{va: 0x10000000, size: " + std::to_string(region) + ", page: large}]}\n"
           "workload: [{kind: strided, process: 0, base: 0x10000000, stride: " + std::to_string(stride) + ", range: " +
           std::to_string(wrap) + ", count: " + n + ", size: 64, issue_interval: 1, write_fraction: 0.25}]\n";
  };
  const uint64_t warm_range = std::min<uint64_t>(range, 32u << 16);  // at most 32 large pages: the TLB's reach
  // ... and one that thrashes it: every request to the next of 1024 large pages.
  const uint64_t thrash_pages = 1024;
  const std::string warm_yaml = mmu_yaml(warm_range, 64, warm_range);
  const std::string thrash_yaml = mmu_yaml(thrash_pages << 16, (1u << 16) + 64, thrash_pages << 16);

  // Which run goes first changes its rate by tens of percent on this
  // machine, so every configuration runs once per round and the order
  // rotates from round to round; a rate is all requests over all its time.
  enum Kind { kFull, kWarm, kThrash, kDram, kDramAt, kChain, kFloor, kKinds };
  gpumem::Clock clock(1.0);
  std::vector<std::unique_ptr<Run>> runs[kKinds];
  std::vector<std::unique_ptr<BareInitiator>> floors;
  std::vector<std::pair<Kind, size_t>> order;
  for (unsigned r = 0; r < rounds; ++r) {
    const std::string tag = std::to_string(r);
    runs[kFull].push_back(std::make_unique<Run>("full" + tag, physical, clock, with_stats, false));
    runs[kWarm].push_back(std::make_unique<Run>("warm" + tag, warm_yaml, clock, with_stats, false));
    runs[kThrash].push_back(std::make_unique<Run>("thrash" + tag, thrash_yaml, clock, with_stats, false));
    runs[kDram].push_back(std::make_unique<Run>("dram" + tag, dram, clock, with_stats, false));
    runs[kDramAt].push_back(std::make_unique<Run>("dram_at" + tag, dram_at, clock, with_stats, false));
    runs[kChain].push_back(std::make_unique<Run>("chain" + tag, physical, clock, with_stats, true));
    floors.push_back(std::make_unique<BareInitiator>(("floor" + tag).c_str(), per_run));
    for (unsigned k = 0; k < kKinds; ++k) order.emplace_back(static_cast<Kind>((k + r) % kKinds), r);
  }
  // Every player waits for the one before it; the drivers have long finished.
  const sc_core::sc_event* previous = nullptr;
  for (const auto& [kind, r] : order) {
    if (kind == kFloor) {
      floors[r]->start_after = previous;
      previous = &floors[r]->done;
    } else {
      if (previous) runs[kind][r]->player->start_after(*previous);
      previous = &runs[kind][r]->player->finished();
    }
  }

  gpumem::run_kernel();
  double seconds[kKinds] = {};
  for (unsigned k = 0; k < kKinds; ++k)
    for (unsigned r = 0; r < rounds; ++r) {
      if (k == kFloor) {
        seconds[k] += floors[r]->seconds;
        continue;
      }
      if (runs[k][r]->failed(per_run)) {
        std::fprintf(stderr, "a run failed: %s\n", runs[k][r]->cfg.source.c_str());
        return 1;
      }
      seconds[k] += runs[k][r]->player->wall_seconds();
    }
  gpumem::MmuStats ws, ts;
  for (unsigned r = 0; r < rounds; ++r) {
    ws.walk_reads += runs[kWarm][r]->memory->mmu->stats().walk_reads;
    ws.lookups += runs[kWarm][r]->memory->mmu->stats().lookups;
    ts.walk_reads += runs[kThrash][r]->memory->mmu->stats().walk_reads;
    ts.lookups += runs[kThrash][r]->memory->mmu->stats().lookups;
  }
  const uint64_t total = per_run * rounds;
  double rate[kKinds];
  for (unsigned k = 0; k < kKinds; ++k) rate[k] = total / seconds[k];
  std::printf("workload: %llu strided 64-byte requests per configuration (%u rounds, rotating order), 16 channels, xor scheme%s\n",
              static_cast<unsigned long long>(total), rounds, with_stats ? ", statistics on" : "");
  std::printf("full path    player -> translator -> router -> channel (%llu bytes):  %8.2f M requests/s\n",
              static_cast<unsigned long long>(range), rate[kFull] / 1e6);
  std::printf("mmu warm     player -> MMU -> translator -> router -> channel:      %8.2f M requests/s  (%.4f walk reads/request)\n",
              rate[kWarm] / 1e6, double(ws.walk_reads) / double(ws.lookups));
  std::printf("mmu thrash   every request to the next of %llu large pages:         %8.2f M requests/s  (%.4f walk reads/request)\n",
              static_cast<unsigned long long>(thrash_pages), rate[kThrash] / 1e6, double(ts.walk_reads) / double(ts.lookups));
  std::printf("dram         the full path on HBM2 channels (memory.preset: hbm2): %8.2f M requests/s\n", rate[kDram] / 1e6);
  std::printf("dram at      the same, simulation.timing: at:                    %8.2f M requests/s\n", rate[kDramAt] / 1e6);
  std::printf("bare chain   player -> pass -> pass -> sink:                         %8.2f M requests/s\n", rate[kChain] / 1e6);
  std::printf("floor        minimal loop -> pass -> pass -> sink:                   %8.2f M requests/s\n", rate[kFloor] / 1e6);
  std::printf("ratio: %.3f\n", rate[kFull] / rate[kChain]);
  std::printf("ratio_mmu_warm: %.3f\n", rate[kWarm] / rate[kChain]);
  std::printf("ratio_mmu_thrash: %.3f\n", rate[kThrash] / rate[kChain]);
  std::printf("ratio_to_floor: %.3f\n", rate[kFull] / rate[kFloor]);
  std::printf("ratio_dram_to_simple: %.3f\n", rate[kDram] / rate[kFull]);
  std::printf("ratio_dram_at_to_lt: %.3f\n", rate[kDramAt] / rate[kDram]);
  return 0;
}
