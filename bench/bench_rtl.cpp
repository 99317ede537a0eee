// RTL verilated at run time (docs/cosim.md, "Any geometry, and your own
// RTL"), measured in one run:
//   - first-use verilation: the seconds `gpumem cosim` spends checking,
//     verilating and compiling before a run, into an empty cache, for a
//     geometry that is not built in and for a user's RTL of each block; and
//     loading the same library from the cache;
//   - the co-simulation rate of a user's RTL (tests/rtl/) and of the
//     project's RTL verilated at run time, against the built-in RTL of the
//     same geometry (configs/default.yaml), alternating round by round;
//     the user's RTL of none and matrix only (--schemes none,matrix) too;
//   - the project's translator at the largest geometry the config allows
//     (256 channels, 32 candidate bits, 64-bit addresses: the widest
//     combinational matrix check), its rate in transactions and cycles a
//     second beside the default geometry's, verilated at run time both.
//   gpumem_bench_rtl [--transactions N] [--tlb-translations N] [--rounds R] [--seed S]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "config/config.hpp"
#include "cosim_rates.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/tlb/tlb_contract.hpp"
#include "tb/tlb/tlb_cosim.hpp"
#include "tb/translator/translator_contract.hpp"
#include "tb/translator/translator_cosim.hpp"

using namespace gpumem;
using namespace gpumem::bench;
using namespace gpumem::tb;
namespace fs = std::filesystem;

namespace {

const std::string kSource = GPUMEM_SOURCE_DIR;

struct Built {
  LoadedRtl rtl;
  double first_seconds, cached_seconds;
};

// Into the empty cache (the first use), then once more (the cache).
Built build_twice(const RtlBuildRequest& request) {
  const auto t0 = Clock::now();
  Built b{load_rtl(request, nullptr), 0, 0};
  b.first_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!b.rtl.built) {
    std::fprintf(stderr, "the cache was not empty\n");
    std::exit(1);
  }
  const auto t1 = Clock::now();
  b.rtl = load_rtl(request, nullptr);
  b.cached_seconds = std::chrono::duration<double>(Clock::now() - t1).count();
  return b;
}

