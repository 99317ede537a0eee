// The whole model as users run it, on a BFS trace (gpumem run --threads)
// and on the default demo (gpumem run --config configs/default.yaml),
// against gpumem_bench_tlm's full path in the same run; the trace front end
// alone (per-thread records to each SM's ordered L1 request sequence, no
// simulation kernel) against the whole model on the same trace; and the
// memory both hold as the trace grows. Prints the rates and their ratios,
// and what bounds the two goals: the front end alone and the demo without
// its MMU, and without its data's host cache misses, against the same full
// path (docs/performance.md); and BFS on HBM2 in simulation.timing at
// against lt.
//   gpumem_bench_frontend [--config F] [--scale S] [--records N] [--rounds R]
// The trace is a BFS over an R-MAT graph of 2^S vertices, generated into a
// temporary binary file; the memory check streams a synthetic trace of N and
// 8N records. Each simulation runs in a child process of its own (SystemC
// elaborates once per process).
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/bits.hpp"
#include "base/output_file.hpp"
#include "config/config.hpp"
#include "sources/bfs_trace.hpp"
#include "sources/graph.hpp"
#include "frontend/l1_sequence.hpp"
#include "sources/placement.hpp"
#include "sources/thread_trace_io.hpp"
#include "sources/workload.hpp"
#include "params/frontend_from_config.hpp"
#include "stats/run_statistics.hpp"
#include "system/simulation.hpp"
#include "tlm_full_path.hpp"

namespace {

using Steady = std::chrono::steady_clock;

double seconds_since(Steady::time_point t0) { return std::chrono::duration<double>(Steady::now() - t0).count(); }

// Resident set now, in MiB.
double rss_mib() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long pages = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &pages, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20) : 0;
}

// Passes another source's items on and samples the resident set every 2^20
// records: at the first record (the memory-init data loaded), the largest
// seen, and at the end.
class SampledSource : public gpumem::ThreadTraceSource {
 public:
  explicit SampledSource(gpumem::ThreadTraceSource& inner) : inner_(inner) {}
  Item next(gpumem::MemoryInit& init, gpumem::KernelInfo& kernel, gpumem::ThreadRecord& record) override {
    const Item item = inner_.next(init, kernel, record);
    if (item == Item::kRecord && (records_++ & ((1u << 20) - 1)) == 0) sample();
    if (item == Item::kEnd) sample();
    return item;
  }
  std::string where() const override { return inner_.where(); }
  uint64_t records() const { return records_; }
  double at_first_record = 0, largest = 0, at_end = 0;

 private:
  void sample() {
    const double r = rss_mib();
    if (records_ <= 1) at_first_record = r;
    largest = std::max(largest, r);
    at_end = r;
  }
  gpumem::ThreadTraceSource& inner_;
  uint64_t records_ = 0;
};

// A trace that is never stored: one kernel of `records` loads in the
// config's first region, warp by warp. Three warps in four read 128
// consecutive bytes (one request); the fourth reads 32 scattered words
// (32 requests) and its load is dependent.
class SyntheticSource : public gpumem::ThreadTraceSource {
 public:
  SyntheticSource(uint64_t records, unsigned process, uint64_t base, uint64_t range)
      : records_(records), process_(process), base_(base), words_(range / 4) {}
  Item next(gpumem::MemoryInit&, gpumem::KernelInfo& kernel, gpumem::ThreadRecord& r) override {
    if (!kernel_sent_) {
      kernel_sent_ = true;
      kernel = gpumem::KernelInfo{};
      kernel.name = "synthetic";
      kernel.process = process_;
      return Item::kKernel;
    }
    if (n_ == records_) return Item::kEnd;
    const uint64_t warp = n_ / 32, lane = n_ % 32;
    r = gpumem::ThreadRecord{};
    r.thread_id = static_cast<uint32_t>(n_);
    r.op = gpumem::Op::kRead;
    r.width = 4;
    const bool scattered = warp % 4 == 0;
    r.pc = scattered ? 0x100 : 0x200;
    r.dependent = scattered;
    r.address = base_ + 4 * (scattered ? gpumem::splitmix64(n_) % words_ : (warp * 32 + lane) % words_);
    ++n_;
    return Item::kRecord;
  }
  std::string where() const override { return "synthetic: record " + std::to_string(n_); }

