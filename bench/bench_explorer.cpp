// The explorer's exhaustive search of one channel bit (explorer/xor_search.hpp)
// against the naive loop over every vector, in one run: all 2^K vectors
// scored on the whole stream, the naive loop on a slice of it, its time
// projected to the whole stream (it is linear in the stream), and the ratio.
// Streams are generated as they are consumed, so memory is what the search
// holds. docs/performance.md, "Explorer".
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

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
  void next(uint32_t& channel, uint32_t& pattern) {
    if (kind == "random") {
      const uint64_t r = rng();
      channel = static_cast<uint32_t>(r & 15);
      pattern = static_cast<uint32_t>(r >> 4) & ((1u << k) - 1);
    } else {
      const unsigned w = static_cast<unsigned>(i % 8);
      const uint64_t page = cursor[w] += 1 + w;  // warp w strides 1 + w pages
      channel = static_cast<uint32_t>(i / 8) & 15;  // the line within the page
      pattern = static_cast<uint32_t>(page) & ((1u << k) - 1);
    }
    ++i;
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
  return 0;
}
