// The explorer's exhaustive search of one channel bit (explorer/xor_search.hpp)
// against the naive loop over every vector, in one run: all 2^K vectors
// scored on the whole stream, the naive loop on a slice of it, its time
// projected to the whole stream (it is linear in the stream), and the ratio.
// Streams are generated as they are consumed, so memory is what the search
// holds. Then `gpumem explore` end to end, as a user runs it: the strided
// stream written as a CSV trace, read, resolved, every candidate scored and
// the joint XOR search over four channel bits, with one thread and with two.
// docs/performance.md, "Explorer".
#include <CLI/CLI.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/child_process.hpp"
#include "explorer/xor_search.hpp"

namespace {

// A GPU-like stream: 16 channels (4 channel bits), K candidate bits above
// them. "strided": eight warps' streams interleaved, each walking 4 KB
// pages with its own stride; "random": any channel, any pattern.
struct Stream {
  std::string kind;
  unsigned k;
  std::mt19937_64 rng{1};
  uint64_t i = 0;
  uint64_t cursor[8] = {0, 1u << 20, 2u << 20, 3u << 20, 4u << 20, 5u << 20, 6u << 20, 7u << 20};
  uint64_t page = 0;  // strided: the last request's whole page number
  void next(uint32_t& channel, uint32_t& pattern) {
    if (kind == "random") {
      const uint64_t r = rng();
      channel = static_cast<uint32_t>(r & 15);
      pattern = static_cast<uint32_t>(r >> 4) & ((1u << k) - 1);
    } else {
      const unsigned w = static_cast<unsigned>(i % 8);
      page = cursor[w] += 1 + w;  // warp w strides 1 + w pages
      channel = static_cast<uint32_t>(i / 8) & 15;  // the line within the page
      pattern = static_cast<uint32_t>(page) & ((1u << k) - 1);
    }
    ++i;
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The strided stream as gpumem explore reads it: a CSV trace (task type 0,
// physical addresses; the line within the page in address bits 8-11, the
// page from bit 12) and a config with those channel bits and K candidate
// bits from bit 12.
void write_explore_input(const std::filesystem::path& dir, unsigned k, unsigned window, uint64_t requests) {
  FILE* cfg = std::fopen((dir / "explore.yaml").c_str(), "w");
  if (!cfg) throw std::runtime_error("cannot write " + (dir / "explore.yaml").string());
  std::fprintf(cfg, "memory: {address_bits: 40, channels: 16, service_cycles: 1, max_outstanding: %u}\n", window);
  std::fprintf(cfg, "translator:\n  channel_bits: [8, 9, 10, 11]\n  candidate_bits: [");
  for (unsigned b = 0; b < k; ++b) std::fprintf(cfg, "%s%u", b ? ", " : "", 12 + b);
  std::fprintf(cfg, "]\n");
  std::fclose(cfg);
  FILE* csv = std::fopen((dir / "strided.csv").c_str(), "w");
  if (!csv) throw std::runtime_error("cannot write " + (dir / "strided.csv").string());
  std::fprintf(csv, "cycle,task_type,op,address,size\n");
  Stream s{"strided", k};
  uint32_t line = 0, pattern = 0;
  for (uint64_t r = 0; r < requests; ++r) {
    s.next(line, pattern);
    std::fprintf(csv, "0,0,R,0x%llx,64\n", static_cast<unsigned long long>(s.page << 12 | uint64_t{line} << 8));
  }
  if (std::fclose(csv) != 0) throw std::runtime_error("cannot write " + (dir / "strided.csv").string());
}

// Seconds `gpumem explore` took on the input above, its output discarded.
double time_explore(const std::string& gpumem, const std::filesystem::path& dir, unsigned threads) {
  const std::string config = (dir / "explore.yaml").string(), trace = (dir / "strided.csv").string();
  const std::string thread_count = std::to_string(threads);
  gpumem::ChildSetup quiet;
  quiet.out = "/dev/null";
  const auto t0 = std::chrono::steady_clock::now();
  const int status = gpumem::run_child({gpumem, "explore", "--config", config, "--trace", trace, "--jobs", thread_count}, quiet);
  const double seconds = seconds_since(t0);
  if (status < 0) throw std::runtime_error("cannot run " + gpumem);
  if (status != 0) throw std::runtime_error(gpumem + " explore failed");
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpumem_bench_explorer: exhaustive one-channel-bit search against the naive loop"};
  uint64_t requests = 10'000'000, slice = 4000;
  unsigned k = 16, window = 64;
  std::vector<std::string> kinds{"strided", "random"};
  gpumem::ChannelBitSearchOptions options;
  app.add_option("--requests", requests, "stream length (default 10 M)");
  app.add_option("--k", k, "candidate bits (default 16)")->check(CLI::Range(1u, 24u));
  app.add_option("--window", window, "window W (default 64)")->check(CLI::Range(1u, 1u << 20));
  app.add_option("--slice", slice, "requests the naive loop scores (default 4000)");
  app.add_option("--threads", options.threads, "worker threads of the search (default 1)")->check(CLI::Range(1u, 256u));
  app.add_option("--held-requests", options.held_requests,
                 "requests the distinct groups held per thread may add up to (default 2 M; 0: no deduplication)");
  app.add_option("--kind", kinds, "strided, random (default both)")->check(CLI::IsMember({"strided", "random"}));
  uint64_t explore_requests = 10'000'000;
  std::string gpumem = GPUMEM_BINARY;
  app.add_option("--explore-requests", explore_requests,
                 "requests of the strided CSV trace gpumem explore runs on end to end (default 10 M; 0: none)");
  app.add_option("--gpumem", gpumem, "the gpumem binary (default: the build's)");
  CLI11_PARSE(app, argc, argv);

  for (const std::string& kind : kinds) {
    Stream s{kind, k};
    const auto t0 = std::chrono::steady_clock::now();
    gpumem::ChannelBitSearch search(16, 0, k, window, options);
    uint32_t c = 0, p = 0;
    for (uint64_t r = 0; r < requests; ++r) {
      s.next(c, p);
      search.add(c, p);
    }
    const std::vector<double> scores = search.scores();
    const double fast = seconds_since(t0);
    size_t best = 0;
    for (size_t a = 1; a < scores.size(); ++a)
      if (scores[a] > scores[best]) best = a;

    Stream again{kind, k};
    std::vector<uint32_t> chans(slice), patterns(slice);
    for (uint64_t r = 0; r < slice; ++r) again.next(chans[r], patterns[r]);
    const auto t1 = std::chrono::steady_clock::now();
    const std::vector<double> naive = gpumem::channel_bit_scores_naive(chans, patterns, 16, 0, k, window);
    const double naive_slice = seconds_since(t1);
    const double projected = naive_slice * static_cast<double>(requests) / static_cast<double>(slice);

    std::printf("%-8s K %u, W %u, %llu requests, %u thread%s: fast %.2f s (best vector 0x%zx scores %.6f bits)\n",
                kind.c_str(), k, window, static_cast<unsigned long long>(requests), options.threads,
                options.threads == 1 ? "" : "s", fast, best, scores[best]);
    std::printf("%-8s naive loop: %.2f s on %llu requests, projected %.0f s on the stream; ratio naive/fast %.0f\n",
                kind.c_str(), naive_slice, static_cast<unsigned long long>(slice), projected, projected / fast);
  }
  if (explore_requests == 0) return 0;

  char dir_template[] = "/tmp/gpumem-bench-explorer-XXXXXX";
  if (!mkdtemp(dir_template)) {
    std::perror("mkdtemp");
    return 1;
  }
  const std::filesystem::path dir = dir_template;
  int rc = 0;
  try {
    write_explore_input(dir, k, window, explore_requests);
    const double one = time_explore(gpumem, dir, 1);
    const double two = time_explore(gpumem, dir, 2);
    std::printf("explore  end to end (gpumem explore --trace: the strided stream as a CSV trace of %llu requests, K %u, W %u, "
                "16 channels, beam 4): 1 thread %.2f s (goal <= 15 s), 2 threads %.2f s\n",
                static_cast<unsigned long long>(explore_requests), k, window, one, two);
    std::printf("ratio_explore_2_threads_to_1: %.2f\n", one / two);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpumem_bench_explorer: %s\n", e.what());
    rc = 1;
  }
  std::filesystem::remove_all(dir);
  return rc;
}