 private:
  uint64_t records_, n_ = 0;
  unsigned process_;
  uint64_t base_, words_;
  bool kernel_sent_ = false;
};

struct FrontEndRun {
  uint64_t records = 0, requests = 0;
  double seconds = 0, rss_first = 0, rss_largest = 0;
};

FrontEndRun front_end_alone(const gpumem::Config& cfg, gpumem::ThreadTraceSource& inner) {
  SampledSource source(inner);
  const auto t0 = Steady::now();
  gpumem::L1SequenceGenerator gen(gpumem::frontend_params(cfg), source);
  gpumem::MemoryInit init;
  while (gen.next_memory_init(init)) {}
  std::vector<gpumem::L1Request> issued;
  while (gen.tick(issued)) issued.clear();
  FrontEndRun r;
  r.seconds = seconds_since(t0);
  r.records = gen.stats().thread_accesses;
  r.requests = gen.stats().requests;
  r.rss_first = source.at_first_record;
  r.rss_largest = source.largest;
  return r;
}

// Runs `work` in a child process and returns the line it wrote to the
// pipe: SystemC elaborates once per process, so each simulation needs a
// process of its own.
template <typename Work>
std::string in_child(const char* what, Work work) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  std::fflush(nullptr);
  malloc_trim(0);  // the child starts with what the parent holds now, not what it freed
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fd[0]);
    std::string line;
    try {
      line = work();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", what, e.what());
      _exit(1);
    }
    if (write(fd[1], line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  char buf[256] = {};
  size_t got = 0;
  ssize_t n;
  while (got < sizeof buf - 1 && (n = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0) got += static_cast<size_t>(n);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(std::string("the ") + what + " failed");
  return buf;
}

// The whole model on `source`, in a child process.
struct ModelRun {
  uint64_t records = 0, requests = 0, elements = 0;
  double seconds = 0, rss_start = 0, rss_first = 0, rss_largest = 0;
};

template <typename MakeSource>
ModelRun model_in_child(const gpumem::Config& cfg, MakeSource make_source) {
  const std::string line = in_child("model run", [&] {
    ModelRun m;
    const double start = rss_mib();
    auto inner = make_source();
    SampledSource source(*inner);
    gpumem::RunStatistics stats(cfg);  // as gpumem run: its report is part of what a user waits for
    const gpumem::SimulationResult r = gpumem::run_thread_simulation(cfg, source, {&stats});
    m = {source.records(), r.requests, 0, r.wall_seconds, start, source.at_first_record, source.largest};
    uint64_t elements = 0;
    for (const gpumem::SmRunStats& s : r.sms) elements += s.requests;
    m.elements = elements - r.strided.requests + r.strided.elements;
    char out[256];
    std::snprintf(out, sizeof out, "%llu %llu %llu %.9g %.9g %.9g %.9g\n", (unsigned long long)m.records,
                  (unsigned long long)m.requests, (unsigned long long)m.elements, m.seconds, m.rss_start, m.rss_first, m.rss_largest);
    return std::string(out);
  });
  ModelRun m;
  unsigned long long records = 0, requests = 0, elements = 0;
  if (std::sscanf(line.c_str(), "%llu %llu %llu %lg %lg %lg %lg", &records, &requests, &elements, &m.seconds, &m.rss_start,
                  &m.rss_first, &m.rss_largest) != 7)
    throw std::runtime_error("the model run reported nothing");
  m.records = records;
  m.requests = requests;
  m.elements = elements;
  return m;
}

// Requests and the host seconds they took, summed over rounds.
struct Timed {
  uint64_t requests = 0;
  double seconds = 0;
  void add(const std::string& line, const char* what) {
    unsigned long long r = 0;
    double s = 0;
    if (std::sscanf(line.c_str(), "%llu %lg", &r, &s) != 2) throw std::runtime_error(std::string("the ") + what + " reported nothing");
    requests += r;
    seconds += s;
  }
  double rate() const { return requests / seconds; }
};

std::string timed_line(uint64_t requests, double seconds) {
  char out[64];
  std::snprintf(out, sizeof out, "%llu %.9g\n", (unsigned long long)requests, seconds);
  return out;
}

// gpumem_bench_tlm's full path: the model's rate on the simplest stream,
// which the whole-model rates are held against.
void tlm_path_in_child(uint64_t requests, Timed& into) {
  into.add(in_child("TLM full path", [&] { return timed_line(requests, requests / gpumem::bench::tlm_full_path_rate(requests)); }),
           "TLM full path");
}

// What gpumem run --config does with the config's built-in workload, the
// statistics observer included.
void demo_in_child(const gpumem::Config& cfg, Timed& into) {
  into.add(in_child("default demo",
                    [&] {
                      auto source = gpumem::make_workload(cfg);
                      gpumem::RunStatistics stats(cfg);
                      const gpumem::SimulationResult r = gpumem::run_simulation(cfg, *source, {&stats});
                      return timed_line(r.requests, r.wall_seconds);
                    }),
           "default demo");
}

// The default demo's requests without the parts of its cost that are not
// the path's: no address space (each generator's addresses taken as
// physical, with its application's task type), and with `range` > 0 each
// generator kept within that many bytes, so that the simulated memory stays
// in the host's caches. What the demo's rate can reach with an MMU that
// costs nothing, and with data that never misses.
gpumem::Config demo_without_mmu(gpumem::Config cfg, uint64_t range) {
  for (gpumem::GeneratorConfig& g : cfg.workload) {
    const gpumem::ApplicationConfig* app = cfg.address_space.application(g.process);
    if (!app) throw std::runtime_error("default demo: a generator's process has no application");
    g.task_type = app->task_type;
    if (range) g.range = std::min(g.range, range);
  }
  cfg.address_space = {};
  return cfg;
}

// The config with its memory as HBM2 channels (the preset as it is) and the
// SMs issuing as the memory answers, in timing mode `mode`: the same
// machine in both modes, for the at-against-lt ratio.
gpumem::Config on_hbm2(gpumem::Config cfg, gpumem::TimingMode mode) {
  cfg.memory.model = gpumem::MemoryModel::kDram;
  cfg.memory.dram = *gpumem::dram_preset("hbm2");
  cfg.frontend.issue_timing = gpumem::IssueTiming::kMemory;
  cfg.simulation.timing = mode;
  return cfg;
}

gpumem::Config with_l1(gpumem::Config cfg, const gpumem::L1Config& l1) {
  cfg.l1 = l1;
  return cfg;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  CLI::App app{"The whole model against the TLM full path, the front end alone against the whole model, and memory against trace length"};
  std::string config_path = GPUMEM_SOURCE_DIR "/configs/examples/bfs.yaml";
  unsigned scale = 16;
  uint64_t records = uint64_t{1} << 22;
  unsigned rounds = 1;
  app.add_option("--config", config_path, "config with one application region (default: configs/examples/bfs.yaml)");
  app.add_option("--scale", scale, "R-MAT scale of the BFS graph (default 16)")->check(CLI::Range(4u, 22u));
  app.add_option("--records", records, "records of the smaller synthetic trace (default 2^22)")->check(CLI::Range(uint64_t{1} << 16, uint64_t{1} << 26));
  app.add_option("--rounds", rounds, "model runs of each kind, in rotating order (default 1)")->check(CLI::Range(1u, 100u));
  CLI11_PARSE(app, argc, argv);
  const uint64_t tlm_requests = 3'000'000;
  const char* demo_path = GPUMEM_SOURCE_DIR "/configs/default.yaml";
  try {
    const gpumem::Config cfg = gpumem::load_config(config_path);
    const gpumem::Config demo = gpumem::load_config(demo_path);
    if (!cfg.has_mmu() || cfg.address_space.applications.empty() || cfg.address_space.applications[0].regions.empty())
      throw std::runtime_error(config_path + ": needs an application with a region for the traces' data");
    const auto& application = cfg.address_space.applications[0];
    const auto& region = application.regions[0];

    // The BFS trace, written once.
    char path[] = "/tmp/gpumem-bench-frontend-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file");
    close(fd);
    const auto t_gen = Steady::now();
    {
      std::FILE* out = std::fopen(path, "wb");
      gpumem::RmatOptions r;
      r.scale = scale;
      const gpumem::CsrGraph g = gpumem::build_csr(gpumem::rmat_edges(r));
      gpumem::BfsTraceOptions o;
      o.place = gpumem::region_placement(cfg, application.name, region.name);
      auto sink = gpumem::write_thread_trace(out, gpumem::ThreadTraceForm::kBinary);
      gpumem::generate_bfs_trace(g, o, *sink);
      sink->finish();
      std::fclose(out);
    }
    const double gen_seconds = seconds_since(t_gen);

    if (rounds > 1) std::printf("model runs: %u rounds in rotating order; a rate is all its requests over all its time\n", rounds);
    FrontEndRun fe;
    {
      auto src = gpumem::open_thread_trace(path);
      fe = front_end_alone(cfg, *src);
    }
    // Which run goes first changes its rate by tens of percent on this
    // machine, so each kind runs once per round, the order rotates from
    // round to round, and a rate is all requests over all its time.
    enum Kind { kTlm, kBfs, kDemo, kDemoPhysical, kDemoInCache, kBfsHbm2Lt, kBfsHbm2At, kBfsL1Lt, kBfsL1At, kKinds };
    const gpumem::Config demo_physical = demo_without_mmu(demo, 0);
    const gpumem::Config demo_in_cache = demo_without_mmu(demo, uint64_t{256} << 10);
    const gpumem::Config hbm2_lt = on_hbm2(cfg, gpumem::TimingMode::kLt), hbm2_at = on_hbm2(cfg, gpumem::TimingMode::kAt);
    // The same with an L1 a SM, configs/examples/bfs-prefetch.yaml's (no prefetching).
    const gpumem::L1Config l1 = gpumem::load_config(GPUMEM_SOURCE_DIR "/configs/examples/bfs-prefetch.yaml").l1;
    const gpumem::Config l1_lt = with_l1(hbm2_lt, l1), l1_at = with_l1(hbm2_at, l1);
    ModelRun model;
    Timed tlm, demo_run, demo_physical_run, demo_in_cache_run, bfs_hbm2_lt, bfs_hbm2_at, bfs_l1_lt, bfs_l1_at;
    for (unsigned r = 0; r < rounds; ++r)
      for (unsigned k = 0; k < kKinds; ++k) {
        const Kind kind = static_cast<Kind>((k + r) % kKinds);
        if (kind == kTlm) tlm_path_in_child(tlm_requests, tlm);
        if (kind == kDemo) demo_in_child(demo, demo_run);
        if (kind == kDemoPhysical) demo_in_child(demo_physical, demo_physical_run);
        if (kind == kDemoInCache) demo_in_child(demo_in_cache, demo_in_cache_run);
        for (auto [k, c, into] : {std::tuple{kBfsHbm2Lt, &hbm2_lt, &bfs_hbm2_lt}, std::tuple{kBfsHbm2At, &hbm2_at, &bfs_hbm2_at},
                                  std::tuple{kBfsL1Lt, &l1_lt, &bfs_l1_lt}, std::tuple{kBfsL1At, &l1_at, &bfs_l1_at}})
          if (kind == k) {
            const ModelRun m = model_in_child(*c, [&] { return gpumem::open_thread_trace(path); });
            into->add(timed_line(m.requests, m.seconds), "BFS on HBM2");
          }
        if (kind != kBfs) continue;
        const ModelRun m = model_in_child(cfg, [&] { return gpumem::open_thread_trace(path); });
        model.records += m.records;
        model.requests += m.requests;
        model.elements += m.elements;
        model.seconds += m.seconds;
        // Memory does not add up over rounds: the most any one held.
        model.rss_start = std::max(model.rss_start, m.rss_start);
        model.rss_first = std::max(model.rss_first, m.rss_first);
        model.rss_largest = std::max(model.rss_largest, m.rss_largest);
      }
    std::remove(path);

    const double fe_records = fe.records / fe.seconds, fe_requests = fe.requests / fe.seconds;
    const double model_requests = model.requests / model.seconds;
    std::printf("BFS, R-MAT scale %u, %s, %u SMs (trace generated in %.2f s)\n", scale, config_path.c_str(), cfg.frontend.num_sms,
                gen_seconds);
    std::printf("  front end alone: %llu records -> %llu requests in %.3f s: %.2f M records/s, %.2f M requests/s\n",
                (unsigned long long)fe.records, (unsigned long long)fe.requests, fe.seconds, fe_records / 1e6, fe_requests / 1e6);
    std::printf("  whole model:     %llu requests (%llu elements) in %.3f s: %.3f M requests/s\n", (unsigned long long)model.requests,
                (unsigned long long)model.elements, model.seconds, model_requests / 1e6);
    std::printf("  model memory: resident %.0f MiB before elaboration, %.0f MiB at the first record (memory-init loaded), %.0f MiB at most\n",
                model.rss_start, model.rss_first, model.rss_largest);
    std::printf("whole model against gpumem_bench_tlm's full path (%llu requests a run):\n", (unsigned long long)tlm_requests);
    std::printf("  TLM full path: %.2f M requests/s\n", tlm.rate() / 1e6);
    std::printf("  default demo (configs/default.yaml): %llu requests in %.3f s: %.3f M requests/s\n",
                (unsigned long long)demo_run.requests, demo_run.seconds, demo_run.rate() / 1e6);
    std::printf("  the demo's requests without its MMU (physical):            %.3f M requests/s\n", demo_physical_run.rate() / 1e6);
    std::printf("  the same, each generator within 256 KiB (data in cache):   %.3f M requests/s\n", demo_in_cache_run.rate() / 1e6);
    std::printf("BFS on %u HBM2 channels, issue_timing: memory: simulation.timing lt %.3f M requests/s, at %.3f M requests/s\n",
                hbm2_at.memory.channels, bfs_hbm2_lt.rate() / 1e6, bfs_hbm2_at.rate() / 1e6);
    std::printf("  the same with an L1 a SM (bfs-prefetch.yaml's): lt %.3f M requests/s, at %.3f M requests/s\n", bfs_l1_lt.rate() / 1e6,
                bfs_l1_at.rate() / 1e6);

    // Memory against trace length: the same synthetic stream, N and 8N records.
    const uint64_t range = std::min<uint64_t>(region.size, uint64_t{16} << 20);
    std::printf("synthetic loads in %s (%llu MiB), never stored:\n", region.name.c_str(), (unsigned long long)(range >> 20));
    for (const uint64_t n : {records, 8 * records}) {
      SyntheticSource src(n, application.process, region.va, range);
      const FrontEndRun r = front_end_alone(cfg, src);
      std::printf("  front end alone, %9llu records: %.2f M records/s, resident %.1f MiB at the first record, %.1f MiB at most\n",
                  (unsigned long long)n, r.records / r.seconds / 1e6, r.rss_first, r.rss_largest);
    }
    for (const uint64_t n : {records, 8 * records}) {
      const ModelRun m = model_in_child(cfg, [&] { return std::make_unique<SyntheticSource>(n, application.process, region.va, range); });
      std::printf("  whole model,     %9llu records: %.3f M requests/s, resident %.1f MiB before elaboration, %.1f MiB at the first record, %.1f MiB at most\n",
                  (unsigned long long)n, m.requests / m.seconds / 1e6, m.rss_start, m.rss_first, m.rss_largest);
    }
    std::printf("ratio_frontend_to_model: %.1f\n", fe_requests / model_requests);
    std::printf("ratio_bfs_to_tlm_path: %.3f (goal >= 0.3)\n", model_requests / tlm.rate());
    std::printf("ratio_demo_to_tlm_path: %.3f (goal >= 0.5)\n", demo_run.rate() / tlm.rate());
    std::printf("ratio_bfs_at_to_lt: %.3f (goal >= 0.5)\n", bfs_hbm2_at.rate() / bfs_hbm2_lt.rate());
    std::printf("ratio_bfs_l1_at_to_lt: %.3f\n", bfs_l1_at.rate() / bfs_l1_lt.rate());
    // Bounds, no goals: what each goal's ratio could reach if the part left
    // out cost nothing (docs/performance.md, "What bounds the two ratios").
    std::printf("bound_bfs_frontend_alone_to_tlm_path: %.3f (BFS with a model that costs nothing)\n", fe_requests / tlm.rate());
    std::printf("bound_demo_physical_to_tlm_path: %.3f (the demo with an MMU that costs nothing)\n", demo_physical_run.rate() / tlm.rate());
    std::printf("bound_demo_in_cache_to_tlm_path: %.3f (and with its data in the host's caches)\n", demo_in_cache_run.rate() / tlm.rate());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpumem_bench_frontend: %s\n", e.what());
    return 1;
  }
  return 0;
}