// One co-simulation into `rate`.
template <typename Cosim, typename Run>
bool timed(Rate& rate, const Config& cfg, uint64_t seed, const LoadedRtl* rtl, const Run& run) {
  const auto t0 = Clock::now();
  Cosim cosim(cfg, seed, {}, rtl);
  if (!cosim.run_random(run)) {
    std::fprintf(stderr, "a co-simulation did not agree (seed %llu)\n", static_cast<unsigned long long>(seed));
    return false;
  }
  rate.add(cosim.transactions(), cosim.cycles(), t0);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t transactions = 3'000'000, translations = 600'000, seed = 1;
  unsigned rounds = 4;
  CLI::App app{"Runtime-verilated RTL: first-use verilation time, and co-simulation rate against the built-in RTL"};
  app.add_option("--transactions", transactions, "translator transactions per variant (default 3000000)");
  app.add_option("--tlb-translations", translations, "TLB translations per variant (default 600000)");
  app.add_option("--rounds", rounds, "rounds the variants alternate over (default 4)")->check(CLI::Range(1u, 100u));
  app.add_option("--seed", seed, "seed of the first round (default 1)");
  CLI11_PARSE(app, argc, argv);

  char cache_template[] = "/tmp/gpumem-bench-rtl-XXXXXX";
  if (!mkdtemp(cache_template)) return 1;
  setenv("GPUMEM_RTL_CACHE", cache_template, 1);
  const Config cfg = load_config(kSource + "/configs/default.yaml");
  const Config eight = load_config(kSource + "/configs/examples/cosim-8-channels.yaml");

  std::printf("first use (check, verilate, compile into an empty cache; then load from the cache):\n");
  auto report = [](const char* what, const Built& b) {
    std::printf("  %-58s %6.1f s   cached %6.3f s\n", what, b.first_seconds, b.cached_seconds);
  };
  const Built eight_translator = build_twice({translator_contract(eight), {}, ""});
  report("translator, 8 channels (project RTL)", eight_translator);
  const Built eight_tlb = build_twice({tlb_contract(eight), {}, ""});
  report("tlb, 128 entries 8 ways (project RTL)", eight_tlb);
  const Built two_stage =
      build_twice({translator_contract(cfg), {kSource + "/tests/rtl/two_stage_translator.sv"}, "two_stage_translator"});
  report("translator, two-stage pipeline (user RTL, default geometry)", two_stage);
  const Built extra_stage = build_twice(
      {tlb_contract(cfg), {kSource + "/tests/rtl/tlb_extra_stage.sv", kSource + "/rtl/gpumem_nested_tlb.sv"}, "tlb_extra_stage"});
  report("tlb, one more response stage (user RTL, default geometry)", extra_stage);
  Built matrix_only =
      build_twice({translator_contract(cfg, parse_scheme_list("none,matrix")), {kSource + "/tests/rtl/matrix_translator.sv"},
                   "matrix_translator"});
  matrix_only.rtl.schemes = "none,matrix";
  report("translator, none and matrix only (user RTL, default geometry)", matrix_only);
  const Config largest = parse_config(
      "memory: {channels: 256, address_bits: 64}\n"
      "mmu: {page_sizes: [65536, 2097152]}\n"
      "translator:\n"
      "  channel_bits: [8, 9, 10, 11, 12, 13, 14, 15]\n"
      "  candidate_bits: [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,\n"
      "                   32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47]\n"
      "  prime: 251\n",
      "largest geometry");
  const Built largest_translator = build_twice({translator_contract(largest), {}, ""});
  report("translator, 256 channels, K 32, 64-bit addresses (project RTL)", largest_translator);
  const Built runtime_translator = build_twice({translator_contract(cfg), {kSource + "/rtl/gpumem_xor_translator.sv"}, ""});
  const Built runtime_tlb = build_twice({tlb_contract(cfg), {kSource + "/rtl/gpumem_nested_tlb.sv"}, ""});

  // Translator: built-in, the project's RTL verilated at run time, the user's.
  TranslatorRandomRun run;
  run.transactions = transactions / rounds;
  Rate builtin, runtime, user, user_matrix, widest;
  for (unsigned r = 0; r < rounds; ++r) {
    Rate* order[5] = {&builtin, &runtime, &user, &user_matrix, &widest};
    for (unsigned k = 0; k < 5; ++k) {  // each variant first in turn
      Rate* which = order[(k + r) % 5];
      const LoadedRtl* rtl = which == &builtin       ? nullptr
                             : which == &runtime     ? &runtime_translator.rtl
                             : which == &user        ? &two_stage.rtl
                             : which == &user_matrix ? &matrix_only.rtl
                                                     : &largest_translator.rtl;
      if (!timed<TranslatorCosim>(*which, which == &widest ? largest : cfg, seed + r, rtl, run)) return 1;
    }
  }
  std::printf("\ntranslator (configs/default.yaml, %llu transactions each, %u rounds):\n",
              static_cast<unsigned long long>(transactions), rounds);
  std::printf("  built-in RTL                       %6.2f M transactions/s\n", builtin.per_second() / 1e6);
  std::printf("  project RTL verilated at run time  %6.2f M transactions/s\n", runtime.per_second() / 1e6);
  std::printf("  user RTL (two-stage pipeline)      %6.2f M transactions/s\n", user.per_second() / 1e6);
  std::printf("  user RTL (none and matrix only)    %6.2f M transactions/s\n", user_matrix.per_second() / 1e6);
  std::printf("  ratio_runtime_to_builtin: %.3f\n", runtime.per_second() / builtin.per_second());
  std::printf("  ratio_user_to_builtin: %.3f\n", user.per_second() / builtin.per_second());
  std::printf("  ratio_user_matrix_to_builtin: %.3f\n", user_matrix.per_second() / builtin.per_second());
  std::printf("\ntranslator, project RTL verilated at run time, %llu transactions each:\n",
              static_cast<unsigned long long>(transactions));
  std::printf("  configs/default.yaml (16 channels, K 8, 40-bit)     %6.2f M transactions/s, %6.2f M cycles/s\n",
              runtime.per_second() / 1e6, runtime.cycles_per_second() / 1e6);
  std::printf("  largest geometry (256 channels, K 32, 64-bit)      %6.2f M transactions/s, %6.2f M cycles/s\n",
              widest.per_second() / 1e6, widest.cycles_per_second() / 1e6);
  std::printf("  ratio_largest_to_default: %.3f\n", widest.per_second() / runtime.per_second());

  TlbRandomRun tlb_run;
  tlb_run.transactions = translations / rounds;
  Rate tlb_builtin, tlb_runtime, tlb_user;
  for (unsigned r = 0; r < rounds; ++r) {
    Rate* order[3] = {&tlb_builtin, &tlb_runtime, &tlb_user};
    for (unsigned k = 0; k < 3; ++k) {
      Rate* which = order[(k + r) % 3];
      const LoadedRtl* rtl = which == &tlb_builtin ? nullptr : which == &tlb_runtime ? &runtime_tlb.rtl : &extra_stage.rtl;
      if (!timed<TlbCosim>(*which, cfg, seed + r, rtl, tlb_run)) return 1;
    }
  }
  std::printf("\ntlb (configs/default.yaml, %llu translations each, %u rounds):\n",
              static_cast<unsigned long long>(translations), rounds);
  std::printf("  built-in RTL                       %6.2f M translations/s\n", tlb_builtin.per_second() / 1e6);
  std::printf("  project RTL verilated at run time  %6.2f M translations/s\n", tlb_runtime.per_second() / 1e6);
  std::printf("  user RTL (one more response stage) %6.2f M translations/s\n", tlb_user.per_second() / 1e6);
  std::printf("  ratio_runtime_to_builtin: %.3f\n", tlb_runtime.per_second() / tlb_builtin.per_second());
  std::printf("  ratio_user_to_builtin: %.3f\n", tlb_user.per_second() / tlb_builtin.per_second());

  std::error_code ec;
  fs::remove_all(cache_template, ec);
  return 0;
}
